// Standby replicas on a real broker (num.standby.replicas=1): two instances of a count
// application (one stateful task, a persistent store with a changelog), in child processes. The
// high-availability assignor puts the task's standby on the instance without the active; the
// standby follows the changelog and checkpoints. The active's instance is SIGKILLed once it has
// committed everything; after the session timeout (6 s) the survivor takes the task as active and
// restores only the changelog's tail from its standby's checkpoint — not the whole changelog — and
// then counts on from exactly where the killed instance stopped.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import type { Backend } from '../../src/api.js';
import { encode, readAll } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend } from './kafka-fixtures.js';
import { STANDBY_APP_ID, STANDBY_COUNTS, STANDBY_WORDS } from './standby-topology.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const CHILD = fileURLToPath(new URL('./standby-child.ts', import.meta.url));

interface ChildTask {
  taskId: string;
  state: string;
  standby: boolean;
  standbyLag: number | null;
  restoredRecords: number;
}
interface ChildReport {
  state: string;
  tasks: ChildTask[];
  updateTotal: number;
}

function startChild(stateDir: string, standbys: number) {
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      TSX,
      CHILD,
      inject('kafkaBootstrapServers'),
      stateDir,
      String(standbys),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let last: ChildReport | null = null;
  let buffered = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.startsWith('{"state"')) last = JSON.parse(line);
  });
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-6000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const task = (): ChildTask | undefined => last?.tasks.find((t) => t.taskId === '0_0');
  return { child, last: () => last, task, stderr: () => stderr, exited };
}

const KEYS = 10_000;

async function produceRound(backend: Backend, round: number, expected: Map<string, number>) {
  const records = Array.from({ length: KEYS }, (_, i) => ({
    topic: STANDBY_WORDS,
    key: encode('string', `k${i}`),
    value: encode('string', `r${round}`),
  }));
  await backend.produce(records, { positions: false });
  for (let i = 0; i < KEYS; i++) expected.set(`k${i}`, (expected.get(`k${i}`) ?? 0) + 1);
}

async function changelogEnd(backend: Backend): Promise<number> {
  const desc = await backend.describeTopic(`${STANDBY_APP_ID}-counts-store-changelog`);
  return desc?.offsets[0]?.latest ?? 0;
}

async function committedAll(backend: Backend): Promise<boolean> {
  const end = (await backend.describeTopic(STANDBY_WORDS))?.offsets[0]?.latest ?? -1;
  const committed = await backend.committedOffsets(STANDBY_APP_ID, [
    { topic: STANDBY_WORDS, partition: 0 },
  ]);
  return committed.get(`${STANDBY_WORDS}:0`) === end;
}

describe('standby replicas on Kafka (num.standby.replicas=1)', () => {
  it('fails over to the standby, which restores only the changelog tail', async () => {
    const backend = await kafkaBackend();
    onTestFinished(() => backend.close());
    await backend.createTopics([
      { name: STANDBY_WORDS, partitions: 1 },
      { name: STANDBY_COUNTS, partitions: 1 },
    ]);
    const expected = new Map<string, number>();

    // Instance A alone: it runs the task and counts 2 rounds of 10,000 keys (the store writes
    // each key's latest count per commit: at least 10,000 changelog records).
    const a = startChild(tempStateDir(), 1);
    await waitFor(
      () => a.task()?.state === 'RUNNING' && !a.task()!.standby,
      90_000,
      `instance A running task 0_0 (${a.stderr()})`,
    );
    for (let round = 0; round < 2; round++) await produceRound(backend, round, expected);
    await waitFor(() => committedAll(backend), 90_000, 'A committed all input');
    const fullChangelog = await changelogEnd(backend);
    expect(fullChangelog).toBeGreaterThanOrEqual(KEYS);

    // Instance B joins: the task stays on A (caught up there), B gets its standby.
    const b = startChild(tempStateDir(), 1);
    await waitFor(
      () =>
        b.task()?.standby === true && b.task()?.state === 'RUNNING' && b.task()?.standbyLag === 0,
      90_000,
      `a caught-up standby of 0_0 on B (${b.stderr()})`,
    );
    expect(a.task()?.standby).toBe(false);
    expect(b.last()!.updateTotal).toBeGreaterThanOrEqual(fullChangelog);

    // More input while both run; A processes and commits it, B's standby follows.
    await produceRound(backend, 2, expected);
    await waitFor(() => committedAll(backend), 60_000, 'A committed the last round');
    await waitFor(() => b.task()?.standbyLag === 0, 60_000, 'the standby caught up again');
    // Let B's commit interval (500 ms) checkpoint the standby's position.
    await new Promise((r) => setTimeout(r, 1_500));
    const beforeKill = await changelogEnd(backend);

    a.child.kill('SIGKILL');
    await a.exited;
    const killedAt = Date.now();
    // After A's session times out (6 s) B is the only member: it takes the task as active.
    await waitFor(
      () => b.task()?.state === 'RUNNING' && !b.task()!.standby,
      90_000,
      `B running 0_0 as active after the kill (${b.stderr()})`,
    );
    const restored = b.task()!.restoredRecords;
    // Only the tail: what the standby had not checkpointed (nothing here, or a few records),
    // never the whole changelog (over 10,000 records) as an instance without its state would.
    expect(restored).toBeLessThan(KEYS / 10);
    expect(beforeKill).toBeGreaterThan(fullChangelog);

    // B counts on from where A stopped: every key's final count is exact.
    await produceRound(backend, 3, expected);
    await waitFor(
      async () => {
        const latest = new Map<unknown, unknown>();
        for (const r of await readAll(backend, STANDBY_COUNTS, 'string', 'long'))
          latest.set(r.key, r.value);
        return [...expected].every(([k, n]) => latest.get(k) === n);
      },
      90_000,
      'every key counted 4 times',
    );
    console.log(
      `standby failover: changelog ${beforeKill} records, restored ${restored} after the kill; ` +
        `B active ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill (incl. the count check)`,
    );
  });
});
