// Interactive queries with num.stream.threads=2 (stream threads in worker threads):
// StreamsApp#queryStore asks each worker for its own tasks' stores and merges the answers. The
// same document and input run with one stream thread (every task on this event loop, queried
// through the synchronous views) must answer every query identically, in the same order.
import { validateTopology } from '@streamwright/topology-model';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamsApp } from '../src/api.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import type { EmbeddedBackend } from '../src/backends/embedded/index.js';
import { createStreamsApp } from '../src/app/streams-app.js';
import { getSerde, stringSerde } from '../src/serdes/index.js';
import { EngineError } from '../src/errors.js';

const opened: { app: StreamsApp; backend: EmbeddedBackend }[] = [];
afterEach(async () => {
  for (const { app, backend } of opened.splice(0)) {
    await app.close();
    await backend.close();
  }
});

function doc(threads: number) {
  return {
    schemaVersion: 1,
    application: {
      id: `iq-threads-${threads}`,
      config: { 'commit.interval.ms': 50, 'num.stream.threads': threads },
    },
    topics: [
      { name: 'clicks', partitions: 4 },
      { name: 'prices', partitions: 4 },
    ],
    nodes: [
      {
        id: 'src',
        kind: 'source',
        config: { topic: 'clicks', keySerde: 'string', valueSerde: 'string' },
      },
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'count', kind: 'count', config: { store: 'counts' } },
      {
        id: 'hop',
        kind: 'windowedBy',
        config: { window: { type: 'hopping', sizeMs: 10_000, advanceMs: 5000, graceMs: 60_000 } },
      },
      {
        id: 'wcount',
        kind: 'windowedCount',
        config: { store: 'windows', retentionMs: 120_000, storeType: 'inMemory' },
      },
      {
        id: 'ses',
        kind: 'windowedBy',
        config: { window: { type: 'session', gapMs: 5000, graceMs: 60_000 } },
      },
      {
        id: 'scount',
        kind: 'windowedCount',
        config: { store: 'sessions', retentionMs: 120_000, storeType: 'inMemory' },
      },
      // The same aggregations in persistent stores (RocksDB's order: interactive-queries-
      // windowed-oracle.test.ts), whose windows span two segments of 60 s.
      { id: 'pwcount', kind: 'windowedCount', config: { store: 'pwindows', retentionMs: 120_000 } },
      {
        id: 'pscount',
        kind: 'windowedCount',
        config: { store: 'psessions', retentionMs: 120_000 },
      },
      {
        id: 'prices',
        kind: 'table',
        config: {
          topic: 'prices',
          keySerde: 'string',
          valueSerde: 'long',
          store: 'prices-store',
          versioned: { historyRetentionMs: 60_000 },
        },
      },
    ],
    edges: [
      { from: 'src', to: 'g' },
      { from: 'g', to: 'count' },
      { from: 'g', to: 'hop' },
      { from: 'hop', to: 'wcount' },
      { from: 'g', to: 'ses' },
      { from: 'ses', to: 'scount' },
      { from: 'hop', to: 'pwcount' },
      { from: 'ses', to: 'pscount' },
    ],
  };
}

const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'];
const clicks: [string, number][] = [
  ...Array.from({ length: 60 }, (_, i): [string, number] => [
    users[(i * 7) % users.length]!,
    1000 + ((i * 2711) % 40_000),
  ]),
  ...Array.from({ length: 12 }, (_, i): [string, number] => [
    users[(i * 3) % users.length]!,
    56_000 + i * 1500,
  ]),
];
const prices: [string, number, number][] = Array.from({ length: 30 }, (_, i) => [
  users[i % users.length]!,
  i * 10,
  1000 * (1 + ((i * 13) % 20)),
]);

