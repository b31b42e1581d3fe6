// Scale-out under steady input (issue 22's must-show), shared by the test in `npm test`
// (cooperative-scale-out.test.ts, small) and the full-size script (scripts/scale-out.mjs →
// scale-out-main.ts): instances of a count application join and leave one at a time — 1 → 2 → 3
// → 2 — while a producer writes to every input partition every few milliseconds. Each instance
// (a child process, scale-out-child.ts) reports every 20 ms each active task's process-total, so
// the run knows, per task, when it last made progress and on which instance. For each step (an
// instance starting or stopping, until the assignment has settled) it reports the tasks that
// stayed on their instance and those that moved, and each one's longest processing gap: the
// longest time between two reports in which the task processed records, from the last progress
// before the step to the first after it settled. At the end every key's count is checked
// against what was produced (at least once: never less, the excess being records processed
// twice).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AppConfig } from '@streamwright/topology-model';
import type { Backend } from '../../src/backend-spi.js';
import { encode, readAll } from '../fixtures/records.js';
import { waitFor } from '../fixtures/wait.js';
import type { ScaleOutAppOptions } from './scale-out-topology.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const CHILD = fileURLToPath(new URL('./scale-out-child.ts', import.meta.url));

interface Report {
  at: number;
  state: string;
  active: Record<string, number>;
  standby: string[];
  restored: Record<string, number>;
}

interface Instance {
  name: string;
  reports: Report[];
  last(): Report | null;
  log(): string;
  stop(): Promise<void>;
  kill(): void;
  exited: Promise<void>;
}

function startInstance(
  name: string,
  bootstrap: string,
  stateDir: string,
  options: ScaleOutAppOptions,
): Instance {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', TSX, CHILD, bootstrap, stateDir, JSON.stringify(options)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const reports: Report[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.startsWith('{"at"')) reports.push(JSON.parse(line));
  });
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    reports,
    last: () => reports[reports.length - 1] ?? null,
    log: () => stderr,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface ScaleOutOptions {
  bootstrap: string;
  backend: Backend;
  /** A fresh state dir per instance. */
  stateDir: () => string;
  /** Input partitions (= tasks). */
  partitions: number;
  /** Distinct keys per partition. */
  keysPerPartition: number;
  /** Records written to each partition per producer tick (every tickMs). */
  recordsPerTick: number;
  tickMs: number;
  /** Keys written before the first instance starts (state to restore / warm up). */
  preloadPerPartition: number;
  /** How long the assignment must stay the same (every task running once) to count as settled. */
  settleMs: number;
  config: AppConfig;
  log: (line: string) => void;
  /** Unique names for the run's application and topics. */
  runId: string;
}

export interface TaskStep {
  taskId: string;
  from: string | null;
  to: string | null;
  /** Another instance runs it after the step. */
  moved: boolean;
  /** It stayed on its instance but was closed and reopened there (eager's revoke-everything). */
  interrupted: boolean;
  gapMs: number;
  restored: number;
}

export interface StepResult {
  step: string;
  /** From the instance's start (or stop) to the settled assignment. */
  settledMs: number;
  tasks: TaskStep[];
  maxGapUnmovedMs: number;
  maxGapMovedMs: number;
}

export interface ScaleOutResult {
  steps: StepResult[];
  produced: number;
  lostRecords: number;
  duplicatedRecords: number;
}

const ownerAt = (instances: Instance[], taskId: string, at: number): string | null => {
  for (const i of instances) {
    let report: Report | null = null;
    for (const r of i.reports) {
      if (r.at > at) break;
      report = r;
    }
    if (report && report.active[taskId] !== undefined && report.at > at - 1_000) return i.name;
  }
  return null;
};

/** The times at which the task processed records, on any instance (sorted). */
function progressTimes(instances: Instance[], taskId: string): number[] {
  const out: number[] = [];
  for (const i of instances) {
    let previous: number | undefined;
    for (const r of i.reports) {
      const n = r.active[taskId];
      if (n !== undefined && previous !== undefined && n > previous) out.push(r.at);
      previous = n;
    }
  }
  return out.sort((a, b) => a - b);
}

