// Standby replicas on a real broker (num.standby.replicas=1): two instances of a count
// application (one stateful task, a persistent store with a changelog), in child processes. The
// high-availability assignor keeps the task on the instance whose state is caught up and puts its
// standby on the other; the standby follows the changelog and checkpoints. The active's instance
// is SIGKILLed once it has committed everything; after the session timeout (6 s) the survivor
// takes the task as active and restores only the changelog's tail from its standby's checkpoint —
// not the whole changelog — and then counts on from exactly where the killed instance stopped.
//
// Two things are pinned so that the assignment is the same on every run (it once depended on
// timing and on two random UUIDs — the first version of this test failed in CI that way):
// - The changelog holds more than acceptable.recovery.lag (10,000) records when B joins. Kafka
//   Streams counts an instance within that lag as caught up, even one with no state at all, and
//   its assignor spreads actives round robin over the instances in process-id order before it
//   moves them to caught-up instances: with a changelog of exactly 10,000 records (A's cache
//   collapsing both rounds into one commit) an empty B that sorts first is handed the active and
//   A the standby — Kafka Streams 4.1's own HighAvailabilityTaskAssignor does the same
//   (test/assignment/high-availability-assignor.test.ts has that case next to it). So A commits
//   round 0 before round 1 is sent: every key's count reaches the changelog twice.
// - The process ids (kafka-streams-process-metadata in each state dir): B sorts first, so the
//   round robin targets B and the assignor must move the active back to A, swapping it with A's
//   standby — the state-aware path of the assignor, on every run.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import type { Backend } from '../../src/backend-spi.js';
import { encode, readAll } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend } from './kafka-fixtures.js';
import { pinProcessId, STANDBY_APP_ID, STANDBY_COUNTS, STANDBY_WORDS } from './standby-topology.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const CHILD = fileURLToPath(new URL('./standby-child.ts', import.meta.url));

interface ChildTask {
  taskId: string;
  state: string;
  standby: boolean;
  standbyLag: number | null;
  restoredRecords: number;
}
/** The group leader's INFO line 'assigned tasks to instances (high availability)'. */
interface AssignmentLog {
  instances: number;
  probingRebalance: string | null;
  assignment: Record<string, { active: string[]; standby: string[] }>;
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
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-12_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const task = (): ChildTask | undefined => last?.tasks.find((t) => t.taskId === '0_0');
  // For failure messages: the child's last report and log, as they are when the wait gives up.
  const describe = () => `last report ${JSON.stringify(last)}; log:\n${stderr}`;
  return { child, last: () => last, task, describe, log: () => stderr, exited };
}

// Java's UUID#compareTo (signed most significant bits), as the assignor orders instances: B first.
const PROCESS_A = '20000000-0000-4000-8000-00000000000a';
const PROCESS_B = '10000000-0000-4000-8000-00000000000b';
/** acceptable.recovery.lag's default: a lag this small counts as caught up. */
const ACCEPTABLE_RECOVERY_LAG = 10_000;

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

    // Instance A alone: it runs the task and counts 2 rounds of 10,000 keys, committing the first
    // before the second is sent (so each key's count is in the changelog twice: 20,000 records,
    // more than acceptable.recovery.lag, however the commits fall).
    const a = startChild(pinProcessId(tempStateDir(), PROCESS_A), 1);
    await waitFor(
      () => a.task()?.state === 'RUNNING' && !a.task()!.standby,
      90_000,
      () => `instance A running task 0_0 (${a.describe()})`,
    );
    for (let round = 0; round < 2; round++) {
      await produceRound(backend, round, expected);
      await waitFor(
        () => committedAll(backend),
        90_000,
        () => `A committed round ${round}`,
      );
    }
    const fullChangelog = await changelogEnd(backend);
    expect(fullChangelog).toBeGreaterThanOrEqual(2 * KEYS);
    expect(fullChangelog).toBeGreaterThan(ACCEPTABLE_RECOVERY_LAG);

    // Instance B joins: the task stays on A (caught up there), B gets its standby.
    const b = startChild(pinProcessId(tempStateDir(), PROCESS_B), 1);
    await waitFor(
      () =>
        b.task()?.standby === true && b.task()?.state === 'RUNNING' && b.task()?.standbyLag === 0,
      90_000,
      () => `a caught-up standby of 0_0 on B (B: ${b.describe()}\nA: ${a.describe()})`,
    );
    expect(a.task()?.standby).toBe(false);
    expect(b.last()!.updateTotal).toBeGreaterThanOrEqual(fullChangelog);
    // A leads the group: its log has the assignment, made by moving the active back from B (the
    // round robin's target, not caught up) to A, which is why a probing rebalance is scheduled.
    const assigned = a
      .log()
      .split('\n')
      .filter((l) => l.includes('assigned tasks to instances'))
      .map((l) => JSON.parse(l.slice(l.indexOf('{'))) as AssignmentLog)
      .find((l) => l.instances === 2);
    expect(assigned?.assignment).toEqual({
      [PROCESS_A]: { active: ['0_0'], standby: [] },
      [PROCESS_B]: { active: [], standby: ['0_0'] },
    });
    expect(assigned?.probingRebalance).not.toBeNull();

    // More input while both run; A processes and commits it, B's standby follows: it has applied
    // every changelog record up to the end (B's standby started at offset 0 of a fresh changelog,
    // so the records it applied are its position).
    await produceRound(backend, 2, expected);
    await waitFor(
      () => committedAll(backend),
      90_000,
      () => `A committed round 2 (${a.describe()})`,
    );
    const beforeKill = await changelogEnd(backend);
    expect(beforeKill).toBeGreaterThan(fullChangelog);
    await waitFor(
      () => b.task()?.standbyLag === 0 && b.last()!.updateTotal >= beforeKill,
      90_000,
      () => `B's standby applying the changelog up to ${beforeKill} (B: ${b.describe()})`,
    );

    a.child.kill('SIGKILL');
    await a.exited;
    const killedAt = Date.now();
    // After A's session times out (6 s) B is the only member: it takes the task as active.
    await waitFor(
      () => b.task()?.state === 'RUNNING' && !b.task()!.standby,
      90_000,
      () => `B running 0_0 as active after the kill (${b.describe()})`,
    );
    const restored = b.task()!.restoredRecords;
    // Only the tail: what the standby had not checkpointed (nothing here, or a few records),
    // never the whole changelog (over 10,000 records) as an instance without its state would.
    expect(restored).toBeLessThan(KEYS / 10);

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
      () => `every key counted 4 times (B: ${b.describe()})`,
    );
    console.log(
      `standby failover: changelog ${beforeKill} records, restored ${restored} after the kill; ` +
        `B active ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill (incl. the count check)`,
    );
  });
});
