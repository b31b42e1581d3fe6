// Kafka Streams' versioned key-value store (KIP-889, RocksDBVersionedStore's semantics), held in
// memory and rebuilt from its changelog: every put keeps a version (value, timestamp) per key;
// get(key) is the latest version, get(key, asOf) the version valid at asOf (the one with the
// largest timestamp ≤ asOf), and a delete is a tombstone version. The store's observed stream
// time is the largest timestamp put; a put or delete older than observed stream time − history
// retention is refused (PUT_RETURN_CODE_NOT_PUT), and get(key, asOf) that far back answers only
// with the latest version (which never expires), else null. Every put is changelogged with its
// timestamp, uncollapsed (history must survive a restore), and a restore replays the puts.
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import type {
  KeyValueEntry,
  StoreSpec,
  TaskKeyValueStore,
  ValueAndTimestamp,
} from './key-value-store.js';
import { storeKeyFunction, type StoreKey } from './store-key.js';

/** VersionedKeyValueStore#put: the put record is the latest version of its key. */
export const PUT_RETURN_CODE_VALID_TO_UNDEFINED = -1;
/** VersionedKeyValueStore#put: older than the history retention, not stored (Long.MIN_VALUE). */
export const PUT_RETURN_CODE_NOT_PUT = Number.MIN_SAFE_INTEGER;

/** Kafka's VersionedRecord: validTo is absent for the latest version. */
export interface VersionedRecord<V = unknown> {
  readonly value: V;
  readonly timestamp: number;
  readonly validTo?: number;
}

interface Version {
  value: unknown;
  timestamp: number;
}

interface Versions {
  key: unknown;
  /** Ascending by timestamp, one per timestamp; a null value is a tombstone. */
  list: Version[];
}

export interface VersionedStoreSpec extends StoreSpec {
  historyRetentionMs: number;
}

export class InMemoryVersionedKeyValueStore implements TaskKeyValueStore {
  readonly versioned = true;
  readonly name: string;
  readonly persistent = false;
  readonly changelogTopic: string | null;
  readonly historyRetentionMs: number;
  readonly #map = new Map<StoreKey, Versions>();
  readonly #logging: boolean;
  #changelog: ProduceRecord[] = [];
  /** ConsumerRecord.NO_TIMESTAMP until the first put, as in Kafka Streams. */
  #observedStreamTime = -1;
  readonly #keyOf: (key: unknown) => StoreKey;
  readonly #keySerde: Serde<unknown>;
  readonly #valueSerde: Serde<unknown>;

  constructor(
    spec: VersionedStoreSpec,
    readonly partition: number,
  ) {
    this.name = spec.name;
    this.changelogTopic = spec.changelogTopic;
    this.historyRetentionMs = spec.historyRetentionMs;
    this.#logging = spec.changelogTopic !== null && spec.logging !== false;
    this.#keySerde = getSerde(spec.keySerde);
    this.#valueSerde = getSerde(spec.valueSerde);
    this.#keyOf = storeKeyFunction(spec.keySerde, this.#keySerde);
  }

  /**
   * Called for each put or delete refused as older than the history retention: the task counts
   * it in dropped-records, as RocksDBVersionedStore's expired-record sensor does (not on restore).
   */
  onExpired: (() => void) | null = null;

  get observedStreamTime(): number {
    return this.#observedStreamTime;
  }

