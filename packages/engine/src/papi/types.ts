// The Processor API as users write it (Kafka Streams' org.apache.kafka.streams.processor.api).
// Everything here is synchronous: process(), forward() and store access run on the record path.
import type { Cancellable, PunctuationType, Punctuator } from '../processor/punctuation.js';

export type { Cancellable, PunctuationType, Punctuator } from '../processor/punctuation.js';

/**
 * Record headers as UTF-8 text, one value per key (the last of a repeated key). Kafka's headers
 * are an ordered list of byte values in which keys may repeat: `headerEntries(headers)` gives
 * them exactly for headers read from a topic, and `headersOf([{ key, value }])` builds headers
 * with binary values, repeated keys and an order of their own. Headers passed on unchanged are
 * written out exactly as read; headers edited as text are written as UTF-8 text.
 */
export type Headers = Record<string, string>;

/**
 * Kafka Streams' `Record<K, V>`: key, value, timestamp (epoch ms) and headers. Plain and
 * immutable by convention: forward a new object (`{ ...record, value }`) instead of mutating.
 * A record read without headers has a shared frozen empty `headers`: to add one, forward
 * `{ ...record, headers: { ...record.headers, name: value } }` (text) or
 * `{ ...record, headers: headersOf([...headerEntries(record.headers), { key, value: bytes }]) }`.
 */
export interface StreamRecord<K, V> {
  readonly key: K;
  readonly value: V;
  readonly timestamp: number;
  readonly headers: Headers;
}

/** Where the record being processed was read from (Kafka Streams' RecordMetadata). */
export interface RecordMetadata {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
}

/** Kafka Streams' KeyValueStore as a processor sees it (keys compared by their serialized bytes). */
export interface KeyValueStore<K, V> {
  readonly name: string;
  get(key: K): V | null;
  /** A null value deletes the key, as in Kafka Streams. */
  put(key: K, value: V | null): void;
  /** Returns the previous value; stores only when there was none. */
  putIfAbsent(key: K, value: V): V | null;
  putAll(entries: Iterable<readonly [K, V | null]>): void;
  /** Returns the deleted value. */
  delete(key: K): V | null;
  /** Entries with from ≤ key ≤ to (serialized byte order), ascending; null bounds are open. */
  range(from: K | null, to: K | null): KeyValue<K, V>[];
  reverseRange(from: K | null, to: K | null): KeyValue<K, V>[];
  /** Every entry, ascending by serialized key bytes. */
  all(): KeyValue<K, V>[];
  reverseAll(): KeyValue<K, V>[];
  /** Entries whose serialized key starts with the serialized prefix. */
  prefixScan<P>(prefix: P, prefixSerializer: (prefix: P) => Uint8Array | null): KeyValue<K, V>[];
  approximateNumEntries(): number;
}

/**
 * Kafka Streams' VersionedRecord: a value valid from `timestamp`. Kafka 4.1's store layer returns
 * it without validTo from get and delete (checked against 4.1); put's result is the validTo.
 */
export interface VersionedRecord<V> {
  readonly value: V;
  readonly timestamp: number;
  /** The next version's timestamp, where known (never from a processor's store, as in Kafka). */
  readonly validTo?: number;
}

/**
 * Kafka Streams' VersionedKeyValueStore (KIP-889, Stores.versionedKeyValueStoreBuilder): every
 * put is a version of its key valid from its timestamp until the next version's. The store's
 * observed stream time is the largest timestamp put; history older than observed stream time −
 * historyRetention is gone (puts are refused, gets as of then answer null unless the latest
 * version is old enough).
 */
export interface VersionedKeyValueStore<K, V> {
  readonly name: string;
  /**
   * Returns the new version's validTo: PUT_RETURN_CODE_VALID_TO_UNDEFINED (-1) when it is the
   * latest, PUT_RETURN_CODE_NOT_PUT (Number.MIN_SAFE_INTEGER) when older than the history
   * retention. A null value is a tombstone.
   */
  put(key: K, value: V | null, timestamp: number): number;
  /** A tombstone at `timestamp`; returns the version valid at `timestamp` (or null). */
  delete(key: K, timestamp: number): VersionedRecord<V> | null;
  /** The latest version, or null (none, or a tombstone). */
  get(key: K): VersionedRecord<V> | null;
  /** The version valid at `asOfTimestamp`, or null. */
  get(key: K, asOfTimestamp: number): VersionedRecord<V> | null;
}

export interface KeyValue<K, V> {
  readonly key: K;
  readonly value: V;
}

/** Kafka Streams' Windowed<K>: a key and its window (a session's start and end, both inclusive). */
export interface Windowed<K> {
  readonly key: K;
  readonly start: number;
  readonly end: number;
}

/**
 * Kafka Streams' WindowStore as a processor sees it (Stores.windowStoreBuilder). Windows are
 * identified by key and start; reads see only windows starting after stream time − retention.
 * Results come ordered by window start (key ranges: then by the keys' serialized bytes, as
 * Kafka's in-memory window store orders them).
 */
