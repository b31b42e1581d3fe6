// The Processor API's WindowStore and SessionStore over the engine's segmented stores (Kafka
// Streams' org.apache.kafka.streams.state.WindowStore / SessionStore as a processor sees them).
// Reads return arrays (Kafka's iterators, already drained); windowed keys are `{key, start, end}`
// (Windowed<K>), a time window's end being start + the store's window size. Writes take the
// timestamp of the record (or punctuation) being processed, which is what the changelog carries.
import type { KeyValue, SessionStore, WindowStore, Windowed } from '../papi/types.js';
import { windowedKey } from '../windows/windowed-key.js';
import type { SegmentedSessionStore, SessionEntry } from './session-store.js';
import { Slot } from './window-segments.js';
import type { SegmentedWindowStore, WindowEntry } from './window-store.js';

const MAX = Number.MAX_SAFE_INTEGER;

export function windowStoreFacade<K, V>(
  store: SegmentedWindowStore,
  windowSizeMs: number,
  timestamp: () => number,
): WindowStore<K, V> {
  // An entry never changes (a put makes a new one), so its windowed view is made once, frozen
  // (a reader changing it must not change what the next reader sees), and kept on the entry.
  const windowed = (e: WindowEntry): KeyValue<Windowed<K>, V> => {
    const cached = e instanceof Slot ? e.view : undefined;
    if (cached !== undefined) return cached as KeyValue<Windowed<K>, V>;
    const view = Object.freeze({
      key: Object.freeze(windowedKey(e.key, e.start, e.start + windowSizeMs)) as Windowed<K>,
      value: e.value as V,
    });
    if (e instanceof Slot) e.view = view;
    return view;
  };
  const byTime = (e: WindowEntry): KeyValue<number, V> => ({ key: e.start, value: e.value as V });
  // The store's result array is fresh for every read: turn it into the answer in place.
  const inPlace = <T>(entries: WindowEntry[], as: (e: WindowEntry) => T): T[] => {
    const out = entries as unknown[];
    for (let i = 0; i < out.length; i++) out[i] = as(entries[i]!);
    return out as T[];
  };
  function fetch(key: K, time: number): V | null;
  function fetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  function fetch(
    keyFrom: K | null,
    keyTo: K | null,
    timeFrom: number,
    timeTo: number,
  ): KeyValue<Windowed<K>, V>[];
  function fetch(...args: unknown[]): unknown {
    if (args.length === 2) return (store.fetch(args[0], args[1] as number)?.value as V) ?? null;
    if (args.length === 3)
      return inPlace(store.fetchRange(args[0], args[1] as number, args[2] as number), byTime);
    return inPlace(
      store.fetchKeyRange(args[0], args[1], args[2] as number, args[3] as number),
      windowed,
    );
  }
  function backwardFetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  function backwardFetch(
    keyFrom: K | null,
    keyTo: K | null,
    timeFrom: number,
    timeTo: number,
  ): KeyValue<Windowed<K>, V>[];
  function backwardFetch(...args: unknown[]): unknown {
    return (fetch as (...a: unknown[]) => unknown[])(...args).reverse();
  }
  return {
    name: store.name,
    put(key, value, windowStartTimestamp) {
      store.put(key, value, windowStartTimestamp, timestamp());
    },
    fetch,
    backwardFetch,
    fetchAll: (timeFrom, timeTo) => inPlace(store.fetchAll(timeFrom, timeTo), windowed),
    backwardFetchAll: (timeFrom, timeTo) =>
      inPlace(store.fetchAll(timeFrom, timeTo), windowed).reverse(),
    all: () => inPlace(store.all(), windowed),
    backwardAll: () => inPlace(store.all(), windowed).reverse(),
  };
}

export function sessionStoreFacade<K, AGG>(
  store: SegmentedSessionStore,
  timestamp: () => number,
): SessionStore<K, AGG> {
  const entry = (s: SessionEntry): KeyValue<Windowed<K>, AGG> => ({
    key: windowedKey(s.key, s.start, s.end) as Windowed<K>,
    value: s.value as AGG,
  });
  function findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): KeyValue<Windowed<K>, AGG>[];
  function findSessions(
    keyFrom: K | null,
    keyTo: K | null,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): KeyValue<Windowed<K>, AGG>[];
  function findSessions(...args: unknown[]): KeyValue<Windowed<K>, AGG>[] {
    if (args.length === 3)
      return store.findSessions(args[0], args[1] as number, args[2] as number).map(entry);
    return store
      .findSessionsInRange(args[0], args[1], args[2] as number, args[3] as number)
      .map(entry);
  }
  function backwardFindSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): KeyValue<Windowed<K>, AGG>[];
  function backwardFindSessions(
    keyFrom: K | null,
    keyTo: K | null,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): KeyValue<Windowed<K>, AGG>[];
  function backwardFindSessions(...args: unknown[]): KeyValue<Windowed<K>, AGG>[] {
    return (findSessions as (...a: unknown[]) => KeyValue<Windowed<K>, AGG>[])(...args).reverse();
  }
  function fetch(key: K): KeyValue<Windowed<K>, AGG>[];
  function fetch(keyFrom: K | null, keyTo: K | null): KeyValue<Windowed<K>, AGG>[];
  function fetch(...args: unknown[]): KeyValue<Windowed<K>, AGG>[] {
    return args.length === 1
      ? store.findSessions(args[0], 0, MAX).map(entry)
      : store.findSessionsInRange(args[0], args[1], 0, MAX).map(entry);
  }
  function backwardFetch(key: K): KeyValue<Windowed<K>, AGG>[];
  function backwardFetch(keyFrom: K | null, keyTo: K | null): KeyValue<Windowed<K>, AGG>[];
  function backwardFetch(...args: unknown[]): KeyValue<Windowed<K>, AGG>[] {
    return (fetch as (...a: unknown[]) => KeyValue<Windowed<K>, AGG>[])(...args).reverse();
  }
  return {
    name: store.name,
    findSessions,
    backwardFindSessions,
    fetchSession: (key, start, end) => (store.fetchSession(key, start, end) as AGG) ?? null,
    fetch,
    backwardFetch,
    remove(sessionKey) {
      store.remove(sessionKey.key, sessionKey.start, sessionKey.end, timestamp());
    },
    put(sessionKey, aggregate) {
      store.put(
        { key: sessionKey.key, start: sessionKey.start, end: sessionKey.end, value: aggregate },
        timestamp(),
      );
    },
  };
}
