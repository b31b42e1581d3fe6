// The kill test (issue 5's "must show"): a child process runs a stateful topology (count + sink)
// on the embedded log and is SIGKILLed at random moments, then restarted; at the end the
// read_committed output must equal the expected per-partition sequence (exactly_once_v2: no loss,
// no duplicate) or contain it (at_least_once: no loss), and the store must hold the right counts.
// After every kill the parent reopens the log (recovery aborts the dead child's open transaction)
// and checks that the committed output so far is a prefix of the expected sequence.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createEmbeddedBackend, type EmbeddedBackend } from '../../src/backends/embedded/index.js';
import { getSerde } from '../../src/serdes/index.js';
import { PARTITIONS } from './kill-topology.js';

export type Guarantee = 'at_least_once' | 'exactly_once_v2';

export interface KillTestOptions {
  dir: string;
  guarantee: Guarantee;
  records: number;
  keys: number;
  kills: number;
  /**
   * Keep killing past `kills` (within the same bound on runs) until this many kills found a
   * transaction open: where kills land is random, and on a loaded machine ten of them can all
   * miss the transactions, which would leave the recovery path the test is about unexercised.
   */
  minKillsWithOpenTransaction?: number;
  /** Each kill comes a random 0..maxKillDelayMs after the child reports STARTED. */
  maxKillDelayMs: number;
  /** Persistent (lmdb) stores in `<dir>/state` instead of in-memory ones. */
  persistentStores?: boolean;
  /** Delete the state dir before the final run: the stores are rebuilt from the changelogs. */
  wipeStateBeforeFinal?: boolean;
  /** Ceiling for the final, unkilled run. */
  finishTimeoutMs: number;
  log?: (line: string) => void;
}

export interface KillTestReport {
  guarantee: Guarantee;
  records: number;
  kills: number;
  /** Kills after which the reopened log had to abort records of an open transaction. */
  killsWithOpenTransaction: number;
  /** Output records of aborted transactions (written, never visible to read_committed). */
  abortedOutputRecords: number;
  outputRecords: number;
  /** exactly_once_v2: output equals the expected sequence per partition; at_least_once: contains it. */
  outputCorrect: boolean;
  duplicates: number;
  missing: number;
  storeCorrect: boolean;
  millis: number;
  problems: string[];
}