  #expired(timestamp: number): boolean {
    return timestamp < this.#observedStreamTime - this.historyRetentionMs;
  }

  /**
   * Adds a version; returns its validTo (the next version's timestamp),
   * PUT_RETURN_CODE_VALID_TO_UNDEFINED when it is the latest, PUT_RETURN_CODE_NOT_PUT when it is
   * older than the history retention. A null value is a tombstone.
   */
  putVersion(key: unknown, value: unknown, timestamp: number): number {
    const validTo = this.#apply(key, value ?? null, timestamp);
    if (validTo === PUT_RETURN_CODE_NOT_PUT) this.onExpired?.();
    this.#log(key, value ?? null, timestamp);
    return validTo;
  }

  /** Kafka's delete(key, timestamp): a tombstone at `timestamp`; returns what was valid then. */
  deleteVersion(key: unknown, timestamp: number): VersionedRecord | null {
    if (this.#expired(timestamp)) {
      this.onExpired?.();
      this.#log(key, null, timestamp);
      return null;
    }
    const before = this.getAsOf(key, timestamp);
    this.#apply(key, null, timestamp);
    this.#log(key, null, timestamp);
    return before;
  }

  #apply(key: unknown, value: unknown, timestamp: number): number {
    if (this.#expired(timestamp)) return PUT_RETURN_CODE_NOT_PUT;
    if (timestamp > this.#observedStreamTime) this.#observedStreamTime = timestamp;
    const k = this.#keyOf(key);
    let versions = this.#map.get(k);
    if (!versions) this.#map.set(k, (versions = { key, list: [] }));
    const list = versions.list;
    let i = list.length;
    while (i > 0 && list[i - 1]!.timestamp > timestamp) i--;
    let at: number;
    if (i > 0 && list[i - 1]!.timestamp === timestamp) {
      at = i - 1;
      list[at]!.value = value;
    } else {
      at = i;
      list.splice(i, 0, { value, timestamp });
    }
    const validTo =
      at + 1 < list.length ? list[at + 1]!.timestamp : PUT_RETURN_CODE_VALID_TO_UNDEFINED;
    this.#expire(k, versions);
    return validTo;
  }

  // ChangeLoggingVersionedKeyValueBytesStore logs every put and delete, also refused ones.
  #log(key: unknown, value: unknown, timestamp: number): void {
    if (!this.#logging || this.changelogTopic === null) return;
    this.#changelog.push({
      topic: this.changelogTopic,
      partition: this.partition,
      key: this.#keySerde.serialize(key),
      value: value === null ? null : this.#valueSerde.serialize(value),
      timestamp,
    });
  }

  /** The latest version, or null when there is none or it is a tombstone. */
  getLatest(key: unknown): VersionedRecord | null {
    const list = this.#map.get(this.#keyOf(key))?.list;
    const last = list?.[list.length - 1];
    return last === undefined || last.value === null
      ? null
      : { value: last.value, timestamp: last.timestamp };
  }

  /**
   * The version valid at `asOf`, or null (none, a tombstone). Beyond the history retention only
   * the latest version answers, when it is not newer than asOf (RocksDBVersionedStore#get).
   */
  getAsOf(key: unknown, asOf: number): VersionedRecord | null {
    const list = this.#map.get(this.#keyOf(key))?.list;
    if (!list || list.length === 0) return null;
    if (this.#expired(asOf)) {
      const last = list[list.length - 1]!;
      return last.value !== null && last.timestamp <= asOf
        ? { value: last.value, timestamp: last.timestamp }
        : null;
    }
    for (let i = list.length - 1; i >= 0; i--) {
      const v = list[i]!;
      if (v.timestamp > asOf) continue;
      if (v.value === null) return null;
      return i + 1 < list.length
        ? { value: v.value, timestamp: v.timestamp, validTo: list[i + 1]!.timestamp }
        : { value: v.value, timestamp: v.timestamp };
    }
    return null;
  }

  /** Drops versions no get(asOf) within the history retention can reach. */
  #expire(k: StoreKey, versions: Versions): void {
    const horizon = this.#observedStreamTime - this.historyRetentionMs;
    const list = versions.list;
    // Version i answers asOf ≥ horizon while its successor starts after the horizon.
    let drop = 0;
    while (drop + 1 < list.length && list[drop + 1]!.timestamp <= horizon) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length === 1 && list[0]!.value === null && list[0]!.timestamp <= horizon)
      this.#map.delete(k);
  }

  // ---- the engine's KeyValueStore view (interactive queries, value getters): latest versions --

  get(key: unknown): ValueAndTimestamp | undefined {
    return this.getLatest(key) ?? undefined;
  }

  put(key: unknown, value: unknown, timestamp: number): void {
    this.putVersion(key, value, timestamp);
  }

  /** Without a timestamp: a tombstone at the observed stream time. */
  delete(key: unknown): void {
    this.deleteVersion(key, Math.max(0, this.#observedStreamTime));
  }

  all(): KeyValueEntry[] {
    const out: KeyValueEntry[] = [];
    for (const { key, list } of this.#map.values()) {
      const last = list[list.length - 1];
      if (last && last.value !== null)
        out.push({ key, value: last.value, timestamp: last.timestamp });
    }
    return out;
  }

  /** Keys with any version (tombstoned ones included until they expire), as RocksDB estimates. */
  approximateNumEntries(): number {
    return this.#map.size;
  }

  serializeKey(key: unknown): Uint8Array | null {
    return this.#keySerde.serialize(key);
  }

  takeChangelogRecords(): ProduceRecord[] {
    const out = this.#changelog;
    this.#changelog = [];
    return out;
  }

  restore(record: StoredRecord): void {
    const key = this.#keySerde.deserialize(record.key);
    const value = record.value === null ? null : this.#valueSerde.deserialize(record.value);
    this.#apply(key, value, record.timestamp);
  }

  wipe(): void {
    this.#map.clear();
    this.#changelog = [];
    this.#observedStreamTime = -1;
  }

  close(): void {
    this.wipe();
  }
}

export function isVersionedStore(store: unknown): store is InMemoryVersionedKeyValueStore {
  return (store as { versioned?: unknown } | null)?.versioned === true;
}
