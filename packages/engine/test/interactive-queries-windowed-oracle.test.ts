// Interactive queries on window and session stores (StreamsApp#windowStore / #sessionStore, Kafka
// Streams' ReadOnlyWindowStore / ReadOnlySessionStore) of a running app with 3 input partitions
// (so 3 tasks, each holding some keys). What the stores hold comes from Kafka Streams: the same
// document and input run on its TopologyTestDriver (tools/ks-oracle), whose store contents (all()
// of the window store, fetch over every key of the session store, in Kafka's order) our merged
// views must equal; each narrower query must return its slice of that, in the same order. Each
// store runs in memory and persistent (the default): Kafka's in-memory stores iterate windows by
// start, then key (sessions by end, then key); its RocksDB ones segment by segment, then by the
// stored key's bytes (key, then time), and ours answer in the same order.
import { runOracle } from '@streamwright/ks-oracle';
import { validateTopology, type WindowSpec } from '@streamwright/topology-model';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamsApp } from '../src/api.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { createStreamsApp } from '../src/app/streams-app.js';
import { stringSerde } from '../src/serdes/index.js';

let app: StreamsApp | null = null;
let stateDir: string | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  if (stateDir !== null) rmSync(stateDir, { recursive: true, force: true });
  stateDir = null;
});

type StoreType = 'inMemory' | 'persistent';

type Emit = 'onWindowUpdate' | 'onWindowClose';

function doc(window: WindowSpec, store: string, storeType: StoreType, emitStrategy: Emit) {
  return {
    schemaVersion: 1,
    application: { id: `iq-${store}`, config: { 'commit.interval.ms': 50 } },
    topics: [{ name: 'clicks', partitions: 3 }],
    nodes: [
      {
        id: 'src',
        kind: 'source',
        config: { topic: 'clicks', keySerde: 'string', valueSerde: 'string' },
      },
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'w', kind: 'windowedBy', config: { window, emitStrategy } },
      // Kept 2 minutes, so the early windows are still there at the end (default: size + grace);
      // persistent stores have segments of max(retention / 2, 60 s): two of them here.
      {
        id: 'count',
        kind: 'windowedCount',
        config: { store, retentionMs: 120_000, storeType },
      },
    ],
    edges: [
      { from: 'src', to: 'g' },
      { from: 'g', to: 'w' },
      { from: 'w', to: 'count' },
    ],
  };
}

// Keys spread over the 3 partitions, out of order in time. Each of our tasks has its own stream
// time (one partition in the TopologyTestDriver: one stream time), so the grace is long enough
// that no record is late anywhere and the store contents do not depend on the partitioning.
const clicks: [string, number][] = [
  ['alice', 1000],
  ['bob', 2000],
  ['carol', 3500],
  ['alice', 4000],
  ['dave', 6000],
  ['bob', 7000],
  ['erin', 12_000],
  ['alice', 11_000],
  ['carol', 9000],
  ['bob', 13_000],
  ['dave', 30_000],
  ['alice', 14_000],
  ['frank', 31_000],
  // Past the first minute: the persistent stores' second segment.
  ['bob', 61_000],
  ['carol', 58_000],
  ['alice', 64_000],
  ['dave', 90_000],
];

type WindowFetch = {
  keyFrom: string | null;
  keyTo: string | null;
  timeFrom: number;
  timeTo: number;
};

