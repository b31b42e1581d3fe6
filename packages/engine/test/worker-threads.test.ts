// num.stream.threads > 1: stream threads in worker_threads, served by the main thread's embedded
// backend through MessagePorts, their metrics and task states visible from the main thread.
import { describe, expect, it } from 'vitest';
import type { Topology } from '@streamwright/topology-model';
import { createEmbeddedBackend, type EmbeddedBackend } from '../src/backends/embedded/index.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { UnsupportedConfigError } from '../src/errors.js';
import { partitionFor } from '../src/partitioner/default-partitioner.js';
import type { StreamsApp } from '../src/api.js';
import type { EncodingTransactionalProducer } from '../src/backend-spi.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode, readAll } from './fixtures/records.js';
import { getSerde } from '../src/serdes/index.js';
import { countPipeline, topology } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';
import buildDslProgram from './fixtures/dsl-program.js';
import { functions } from './fixtures/worker-code.js';
import { createStreamsApp } from '../src/app/streams-app.js';
import { tempStateDir } from './fixtures/state-dir.js';

const workerModule = new URL('./fixtures/worker-code.ts', import.meta.url);

/** source(orders, 4 partitions) → filter → mapValues → sink(big-orders, 2 partitions). */
function pipeline(config: Record<string, string | number>, logic: 'cel' | 'functions'): Topology {
  return topology(
    'workers-app',
    { 'commit.interval.ms': 100, 'num.stream.threads': 2, ...config },
    [
      { name: 'orders', partitions: 4, config: {} },
      { name: 'big-orders', partitions: 2, config: {} },
    ],
    [
      {
        id: 'src',
        kind: 'source',
        config: {
          topic: 'orders',
          keySerde: 'string',
          valueSerde: 'json',
          offsetReset: 'earliest',
        },
      },
      {
        id: 'big',
        kind: 'filter',
        config: { expression: logic === 'cel' ? 'value.amount > 100' : { function: 'isBig' } },
      },
      {
        id: 'shape',
        kind: 'mapValues',
        config: {
          expression:
            logic === 'cel'
              ? '{"user": value.user, "total": value.amount / value.divisor}'
              : { function: 'shape' },
        },
      },
      {
        id: 'out',
        kind: 'sink',
        config: { topic: 'big-orders', keySerde: 'string', valueSerde: 'json' },
      },
    ] as Topology['nodes'],
    [
      ['src', 'big'],
      ['big', 'shape'],
      ['shape', 'out'],
    ],
  );
}

function start(
  t: Topology,
  backend: EmbeddedBackend,
  extra: { workerModule?: URL; functions?: typeof functions } = {},
): StreamsApp {
  return createStreamsAppFromPlan(
    { topology: t, backend, stateDir: tempStateDir(), ...extra },
    handPlan(t),
  );
}

const orders = Array.from({ length: 400 }, (_, i) => ({
  key: `o${i}`,
  value: { user: `u${i % 5}`, amount: (i * 7) % 300, divisor: 1 },
}));

