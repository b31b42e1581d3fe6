// An in-memory key-value store with change logging: every put marks the key dirty; at commit the
// latest value of each dirty key is written to the changelog topic (collapsing repeated updates
// between commits, as Kafka Streams' record cache does), before input offsets are committed.
// Restoring replays the changelog into the map without logging.
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import type { SerdeName } from '@streamwright/topology-model';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { storeKeyFunction, type StoreKey } from './store-key.js';

/** Kafka Streams' ValueAndTimestamp: timestamped stores keep the timestamp of the last update. */
export interface ValueAndTimestamp {
  value: unknown;
  timestamp: number;
}

export interface KeyValueEntry extends ValueAndTimestamp {
  key: unknown;
}

export interface KeyValueStore {
  readonly name: string;
  get(key: unknown): ValueAndTimestamp | undefined;
  put(key: unknown, value: unknown, timestamp: number): void;
  /**
   * `timestamp`: the changelog tombstone's: the timestamp of the record (or punctuation) being
   * processed, as Kafka's ChangeLoggingKeyValueBytesStore logs it.
   */
  delete(key: unknown, timestamp: number): void;
  /** Removes without logging (retention expiry in window and session stores); optional. */
  evict?(key: unknown): void;
  all(): KeyValueEntry[];
  approximateNumEntries(): number;
  /** The key's bytes as the store's key serde writes them (stores order keys by these). */
  serializeKey(key: unknown): Uint8Array | null;
}

/** A store as a task holds it: changelogged, restorable, closable (in memory or persistent). */
export interface TaskKeyValueStore extends KeyValueStore {
  readonly changelogTopic: string | null;
  readonly partition: number;
  /** Persistent stores keep their contents across restarts (checkpointed); in-memory ones do not. */
  readonly persistent: boolean;
  takeChangelogRecords(): ProduceRecord[];
  restore(record: StoredRecord): void;
  /** Checks every stored entry's checksum (persistent stores): what is damaged, or null. */
  verify?(): string | null;
  /** Drops the contents (a persistent store without a valid checkpoint is rebuilt from the changelog). */
  wipe(): void;
  close(): void;
}

export interface StoreSpec {
  name: string;
  keySerde: SerdeName;
  valueSerde: SerdeName;
  changelogTopic: string | null;
  /**
   * False when the changelog is the table's own source topic (`reuse.ktable.source.topics`): the
   * store restores from it but never writes to it.
   */
  logging?: boolean;
}

export class InMemoryKeyValueStore implements TaskKeyValueStore {
  readonly name: string;
  readonly persistent = false;
  readonly changelogTopic: string | null;
  readonly #map = new Map<StoreKey, KeyValueEntry>();
  readonly #logging: boolean;
  readonly #dirty = new Set<StoreKey>();
  readonly #deleted = new Map<StoreKey, { key: unknown; timestamp: number }>();
  readonly #keyOf: (key: unknown) => StoreKey;
  readonly #keySerde: Serde<unknown>;
  readonly #valueSerde: Serde<unknown>;

  constructor(
    spec: StoreSpec,
    /** Changelog partition = the task's partition. */
    readonly partition: number,
  ) {
    this.name = spec.name;
    this.changelogTopic = spec.changelogTopic;
    this.#logging = spec.changelogTopic !== null && spec.logging !== false;
    this.#keySerde = getSerde(spec.keySerde);
    this.#valueSerde = getSerde(spec.valueSerde);
    this.#keyOf = storeKeyFunction(spec.keySerde, this.#keySerde);
  }

  get(key: unknown): ValueAndTimestamp | undefined {
    return this.#map.get(this.#keyOf(key));
  }

  put(key: unknown, value: unknown, timestamp: number): void {
    if (value === null || value === undefined) {
      this.delete(key, timestamp);
      return;
    }
    const k = this.#keyOf(key);
    const entry = this.#map.get(k);
    if (entry) {
      entry.value = value;
      entry.timestamp = timestamp;
    } else {
      this.#map.set(k, { key, value, timestamp });
    }
    if (this.#logging) {
      this.#dirty.add(k);
      this.#deleted.delete(k);
    }
  }

  delete(key: unknown, timestamp: number): void {
    const k = this.#keyOf(key);
    this.#map.delete(k);
    if (this.#logging) {
      this.#dirty.delete(k);
      this.#deleted.set(k, { key, timestamp });
    }
  }

  /**
   * Removes a key without a changelog tombstone: for entries that expired by retention (window
   * and session stores), whose changelog topic (`compact,delete`) expires them by itself.
   */
  evict(key: unknown): void {
    const k = this.#keyOf(key);
    this.#map.delete(k);
    this.#dirty.delete(k);
  }

  all(): KeyValueEntry[] {
    return [...this.#map.values()].map((e) => ({ ...e }));
  }

  approximateNumEntries(): number {
    return this.#map.size;
  }

  serializeKey(key: unknown): Uint8Array | null {
    return this.#keySerde.serialize(key);
  }

  /** The changelog records for everything changed since the last call (synchronous). */
  takeChangelogRecords(): ProduceRecord[] {
    if (!this.#logging || this.changelogTopic === null) return [];
    const out: ProduceRecord[] = [];
    for (const k of this.#dirty) {
      const e = this.#map.get(k);
      if (!e) continue;
      out.push({
        topic: this.changelogTopic,
        partition: this.partition,
        key: this.#keySerde.serialize(e.key),
        value: this.#valueSerde.serialize(e.value),
        timestamp: e.timestamp,
      });
    }
    for (const { key, timestamp } of this.#deleted.values()) {
      out.push({
        topic: this.changelogTopic,
        partition: this.partition,
        key: this.#keySerde.serialize(key),
        value: null,
        timestamp,
      });
    }
    this.#dirty.clear();
    this.#deleted.clear();
    return out;
  }

  /** Applies one changelog record while restoring (no logging). */
  restore(record: StoredRecord): void {
    const key = this.#keySerde.deserialize(record.key);
    const k = this.#keyOf(key);
    if (record.value === null) this.#map.delete(k);
    else
      this.#map.set(k, {
        key,
        value: this.#valueSerde.deserialize(record.value),
        timestamp: record.timestamp,
      });
  }

  wipe(): void {
    this.#map.clear();
    this.#dirty.clear();
    this.#deleted.clear();
  }

  close(): void {
    this.#map.clear();
    this.#dirty.clear();
    this.#deleted.clear();
  }
}