async function run(threads: number): Promise<StreamsApp> {
  const validated = validateTopology(doc(threads));
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  const backend = await createEmbeddedBackend();
  const app = createStreamsApp({ topology: validated.topology, backend, stateDir: '/nonexistent' });
  opened.push({ app, backend });
  await app.start();
  const long = getSerde('long');
  await backend.produce([
    ...clicks.map(([key, timestamp]) => ({
      topic: 'clicks',
      key: stringSerde.serialize(key),
      value: stringSerde.serialize('x'),
      timestamp,
    })),
    ...prices.map(([key, value, timestamp]) => ({
      topic: 'prices',
      key: stringSerde.serialize(key),
      value: long.serialize(value),
      timestamp,
    })),
  ]);
  const total = clicks.length + prices.length;
  const deadline = Date.now() + 60_000;
  for (;;) {
    let processed = 0;
    for (const t of Object.values(app.metrics().threads)) processed += t['process-total'] ?? 0;
    if (processed >= total) break;
    if (Date.now() > deadline) throw new Error(`processed ${processed} of ${total}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return app;
}

const MAX = Number.MAX_SAFE_INTEGER;
type Q = ['keyValue' | 'window' | 'session', string, string, unknown[]];
const queries: Q[] = [
  ['keyValue', 'counts', 'all', []],
  ['keyValue', 'counts', 'range', ['bob', 'grace']],
  ['keyValue', 'counts', 'range', [null, 'dave']],
  ['keyValue', 'counts', 'approximateNumEntries', []],
  ...users.map((u): Q => ['keyValue', 'counts', 'get', [u]]),
  ['keyValue', 'counts', 'get', ['nobody']],
  ['keyValue', 'prices-store', 'all', []],
  ...users.flatMap((u): Q[] => [
    ['keyValue', 'prices-store', 'getAsOf', [u, 5000]],
    ['keyValue', 'prices-store', 'getAsOf', [u, 15_000]],
  ]),
  ['window', 'windows', 'all', []],
  ['window', 'windows', 'backwardAll', []],
  ['window', 'windows', 'fetchAll', [5000, 20_000]],
  ['window', 'windows', 'backwardFetchAll', [5000, 20_000]],
  ['window', 'windows', 'fetch', ['bob', 'heidi', 0, 30_000]],
  ['window', 'windows', 'backwardFetch', ['bob', 'heidi', 0, 30_000]],
  ['window', 'windows', 'fetch', ['alice', 0, MAX]],
  ['window', 'windows', 'backwardFetch', ['carol', 0, MAX]],
  ['window', 'windows', 'fetch', ['alice', 10_000]],
  ['window', 'windows', 'approximateNumEntries', []],
  ['session', 'sessions', 'fetch', [null, null]],
  ['session', 'sessions', 'backwardFetch', [null, null]],
  ['session', 'sessions', 'fetch', ['dave']],
  ['session', 'sessions', 'fetch', ['bob', 'frank']],
  ['session', 'sessions', 'findSessions', ['alice', 'judy', 10_000, 30_000]],
  ['session', 'sessions', 'backwardFindSessions', ['erin', 0, MAX]],
  ['session', 'sessions', 'approximateNumEntries', []],
  ['window', 'pwindows', 'all', []],
  ['window', 'pwindows', 'backwardAll', []],
  ['window', 'pwindows', 'fetchAll', [5000, 70_000]],
  ['window', 'pwindows', 'fetch', ['bob', 'heidi', 0, 70_000]],
  ['window', 'pwindows', 'backwardFetch', ['bob', 'heidi', 0, 70_000]],
  ['window', 'pwindows', 'fetch', ['alice', 0, MAX]],
  ['session', 'psessions', 'fetch', [null, null]],
  ['session', 'psessions', 'backwardFetch', [null, null]],
  ['session', 'psessions', 'fetch', ['bob', 'frank']],
  ['session', 'psessions', 'findSessions', ['alice', 'judy', 10_000, 70_000]],
];

describe('interactive queries with stream threads in worker threads', () => {
  it('answer every key-value, versioned, window and session query as one stream thread does', async () => {
    const single = await run(1);
    const threaded = await run(2);
    const view = (type: Q[0], store: string) =>
      (type === 'keyValue'
        ? single.store(store)
        : type === 'window'
          ? single.windowStore(store)
          : single.sessionStore(store)) as unknown as Record<string, (...a: unknown[]) => unknown>;
    const empty: string[] = [];
    for (const [type, store, method, args] of queries) {
      const expected = view(type, store)[method]!(...args);
      if (Array.isArray(expected) ? expected.length === 0 : expected === null)
        empty.push(`${method}(${args.join(', ')})`);
      expect(await threaded.queryStore(store, type, method, args), `${store}.${method}`).toEqual(
        expected,
      );
      // The asynchronous path on one thread is the synchronous view.
      expect(await single.queryStore(store, type, method, args)).toEqual(expected);
    }
    // Only misses: a key no task has, versions before the key's first price.
    expect(empty.length).toBeLessThan(10);
    expect((await threaded.queryStore('counts', 'keyValue', 'all', [])) as unknown[]).toHaveLength(
      users.length,
    );
  });

  it('refuses what one stream thread refuses, and answers null for no such store', async () => {
    const threaded = await run(2);
    expect(await threaded.queryStore('nope', 'keyValue', 'get', ['a'])).toBeNull();
    await expect(threaded.queryStore('counts', 'window', 'all', [])).rejects.toThrow(
      'it is a keyValue store',
    );
    await expect(threaded.queryStore('windows', 'keyValue', 'all', [])).rejects.toThrow(
      'it is a window store',
    );
    const badKey = threaded.queryStore('windows', 'window', 'fetch', ['alice', Number.NaN]);
    await expect(badKey).rejects.toThrow('fetch: time');
    // The synchronous views stay refused: the stores are in the workers.
    expect(() => threaded.store('counts')).toThrow(EngineError);
  });
});
