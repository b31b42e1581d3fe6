// Interactive queries' read-only views (Kafka Streams' ReadOnlyKeyValueStore, ReadOnlyWindowStore,
// ReadOnlySessionStore), part of the engine's public contract in api.ts.

/** Interactive queries: a read-only view over every local instance of a key-value store. */
export interface QueryableKeyValueStore {
  readonly name: string;
  get(key: unknown): { value: unknown; timestamp: number } | null;
  /** from ≤ key ≤ to in the store's order (serialized key bytes); a null bound is open. */
  range(from: unknown, to: unknown): { key: unknown; value: unknown; timestamp: number }[];
  /** Every entry, in the store's order. */
  all(): { key: unknown; value: unknown; timestamp: number }[];
  /**
   * ReadOnlyKeyValueStore#prefixScan: the entries whose serialized key starts with `prefix`
   * serialized by the store's key serde (Kafka takes a prefix serializer; here it is the key's),
   * in the store's order.
   */
  prefixScan(prefix: unknown): { key: unknown; value: unknown; timestamp: number }[];
  approximateNumEntries(): number;
  /**
   * Versioned stores only (IQv2's VersionedKeyQuery.withKey(key).asOf(asOf)): the version valid
   * at `asOf`, with validTo when a later version exists; get(), range() and all() read the
   * latest versions.
   */
  getAsOf?(
    key: unknown,
    asOf: number,
  ): { value: unknown; timestamp: number; validTo?: number } | null;
}

/** A window of a window store as interactive queries return it: Windowed<K> and the value. */
export interface QueriedWindow {
  /** The windowed key (Kafka's Windowed<K>): end = start + the store's window size. */
  key: { key: unknown; start: number; end: number };
  value: unknown;
  /** The timestamp the value was put with (the DSL's timestamped window stores). */
  timestamp: number;
}

/** One window of one key (fetch(key, timeFrom, timeTo)): keyed by the window's start. */
export interface QueriedWindowOfKey {
  key: number;
  value: unknown;
  timestamp: number;
}

/**
 * Interactive queries on a window store (Kafka Streams' ReadOnlyWindowStore, as
 * QueryableStoreTypes.timestampedWindowStore() gives it): a read-only view over every local
 * instance, one per task. Times are window starts, both bounds inclusive; key ranges are in the
 * store's key order (serialized bytes), a null bound open. Range results are ordered by window
 * start, then key bytes, across all tasks; backward* return the same in reverse.
 */
export interface QueryableWindowStore {
  readonly name: string;
  /** The window size: a window's end is its start + this (0 when the store does not know it). */
  readonly windowSizeMs: number;
  /** fetch(key, time): the key's window starting at `time`, or null. */
  fetch(key: unknown, time: number): { value: unknown; timestamp: number } | null;
  /** fetch(key, timeFrom, timeTo): the key's windows starting within [timeFrom, timeTo]. */
  fetch(key: unknown, timeFrom: number, timeTo: number): QueriedWindowOfKey[];
  /** fetch(keyFrom, keyTo, timeFrom, timeTo). */
  fetch(keyFrom: unknown, keyTo: unknown, timeFrom: number, timeTo: number): QueriedWindow[];
  backwardFetch(key: unknown, timeFrom: number, timeTo: number): QueriedWindowOfKey[];
  backwardFetch(
    keyFrom: unknown,
    keyTo: unknown,
    timeFrom: number,
    timeTo: number,
  ): QueriedWindow[];
  fetchAll(timeFrom: number, timeTo: number): QueriedWindow[];
  backwardFetchAll(timeFrom: number, timeTo: number): QueriedWindow[];
  all(): QueriedWindow[];
  backwardAll(): QueriedWindow[];
  approximateNumEntries(): number;
}

/** A session as interactive queries return it: Windowed<K> (the session's bounds) and its aggregate. */
export interface QueriedSession {
  key: { key: unknown; start: number; end: number };
  value: unknown;
}

/**
 * Interactive queries on a session store (Kafka Streams' ReadOnlySessionStore): a read-only view
 * over every local instance. Results are ordered by session end, then key bytes, then start,
 * across all tasks; backward* return the same in reverse.
 */
export interface QueryableSessionStore {
  readonly name: string;
  /** fetch(key): every session of the key; fetch(keyFrom, keyTo): of the keys in the range. */
  fetch(key: unknown): QueriedSession[];
  fetch(keyFrom: unknown, keyTo: unknown): QueriedSession[];
  backwardFetch(key: unknown): QueriedSession[];
  backwardFetch(keyFrom: unknown, keyTo: unknown): QueriedSession[];
  /** Sessions ending at or after earliestSessionEndTime and starting at or before latestSessionStartTime. */
  findSessions(
    key: unknown,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): QueriedSession[];
  findSessions(
    keyFrom: unknown,
    keyTo: unknown,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): QueriedSession[];
  backwardFindSessions(
    key: unknown,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): QueriedSession[];
  backwardFindSessions(
    keyFrom: unknown,
    keyTo: unknown,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): QueriedSession[];
  /** fetchSession(key, start, end): the aggregate of exactly that session, or null. */
  fetchSession(key: unknown, sessionStartTime: number, sessionEndTime: number): unknown;
  approximateNumEntries(): number;
}