export async function runScaleOut(o: ScaleOutOptions): Promise<ScaleOutResult> {
  const { backend, partitions, runId } = o;
  const app: ScaleOutAppOptions = {
    applicationId: `scale-out-${runId}`,
    words: `scale-words-${runId}`,
    counts: `scale-counts-${runId}`,
    partitions,
    config: o.config,
  };
  await backend.createTopics([
    { name: app.words, partitions },
    { name: app.counts, partitions: 1 },
  ]);
  const taskIds = Array.from({ length: partitions }, (_, p) => `0_${p}`);
  const produced = new Map<string, number>();
  let sequence = 0;
  const write = async (perPartition: number) => {
    const records = [];
    for (let p = 0; p < partitions; p++)
      for (let i = 0; i < perPartition; i++) {
        const key = `k${p}-${(sequence + i) % o.keysPerPartition}`;
        produced.set(key, (produced.get(key) ?? 0) + 1);
        records.push({
          topic: app.words,
          partition: p,
          key: encode('string', key),
          value: encode('string', 'x'),
        });
      }
    sequence += perPartition;
    for (let i = 0; i < records.length; i += 20_000)
      await backend.produce(records.slice(i, i + 20_000), { positions: false });
  };
  for (let done = 0; done < o.preloadPerPartition; done += 10_000)
    await write(Math.min(10_000, o.preloadPerPartition - done));

  let producing = true;
  const producer = (async () => {
    while (producing) {
      const started = Date.now();
      await write(o.recordsPerTick);
      await new Promise((r) => setTimeout(r, Math.max(0, o.tickMs - (Date.now() - started))));
    }
  })();

  const all: Instance[] = [];
  const live: Instance[] = [];
  const describe = () =>
    live.map((i) => `${i.name}: ${JSON.stringify(i.last())}\n${i.log().slice(-4_000)}`).join('\n');
  /** Every task active exactly once over the live instances, all RUNNING, unchanged for settleMs. */
  const settled = async (since: number): Promise<number> => {
    let stableSince = 0;
    let lastKey = '';
    return waitFor(
      () => {
        const owners = new Map<string, string>();
        for (const i of live) {
          const r = i.last();
          if (!r || r.state !== 'RUNNING' || r.at < Date.now() - 1_000) return false;
          for (const t of Object.keys(r.active)) {
            if (owners.has(t)) return false;
            owners.set(t, i.name);
          }
        }
        if (owners.size !== partitions) {
          stableSince = 0;
          return false;
        }
        const key = JSON.stringify([...owners].sort());
        if (key !== lastKey) {
          lastKey = key;
          stableSince = Date.now();
        }
        return Date.now() - stableSince >= o.settleMs && Math.max(1, stableSince - since);
      },
      240_000,
      () => `a settled assignment (${describe()})`,
    );
  };

  const steps: StepResult[] = [];
  const step = async (name: string, change: () => Promise<void>) => {
    const startedAt = Date.now();
    await change();
    const settledMs = await settled(startedAt);
    const settledAt = startedAt + settledMs;
    const tasks: TaskStep[] = taskIds.map((taskId) => {
      const from = ownerAt(all, taskId, startedAt);
      const to = ownerAt(all, taskId, settledAt);
      const moved = from !== to;
      const times = progressTimes(all, taskId);
      const before = times.filter((t) => t <= startedAt).pop() ?? startedAt;
      const after = times.find((t) => t >= settledAt) ?? settledAt;
      const window = [before, ...times.filter((t) => t > before && t < after), after];
      let gapMs = 0;
      for (let k = 1; k < window.length; k++) gapMs = Math.max(gapMs, window[k]! - window[k - 1]!);
      const owner = all.find((i) => i.name === to);
      // Left its instance's running tasks in between (revoked), even if it came back.
      const interrupted =
        !moved &&
        owner !== undefined &&
        owner.reports.some(
          (r) => r.at >= startedAt && r.at <= settledAt && r.active[taskId] === undefined,
        );
      const restored =
        owner?.reports.find((r) => r.at >= startedAt && r.restored[taskId] !== undefined)?.restored[
          taskId
        ] ?? 0;
      return { taskId, from, to, moved, interrupted, gapMs, restored: moved ? restored : 0 };
    });
    const max = (xs: TaskStep[]) => xs.reduce((m, t) => Math.max(m, t.gapMs), 0);
    const result = {
      step: name,
      settledMs,
      tasks,
      maxGapUnmovedMs: max(tasks.filter((t) => !t.moved)),
      maxGapMovedMs: max(tasks.filter((t) => t.moved)),
    };
    o.log(
      `${name}: settled after ${settledMs} ms; unmoved ${tasks.filter((t) => !t.moved).length} ` +
        `(longest gap ${result.maxGapUnmovedMs} ms), moved ${tasks.filter((t) => t.moved).length} ` +
        `(longest gap ${result.maxGapMovedMs} ms): ` +
        tasks
          .map(
            (t) =>
              `${t.taskId} ${t.from}→${t.to}${t.interrupted ? ' (closed and reopened)' : ''} ` +
              `${t.gapMs} ms${t.moved ? ` restored ${t.restored}` : ''}`,
          )
          .join(', '),
    );
    steps.push(result);
  };
  const add = async (name: string) => {
    const i = startInstance(name, o.bootstrap, o.stateDir(), app);
    all.push(i);
    live.push(i);
  };

  try {
    // The first instance alone takes every task (not a measured step: nothing runs before it).
    await add('A');
    await settled(Date.now());
    await new Promise((r) => setTimeout(r, o.settleMs));
    await step('1→2 (B joins)', () => add('B'));
    await step('2→3 (C joins)', () => add('C'));
    await step('3→2 (A stops)', async () => {
      const a = live.shift()!;
      await a.stop();
    });
    producing = false;
    await producer;
    // Every record processed and committed, then the counts checked.
    const ends = (await backend.describeTopic(app.words))!.offsets;
    await waitFor(
      async () => {
        const committed = await backend.committedOffsets(
          app.applicationId,
          ends.map((e) => ({ topic: app.words, partition: e.partition })),
        );
        return ends.every((e) => committed.get(`${app.words}:${e.partition}`) === e.latest);
      },
      240_000,
      () => `every input record committed (${describe()})`,
    );
    const latest = new Map<unknown, number>();
    for (const r of await readAll(backend, app.counts, 'string', 'long'))
      latest.set(r.key, Number(r.value));
    let lostRecords = 0;
    let duplicatedRecords = 0;
    let total = 0;
    for (const [key, n] of produced) {
      total += n;
      const counted = latest.get(key) ?? 0;
      if (counted < n) lostRecords += n - counted;
      else duplicatedRecords += counted - n;
    }
    return { steps, produced: total, lostRecords, duplicatedRecords };
  } finally {
    producing = false;
    await producer.catch(() => {});
    for (const i of all) i.kill();
    await Promise.all(all.map((i) => i.exited));
  }
}
