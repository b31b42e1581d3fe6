// Interactive queries on window and session stores (Kafka Streams' KafkaStreams#store with
// QueryableStoreTypes.timestampedWindowStore() / sessionStore()): one read-only view over every
// local instance of the store, one per task (each holds the keys of its partition). A key lives
// in one task, so single-key reads stop at the first instance that has it; range reads gather
// every instance and order the result as one store would (Kafka's composite stores concatenate
// the instances instead; one order across tasks is what a browser of the store wants).
import type {
  QueriedSession,
  QueriedWindow,
  QueriedWindowOfKey,
  QueryableSessionStore,
  QueryableWindowStore,
} from '../api.js';
import type { SegmentedSessionStore, SessionEntry } from '../state/session-store.js';
import type { SegmentedWindowStore, WindowEntry } from '../state/window-store.js';
import {
  MEMORY_ORDER,
  sortSessionRows,
  sortWindowRows,
  type WindowedOrder,
  type WindowedOrders,
} from './windowed-store-order.js';

const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

const isBound = (k: unknown): boolean => k !== null && k !== undefined;
const EMPTY = new Uint8Array(0);

function requireTime(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new TypeError(`${what}: expected a time in epoch milliseconds, got ${String(value)}`);
  return value;
}

export function queryableWindowStore(
  name: string,
  windowSizeMs: number,
  instances: () => SegmentedWindowStore[],
  /** How range reads are ordered: the store's own (in-memory) order or RocksDB's segments. */
  orders: WindowedOrders = { scan: MEMORY_ORDER, keyRange: MEMORY_ORDER },
): QueryableWindowStore {
  const windowed = (e: WindowEntry): QueriedWindow => ({
    key: { key: e.key, start: e.start, end: e.start + windowSizeMs },
    value: e.value,
    timestamp: e.timestamp,
  });
  const ofKey = (e: WindowEntry): QueriedWindowOfKey => ({
    key: e.start,
    value: e.value,
    timestamp: e.timestamp,
  });
  // In memory: by start, then key bytes (then put order, for stores with duplicates), the
  // store's own order; persistent: RocksDB's, by segment, then stored key bytes.
  const merged = (
    order: WindowedOrder,
    read: (s: SegmentedWindowStore) => WindowEntry[],
  ): QueriedWindow[] => {
    const stores = instances();
    if (stores.length === 1 && order.kind === 'memory') return read(stores[0]!).map(windowed);
    const all: WindowEntry[] = [];
    for (const s of stores) for (const e of read(s)) all.push(e);
    const first = stores[0];
    if (first === undefined) return [];
    if (order.kind === 'memory')
      all.sort((a, b) => a.start - b.start || first.compareKeys(a.key, b.key));
    else
      sortWindowRows(order, all, (e) => ({
        key: first.serializeKey(e.key) ?? EMPTY,
        start: e.start,
      }));
    return all.map(windowed);
  };
  const fetchOfKey = (key: unknown, from: number, to: number): QueriedWindowOfKey[] => {
    for (const s of instances()) {
      const found = s.fetchRange(key, from, to);
      if (found.length > 0) return found.map(ofKey);
    }
    return [];
  };
  const fetchRange = (keyFrom: unknown, keyTo: unknown, from: number, to: number) =>
    merged(orders.keyRange, (s) => s.fetchKeyRange(keyFrom, keyTo, from, to));

  function fetch(key: unknown, time: number): { value: unknown; timestamp: number } | null;
  function fetch(key: unknown, timeFrom: number, timeTo: number): QueriedWindowOfKey[];
  function fetch(
    keyFrom: unknown,
    keyTo: unknown,
    timeFrom: number,
    timeTo: number,
  ): QueriedWindow[];
  function fetch(...args: unknown[]): unknown {
    if (args.length === 2) {
      if (!isBound(args[0])) throw new TypeError('fetch: key cannot be null');
      const time = requireTime(args[1], 'fetch: time');
      for (const s of instances()) {
        const found = s.fetch(args[0], time);
        if (found !== undefined && found.value !== null)
          return { value: found.value, timestamp: found.timestamp };
      }
      return null;
    }
    if (args.length === 3) {
      if (!isBound(args[0])) throw new TypeError('fetch: key cannot be null');
      return fetchOfKey(
        args[0],
        requireTime(args[1], 'fetch: timeFrom'),
        requireTime(args[2], 'fetch: timeTo'),
      );
    }
    return fetchRange(
      args[0],
      args[1],
      requireTime(args[2], 'fetch: timeFrom'),
      requireTime(args[3], 'fetch: timeTo'),
    );
  }
  function backwardFetch(key: unknown, timeFrom: number, timeTo: number): QueriedWindowOfKey[];
  function backwardFetch(
    keyFrom: unknown,
    keyTo: unknown,
    timeFrom: number,
    timeTo: number,
  ): QueriedWindow[];
  function backwardFetch(...args: unknown[]): unknown[] {
    if (args.length === 3) return fetch(args[0], args[1] as number, args[2] as number).reverse();
    return fetch(args[0], args[1], args[2] as number, args[3] as number).reverse();
  }
  const fetchAll = (timeFrom: number, timeTo: number): QueriedWindow[] => {
    const from = requireTime(timeFrom, 'fetchAll: timeFrom');
    const to = requireTime(timeTo, 'fetchAll: timeTo');
    return merged(orders.scan, (s) => s.fetchAll(from, to));
  };
  return {
    name,
    windowSizeMs,
    fetch,
    backwardFetch,
    fetchAll,
    backwardFetchAll: (timeFrom, timeTo) => fetchAll(timeFrom, timeTo).reverse(),
    all: () => merged(orders.scan, (s) => s.fetchAll(MIN, MAX)),
    backwardAll: () => merged(orders.scan, (s) => s.fetchAll(MIN, MAX)).reverse(),
    approximateNumEntries: () => instances().reduce((n, s) => n + s.approximateNumEntries(), 0),
  };
}

