// The process's pool of idle stream-thread workers (worker-pool.ts): an app closed cleanly leaves
// its workers idle, a later app with the same worker set-up takes them instead of spawning. An app
// on reused workers must give exactly what it gives on fresh ones, nothing of an earlier app may
// reach a later one, and a worker that crashed, whose app failed or that still holds a handle of
// its app is never reused. Real embedded logs; workers from the sources through tsx.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { validateTopology, type Topology } from '@streamwright/topology-model';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { EngineLogger, StreamsApp } from '../src/api.js';
import { createStreamsApp, createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { createEmbeddedBackend, type EmbeddedBackend } from '../src/backends/embedded/index.js';
import {
  configureWorkerPool,
  drainWorkerPool,
  workerPoolStats,
} from '../src/thread/worker/worker-pool.js';
import { functions as functionsA } from './fixtures/pool-module-a.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode, readAll } from './fixtures/records.js';
import { tempStateDir } from './fixtures/state-dir.js';
import { countPipeline, topology } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

const moduleA = new URL('./fixtures/pool-module-a.ts', import.meta.url);
const moduleB = new URL('./fixtures/pool-module-b.ts', import.meta.url);

beforeEach(async () => {
  configureWorkerPool({ maxIdle: 4, idleTimeoutMs: 60_000 });
  await drainWorkerPool();
});
afterAll(() => drainWorkerPool());

type Output = { partition: number; key: unknown; value: unknown; timestamp: number }[];
interface Run {
  output: Output;
  /** Workers this app took from the pool / spawned. */
  reused: number;
  spawned: number;
  app: StreamsApp;
  logs: string[];
}

/** Starts `t`, produces `input`, waits for `outputs` records on `outTopic`, closes. */
async function runApp(
  t: Topology,
  input: { topic: string; key: string; value: unknown; timestamp: number }[],
  outputs: number,
  options: { workerModule?: URL; functions?: typeof functionsA; outTopic?: string } = {},
): Promise<Run> {
  const backend: EmbeddedBackend = await createEmbeddedBackend();
  const logs: string[] = [];
  const logger: EngineLogger = {
    info: (_o, m) => logs.push(m ?? ''),
    warn: (_o, m) => logs.push(m ?? ''),
    error: (_o, m) => logs.push(m ?? ''),
  };
  const before = workerPoolStats();
  const app = createStreamsAppFromPlan(
    {
      topology: t,
      backend,
      stateDir: tempStateDir(),
      logger,
      ...(options.workerModule ? { workerModule: options.workerModule } : {}),
      ...(options.functions ? { functions: options.functions } : {}),
    },
    handPlan(t),
  );
  await app.start();
  const after = workerPoolStats();
  await backend.produce(
    input.map((r) => ({
      topic: r.topic,
      key: encode('string', r.key),
      value: encode('json', r.value),
      timestamp: r.timestamp,
    })),
  );
  const outTopic = options.outTopic ?? 'out';
  const valueSerde = t.nodes.some((n) => n.kind === 'count') ? 'long' : 'json';
  const read = async (): Promise<Output> =>
    (await readAll(backend, outTopic, 'string', valueSerde)).map(
      ({ partition, key, value, timestamp }) => ({ partition, key, value, timestamp }),
    );
  await waitFor(async () => (await read()).length >= outputs, 20_000, `${outputs} outputs`);
  await app.close();
  const output = await read();
  await backend.close();
  return {
    output,
    reused: after.reused - before.reused,
    spawned: after.spawned - before.spawned,
    app,
    logs,
  };
}

/** in (4 partitions) → mapValues(function shape) → out (2 partitions). */
function shapePipeline(id: string): Topology {
  return topology(
    id,
    { 'commit.interval.ms': 100, 'num.stream.threads': 2 },
    [
      { name: 'in', partitions: 4, config: {} },
      { name: 'out', partitions: 2, config: {} },
    ],
    [
      {
        id: 'src',
        kind: 'source',
        config: { topic: 'in', keySerde: 'string', valueSerde: 'json', offsetReset: 'earliest' },
      },
      { id: 'shape', kind: 'mapValues', config: { expression: { function: 'shape' } } },
      { id: 'out', kind: 'sink', config: { topic: 'out', keySerde: 'string', valueSerde: 'json' } },
    ] as Topology['nodes'],
    [
      ['src', 'shape'],
      ['shape', 'out'],
    ],
  );
}

const numbers = Array.from({ length: 200 }, (_, i) => ({
  topic: 'in',
  key: `k${i % 13}`,
  value: { n: i },
  timestamp: 1000 + i,
}));
const words = Array.from({ length: 300 }, (_, i) => ({
  topic: 'words',
  key: `w${(i * 7) % 11}`,
  value: 'x',
  timestamp: i,
}));
const byKeyAndTime = (o: Output): Output =>
  [...o].sort((a, b) => String(a.key).localeCompare(String(b.key)) || a.timestamp - b.timestamp);

/** Per key, the counts in the order they were written (a key lives in one partition). */
function countsByKey(o: Output): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of o)
    out.set(r.key as string, [...(out.get(r.key as string) ?? []), r.value as number]);
  return out;
}
function expectedCounts(): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const w of words)
    out.set(w.key, [...(out.get(w.key) ?? []), (out.get(w.key)?.length ?? 0) + 1]);
  return out;
}

