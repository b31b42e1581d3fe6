import { validateTopology } from '@streamwright/topology-model';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamsApp } from '../api.js';
import { createEmbeddedBackend } from '../backends/embedded/index.js';
import { stringSerde } from '../serdes/index.js';
import { createStreamsApp } from './streams-app.js';
import { tempStateDir } from '../../test/fixtures/state-dir.js';

let app: StreamsApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function until(probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('StreamsApp#store (interactive queries)', () => {
  it('reads a key-value store across the tasks of every partition: get, range, all', async () => {
    const result = validateTopology({
      schemaVersion: 1,
      application: { id: 'iq-test', config: { 'commit.interval.ms': 50 } },
      topics: [
        { name: 'words', partitions: 3 },
        { name: 'counts', partitions: 3 },
      ],
      nodes: [
        { id: 'words', kind: 'source', config: { topic: 'words', valueSerde: 'string' } },
        { id: 'group', kind: 'groupByKey', config: {} },
        { id: 'count', kind: 'count', config: { store: 'word-counts' } },
        { id: 'changes', kind: 'toStream', config: {} },
        { id: 'out', kind: 'sink', config: { topic: 'counts', valueSerde: 'long' } },
      ],
      edges: [
        { from: 'words', to: 'group' },
        { from: 'group', to: 'count' },
        { from: 'count', to: 'changes' },
        { from: 'changes', to: 'out' },
      ],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const backend = await createEmbeddedBackend();
    app = createStreamsApp({ topology: result.topology, backend, stateDir: tempStateDir() });
    await app.start();
    const words = ['d', 'a', 'c', 'b', 'a', 'e', 'a', 'c'];
    await backend.produce(
      words.map((w) => ({
        topic: 'words',
        key: stringSerde.serialize(w),
        value: stringSerde.serialize(w),
      })),
    );
    const store = app.store('word-counts')!;
    await until(() => store.approximateNumEntries() === 5 && store.get('a')?.value === 3);
    expect(store.name).toBe('word-counts');
    expect(store.get('a')).toMatchObject({ value: 3 });
    expect(store.get('zzz')).toBeNull();
    expect(store.all().map((e) => [e.key, e.value])).toEqual([
      ['a', 3],
      ['b', 1],
      ['c', 2],
      ['d', 1],
      ['e', 1],
    ]);
    expect(store.range('b', 'd').map((e) => e.key)).toEqual(['b', 'c', 'd']);
    expect(store.range(null, 'b').map((e) => e.key)).toEqual(['a', 'b']);
    expect(store.range('d', null).map((e) => e.key)).toEqual(['d', 'e']);
    expect(app.store('no-such-store')).toBeNull();
    await backend.close();
  });

  it('prefix-scans a key-value store across the tasks of every partition, in key order', async () => {
    const result = validateTopology({
      schemaVersion: 1,
      application: { id: 'iq-prefix', config: { 'commit.interval.ms': 50 } },
      topics: [{ name: 'words', partitions: 3 }],
      nodes: [
        { id: 'words', kind: 'source', config: { topic: 'words', valueSerde: 'string' } },
        { id: 'group', kind: 'groupByKey', config: {} },
        { id: 'count', kind: 'count', config: { store: 'word-counts' } },
      ],
      edges: [
        { from: 'words', to: 'group' },
        { from: 'group', to: 'count' },
      ],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const backend = await createEmbeddedBackend();
    app = createStreamsApp({ topology: result.topology, backend, stateDir: tempStateDir() });
    await app.start();
    const words = ['apple', 'b', 'apricot', 'ap', 'banana', 'a', 'apple', 'bap'];
    await backend.produce(
      words.map((w) => ({
        topic: 'words',
        key: stringSerde.serialize(w),
        value: stringSerde.serialize(w),
      })),
    );
    const store = app.store('word-counts')!;
    await until(() => store.approximateNumEntries() === 7);
    // Kafka's prefixScan: serialized keys starting with the serialized prefix, by key bytes.
    expect(store.prefixScan('ap').map((e) => [e.key, e.value])).toEqual([
      ['ap', 1],
      ['apple', 2],
      ['apricot', 1],
    ]);
    expect(store.prefixScan('b').map((e) => e.key)).toEqual(['b', 'banana', 'bap']);
    expect(store.prefixScan('').map((e) => e.key)).toEqual(store.all().map((e) => e.key));
    expect(store.prefixScan('zz')).toEqual([]);
    await backend.close();
  });

  it('queries a versioned table latest and as of a time, and a restarted app restores its history', async () => {
    const result = validateTopology({
      schemaVersion: 1,
      application: { id: 'iq-versioned', config: { 'commit.interval.ms': 50 } },
      topics: [{ name: 'prices', partitions: 2 }],
      nodes: [
        {
          id: 'prices',
          kind: 'table',
          config: {
            topic: 'prices',
            valueSerde: 'string',
            store: 'prices-store',
            versioned: { historyRetentionMs: 1000 },
          },
        },
      ],
      edges: [],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const backend = await createEmbeddedBackend();
    const updates: [string, string, number][] = [
      ['a', 'a1', 100],
      ['b', 'b1', 150],
      ['a', 'a3', 300],
      ['a', 'a2', 200], // out of order: history
      ['b', 'b2', 400],
    ];
    const check = async (): Promise<void> => {
      const store = app!.store('prices-store')!;
      await until(() => store.get('b')?.value === 'b2' && store.get('a')?.value === 'a3');
      expect(store.get('a')).toEqual({ value: 'a3', timestamp: 300 });
      // IQv2 VersionedKeyQuery keeps validTo (StoreQueryUtils#deserializeVersionedRecord).
      expect(store.getAsOf!('a', 250)).toEqual({ value: 'a2', timestamp: 200, validTo: 300 });
      expect(store.getAsOf!('a', 199)).toEqual({ value: 'a1', timestamp: 100, validTo: 200 });
      expect(store.getAsOf!('a', 99)).toBeNull();
      expect(store.getAsOf!('b', 399)).toEqual({ value: 'b1', timestamp: 150, validTo: 400 });
      expect(store.getAsOf!('zzz', 400)).toBeNull();
    };
    app = createStreamsApp({ topology: result.topology, backend, stateDir: '/nonexistent' });
    await app.start();
    // One record at a time, so each partition sees them in this order.
    for (const [key, value, timestamp] of updates)
      await backend.produce([
        {
          topic: 'prices',
          key: stringSerde.serialize(key),
          value: stringSerde.serialize(value),
          timestamp,
        },
      ]);
    await check();
    await app.close();
    // The store is in memory: a new instance rebuilds every version from the changelog.
    app = createStreamsApp({ topology: result.topology, backend, stateDir: '/nonexistent' });
    await app.start();
    await check();
    expect(
      app
        .store('prices-store')!
        .all()
        .map((e) => [e.key, e.value]),
    ).toEqual([
      ['a', 'a3'],
      ['b', 'b2'],
    ]);
    await backend.close();
  });
});