export interface WindowStore<K, V> {
  readonly name: string;
  /** put(key, value, windowStartTimestamp); a null value deletes (not with retainDuplicates). */
  put(key: K, value: V | null, windowStartTimestamp: number): void;
  /** The value of the key's window starting at `time`, or null. */
  fetch(key: K, time: number): V | null;
  /** The key's windows starting within [timeFrom, timeTo]: key = the window start. */
  fetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  /** Windows of keys within [keyFrom, keyTo] (null: open) starting within [timeFrom, timeTo]. */
  fetch(
    keyFrom: K | null,
    keyTo: K | null,
    timeFrom: number,
    timeTo: number,
  ): KeyValue<Windowed<K>, V>[];
  backwardFetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  backwardFetch(
    keyFrom: K | null,
    keyTo: K | null,
    timeFrom: number,
    timeTo: number,
  ): KeyValue<Windowed<K>, V>[];
  fetchAll(timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  backwardFetchAll(timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  all(): KeyValue<Windowed<K>, V>[];
  backwardAll(): KeyValue<Windowed<K>, V>[];
}

/**
 * Kafka Streams' SessionStore as a processor sees it (Stores.sessionStoreBuilder). Sessions are
 * identified by key, start and end; results are ordered by end, then key bytes, then start.
 */
export interface SessionStore<K, AGG> {
  readonly name: string;
  /** Sessions of the key ending at or after the first bound and starting at or before the second. */
  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): KeyValue<Windowed<K>, AGG>[];
  findSessions(
    keyFrom: K | null,
    keyTo: K | null,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): KeyValue<Windowed<K>, AGG>[];
  backwardFindSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): KeyValue<Windowed<K>, AGG>[];
  backwardFindSessions(
    keyFrom: K | null,
    keyTo: K | null,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): KeyValue<Windowed<K>, AGG>[];
  fetchSession(key: K, sessionStartTime: number, sessionEndTime: number): AGG | null;
  /** Every session of the key (of keys within the range). */
  fetch(key: K): KeyValue<Windowed<K>, AGG>[];
  fetch(keyFrom: K | null, keyTo: K | null): KeyValue<Windowed<K>, AGG>[];
  backwardFetch(key: K): KeyValue<Windowed<K>, AGG>[];
  backwardFetch(keyFrom: K | null, keyTo: K | null): KeyValue<Windowed<K>, AGG>[];
  remove(sessionKey: Windowed<K>): void;
  put(sessionKey: Windowed<K>, aggregate: AGG): void;
}

interface BaseContext {
  readonly applicationId: string;
  /** `<subtopology>_<partition>`, e.g. `0_1`. */
  readonly taskId: string;
  /** Metadata of the input record being processed; null inside a punctuation. */
  recordMetadata(): RecordMetadata | null;
  /** The task's stream time (largest record timestamp processed), or -1 before the first record. */
  currentStreamTimeMs(): number;
  currentSystemTimeMs(): number;
  /**
   * STREAM_TIME fires as records advance stream time (aligned to 0: as soon as there is data);
   * WALL_CLOCK_TIME fires `intervalMs` after scheduling, then every interval. Missed punctuations
   * are skipped, not replayed.
   */
  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable;
  /** Only stores connected to this processor are visible (Kafka Streams throws otherwise). */
  getStateStore<S = KeyValueStore<unknown, unknown>>(name: string): S;
  /** Requests a commit as soon as possible (after the current record). */
  commit(): void;
}

export interface ProcessorContext<KForward = unknown, VForward = unknown> extends BaseContext {
  /** To every child, or only to the child named `childName`; depth-first and synchronous. */
  forward<K extends KForward, V extends VForward>(
    record: StreamRecord<K, V>,
    childName?: string,
  ): void;
}

export interface FixedKeyProcessorContext<
  KForward = unknown,
  VForward = unknown,
> extends BaseContext {
  /** The key of a forwarded record is always the input record's key. */
  forward<V extends VForward>(record: FixedKeyRecord<KForward, V>, childName?: string): void;
}

/** A record whose key a FixedKeyProcessor cannot change. */
export type FixedKeyRecord<K, V> = StreamRecord<K, V> & { readonly [fixedKey]: true };
declare const fixedKey: unique symbol;

export interface Processor<KIn = unknown, VIn = unknown, KOut = unknown, VOut = unknown> {
  init?(context: ProcessorContext<KOut, VOut>): void;
  process(record: StreamRecord<KIn, VIn>): void;
  close?(): void;
}

export interface FixedKeyProcessor<KIn = unknown, VIn = unknown, VOut = unknown> {
  init?(context: FixedKeyProcessorContext<KIn, VOut>): void;
  process(record: FixedKeyRecord<KIn, VIn>): void;
  close?(): void;
}

/** A new processor per task (Kafka Streams' ProcessorSupplier#get). */
export type ProcessorSupplier<
  KIn = unknown,
  VIn = unknown,
  KOut = unknown,
  VOut = unknown,
> = () => Processor<KIn, VIn, KOut, VOut>;
export type FixedKeyProcessorSupplier<
  KIn = unknown,
  VIn = unknown,
  VOut = unknown,
> = () => FixedKeyProcessor<KIn, VIn, VOut>;