describe('the worker pool: reused workers give what fresh ones give', () => {
  it('a stateful count (same application id again: its counts start from zero, no store is left over)', async () => {
    const t = countPipeline({ 'num.stream.threads': 2 }, 4);
    const fresh = await runApp(t, words, words.length, { outTopic: 'counts' });
    expect([fresh.spawned, fresh.reused]).toEqual([2, 0]);
    const reused = await runApp(t, words, words.length, { outTopic: 'counts' });
    expect([reused.spawned, reused.reused]).toEqual([0, 2]);
    expect(countsByKey(fresh.output)).toEqual(expectedCounts());
    expect(countsByKey(reused.output)).toEqual(countsByKey(fresh.output));
    expect(new Set(reused.app.status().tasks.map((s) => s.thread))).toEqual(
      new Set(['count-app-StreamThread-1', 'count-app-StreamThread-2']),
    );
  }, 60_000);

  it('exactly_once_v2', async () => {
    const t = countPipeline(
      { 'num.stream.threads': 2, 'processing.guarantee': 'exactly_once_v2' },
      4,
    );
    const fresh = await runApp(t, words, words.length, { outTopic: 'counts' });
    const reused = await runApp(t, words, words.length, { outTopic: 'counts' });
    expect([fresh.spawned, reused.reused]).toEqual([2, 2]);
    expect(countsByKey(fresh.output)).toEqual(expectedCounts());
    expect(countsByKey(reused.output)).toEqual(expectedCounts());
  }, 60_000);

  it('a global table joined by every worker (each loads its replica again)', async () => {
    const validated = validateTopology({
      schemaVersion: 1,
      application: {
        id: 'pool-global',
        config: { 'num.stream.threads': 2, 'commit.interval.ms': 100 },
      },
      topics: [
        { name: 'orders', partitions: 4 },
        { name: 'items', partitions: 1 },
        { name: 'out', partitions: 2 },
      ],
      nodes: [
        { id: 'orders', kind: 'source', config: { topic: 'orders', offsetReset: 'earliest' } },
        { id: 'items', kind: 'globalTable', config: { topic: 'items' } },
        {
          id: 'j',
          kind: 'streamGlobalTableJoin',
          config: { keySelector: 'value.item', joiner: '{"n": left.n, "name": right.name}' },
        },
        { id: 'out', kind: 'sink', config: { topic: 'out' } },
      ],
      edges: [
        { from: 'orders', to: 'j', toPort: 'left' },
        { from: 'items', to: 'j', toPort: 'right' },
        { from: 'j', to: 'out' },
      ],
    });
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    const run = async (names: string[]) => {
      const backend = await createEmbeddedBackend();
      await backend.createTopics([{ name: 'items', partitions: 1 }]);
      await backend.produce(
        names.map((name, i) => ({
          topic: 'items',
          key: encode('string', `i${i}`),
          value: encode('json', { name }),
          timestamp: 1,
        })),
      );
      const before = workerPoolStats();
      const app = createStreamsApp({
        topology: validated.topology,
        backend,
        stateDir: tempStateDir(),
      });
      await app.start();
      const reused = workerPoolStats().reused - before.reused;
      await backend.produce(
        Array.from({ length: 40 }, (_, n) => ({
          topic: 'orders',
          key: encode('string', `o${n}`),
          value: encode('json', { n, item: `i${n % names.length}` }),
          timestamp: 10 + n,
        })),
      );
      const read = async () =>
        (await readAll(backend, 'out', 'string', 'json')).map((r) => [r.key, r.value]);
      await waitFor(async () => (await read()).length >= 40, 20_000, 'joined');
      await app.close();
      const out = (await read()).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      await backend.close();
      return { out, reused };
    };
    const fresh = await run(['apple', 'pear']);
    // Another table's content: a worker that kept the first app's replica would join with it.
    const reused = await run(['plum', 'fig']);
    expect([fresh.reused, reused.reused]).toEqual([0, 2]);
    const expected = (names: string[]) =>
      Array.from({ length: 40 }, (_, n) => [`o${n}`, { n, name: names[n % 2] }]).sort((a, b) =>
        String(a[0]).localeCompare(String(b[0])),
      );
    expect(fresh.out).toEqual(expected(['apple', 'pear']));
    expect(reused.out).toEqual(expected(['plum', 'fig']));
  }, 60_000);

  it('a worker module with functions: its default export is called again for each app on a reused worker', async () => {
    const fresh = await runApp(shapePipeline('pool-fn'), numbers, numbers.length, {
      workerModule: moduleA,
      functions: functionsA,
    });
    const reused = await runApp(shapePipeline('pool-fn'), numbers, numbers.length, {
      workerModule: moduleA,
      functions: functionsA,
    });
    expect([fresh.spawned, reused.reused]).toEqual([2, 2]);
    const expected = (apps: number) =>
      numbers.map((r) => ({
        key: r.key,
        value: { n: r.value.n * 2, apps },
        timestamp: r.timestamp,
      }));
    const strip = (o: Output) =>
      byKeyAndTime(o).map(({ key, value, timestamp }) => ({ key, value, timestamp }));
    expect(strip(fresh.output)).toEqual(byKeyAndTime(expected(1) as never));
    // The module's own state (here a counter of its default export's calls) stays with the worker.
    expect(strip(reused.output)).toEqual(byKeyAndTime(expected(2) as never));
  }, 60_000);
});

