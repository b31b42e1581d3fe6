// num.stream.threads > 1 on a real Kafka broker: each stream thread runs in a worker and is a
// consumer-group member of its own (with its own producer and fetch connections, as a Kafka
// Streams StreamThread), so the group leader's assignment spreads the tasks over every thread of
// every instance. The application is the seed's table sum on 4 partitions (a groupBy through a
// repartition topic: 8 tasks); each key's sums equal Kafka Streams' own (tools/ks-oracle), per key
// in order (with several partitions only the per-key order is fixed, as in
// repartition-group.test.ts), with one instance of two threads, and with two instances of two
// threads of which one is SIGKILLed once it committed all it read (at_least_once is exact there:
// see consumer-group.test.ts) and whose tasks then move to the survivor's threads.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runOracle } from '@streamwright/ks-oracle';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import type { StreamsApp } from '../../src/api.js';
import type { Backend } from '../../src/backend-spi.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { encode } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend, readLongs, seedTopology } from './kafka-fixtures.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const CHILD = fileURLToPath(new URL('./seed-instance-child.ts', import.meta.url));
const PARTITIONS = 4;
const TASKS = 2 * PARTITIONS;
const KEYS = ['Jack', 'Lily', 'Mike', 'Ann', 'Bob', 'Cleo', 'Dan', 'Eve'];
const round = (r: number) =>
  KEYS.map((key, i) => ({
    key,
    value: (i + 1) * (r + 1),
    timestamp: 1000 * (r * KEYS.length + i + 1),
  }));
const INPUT = [round(0), round(1), round(2)].flat();
const FIRST = 2 * KEYS.length;

interface TaskOnThread {
  taskId: string;
  thread: string;
}
const tasksOf = (app: StreamsApp): TaskOnThread[] =>
  app.status().tasks.map((t) => ({ taskId: t.taskId, thread: t.thread }));
const threadsOf = (tasks: TaskOnThread[]) => new Set(tasks.map((t) => t.thread));

/** Each key's values in the order written (per key the order is fixed by its partition). */
function perKey(records: { key: unknown; value: unknown }[]): Map<unknown, unknown[]> {
  const out = new Map<unknown, unknown[]>();
  for (const r of records) {
    let list = out.get(r.key);
    if (!list) out.set(r.key, (list = []));
    list.push(r.value);
  }
  return out;
}

/** Kafka Streams' per-key output after the first two rounds and after all three. */
async function oracle(appId: string, input: string, output: string) {
  const results = await runOracle(
    [FIRST, INPUT.length].map((n) => ({
      name: `${appId}-${n}`,
      topology: seedTopology('table-sum.topology.json', appId, input, output),
      inputs: INPUT.slice(0, n).map((r) => ({ topic: input, ...r })),
      outputs: [output],
    })),
  );
  for (const r of results) expect(r.error).toBeUndefined();
  return results.map((r) => perKey(r.outputs![output]!)) as [
    Map<unknown, unknown[]>,
    Map<unknown, unknown[]>,
  ];
}

function io(backend: Backend, input: string, output: string) {
  return {
    produce: (records: typeof INPUT) =>
      backend.produce(
        records.map((r) => ({
          topic: input,
          key: encode('string', r.key),
          value: encode('long', r.value),
          timestamp: r.timestamp,
        })),
      ),
    caughtUp: (expected: Map<unknown, unknown[]>, what: string) =>
      waitFor(
        async () => {
          const got = perKey(await readLongs(backend, output));
          for (const [k, values] of expected)
            if ((got.get(k)?.length ?? 0) < values.length) return undefined;
          return got;
        },
        120_000,
        what,
      ),
  };
}