export function queryableSessionStore(
  name: string,
  instances: () => SegmentedSessionStore[],
  /** How range reads are ordered: the store's own (in-memory) order or RocksDB's segments. */
  order: WindowedOrder = MEMORY_ORDER,
): QueryableSessionStore {
  const session = (s: SessionEntry): QueriedSession => ({
    key: { key: s.key, start: s.start, end: s.end },
    value: s.value,
  });
  // In memory: by end, then key bytes, then start, the store's own order; persistent: RocksDB's,
  // by segment (of the end), then stored key bytes.
  const merged = (read: (s: SegmentedSessionStore) => SessionEntry[]): QueriedSession[] => {
    const stores = instances();
    if (stores.length === 1 && order.kind === 'memory') return read(stores[0]!).map(session);
    const all: SessionEntry[] = [];
    for (const s of stores) for (const e of read(s)) all.push(e);
    const first = stores[0];
    if (first === undefined) return [];
    if (order.kind === 'memory')
      all.sort((a, b) => a.end - b.end || first.compareKeys(a.key, b.key) || a.start - b.start);
    else
      sortSessionRows(order, all, (e) => ({
        key: first.serializeKey(e.key) ?? EMPTY,
        start: e.start,
        end: e.end,
      }));
    return all.map(session);
  };
  const ofKey = (key: unknown, earliestEnd: number, latestStart: number): QueriedSession[] => {
    if (!isBound(key)) throw new TypeError('findSessions: key cannot be null');
    for (const s of instances()) {
      const found = s.findSessions(key, earliestEnd, latestStart);
      if (found.length > 0) return found.map(session);
    }
    return [];
  };

  function findSessions(
    key: unknown,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): QueriedSession[];
  function findSessions(
    keyFrom: unknown,
    keyTo: unknown,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): QueriedSession[];
  function findSessions(...args: unknown[]): QueriedSession[] {
    if (args.length === 3)
      return ofKey(
        args[0],
        requireTime(args[1], 'findSessions: earliestSessionEndTime'),
        requireTime(args[2], 'findSessions: latestSessionStartTime'),
      );
    const earliestEnd = requireTime(args[2], 'findSessions: earliestSessionEndTime');
    const latestStart = requireTime(args[3], 'findSessions: latestSessionStartTime');
    return merged((s) => s.findSessionsInRange(args[0], args[1], earliestEnd, latestStart));
  }
  function backwardFindSessions(
    key: unknown,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): QueriedSession[];
  function backwardFindSessions(
    keyFrom: unknown,
    keyTo: unknown,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): QueriedSession[];
  function backwardFindSessions(...args: unknown[]): QueriedSession[] {
    return (findSessions as (...a: unknown[]) => QueriedSession[])(...args).reverse();
  }
  function fetch(key: unknown): QueriedSession[];
  function fetch(keyFrom: unknown, keyTo: unknown): QueriedSession[];
  function fetch(...args: unknown[]): QueriedSession[] {
    return args.length === 1
      ? ofKey(args[0], MIN, MAX)
      : merged((s) => s.findSessionsInRange(args[0], args[1], MIN, MAX));
  }
  function backwardFetch(key: unknown): QueriedSession[];
  function backwardFetch(keyFrom: unknown, keyTo: unknown): QueriedSession[];
  function backwardFetch(...args: unknown[]): QueriedSession[] {
    return (fetch as (...a: unknown[]) => QueriedSession[])(...args).reverse();
  }
  return {
    name,
    fetch,
    backwardFetch,
    findSessions,
    backwardFindSessions,
    fetchSession(key, sessionStartTime, sessionEndTime) {
      if (!isBound(key)) throw new TypeError('fetchSession: key cannot be null');
      const start = requireTime(sessionStartTime, 'fetchSession: sessionStartTime');
      const end = requireTime(sessionEndTime, 'fetchSession: sessionEndTime');
      for (const s of instances()) {
        const found = s.fetchSession(key, start, end);
        if (found !== null && found !== undefined) return found;
      }
      return null;
    },
    approximateNumEntries: () => instances().reduce((n, s) => n + s.approximateNumEntries(), 0),
  };
}