describe('the worker pool: nothing passes between apps', () => {
  it('an app with another worker module, or none, never takes a worker that loaded one', async () => {
    configureWorkerPool({ maxIdle: 6 });
    const a1 = await runApp(shapePipeline('pool-a'), numbers, numbers.length, {
      workerModule: moduleA,
      functions: functionsA,
    });
    const b = await runApp(shapePipeline('pool-b'), numbers, numbers.length, {
      workerModule: moduleB,
      functions: functionsA, // the main thread only checks names; the workers run module B's
    });
    const cel = await runApp(countPipeline({ 'num.stream.threads': 2 }, 4), words, words.length, {
      outTopic: 'counts',
    });
    const a2 = await runApp(shapePipeline('pool-a'), numbers, numbers.length, {
      workerModule: moduleA,
      functions: functionsA,
    });
    expect([a1.spawned, b.spawned, cel.spawned, a2.reused]).toEqual([2, 2, 2, 2]);
    const ns = (o: Output) => o.map((r) => (r.value as { n: number }).n).sort((x, y) => x - y);
    const times = (k: number) => numbers.map((r) => r.value.n * k).sort((x, y) => x - y);
    expect(ns(a1.output)).toEqual(times(2));
    expect(ns(b.output)).toEqual(times(3));
    expect(ns(a2.output)).toEqual(times(2));
    expect(countsByKey(cel.output)).toEqual(expectedCounts());
    expect(workerPoolStats().idle).toBe(6);
  }, 90_000);

  it('a worker that still holds a handle of its app (a timer left running) is not reused', async () => {
    const leaky = new URL('./fixtures/pool-leaky-module.ts', import.meta.url);
    const first = await runApp(shapePipeline('pool-leak'), numbers, numbers.length, {
      workerModule: leaky,
      functions: functionsA,
    });
    expect(first.logs.filter((l) => l.includes('not reused'))).toHaveLength(2);
    expect(workerPoolStats().idle).toBe(0);
    const second = await runApp(shapePipeline('pool-leak'), numbers, numbers.length, {
      workerModule: leaky,
      functions: functionsA,
    });
    expect([second.spawned, second.reused]).toEqual([2, 0]);
  }, 60_000);
});

