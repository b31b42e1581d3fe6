// A persistent key-value store on lmdb (an embedded B-tree store with a prebuilt binary), used
// synchronously on the record path. lmdb's cost is per write transaction (≈ 55 µs for a putSync
// here, ≈ 5 µs per put inside one transactionSync), so writes go to an in-memory write-back buffer
// that is written to lmdb in one synchronous transaction at each commit, as Kafka Streams' record
// cache sits in front of RocksDB. Reads go through the same map, which also keeps recently read
// and written entries clean (bounded, oldest dropped first): a hot key costs a Map lookup, not an
// lmdb read and a deserialization. The changelog records of a commit are the buffer's keys, so
// updates of a key between commits collapse into one record.
//
// Each stored value carries a CRC-32 of its key, timestamp and value (as RocksDB checksums its
// blocks): a damaged value is detected, never served. A read that finds one fails the task with
// the store, key and path; at the next start the task's verify() scan finds it before anything
// runs, and the store is wiped and restored from its changelog (a `store-rebuilt` recovery).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import type * as Lmdb from 'lmdb';
import type { Database, RootDatabase } from 'lmdb';
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import type {
  KeyValueEntry,
  StoreSpec,
  TaskKeyValueStore,
  ValueAndTimestamp,
} from './key-value-store.js';
import { errorMessage } from '../errors.js';
import { storeKeyFunction, type StoreKey } from './store-key.js';
import { storeWriteError } from './lmdb-errors.js';

// Loaded with the first persistent store: most topologies have none, and every worker thread would
// otherwise load lmdb (its native binding and msgpackr) at start-up, ≈ 60 ms of CPU each.
let lmdbModule: typeof Lmdb | null = null;
const lmdb = (): typeof Lmdb =>
  (lmdbModule ??= createRequire(import.meta.url)('lmdb') as typeof Lmdb);

/**
 * A key's cached state: its entry (null: absent or deleted) and whether it changed since the last
 * commit. Clean slots mirror lmdb (reads of hot keys never reach lmdb or a serde); dirty ones are
 * the write-back buffer.
 */
interface Slot {
  key: unknown;
  entry: KeyValueEntry | null;
  dirty: boolean;
  /** A deleted entry's tombstone timestamp (the record being processed when it was deleted). */
  deletedAt?: number;
}

/**
 * The file beside lmdb's that says its values are checksummed (`[crc32][timestamp][value]`). A
 * store written before checksums has none and keeps the old layout (`[timestamp][value]`) until
 * it is next wiped and restored.
 */
export const CHECKSUM_MARKER = 'streamwright-checksums';

/** A persistent store whose files hold a value that fails its checksum. */
export class StoreCorruptedError extends Error {
  override readonly name = 'StoreCorruptedError';
}

/** Restored records are written in transactions of this many. */
const RESTORE_BATCH = 10_000;

/**
 * Clean entries kept per store (the role of RocksDB's block cache and of the clean entries of
 * Kafka's record cache): a commit or a miss beyond this drops the oldest clean ones.
 */
export const READ_CACHE_ENTRIES = 65_536;

