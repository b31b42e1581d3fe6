// A persistent key-value store on lmdb (an embedded B-tree store with a prebuilt binary), used
// synchronously on the record path. lmdb's cost is per write transaction (≈ 55 µs for a putSync
// here, ≈ 5 µs per put inside one transactionSync), so writes go to an in-memory write-back buffer
// that is written to lmdb in one synchronous transaction at each commit, as Kafka Streams' record
// cache sits in front of RocksDB; reads look at the buffer first. The changelog records of a
// commit are the buffer's keys, so updates of a key between commits collapse into one record.
import { mkdirSync, rmSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import type * as Lmdb from 'lmdb';
import type { Database, RootDatabase } from 'lmdb';
import type { ProduceRecord, StoredRecord } from '../api.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import type {
  KeyValueEntry,
  StoreSpec,
  TaskKeyValueStore,
  ValueAndTimestamp,
} from './key-value-store.js';
import { storeKeyFunction, type StoreKey } from './store-key.js';

// Loaded with the first persistent store: most topologies have none, and every worker thread would
// otherwise load lmdb (its native binding and msgpackr) at start-up, ≈ 60 ms of CPU each.
let lmdbModule: typeof Lmdb | null = null;
const lmdb = (): typeof Lmdb =>
  (lmdbModule ??= createRequire(import.meta.url)('lmdb') as typeof Lmdb);

/** Buffered change of a key: the new entry, or null for a delete. */
type Pending = { key: unknown; bytes: Buffer; entry: KeyValueEntry | null; logged: boolean };

/** Restored records are written in transactions of this many. */
const RESTORE_BATCH = 10_000;

export class LmdbKeyValueStore implements TaskKeyValueStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly persistent = true;
  readonly #logging: boolean;
  readonly #keyOf: (key: unknown) => StoreKey;
  readonly #keySerde: Serde<unknown>;
  readonly #valueSerde: Serde<unknown>;
  readonly #pending = new Map<StoreKey, Pending>();
  #env: RootDatabase<Buffer, Buffer> | null;
  #db: Database<Buffer, Buffer>;

  constructor(
    spec: StoreSpec,
    readonly partition: number,
    /** `<state.dir>/<application.id>/<task id>/lmdb/<store>`: one environment per store and task. */
    readonly path: string,
  ) {
    this.name = spec.name;
    this.changelogTopic = spec.changelogTopic;
    this.#logging = spec.changelogTopic !== null && spec.logging !== false;
    this.#keySerde = getSerde(spec.keySerde);
    this.#valueSerde = getSerde(spec.valueSerde);
    this.#keyOf = storeKeyFunction(spec.keySerde, this.#keySerde);
    mkdirSync(path, { recursive: true });
    // noSync: commits reach the page cache (a process crash keeps them); durability across a
    // machine crash comes from the changelog, which is fsynced, and the checkpoint protocol.
    this.#env = lmdb().open<Buffer, Buffer>({
      path,
      keyEncoding: 'binary',
      encoding: 'binary',
      noSync: true,
    });
    this.#db = this.#env;
  }

  #bytes(key: unknown): Buffer {
    const b = this.#keySerde.serialize(key);
    return b === null ? Buffer.alloc(0) : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }

  #decode(key: unknown, raw: Buffer): KeyValueEntry {
    const timestamp = Number(raw.readBigInt64BE(0));
    return { key, value: this.#valueSerde.deserialize(raw.subarray(8)), timestamp };
  }

  #encode(entry: KeyValueEntry): Buffer {
    const value = this.#valueSerde.serialize(entry.value) ?? new Uint8Array(0);
    const out = Buffer.allocUnsafe(8 + value.byteLength);
    out.writeBigInt64BE(BigInt(Math.trunc(entry.timestamp)), 0);
    out.set(value, 8);
    return out;
  }

  get(key: unknown): ValueAndTimestamp | undefined {
    const pending = this.#pending.get(this.#keyOf(key));
    if (pending) return pending.entry ?? undefined;
    const raw = this.#db.getBinary(this.#bytes(key));
    return raw ? this.#decode(key, raw) : undefined;
  }

  put(key: unknown, value: unknown, timestamp: number): void {
    if (value === null || value === undefined) {
      this.delete(key);
      return;
    }
    this.#pending.set(this.#keyOf(key), {
      key,
      bytes: this.#bytes(key),
      entry: { key, value, timestamp },
      logged: this.#logging,
    });
  }

  delete(key: unknown): void {
    this.#pending.set(this.#keyOf(key), {
      key,
      bytes: this.#bytes(key),
      entry: null,
      logged: this.#logging,
    });
  }

  all(): KeyValueEntry[] {
    const out = new Map<StoreKey, KeyValueEntry>();
    for (const { key: bytes, value } of this.#db.getRange()) {
      const key = this.#keySerde.deserialize(bytes);
      out.set(this.#keyOf(key), this.#decode(key, value));
    }
    for (const [k, p] of this.#pending) {
      if (p.entry === null) out.delete(k);
      else out.set(k, { ...p.entry });
    }
    return [...out.values()];
  }

  approximateNumEntries(): number {
    return this.#db.getCount() + this.#pending.size;
  }

  serializeKey(key: unknown): Uint8Array | null {
    return this.#keySerde.serialize(key);
  }

  /** Writes the buffer to lmdb in one transaction; returns the changelog records of the logged changes. */
  takeChangelogRecords(): ProduceRecord[] {
    const out: ProduceRecord[] = [];
    if (this.#pending.size === 0) return out;
    const db = this.#db;
    db.transactionSync(() => {
      for (const p of this.#pending.values()) {
        if (p.entry === null) db.removeSync(p.bytes);
        else db.putSync(p.bytes, this.#encode(p.entry));
      }
    });
    if (this.changelogTopic !== null) {
      for (const p of this.#pending.values()) {
        if (!p.logged) continue;
        out.push({
          topic: this.changelogTopic,
          partition: this.partition,
          key: p.bytes,
          value: p.entry === null ? null : this.#valueSerde.serialize(p.entry.value),
          timestamp: p.entry === null ? Date.now() : p.entry.timestamp,
        });
      }
    }
    this.#pending.clear();
    return out;
  }

  /** Applies one changelog record while restoring (not logged; written in batches). */
  restore(record: StoredRecord): void {
    const key = this.#keySerde.deserialize(record.key);
    const bytes = this.#bytes(key);
    const entry =
      record.value === null
        ? null
        : { key, value: this.#valueSerde.deserialize(record.value), timestamp: record.timestamp };
    this.#pending.set(this.#keyOf(key), { key, bytes, entry, logged: false });
    if (this.#pending.size >= RESTORE_BATCH) this.takeChangelogRecords();
  }

  /** Empties the store (its local copy cannot be trusted: restored again from the changelog). */
  wipe(): void {
    this.#pending.clear();
    this.#db.clearSync();
  }

  close(): void {
    this.#pending.clear();
    if (this.#env) void this.#env.close();
    this.#env = null;
  }

  /** Deletes the store's files (an application reset). */
  destroy(): void {
    this.close();
    rmSync(this.path, { recursive: true, force: true });
  }
}