describe('the worker pool: failed workers and apps', () => {
  it('a worker that crashed is not reused, nor the other worker of its failed app', async () => {
    const backend = await createEmbeddedBackend();
    const t = shapePipeline('pool-crash');
    const app = createStreamsAppFromPlan(
      {
        topology: t,
        backend,
        stateDir: tempStateDir(),
        workerModule: new URL('./fixtures/pool-crash-module.ts', import.meta.url),
        functions: functionsA,
      },
      handPlan(t),
    );
    await app.start();
    await backend.produce(
      numbers.slice(0, 1).map((r) => ({
        topic: 'in',
        key: encode('string', r.key),
        value: encode('json', r.value),
        timestamp: r.timestamp,
      })),
    );
    await waitFor(() => app.state() === 'ERROR', 20_000, 'ERROR');
    await app.close();
    expect(app.status().errors[0]?.message).toMatch(/worker module bug/);
    expect(workerPoolStats().idle).toBe(0);
    await backend.close();
  }, 60_000);

  it('the workers of an app that failed under log-and-fail are not reused', async () => {
    const backend = await createEmbeddedBackend();
    const t = countPipeline({ 'num.stream.threads': 2 }, 4);
    t.nodes.splice(1, 0, {
      id: 'check',
      kind: 'filter',
      config: { expression: 'int(value) > 0' },
    } as never);
    t.edges = [
      { from: 'src', fromPort: 'out', to: 'check', toPort: 'in' },
      { from: 'check', fromPort: 'out', to: 'group', toPort: 'in' },
      ...t.edges.slice(1),
    ];
    const app = createStreamsAppFromPlan(
      { topology: t, backend, stateDir: tempStateDir() },
      handPlan(t),
    );
    await app.start();
    // A record whose value the filter cannot read: int('x') fails the task.
    await backend.produce([
      { topic: 'words', key: encode('string', 'w'), value: encode('string', 'x'), timestamp: 1 },
    ]);
    await waitFor(() => app.state() === 'ERROR', 20_000, 'ERROR');
    await app.close();
    expect(workerPoolStats().idle).toBe(0);
    await backend.close();
  }, 60_000);
});

describe('the worker pool: idle workers', () => {
  it('are terminated after the idle timeout, bounded in number, and drained at once', async () => {
    configureWorkerPool({ idleTimeoutMs: 300 });
    await runApp(shapePipeline('pool-timeout'), numbers, numbers.length, {
      workerModule: moduleA,
      functions: functionsA,
    });
    expect(workerPoolStats().idle).toBe(2);
    await waitFor(() => workerPoolStats().idle === 0, 10_000, 'idle workers terminated');

    configureWorkerPool({ maxIdle: 1, idleTimeoutMs: 60_000 });
    await runApp(shapePipeline('pool-bound'), numbers, numbers.length, {
      workerModule: moduleA,
      functions: functionsA,
    });
    expect(workerPoolStats().idle).toBe(1);
    await drainWorkerPool();
    expect(workerPoolStats().idle).toBe(0);

    configureWorkerPool({ maxIdle: 0 });
    const off = await runApp(shapePipeline('pool-off'), numbers, numbers.length, {
      workerModule: moduleA,
      functions: functionsA,
    });
    expect([off.reused, workerPoolStats().idle]).toEqual([0, 0]);
    expect(() => configureWorkerPool({ maxIdle: -1 })).toThrow(/maxIdle/);
  }, 60_000);

  it('do not keep the process alive: a process whose app closed exits at once (the built engine)', async () => {
    const child = fileURLToPath(new URL('./fixtures/pool-exit.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [child], {
      timeout: 30_000,
      env: { ...process.env, STREAMWRIGHT_WORKER_POOL_IDLE_MS: '600000' },
    });
    expect(JSON.parse(stdout)).toMatchObject({ idle: 2, spawned: 2 });
  }, 40_000);
});