export class LmdbKeyValueStore implements TaskKeyValueStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly persistent = true;
  readonly #logging: boolean;
  readonly #keyOf: (key: unknown) => StoreKey;
  readonly #keySerde: Serde<unknown>;
  readonly #valueSerde: Serde<unknown>;
  readonly #slots = new Map<StoreKey, Slot>();
  #dirty: Slot[] = [];
  /** Changelog records being restored, not yet written to lmdb: [key bytes, encoded value or null]. */
  #restoring: [Buffer, Buffer | null][] = [];
  readonly #cacheEntries: number;
  #env: RootDatabase<Buffer, Buffer> | null;
  #db: Database<Buffer, Buffer>;
  /** Whether values carry a checksum (every store created or wiped since checksums). */
  #checksums = false;

  constructor(
    spec: StoreSpec,
    readonly partition: number,
    /** `<state.dir>/<application.id>/<task id>/lmdb/<store>`: one environment per store and task. */
    readonly path: string,
    cacheEntries: number = READ_CACHE_ENTRIES,
  ) {
    this.name = spec.name;
    this.changelogTopic = spec.changelogTopic;
    this.#logging = spec.changelogTopic !== null && spec.logging !== false;
    this.#keySerde = getSerde(spec.keySerde);
    this.#valueSerde = getSerde(spec.valueSerde);
    this.#keyOf = storeKeyFunction(spec.keySerde, this.#keySerde);
    this.#cacheEntries = Math.max(0, cacheEntries);
    try {
      mkdirSync(path, { recursive: true });
      // A new store is checksummed from its first write; an existing one keeps its layout.
      if (!existsSync(join(path, 'data.mdb'))) writeFileSync(join(path, CHECKSUM_MARKER), '1\n');
      this.#checksums = existsSync(join(path, CHECKSUM_MARKER));
      // noSync: commits reach the page cache (a process crash keeps them); durability across a
      // machine crash comes from the changelog, which is fsynced, and the checkpoint protocol.
      this.#env = lmdb().open<Buffer, Buffer>({
        path,
        keyEncoding: 'binary',
        encoding: 'binary',
        noSync: true,
      });
    } catch (error) {
      throw new Error(
        `persistent store '${spec.name}' cannot open its lmdb files in ${path}: ${errorMessage(error)} ` +
          `(set state.dir to a writable directory, or default.dsl.store to in_memory)`,
      );
    }
    this.#db = this.#env;
  }

  #bytes(key: unknown): Buffer {
    const b = this.#keySerde.serialize(key);
    return b === null ? Buffer.alloc(0) : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }

  /** The stored bytes' timestamp and value, after checking the checksum (null: it fails). */
  #checked(keyBytes: Uint8Array, raw: Buffer): Buffer | null {
    if (!this.#checksums) return raw;
    if (raw.length < 12) return null;
    const rest = raw.subarray(4);
    return raw.readUInt32BE(0) === crc32(rest, crc32(keyBytes)) ? rest : null;
  }

  #corrupted(key: unknown): StoreCorruptedError {
    return new StoreCorruptedError(
      `persistent store '${this.name}' holds a damaged value for key ${JSON.stringify(String(key))} ` +
        `in ${this.path} (its checksum does not match: the lmdb file was changed under it). ` +
        `Nothing was served from it; start the application again: the store is verified at ` +
        `start and rebuilt from its changelog.`,
    );
  }

  #decode(key: unknown, keyBytes: Uint8Array, raw: Buffer): KeyValueEntry {
    const stored = this.#checked(keyBytes, raw);
    if (stored === null) throw this.#corrupted(key);
    const timestamp = Number(stored.readBigInt64BE(0));
    return { key, value: this.#valueSerde.deserialize(stored.subarray(8)), timestamp };
  }

  #encodeValue(keyBytes: Uint8Array, value: Uint8Array | null, timestamp: number): Buffer {
    const at = this.#checksums ? 4 : 0;
    const out = Buffer.allocUnsafe(at + 8 + (value?.byteLength ?? 0));
    out.writeBigInt64BE(BigInt(Math.trunc(timestamp)), at);
    if (value !== null) out.set(value, at + 8);
    if (this.#checksums) out.writeUInt32BE(crc32(out.subarray(4), crc32(keyBytes)), 0);
    return out;
  }

  /**
   * Reads every stored entry and checks its checksum (at start, before a checkpointed store is
   * trusted). Returns what is wrong, or null. Costs one pass over the store (docs/STATE.md).
   */
  verify(): string | null {
    if (!this.#checksums) return null;
    if (this.#restoring.length > 0) this.#writeRestored();
    let bad = 0;
    let first: Buffer | null = null;
    try {
      for (const { key, value } of this.#db.getRange()) {
        if (this.#checked(key, value) !== null) continue;
        bad++;
        first ??= Buffer.from(key);
      }
    } catch (error) {
      return `reading its lmdb files in ${this.path} failed: ${errorMessage(error)}`;
    }
    if (bad === 0) return null;
    return (
      `${bad} stored value(s) in ${this.path} fail their checksum (the first at key bytes ` +
      `${first!.toString('hex').slice(0, 64)})`
    );
  }

  get(key: unknown): ValueAndTimestamp | undefined {
    const k = this.#keyOf(key);
    const slot = this.#slots.get(k);
    if (slot !== undefined) return slot.entry ?? undefined;
    if (this.#restoring.length > 0) this.#writeRestored();
    const bytes = this.#bytes(key);
    const raw = this.#db.getBinaryFast(bytes);
    const entry = raw ? this.#decode(key, bytes, raw) : null;
    if (this.#cacheEntries > 0) {
      this.#slots.set(k, { key, entry, dirty: false });
      if (this.#slots.size > this.#cacheEntries + (this.#cacheEntries >> 3)) this.#evictClean();
    }
    return entry ?? undefined;
  }

  put(key: unknown, value: unknown, timestamp: number): void {
    if (value === null || value === undefined) {
      this.delete(key, timestamp);
      return;
    }
    const k = this.#keyOf(key);
    const slot = this.#slots.get(k);
    if (slot === undefined) {
      const created = { key, entry: { key, value, timestamp }, dirty: true };
      this.#slots.set(k, created);
      this.#dirty.push(created);
      return;
    }
    if (slot.entry === null) slot.entry = { key, value, timestamp };
    else {
      slot.entry.value = value;
      slot.entry.timestamp = timestamp;
    }
    if (!slot.dirty) {
      slot.dirty = true;
      this.#dirty.push(slot);
    }
  }

  delete(key: unknown, timestamp: number): void {
    const k = this.#keyOf(key);
    const slot = this.#slots.get(k);
    if (slot === undefined) {
      const created = { key, entry: null, dirty: true, deletedAt: timestamp };
      this.#slots.set(k, created);
      this.#dirty.push(created);
      return;
    }
    slot.entry = null;
    slot.deletedAt = timestamp;
    if (!slot.dirty) {
      slot.dirty = true;
      this.#dirty.push(slot);
    }
  }

  all(): KeyValueEntry[] {
    if (this.#restoring.length > 0) this.#writeRestored();
    const out = new Map<StoreKey, KeyValueEntry>();
    for (const { key: bytes, value } of this.#db.getRange()) {
      const key = this.#keySerde.deserialize(bytes);
      out.set(this.#keyOf(key), this.#decode(key, bytes, value));
    }
    for (const slot of this.#dirty) {
      const k = this.#keyOf(slot.key);
      if (slot.entry === null) out.delete(k);
      else out.set(k, { ...slot.entry });
    }
    return [...out.values()];
  }

  approximateNumEntries(): number {
    if (this.#restoring.length > 0) this.#writeRestored();
    let added = 0;
    for (const slot of this.#dirty) if (slot.entry !== null) added++;
    return this.#db.getCount() + added;
  }

  serializeKey(key: unknown): Uint8Array | null {
    return this.#keySerde.serialize(key);
  }

  /** Writes the changed keys to lmdb in one transaction; returns their changelog records. */
  takeChangelogRecords(): ProduceRecord[] {
    if (this.#restoring.length > 0) this.#writeRestored();
    const out: ProduceRecord[] = [];
    if (this.#dirty.length === 0) return out;
    const dirty = this.#dirty;
    this.#dirty = [];
    const db = this.#db;
    const topic = this.#logging ? this.changelogTopic : null;
    const partition = this.partition;
    try {
      this.#commitDirty(db, dirty, topic, partition, out);
    } catch (error) {
      // The transaction was rolled back: these keys are still to be written (the task fails now,
      // and its store is restored from the changelog before it runs again).
      for (const slot of dirty) slot.dirty = true;
      this.#dirty = dirty.concat(this.#dirty);
      throw storeWriteError(this.name, this.path, error);
    }
    if (this.#slots.size > this.#cacheEntries) this.#evictClean();
    return out;
  }

  #commitDirty(
    db: Database<Buffer, Buffer>,
    dirty: Slot[],
    topic: string | null,
    partition: number,
    out: ProduceRecord[],
  ): void {
    db.transactionSync(() => {
      for (const slot of dirty) {
        slot.dirty = false;
        const keyBytes = this.#bytes(slot.key);
        const entry = slot.entry;
        if (entry === null) {
          db.removeSync(keyBytes);
          if (topic !== null)
            out.push({
              topic,
              partition,
              key: keyBytes,
              value: null,
              timestamp: slot.deletedAt ?? 0,
            });
          continue;
        }
        const value = this.#valueSerde.serialize(entry.value);
        const encoded = this.#encodeValue(keyBytes, value, entry.timestamp);
        db.putSync(keyBytes, encoded);
        if (topic !== null)
          out.push({ topic, partition, key: keyBytes, value, timestamp: entry.timestamp });
      }
    });
  }

  /** Applies one changelog record while restoring (not logged; written in batches). */
  restore(record: StoredRecord): void {
    // The changelog key is the key serde's bytes (this store wrote it): lmdb takes them as they
    // are; only a key the cache holds (after a wipe it holds none) needs the key itself.
    const raw = record.key;
    const bytes =
      raw === null ? Buffer.alloc(0) : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    if (this.#slots.size > 0) this.#slots.delete(this.#keyOf(this.#keySerde.deserialize(raw)));
    this.#restoring.push([
      bytes,
      record.value === null ? null : this.#encodeValue(bytes, record.value, record.timestamp),
    ]);
    if (this.#restoring.length >= RESTORE_BATCH) this.#writeRestored();
  }

  #writeRestored(): void {
    const batch = this.#restoring;
    this.#restoring = [];
    const db = this.#db;
    try {
      db.transactionSync(() => {
        for (const [key, value] of batch) {
          if (value === null) db.removeSync(key);
          else db.putSync(key, value);
        }
      });
    } catch (error) {
      throw storeWriteError(this.name, this.path, error);
    }
  }

  /** Drops the oldest clean slots until the cache holds at most its bound. */
  #evictClean(): void {
    let excess = this.#slots.size - this.#cacheEntries;
    for (const [k, slot] of this.#slots) {
      if (excess <= 0) break;
      if (slot.dirty) continue;
      this.#slots.delete(k);
      excess--;
    }
  }

  /** Empties the store (its local copy cannot be trusted: restored again from the changelog). */
  wipe(): void {
    this.#slots.clear();
    this.#dirty = [];
    this.#restoring = [];
    this.#db.clearSync();
    // Empty now: what is written from here on carries checksums, whatever the layout before.
    if (!this.#checksums) {
      writeFileSync(join(this.path, CHECKSUM_MARKER), '1\n');
      this.#checksums = true;
    }
  }

  close(): void {
    this.#slots.clear();
    this.#dirty = [];
    this.#restoring = [];
    if (this.#env) void this.#env.close();
    this.#env = null;
  }

  /** Deletes the store's files (an application reset). */
  destroy(): void {
    this.close();
    rmSync(this.path, { recursive: true, force: true });
  }
}