function startChild(stateDir: string, appId: string, input: string, output: string) {
  const args = [inject('kafkaBootstrapServers'), stateDir, appId, input, output, PARTITIONS, 2];
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', TSX, CHILD, ...args.map(String)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let last: { state: string; tasks: TaskOnThread[] } | null = null;
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

describe('num.stream.threads > 1 on Kafka', () => {
  it("one instance of two threads: the tasks split between the threads, Kafka Streams' sums", async () => {
    const [appId, input, output] = ['threads-sum', 'threads-in', 'threads-out'];
    const [wantFirst, want] = await oracle(appId, input, output);
    const backend = await kafkaBackend();
    onTestFinished(() => backend.close());
    const { produce, caughtUp } = io(backend, input, output);
    const topology = seedTopology('table-sum.topology.json', appId, input, output, PARTITIONS, {
      'num.stream.threads': 2,
    });
    const app = createStreamsApp({ topology, backend, stateDir: tempStateDir() });
    onTestFinished(() => app.close());
    await app.start();
    await waitFor(
      () => app.state() === 'RUNNING' && tasksOf(app).length === TASKS,
      120_000,
      'all 8 tasks running',
    );
    const threads = threadsOf(tasksOf(app));
    expect([...threads].sort()).toEqual([`${appId}-StreamThread-1`, `${appId}-StreamThread-2`]);
    // Kafka Streams' assignment keeps a partition's tasks of both sub-topologies together.
    for (const thread of threads) {
      const parts = tasksOf(app)
        .filter((t) => t.thread === thread)
        .map((t) => t.taskId.split('_')[1]);
      expect(new Set(parts).size * 2).toBe(parts.length);
    }
    await produce(INPUT.slice(0, FIRST));
    expect(await caughtUp(wantFirst, 'the first two rounds')).toEqual(wantFirst);
    await produce(INPUT.slice(FIRST));
    expect(await caughtUp(want, 'the third round')).toEqual(want);
  });

  it("two instances of two threads: every thread gets tasks, a killed instance's tasks move", async () => {
    const [appId, input, output] = ['threads-group', 'threads-group-in', 'threads-group-out'];
    const [wantFirst, want] = await oracle(appId, input, output);
    const backend = await kafkaBackend();
    onTestFinished(() => backend.close());
    const { produce, caughtUp } = io(backend, input, output);
    const topology = seedTopology('table-sum.topology.json', appId, input, output, PARTITIONS, {
      'num.stream.threads': 2,
    });
    const a = createStreamsApp({ topology, backend, stateDir: tempStateDir() });
    onTestFinished(() => a.close());
    await a.start();
    await waitFor(() => a.state() === 'RUNNING', 120_000, 'a RUNNING');
    const b = startChild(tempStateDir(), appId, input, output);
    await waitFor(
      () => {
        const seen = b.last();
        const onA = tasksOf(a);
        return (
          seen?.state === 'RUNNING' &&
          a.state() === 'RUNNING' &&
          threadsOf(onA).size === 2 &&
          threadsOf(seen.tasks).size === 2 &&
          onA.length + seen.tasks.length === TASKS
        );
      },
      120_000,
      `the tasks over the 4 threads of a and b (${b.stderr()})`,
    );
    const taskIds = [...tasksOf(a), ...b.last()!.tasks].map((t) => t.taskId).sort();
    expect(new Set(taskIds).size).toBe(TASKS);

    await produce(INPUT.slice(0, FIRST));
    expect(await caughtUp(wantFirst, 'the first two rounds')).toEqual(wantFirst);
    // Killed once every record read (input and repartition topic) is committed.
    const topics = (await backend.listTopics()).filter(
      (t) =>
        t.name === input || (t.name.startsWith(`${appId}-`) && t.name.endsWith('-repartition')),
    );
    expect(topics).toHaveLength(2);
    await waitFor(
      async () => {
        const tps = topics.flatMap((t) =>
          t.offsets.map((o) => ({ topic: t.name, partition: o.partition })),
        );
        const committed = await backend.committedOffsets(appId, tps);
        for (const t of topics) {
          const desc = await backend.describeTopic(t.name);
          if (!desc!.offsets.every((o) => committed.get(`${t.name}:${o.partition}`) === o.latest))
            return false;
        }
        return true;
      },
      120_000,
      'every offset read committed',
    );
    b.child.kill('SIGKILL');
    await b.exited;
    await produce(INPUT.slice(FIRST));
    await waitFor(
      () => a.state() === 'RUNNING' && tasksOf(a).length === TASKS,
      120_000,
      "every task on a's two threads",
    );
    expect(threadsOf(tasksOf(a)).size).toBe(2);
    expect(await caughtUp(want, 'the third round')).toEqual(want);
  });
});
