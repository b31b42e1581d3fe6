// Several instances of one application on a real Kafka broker form one consumer group
// (group id = application.id): the group leader computes Kafka Streams' task assignment for all
// of them, tasks move on join, on a clean close and when an instance is killed, and a task is
// committed before it moves and restored from its changelog where it lands.
//
// What is asserted and why: a moved task resumes at the committed offset. After a clean close the
// leaving instance committed everything, so every input record is counted exactly once (the
// count topic holds exactly one update per input record). The killed instance is killed once it
// has committed all its input (committed offset = log end on every partition); Kafka Streams
// (at_least_once) would reprocess whatever it had processed after its last commit — a kill in
// mid-batch may count such records twice there and here alike, so this test kills at a point
// where at-least-once is exact, and additionally produces while the killed instance's session
// is still open: those records wait and are counted by the survivor, none lost.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import type { StreamsApp } from '../../src/api.js';
import type { Backend } from '../../src/backend-spi.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { encode, readAll } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { GROUP_APP_ID, groupTopology } from './group-topology.js';
import { kafkaBackend } from './kafka-fixtures.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const CHILD = fileURLToPath(new URL('./instance-child.ts', import.meta.url));
const ALL_TASKS = ['0_0', '0_1', '0_2', '0_3'];
const tasksOf = (app: StreamsApp) =>
  app
    .status()
    .tasks.map((t) => t.taskId)
    .sort();

function startChild(stateDir: string) {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', TSX, CHILD, inject('kafkaBootstrapServers'), stateDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let last: { state: string; tasks: string[] } | null = null;
  let buffered = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.startsWith('{')) last = JSON.parse(line);
  });
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, last: () => last, stderr: () => stderr, exited };
}

describe('one application, several instances, one Kafka consumer group', () => {
  it('splits the tasks, and the survivor takes them all over on a clean close and on a kill, nothing lost', async () => {
    const backend: Backend = await kafkaBackend();
    onTestFinished(() => backend.close());
    const keys = Array.from({ length: 16 }, (_, i) => `w${i}`);
    const expected = new Map<string, number>();
    let sent = 0;
    const counts = async () => {
      const latest = new Map<unknown, unknown>();
      const all = await readAll(backend, 'counts', 'string', 'long');
      for (const r of all) latest.set(r.key, r.value);
      return { latest, updates: all.length };
    };
    const produceRound = async () => {
      await backend.produce(
        keys.map((k) => ({
          topic: 'words',
          key: encode('string', k),
          value: encode('string', 'x'),
        })),
      );
      for (const k of keys) expected.set(k, (expected.get(k) ?? 0) + 1);
      sent += keys.length;
    };
    const allCounted = () =>
      waitFor(
        async () => {
          const { latest } = await counts();
          return [...expected].every(([k, n]) => latest.get(k) === n) ? true : undefined;
        },
        120_000,
        `counts of ${sent} words`,
      );

    const a = createStreamsApp({ topology: groupTopology(), backend, stateDir: tempStateDir() });
    onTestFinished(() => a.close());
    await a.start();
    await waitFor(() => tasksOf(a).length === 4 && a.state() === 'RUNNING', 120_000, 'a RUNNING');
    await produceRound();
    await allCounted();

    // A second instance joins: the tasks are split between the two.
    const b = createStreamsApp({ topology: groupTopology(), backend, stateDir: tempStateDir() });
    onTestFinished(() => b.close());
    await b.start();
    await waitFor(
      () =>
        a.state() === 'RUNNING' &&
        b.state() === 'RUNNING' &&
        tasksOf(a).length > 0 &&
        tasksOf(b).length > 0 &&
        [...tasksOf(a), ...tasksOf(b)].sort().join() === ALL_TASKS.join(),
      120_000,
      'tasks split between a and b',
    );
    expect(tasksOf(a).length + tasksOf(b).length).toBe(4);
    await produceRound();
    await allCounted();

    // b closes cleanly: a owns every task again, and nothing was counted twice.
    await b.close();
    await waitFor(
      () => tasksOf(a).join() === ALL_TASKS.join() && a.state() === 'RUNNING',
      120_000,
      'all tasks back on a',
    );
    await produceRound();
    await allCounted();
    expect((await counts()).updates).toBe(sent);

    // A third instance in its own process joins, takes tasks, processes and commits.
    const c = startChild(tempStateDir());
    await waitFor(
      () => {
        const seen = c.last();
        return (
          seen?.state === 'RUNNING' &&
          seen.tasks.length > 0 &&
          a.state() === 'RUNNING' &&
          [...tasksOf(a), ...seen.tasks].sort().join() === ALL_TASKS.join()
        );
      },
      120_000,
      `tasks split between a and the child (${c.stderr()})`,
    );
    const childTasks = c.last()!.tasks;
    await produceRound();
    await allCounted();
    const words = ALL_TASKS.map((_, partition) => ({ topic: 'words', partition }));
    await waitFor(
      async () => {
        const committed = await backend.committedOffsets(GROUP_APP_ID, words);
        const desc = await backend.describeTopic('words');
        return desc!.offsets.every((o) => committed.get(`words:${o.partition}`) === o.latest);
      },
      120_000,
      'every input offset committed',
    );
    expect((await counts()).updates).toBe(sent);

    // Killed: its session expires (10 s), and a takes over its tasks, restoring their stores from
    // the changelog; the records produced meanwhile are counted once.
    c.child.kill('SIGKILL');
    await c.exited;
    await produceRound();
    await waitFor(
      () => tasksOf(a).join() === ALL_TASKS.join() && a.state() === 'RUNNING',
      120_000,
      `a takes over ${childTasks.join(', ')}`,
    );
    await allCounted();
    expect((await counts()).updates).toBe(sent);
  });
});