async function runBoth(
  window: WindowSpec,
  store: string,
  storeType: StoreType,
  emit: Emit,
  fetches: WindowFetch[] = [],
) {
  const topology = doc(window, store, storeType, emit);
  const inputs = clicks.map(([key, timestamp]) => ({
    topic: 'clicks',
    key,
    value: 'x',
    timestamp,
  }));
  const windowFetches = fetches.map((f) => ({ store, ...f }));
  const [oracle] = await runOracle([
    { name: store, topology, inputs, stores: [store], windowFetches },
  ]);
  if (oracle?.error !== undefined || !oracle?.stores) throw new Error(oracle?.error ?? 'no result');
  const validated = validateTopology(topology);
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  const backend = await createEmbeddedBackend();
  stateDir = mkdtempSync(join(tmpdir(), 'iq-windowed-'));
  app = createStreamsApp({ topology: validated.topology, backend, stateDir });
  await app.start();
  await backend.produce(
    inputs.map((r) => ({
      topic: 'clicks',
      key: stringSerde.serialize(r.key),
      value: stringSerde.serialize(r.value),
      timestamp: r.timestamp,
    })),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    let processed = 0;
    for (const t of Object.values(app.metrics().threads)) processed += t['process-total'] ?? 0;
    if (processed >= clicks.length) break;
    if (Date.now() > deadline) throw new Error(`processed ${processed} of ${clicks.length}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { expected: oracle.stores[store]!, fetched: oracle.windowFetches ?? [], backend };
}

// onWindowClose aggregations use Kafka's time-ordered stores: time first in their window keys
// (so the in-memory order), sessions read through a key-first index (so RocksDB's order).
const variants: [StoreType, Emit][] = [
  ['inMemory', 'onWindowUpdate'],
  ['persistent', 'onWindowUpdate'],
  ['persistent', 'onWindowClose'],
];

describe.each(variants)('%s stores, %s', (storeType, emit) => {
  const persistent = storeType === 'persistent';
  it('window stores, hopping 10 s / 5 s: all, fetch by key and time, key and time ranges, backward', async () => {
    const window: WindowSpec = {
      type: 'hopping',
      sizeMs: 10_000,
      advanceMs: 5000,
      graceMs: 60_000,
    };
    const { expected, backend } = await runBoth(window, 'click-counts', storeType, emit);
    type W = [string, number, number, number, number];
    const windows = expected as W[];
    expect(windows.length).toBeGreaterThan(10);
    // Kafka's RocksDB order is not its in-memory one here (key before time within a segment).
    const byStart = [...windows].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
    if (persistent && emit === 'onWindowUpdate') expect(windows).not.toEqual(byStart);
    else expect(windows).toEqual(byStart);
    const store = app!.windowStore('click-counts')!;
    expect(store.windowSizeMs).toBe(10_000);
    const rows = (
      ws: {
        key: { key: unknown; start: number; end: number };
        value: unknown;
        timestamp: number;
      }[],
    ) => ws.map((w) => [w.key.key, w.key.start, w.key.end, w.value, w.timestamp]);
    expect(rows(store.all())).toEqual(windows);
    expect(rows(store.backwardAll())).toEqual([...windows].reverse());
    expect(store.approximateNumEntries()).toBe(windows.length);

    // fetch(key, time): exactly the window starting at `time`.
    for (const [key, start, , count, timestamp] of windows)
      expect(store.fetch(key, start)).toEqual({ value: count, timestamp });
    expect(store.fetch('alice', 2500)).toBeNull();
    expect(store.fetch('nobody', 0)).toBeNull();

    // fetch(key, timeFrom, timeTo): the key's windows starting within the bounds, by start.
    const alice = windows.filter((w) => w[0] === 'alice' && w[1] >= 0 && w[1] <= 10_000);
    expect(store.fetch('alice', 0, 10_000)).toEqual(
      alice.map(([, start, , value, timestamp]) => ({ key: start, value, timestamp })),
    );
    expect(store.backwardFetch('alice', 0, 10_000).map((w) => w.key)).toEqual(
      alice.map((w) => w[1]).reverse(),
    );

    // fetch(keyFrom, keyTo, timeFrom, timeTo) and fetchAll(timeFrom, timeTo).
    const slice = windows.filter(
      (w) => w[0] >= 'bob' && w[0] <= 'dave' && w[1] >= 5000 && w[1] <= 25_000,
    );
    expect(rows(store.fetch('bob', 'dave', 5000, 25_000))).toEqual(slice);
    expect(rows(store.backwardFetch('bob', 'dave', 5000, 25_000))).toEqual([...slice].reverse());
    expect(rows(store.fetch(null, 'bob', 0, 5000))).toEqual(
      windows.filter((w) => w[0] <= 'bob' && w[1] <= 5000),
    );
    const inTime = windows.filter((w) => w[1] >= 5000 && w[1] <= 10_000);
    expect(rows(store.fetchAll(5000, 10_000))).toEqual(inTime);
    expect(rows(store.backwardFetchAll(5000, 10_000))).toEqual([...inTime].reverse());

    expect(app!.windowStore('no-such-store')).toBeNull();
    expect(() => app!.sessionStore('click-counts')).toThrow(
      'Cannot get state store click-counts because the queryable store type [sessionStore] does not accept the state store: it is a window store',
    );
    expect(() => store.fetch('alice', Number.NaN)).toThrow('fetch: time');
    await backend.close();
  });

  it('session stores, 5 s inactivity gap: fetch, findSessions, fetchSession, backward', async () => {
    const { expected, backend } = await runBoth(
      { type: 'session', gapMs: 5000, graceMs: 60_000 },
      'sessions',
      storeType,
      emit,
    );
    type S = [string, number, number, number];
    const sessions = expected as S[];
    expect(sessions.length).toBeGreaterThan(5);
    const byEnd = [...sessions].sort(
      (a, b) => a[2] - b[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]),
    );
    if (persistent) expect(sessions).not.toEqual(byEnd);
    else expect(sessions).toEqual(byEnd);
    const store = app!.sessionStore('sessions')!;
    const rows = (ss: { key: { key: unknown; start: number; end: number }; value: unknown }[]) =>
      ss.map((s) => [s.key.key, s.key.start, s.key.end, s.value]);
    expect(rows(store.fetch(null, null))).toEqual(sessions);
    expect(rows(store.backwardFetch(null, null))).toEqual([...sessions].reverse());
    expect(store.approximateNumEntries()).toBe(sessions.length);
    expect(rows(store.fetch('alice'))).toEqual(sessions.filter((s) => s[0] === 'alice'));
    expect(rows(store.fetch('bob', 'carol'))).toEqual(
      sessions.filter((s) => s[0] >= 'bob' && s[0] <= 'carol'),
    );
    // findSessions: ending at or after the first bound, starting at or before the second.
    const found = sessions.filter((s) => s[0] === 'bob' && s[2] >= 5000 && s[1] <= 20_000);
    expect(rows(store.findSessions('bob', 5000, 20_000))).toEqual(found);
    expect(rows(store.backwardFindSessions('bob', 5000, 20_000))).toEqual([...found].reverse());
    const ranged = sessions.filter((s) => s[0] >= 'alice' && s[0] <= 'dave' && s[2] >= 10_000);
    expect(rows(store.findSessions('alice', 'dave', 10_000, Number.MAX_SAFE_INTEGER))).toEqual(
      ranged,
    );
    for (const [key, start, end, count] of sessions)
      expect(store.fetchSession(key, start, end)).toBe(count);
    expect(store.fetchSession('alice', 0, 1)).toBeNull();
    expect(() => app!.windowStore('sessions')).toThrow('it is a session store');
    await backend.close();
  });
});

describe.each(['onWindowUpdate', 'onWindowClose'] as const)(
  'persistent sliding-window stores, %s',
  (emit) => {
    it('all() and key-range fetches in the order of the store Kafka Streams uses', async () => {
      // onWindowClose: Kafka's time-ordered store with a key-first index for key ranges.
      const fetches: WindowFetch[] = [
        { keyFrom: 'bob', keyTo: 'dave', timeFrom: 0, timeTo: 100_000 },
        { keyFrom: null, keyTo: null, timeFrom: 2000, timeTo: 70_000 },
        { keyFrom: 'alice', keyTo: 'alice', timeFrom: 0, timeTo: 100_000 },
      ];
      const { expected, fetched, backend } = await runBoth(
        { type: 'sliding', timeDifferenceMs: 5000, graceMs: 60_000 },
        'sliding-counts',
        'persistent',
        emit,
        fetches,
      );
      expect(expected.length).toBeGreaterThan(10);
      expect(fetched).toHaveLength(fetches.length);
      const store = app!.windowStore('sliding-counts')!;
      const rows = (
        ws: {
          key: { key: unknown; start: number; end: number };
          value: unknown;
          timestamp: number;
        }[],
      ) => ws.map((w) => [w.key.key, w.key.start, w.key.end, w.value, w.timestamp]);
      expect(rows(store.all())).toEqual(expected);
      // The key ranges' order differs from all()'s where Kafka reads the index (onWindowClose).
      type W = [string, number, number, number, number];
      const inTime = (expected as W[]).filter((w) => w[1] >= 2000 && w[1] <= 70_000);
      if (emit === 'onWindowClose') expect(fetched[1]).not.toEqual(inTime);
      else expect(fetched[1]).toEqual(inTime);
      fetches.forEach((f, i) => {
        expect(fetched[i]!.length, `fetch ${i} finds windows`).toBeGreaterThan(0);
        expect(rows(store.fetch(f.keyFrom, f.keyTo, f.timeFrom, f.timeTo))).toEqual(fetched[i]);
      });
      await backend.close();
    });
  },
);