describe('stream threads in worker threads', () => {
  it('2 threads process a 4-partition topology with exactly the expected output, TypeScript logic from the worker module', async () => {
    const backend = await createEmbeddedBackend();
    const app = start(pipeline({}, 'functions'), backend, { workerModule, functions });
    await app.start();
    await backend.produce(
      orders.map((o, i) => ({
        topic: 'orders',
        key: encode('string', o.key),
        value: encode('json', o.value),
        timestamp: 1000 + i,
      })),
    );
    const expected = orders
      .filter((o) => o.value.amount > 100)
      .map((o) => ({ key: o.key, value: { user: o.value.user, total: o.value.amount * 2 } }));
    await waitFor(
      async () =>
        (await readAll(backend, 'big-orders', 'string', 'json')).length >= expected.length,
      20_000,
      'all output',
    );
    await waitFor(() => app.state() === 'RUNNING', 10_000, 'RUNNING');

    // Tasks: 0_p and the thread that owns them, two each; counters from both workers.
    const status = app.status();
    expect(status.tasks.map((t) => [t.taskId, t.state])).toEqual([
      ['0_0', 'RUNNING'],
      ['0_1', 'RUNNING'],
      ['0_2', 'RUNNING'],
      ['0_3', 'RUNNING'],
    ]);
    const byThread = new Map<string, string[]>();
    for (const t of status.tasks)
      byThread.set(t.thread, [...(byThread.get(t.thread) ?? []), t.taskId]);
    expect([...byThread.keys()].sort()).toEqual([
      'workers-app-StreamThread-1',
      'workers-app-StreamThread-2',
    ]);
    expect([...byThread.values()].map((ids) => ids.length)).toEqual([2, 2]);
    await waitFor(
      () =>
        Object.values(app.metrics().threads).reduce((s, t) => s + (t['process-total'] ?? 0), 0) ===
        orders.length,
      5000,
      'metrics',
    );
    const metrics = app.metrics();
    expect(Object.keys(metrics.threads).sort()).toEqual([
      'workers-app-StreamThread-1',
      'workers-app-StreamThread-2',
    ]);
    for (const values of Object.values(metrics.threads))
      expect(values['process-total']).toBeGreaterThan(0);
    const nodeTotal = (name: string, metric: string) =>
      Object.values(metrics.nodes).reduce((s, n) => s + (n[name]?.[metric] ?? 0), 0);
    expect(nodeTotal('KSTREAM-SOURCE-0000000000', 'records-consumed-total')).toBe(orders.length);
    expect(nodeTotal('KSTREAM-SINK-0000000003', 'records-produced-total')).toBe(expected.length);

    await app.close();
    expect(app.state()).toBe('NOT_RUNNING');
    // Exactly once each (no duplicates), and per input partition in order.
    const output = await readAll(backend, 'big-orders', 'string', 'json');
    expect(output.map((r) => ({ key: r.key, value: r.value })).sort(byKey)).toEqual(
      [...expected].sort(byKey),
    );
    for (let p = 0; p < 4; p++) {
      const fromP = expected
        .filter((e) => partitionFor(encode('string', e.key)!, 4) === p)
        .map((e) => e.key);
      const seen = output
        .sort((a, b) => a.partition - b.partition || a.offset - b.offset)
        .filter((r) => fromP.includes(r.key as string));
      expect(seen.map((r) => r.key)).toEqual(fromP);
    }
    // Everything committed.
    const committed = await backend.committedOffsets(
      'workers-app',
      [0, 1, 2, 3].map((partition) => ({ topic: 'orders', partition })),
    );
    for (const o of (await backend.describeTopic('orders'))!.offsets)
      expect(committed.get(`orders:${o.partition}`) ?? 0).toBe(o.latest);
    await backend.close();
  }, 60_000);

  it('the workers load first and their threads join together: one rebalance, two tasks each from the start', async () => {
    const backend = await createEmbeddedBackend();
    const app = start(pipeline({ 'num.stream.threads': 3 }, 'cel'), backend);
    await app.start();
    // Without the gate the first worker to load takes all four tasks and the others' joins each
    // rebalance again (generation 3 with three threads).
    const group = backend.log.describeGroup('workers-app');
    expect(group.generation).toBe(1);
    expect(group.members.map((m) => m.assignment.length).sort()).toEqual([1, 1, 2]);
    await waitFor(() => app.state() === 'RUNNING', 10_000, 'RUNNING');
    await app.close();
    await backend.close();
  }, 60_000);

  it('a task failing under log-and-fail stops the app; the error and the FAILED task show in status()', async () => {
    const backend = await createEmbeddedBackend();
    const app = start(pipeline({}, 'cel'), backend);
    await app.start();
    const bad = { key: 'bad', value: { user: 'u9', amount: 200 } }; // no divisor: the CEL expression fails
    await backend.produce(
      [...orders.slice(0, 20), bad].map((o, i) => ({
        topic: 'orders',
        key: encode('string', o.key),
        value: encode('json', o.value),
        timestamp: 1000 + i,
      })),
    );
    await waitFor(() => app.state() === 'ERROR', 20_000, 'ERROR');
    const status = app.status();
    const error = status.errors.find((e) => e.handling === 'fail');
    expect(error).toMatchObject({
      processor: 'KSTREAM-MAPVALUES-0000000002',
      modelNodeId: 'shape',
      handling: 'fail',
    });
    expect(error!.message).toMatch(/divisor/);
    expect(error!.record).toMatchObject({ topic: 'orders', key: 'bad', value: bad.value });
    const failedTask = `0_${partitionFor(encode('string', 'bad')!, 4)}`;
    expect(error!.taskId).toBe(failedTask);
    expect(status.tasks.find((t) => t.taskId === failedTask)?.state).toBe('FAILED');
    await app.close();
    expect(app.state()).toBe('ERROR');
    await backend.close();
  }, 60_000);

  it('a DSL program with lambdas runs on 2 worker threads when it is the worker module', async () => {
    const backend = await createEmbeddedBackend();
    const app = createStreamsApp({
      topology: buildDslProgram(),
      backend,
      stateDir: tempStateDir(),
      workerModule: new URL('./fixtures/dsl-program.ts', import.meta.url),
    });
    await app.start();
    const words = Array.from({ length: 200 }, (_, i) => ['a', 'bb', 'ccc', 'dddd'][i % 4]! + i);
    await backend.produce(
      words.map((w, i) => ({
        topic: 'words',
        key: encode('string', `k${i}`),
        value: encode('string', w),
      })),
    );
    const expected = words.filter((w) => w.length > 2).map((w) => w.toUpperCase());
    await waitFor(
      async () => (await readAll(backend, 'shouted', 'string', 'string')).length >= expected.length,
      20_000,
      'output',
    );
    await app.close();
    const output = (await readAll(backend, 'shouted', 'string', 'string')).map(
      (r) => r.value as string,
    );
    expect(output.sort()).toEqual(expected.sort());
    expect(new Set(app.status().tasks.map((t) => t.thread)).size).toBe(2);
    await backend.close();
  }, 60_000);

  it('exactly_once_v2 on 2 worker threads: transactions through the port, read_committed sees each count once', async () => {
    const backend = await createEmbeddedBackend();
    // How the workers' sends arrive: as transactional batches they encoded, never as records.
    const sends = { records: 0, batches: 0 };
    const producerFor = backend.transactionalProducer.bind(backend);
    backend.transactionalProducer = async (id) => {
      const p = (await producerFor(id)) as EncodingTransactionalProducer;
      return {
        ...p,
        send: (records) => (sends.records++, p.send(records)),
        sendBatches: (parts) => (sends.batches++, p.sendBatches(parts)),
      } satisfies EncodingTransactionalProducer;
    };
    const t = countPipeline(
      { 'processing.guarantee': 'exactly_once_v2', 'num.stream.threads': 2 },
      4,
    );
    const app = createStreamsAppFromPlan(
      { topology: t, backend, stateDir: tempStateDir() },
      handPlan(t),
    );
    await app.start();
    const words = Array.from({ length: 300 }, (_, i) => `w${(i * 7) % 11}`);
    await backend.produce(
      words.map((w, i) => ({
        topic: 'words',
        key: encode('string', w),
        value: encode('string', 'x'),
        timestamp: i,
      })),
    );
    const read = async () => {
      const out: [string, number][] = [];
      for (const o of (await backend.describeTopic('counts'))!.offsets) {
        for (let offset = o.earliest; ;) {
          const batch = await backend.fetch(
            { topic: 'counts', partition: o.partition },
            offset,
            1000,
            0,
            { isolationLevel: 'read_committed' },
          );
          if (batch.length === 0) break;
          for (const r of batch)
            out.push([
              getSerde('string').deserialize(r.key) as string,
              getSerde('long').deserialize(r.value) as number,
            ]);
          offset = batch[batch.length - 1]!.offset + 1;
        }
      }
      return out;
    };
    await waitFor(async () => (await read()).length >= words.length, 20_000, 'committed counts');
    await app.close();
    // Per key, the running counts 1..n exactly once each (a key lives in one partition, so in order).
    const byKey = new Map<string, number[]>();
    for (const [k, n] of await read()) byKey.set(k, [...(byKey.get(k) ?? []), n]);
    const expected = new Map<string, number[]>();
    for (const w of words)
      expected.set(w, [...(expected.get(w) ?? []), (expected.get(w)?.length ?? 0) + 1]);
    expect(byKey).toEqual(expected);
    expect(new Set(app.status().tasks.map((s) => s.thread)).size).toBe(2);
    expect(sends.batches).toBeGreaterThan(0);
    expect(sends.records).toBe(0);
    await backend.close();
  }, 60_000);

  it('a worker module that fails to load fails start() with its error', async () => {
    const backend = await createEmbeddedBackend();
    const app = start(pipeline({}, 'functions'), backend, {
      workerModule: new URL('./fixtures/broken-worker-module.ts', import.meta.url),
      functions,
    });
    await expect(app.start()).rejects.toThrow(/broken worker module/);
    expect(app.state()).toBe('ERROR');
    await app.close();
    await backend.close();
  }, 60_000);

  it('refuses to start when the topology refers to TypeScript code and no worker module is given', async () => {
    const backend = await createEmbeddedBackend();
    const app = start(pipeline({}, 'functions'), backend, { functions });
    await expect(app.start()).rejects.toThrow(UnsupportedConfigError);
    await expect(app.start()).rejects.toThrow(/workerModule/);
    expect(app.state()).toBe('CREATED');
    await app.close();
    await backend.close();
  });
});

const byKey = (a: { key: unknown }, b: { key: unknown }) =>
  String(a.key).localeCompare(String(b.key));