const CHILD = fileURLToPath(new URL('./kill-child.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const stringSerde = getSerde('string');
const longSerde = getSerde('long');

type Output = [string, number][];

async function readOutput(
  backend: EmbeddedBackend,
  isolationLevel: 'read_committed' | 'read_uncommitted',
): Promise<Output[]> {
  const desc = await backend.describeTopic('counts');
  const out: Output[] = Array.from({ length: PARTITIONS }, () => []);
  if (!desc) return out;
  for (const o of desc.offsets) {
    let offset = o.earliest;
    for (;;) {
      const batch = await backend.fetch(
        { topic: 'counts', partition: o.partition },
        offset,
        50_000,
        0,
        { isolationLevel },
      );
      if (batch.length === 0) break;
      for (const r of batch)
        out[o.partition]!.push([
          stringSerde.deserialize(r.key) as string,
          Number(longSerde.deserialize(r.value)),
        ]);
      offset = batch[batch.length - 1]!.offset + 1;
    }
  }
  return out;
}

function runChild(
  dir: string,
  guarantee: Guarantee,
  stores: 'lmdb' | 'memory',
  killAfterStart: number | null,
  timeoutMs: number,
  killFrom: 'STARTED' | 'RUNNING' = 'STARTED',
): Promise<{ done: boolean; killed: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CHILD, dir, guarantee, stores], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
      reject(new Error(`kill-child did not finish in ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      const before = stdout;
      stdout += chunk.toString();
      if (killAfterStart !== null && !before.includes(killFrom) && stdout.includes(killFrom)) {
        setTimeout(() => {
          killed = true;
          child.kill('SIGKILL');
        }, killAfterStart);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const done = stdout.includes('DONE');
      if (signal !== 'SIGKILL' && code !== 0)
        reject(new Error(`kill-child exited with ${code}; stderr: ${stderr}`));
      else resolve({ done, killed: killed && signal === 'SIGKILL', stderr });
    });
  });
}

export async function runKillTest(o: KillTestOptions): Promise<KillTestReport> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const problems: string[] = [];
  const stores = o.persistentStores ? 'lmdb' : 'memory';
  mkdirSync(o.dir, { recursive: true });

  // The input, and per partition the running counts exactly-once must emit, in input order.
  const expected: Output[] = Array.from({ length: PARTITIONS }, () => []);
  const finalCounts = new Map<string, number>();
  const value = stringSerde.serialize('x');
  let produced = 0;
  const produceInput = async (backend: EmbeddedBackend, records: number): Promise<void> => {
    const end = produced + records;
    for (let from = produced; from < end; from += 10_000) {
      const keys = Array.from(
        { length: Math.min(10_000, end - from) },
        (_, i) => `k${(from + i) % o.keys}`,
      );
      const acks = await backend.produce(
        keys.map((k, i) => ({
          topic: 'words',
          key: stringSerde.serialize(k),
          value,
          timestamp: from + i,
        })),
      );
      acks.forEach((ack, i) => {
        const k = keys[i]!;
        const n = (finalCounts.get(k) ?? 0) + 1;
        finalCounts.set(k, n);
        expected[ack.partition]!.push([k, n]);
      });
    }
    produced = end;
  };
  {
    const backend = await createEmbeddedBackend({ dataDir: join(o.dir, 'log') });
    await backend.createTopics([{ name: 'words', partitions: PARTITIONS }]);
    await produceInput(backend, o.records);
    await backend.close();
  }

  let kills = 0;
  let killsWithOpenTransaction = 0;
  let aborted = 0;
  // A child that finishes its input before the kill gets more input and another run (bounded),
  // so the test makes its kills however fast the machine processes. The top-up doubles each time
  // a run finishes first: on a fast, quiet machine a fixed one was processed within the kill
  // delay run after run, and 30 runs made only 8 kills.
  let topUp = Math.ceil(o.records / o.kills);
  const enoughKills = () =>
    kills >= o.kills && killsWithOpenTransaction >= (o.minKillsWithOpenTransaction ?? 0);
  for (let i = 0; !enoughKills() && i < o.kills * 3; i++) {
    const delay = Math.floor(Math.random() * o.maxKillDelayMs);
    // Every other kill is timed from the moment all tasks run (so it lands mid-processing, and
    // under exactly_once_v2 mostly inside a transaction, however slow start-up is on a loaded
    // machine); the rest from start(), so kills also land during recovery and restore.
    const killFrom = i % 2 === 1 ? 'RUNNING' : 'STARTED';
    const run = await runChild(o.dir, o.guarantee, stores, delay, o.finishTimeoutMs, killFrom);
    if (run.killed) kills++;
    // Reopening recovers the log: the dead child's open transaction is aborted here.
    const backend = await createEmbeddedBackend({ dataDir: join(o.dir, 'log') });
    try {
      const committed = await readOutput(backend, 'read_committed');
      const uncommitted = await readOutput(backend, 'read_uncommitted');
      const abortedNow =
        uncommitted.reduce((n, p) => n + p.length, 0) - committed.reduce((n, p) => n + p.length, 0);
      if (abortedNow > aborted) killsWithOpenTransaction++;
      aborted = abortedNow;
      if (o.guarantee === 'exactly_once_v2') {
        committed.forEach((p, partition) => {
          const prefix = expected[partition]!.slice(0, p.length);
          if (JSON.stringify(p) !== JSON.stringify(prefix))
            problems.push(
              `after run ${i + 1}: committed output of partition ${partition} is not a prefix of the expected sequence`,
            );
        });
      }
      if (run.done) {
        await produceInput(backend, topUp);
        topUp = Math.min(topUp * 2, o.records);
      }
      log(
        `run ${i + 1} (kills ${kills}/${o.kills}) ${delay} ms after ${killFrom}${run.killed ? '' : ' (finished before the kill)'}: committed output ${committed.map((p) => p.length).join('+')}, aborted so far ${abortedNow}`,
      );
    } finally {
      await backend.close();
    }
  }

  if (o.wipeStateBeforeFinal) rmSync(join(o.dir, 'state'), { recursive: true, force: true });
  const last = await runChild(o.dir, o.guarantee, stores, null, o.finishTimeoutMs);
  if (!last.done) problems.push('the final run did not finish');
  const backend = await createEmbeddedBackend({ dataDir: join(o.dir, 'log') });
  let outputCorrect = true;
  let duplicates = 0;
  let missing = 0;
  let outputRecords = 0;
  try {
    const committed = await readOutput(backend, 'read_committed');
    committed.forEach((p, partition) => {
      outputRecords += p.length;
      const want = expected[partition]!;
      if (o.guarantee === 'exactly_once_v2') {
        if (JSON.stringify(p) !== JSON.stringify(want)) {
          outputCorrect = false;
          const index = p.findIndex((r, j) => r[0] !== want[j]?.[0] || r[1] !== want[j]?.[1]);
          problems.push(
            `partition ${partition}: ${p.length} records, expected ${want.length}; first difference at ${index}`,
          );
        }
      }
      const seen = new Set(p.map(([k, n]) => `${k}\u0000${n}`));
      for (const [k, n] of want) if (!seen.has(`${k}\u0000${n}`)) missing++;
      duplicates += p.length - seen.size;
    });
    if (missing > 0) {
      outputCorrect = false;
      problems.push(`${missing} expected counts missing from the output`);
    }
  } finally {
    await backend.close();
  }

  const store = new Map(
    JSON.parse(readFileSync(join(o.dir, 'store.json'), 'utf8')) as [string, number][],
  );
  let storeCorrect = store.size === finalCounts.size;
  for (const [k, n] of finalCounts) {
    const got = Number(store.get(k));
    // at_least_once may count a reprocessed record twice (Kafka Streams' documented behaviour).
    if (o.guarantee === 'exactly_once_v2' ? got !== n : !(got >= n)) storeCorrect = false;
  }
  if (!storeCorrect) problems.push('final store contents differ from the expected counts');

  return {
    guarantee: o.guarantee,
    records: produced,
    kills,
    killsWithOpenTransaction,
    abortedOutputRecords: aborted,
    outputRecords,
    outputCorrect,
    duplicates,
    missing,
    storeCorrect,
    millis: Date.now() - started,
    problems,
  };
}
