// Stream threads in worker threads read the embedded log's segment files themselves: the main
// thread hands out read plans (where the files are, how far to read), never records. These tests
// run real worker threads on a real log in a temporary directory.
import { describe, expect, it } from 'vitest';
import type { Topology } from '@streamwright/topology-model';
import { createEmbeddedBackend, type EmbeddedBackend } from '../src/backends/embedded/index.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import type { StreamsApp } from '../src/api.js';
import type { Backend } from '../src/backend-spi.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode, readAll } from './fixtures/records.js';
import { getSerde } from '../src/serdes/index.js';
import { topology } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';
import { tempStateDir } from './fixtures/state-dir.js';

/** source(in, 4 partitions) → mapValues(value + "!") → sink(out, 2 partitions), on 2 threads. */
function shout(config: Record<string, string | number> = {}): Topology {
  return topology(
    'direct-reads-app',
    { 'commit.interval.ms': 100, 'num.stream.threads': 2, ...config },
    [
      { name: 'in', partitions: 4, config: {} },
      { name: 'out', partitions: 2, config: {} },
    ],
    [
      {
        id: 'src',
        kind: 'source',
        config: { topic: 'in', keySerde: 'string', valueSerde: 'string', offsetReset: 'earliest' },
      },
      { id: 'loud', kind: 'mapValues', config: { expression: 'value + "!"' } },
      {
        id: 'sink',
        kind: 'sink',
        config: { topic: 'out', keySerde: 'string', valueSerde: 'string' },
      },
    ] as Topology['nodes'],
    [
      ['src', 'loud'],
      ['loud', 'sink'],
    ],
  );
}

/** The real backend, with a count of the calls the application's threads make on it. */
function counted(backend: EmbeddedBackend): { backend: Backend; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(backend, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { backend: proxy, calls };
}

function start(t: Topology, backend: Backend): StreamsApp {
  return createStreamsAppFromPlan(
    { topology: t, backend: backend as EmbeddedBackend, stateDir: tempStateDir() },
    handPlan(t),
  );
}

const produce = (backend: Backend, from: number, n: number): Promise<unknown> =>
  backend.produce(
    Array.from({ length: n }, (_, i) => ({
      topic: 'in',
      key: encode('string', `k${from + i}`),
      value: encode('string', `v${from + i}`),
      timestamp: 1000 + from + i,
    })),
  );

describe('worker threads read the log files themselves', () => {
  it('the main thread serves read plans only: no fetch carries records to a worker', async () => {
    const log = await createEmbeddedBackend();
    const { backend, calls } = counted(log);
    await log.createTopics([{ name: 'in', partitions: 4, config: { 'segment.bytes': 4096 } }]);
    await produce(log, 0, 1500);
    const app = start(shout(), backend);
    try {
      await app.start();
      await produce(log, 1500, 500); // while the workers read: plans follow the log's growth
      await waitFor(
        async () => (await readAll(log, 'out', 'string', 'string')).length >= 2000,
        20_000,
        'all output',
      );
      const out = await readAll(log, 'out', 'string', 'string');
      expect(out.map((r) => r.value as string).sort()).toEqual(
        Array.from({ length: 2000 }, (_, i) => `v${i}!`).sort(),
      );
      expect(calls.get('readPlans') ?? 0).toBeGreaterThan(0);
      expect(calls.get('fetchMany') ?? 0).toBe(0);
      expect(calls.get('fetch') ?? 0).toBe(0);
    } finally {
      await app.close();
      await log.close();
    }
  });

  it('retention deleting segments under the readers: no error, no bad record, the rest processed', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'in', partitions: 4, config: { 'segment.bytes': 2048 } }]);
    await produce(backend, 0, 4000);
    const app = start(shout(), backend);
    try {
      await app.start();
      // Delete most of each partition while the workers are somewhere in it.
      await waitFor(
        async () => (await readAll(backend, 'out', 'string', 'string')).length > 0,
        20_000,
        'first output',
      );
      const cut: number[] = [];
      for (let p = 0; p < 4; p++) {
        const end = backend.log.latestOffset('in', p);
        cut.push(await backend.log.deleteRecords('in', p, Math.floor(end * 0.8)));
      }
      await produce(backend, 4000, 400);
      const inputs = new Set(Array.from({ length: 4400 }, (_, i) => `v${i}!`));
      const kept = await readAll(backend, 'in', 'string', 'string');
      await waitFor(
        async () => {
          const seen = new Set(
            (await readAll(backend, 'out', 'string', 'string')).map((r) => r.value),
          );
          return kept.every((r) => seen.has(`${r.value as string}!`));
        },
        20_000,
        'every record left in the log processed',
      );
      const out = await readAll(backend, 'out', 'string', 'string');
      for (const r of out) expect(inputs.has(r.value as string)).toBe(true);
      expect(app.state()).toBe('RUNNING');
      expect(app.status().errors).toEqual([]);
      expect(cut.every((c) => c > 0)).toBe(true);
    } finally {
      await app.close();
      await backend.close();
    }
  });

  it('exactly_once_v2: workers read up to the last stable offset and skip aborted input', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'in', partitions: 4 }]);
    const app = start(shout({ 'processing.guarantee': 'exactly_once_v2' }), backend);
    const committedOut = async (): Promise<string[]> => {
      const values: string[] = [];
      for (let p = 0; p < 2; p++) {
        const records = await backend.fetch({ topic: 'out', partition: p }, 0, 1000, 0, {
          isolationLevel: 'read_committed',
        });
        for (const r of records) values.push(getSerde('string').deserialize(r.value) as string);
      }
      return values.sort();
    };
    try {
      await app.start();
      // Both threads own their tasks before the input arrives (no rebalance while processing).
      await waitFor(
        () =>
          app.state() === 'RUNNING' &&
          new Set(
            app
              .status()
              .tasks.filter((t) => t.state === 'RUNNING')
              .map((t) => t.thread),
          ).size === 2,
        20_000,
        'tasks on both threads',
      );
      const producer = await backend.transactionalProducer('input-writer');
      const send = (value: string): Promise<unknown> =>
        producer.send(
          [0, 1, 2, 3].map((partition) => ({
            topic: 'in',
            partition,
            key: encode('string', `${value}-${partition}`),
            value: encode('string', `${value}-${partition}`),
          })),
        );
      producer.beginTransaction();
      await send('aborted');
      await producer.abortTransaction();
      producer.beginTransaction();
      await send('committed');
      await producer.commitTransaction();
      producer.beginTransaction();
      await send('open'); // not committed yet: past the last stable offset
      await waitFor(async () => (await committedOut()).length >= 4, 20_000, 'committed input');
      // Processing goes on (commits every 100 ms); the open transaction's records stay unread.
      await new Promise((r) => setTimeout(r, 500));
      expect(await committedOut()).toEqual([0, 1, 2, 3].map((p) => `committed-${p}!`));
      await producer.commitTransaction();
      await waitFor(async () => (await committedOut()).length >= 8, 20_000, 'after the commit');
      expect(await committedOut()).toEqual(
        [0, 1, 2, 3].flatMap((p) => [`committed-${p}!`, `open-${p}!`]).sort(),
      );
    } finally {
      await app.close();
      await backend.close();
    }
  });
});
