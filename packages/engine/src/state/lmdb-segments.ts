// A persistent window or session store's segments on disk, as Kafka Streams' RocksDB segmented
// stores keep one RocksDB per segment (`<store>/<store>.<segment>`): here one lmdb environment per
// segment under `<task dir>/lmdb/<store>/<segment id>`, so retention drops a whole segment by
// closing it and deleting its directory. Entries are stored in the store's changelog layout (key:
// the changelog key's bytes; value: the record timestamp as int64, then the changelog value), so
// loading a segment is replaying its entries through the store's own changelog restore.
//
// Each stored value carries a CRC-32 of its key, timestamp and value, as the key-value store's
// do (lmdb-key-value-store.ts): `[crc32][timestamp][changelog value]`. get / range / load check
// it and hand out `[timestamp][changelog value]`, so the stores above never see it; a value that
// fails it throws StoreCorruptedError (store, key, path) instead of being served, and verify()
// scans segments at start so a damaged store is wiped and rebuilt from its changelog.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Lmdb from 'lmdb';
import type { RootDatabase } from 'lmdb';
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import { errorMessage } from '../errors.js';
import { storeWriteError } from './lmdb-errors.js';
import { CHECKSUM_MARKER, StoreCorruptedError } from './lmdb-key-value-store.js';

let lmdbModule: typeof Lmdb | null = null;
const lmdb = (): typeof Lmdb =>
  (lmdbModule ??= createRequire(import.meta.url)('lmdb') as typeof Lmdb);

type Env = RootDatabase<Buffer, Buffer>;
type Change = { key: Buffer; value: Buffer | null };

/** Restored records are written in transactions of this many. */
const RESTORE_BATCH = 10_000;

export class LmdbSegments {
  readonly #envs = new Map<number, Env>();
  #pending = new Map<number, Change[]>();
  #pendingCount = 0;
  /** Whether values carry a checksum (every store created or wiped since checksums). */
  #checksums = false;

  constructor(
    /** `<task dir>/lmdb/<store>`. */
    readonly path: string,
    readonly storeName: string,
  ) {
    try {
      mkdirSync(path, { recursive: true });
      // A new store is checksummed from its first write; one written before keeps its layout
      // (no marker) until it is next wiped.
      if (this.#onDisk().length === 0) this.#markChecksummed();
      this.#checksums = existsSync(join(path, CHECKSUM_MARKER));
    } catch (error) {
      throw this.#openError(error);
    }
  }

  #markChecksummed(): void {
    writeFileSync(join(this.path, CHECKSUM_MARKER), '1\n');
    this.#checksums = true;
  }

  /** The stored bytes without their checksum, or null when it does not match. */
  #checked(key: Uint8Array, raw: Buffer): Buffer | null {
    if (!this.#checksums) return raw;
    if (raw.length < 12) return null;
    const rest = raw.subarray(4);
    return raw.readUInt32BE(0) === crc32(rest, crc32(key)) ? rest : null;
  }

  #corrupted(segment: number, key: Uint8Array): StoreCorruptedError {
    return new StoreCorruptedError(
      `persistent store '${this.storeName}' holds a damaged value for key bytes ` +
        `${Buffer.from(key).toString('hex').slice(0, 64)} in ${join(this.path, String(segment))} ` +
        `(its checksum does not match: the lmdb file was changed under it). Nothing was served ` +
        `from it; start the application again: the store is verified at start and rebuilt from ` +
        `its changelog.`,
    );
  }

  /**
   * Reads every stored entry of the given segments (default: all on disk) and checks its
   * checksum. Returns what is wrong, or null. One pass over what it reads (docs/STATE.md).
   */
  verify(segments: Iterable<number> = this.#onDisk()): string | null {
    if (!this.#checksums) return null;
    this.#flushForRead();
    let bad = 0;
    let first: string | null = null;
    for (const segment of segments) {
      try {
        for (const { key, value } of this.#env(segment).getRange() as Iterable<{
          key: Buffer;
          value: Buffer;
        }>) {
          if (this.#checked(key, value) !== null) continue;
          bad++;
          first ??= `segment ${segment}, key bytes ${Buffer.from(key).toString('hex').slice(0, 64)}`;
        }
      } catch (error) {
        return `reading its lmdb files in ${join(this.path, String(segment))} failed: ${errorMessage(error)}`;
      }
    }
    if (bad === 0) return null;
    return `${bad} stored value(s) in ${this.path} fail their checksum (the first at ${first})`;
  }

  #openError(error: unknown): Error {
    return new Error(
      `persistent store '${this.storeName}' cannot open its lmdb files in ${this.path}: ${errorMessage(error)} ` +
        `(set state.dir to a writable directory, or default.dsl.store to in_memory)`,
    );
  }

  #env(segment: number): Env {
    let env = this.#envs.get(segment);
    if (env === undefined) {
      try {
        // noSync as the key-value store: a process crash keeps what reached the page cache.
        env = lmdb().open<Buffer, Buffer>({
          path: join(this.path, String(segment)),
          keyEncoding: 'binary',
          encoding: 'binary',
          noSync: true,
        });
      } catch (error) {
        throw this.#openError(error);
      }
      this.#envs.set(segment, env);
    }
    return env;
  }

  /** The segment ids on disk, ascending. */
  #onDisk(): number[] {
    return readdirSync(this.path)
      .filter((name) => /^-?\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
  }

  /** The segment ids on disk, ascending. */
  ids(): number[] {
    return this.#onDisk();
  }

  /** How many entries a segment holds on disk. */
  count(segment: number): number {
    this.#flushForRead();
    return this.#env(segment).getCount();
  }

  /** A segment's stored keys, in byte order. */
  keys(segment: number): Iterable<Buffer> {
    this.#flushForRead();
    return this.#env(segment).getKeys() as Iterable<Buffer>;
  }

  /**
   * A segment's entries with keys from `start` (inclusive) to `end` (exclusive; undefined: to the
   * last), in byte order (`reverse`: from `start` down to `end`, in reverse), at most `limit`; the
   * value is the record timestamp (int64) and the changelog value.
   */
  range(
    segment: number,
    start?: Buffer,
    end?: Buffer,
    more?: { limit?: number; reverse?: boolean },
  ): Iterable<{ key: Buffer; value: Buffer }> {
    this.#flushForRead();
    const options: { start?: Buffer; end?: Buffer; limit?: number; reverse?: boolean } = {
      ...more,
    };
    if (start !== undefined) options.start = start;
    if (end !== undefined) options.end = end;
    const entries = this.#env(segment).getRange(options) as Iterable<{
      key: Buffer;
      value: Buffer;
    }>;
    return this.#checksums ? this.#checkedRange(segment, entries) : entries;
  }

  *#checkedRange(
    segment: number,
    entries: Iterable<{ key: Buffer; value: Buffer }>,
  ): Iterable<{ key: Buffer; value: Buffer }> {
    for (const { key, value } of entries) {
      const stored = this.#checked(key, value);
      if (stored === null) throw this.#corrupted(segment, key);
      yield { key, value: stored };
    }
  }

  /**
   * The stored value of one key of a segment, or undefined; the bytes are lmdb's own buffer,
   * valid until the next read (decode them at once).
   */
  get(segment: number, key: Buffer): Buffer | undefined {
    this.#flushForRead();
    const raw = this.#env(segment).getBinaryFast(key);
    if (raw === undefined || raw === null) return undefined;
    const stored = this.#checked(key, raw);
    if (stored === null) throw this.#corrupted(segment, key);
    return stored;
  }

  /** Restored records not yet written are written before anything is read. */
  #flushForRead(): void {
    if (this.#pendingCount > 0) this.flush();
  }

  /** Replays a segment's stored entries as changelog records. */
  load(segment: number, apply: (record: StoredRecord) => void, partition: number): void {
    for (const { key, value } of this.range(segment)) {
      apply({
        topic: '',
        partition,
        offset: -1,
        key: Buffer.from(key),
        value: Buffer.from(value.subarray(8)),
        timestamp: Number(value.readBigInt64BE(0)),
        headers: {},
      });
    }
  }

  /** Queues a changelog record (a commit's, or one restored) for its segment. */
  add(
    segment: number,
    record: { key: Uint8Array | null; value: Uint8Array | null; timestamp?: number },
  ): void {
    if (record.key === null) return;
    const key = Buffer.from(record.key.buffer, record.key.byteOffset, record.key.byteLength);
    let value: Buffer | null = null;
    if (record.value !== null) {
      const at = this.#checksums ? 4 : 0;
      value = Buffer.allocUnsafe(at + 8 + record.value.byteLength);
      value.writeBigInt64BE(BigInt(Math.trunc(record.timestamp ?? 0)), at);
      value.set(record.value, at + 8);
      if (at > 0) value.writeUInt32BE(crc32(value.subarray(4), crc32(key)), 0);
    }
    let list = this.#pending.get(segment);
    if (list === undefined) this.#pending.set(segment, (list = []));
    list.push({ key, value });
    if (++this.#pendingCount >= RESTORE_BATCH) this.flush();
  }

  /** Queues a commit's changelog records. */
  addAll(records: ProduceRecord[], segmentOf: (key: Uint8Array) => number | null): void {
    for (const r of records) {
      if (r.key === null || r.key === undefined) continue;
      const segment = segmentOf(r.key);
      if (segment !== null)
        this.add(segment, { key: r.key, value: r.value ?? null, timestamp: r.timestamp ?? 0 });
    }
  }

  /** Writes what is queued: one synchronous transaction per segment. */
  flush(): void {
    if (this.#pendingCount === 0) return;
    const pending = this.#pending;
    this.#pending = new Map();
    this.#pendingCount = 0;
    for (const [segment, changes] of pending) {
      const env = this.#env(segment);
      try {
        env.transactionSync(() => {
          for (const c of changes) {
            if (c.value === null) env.removeSync(c.key);
            else env.putSync(c.key, c.value);
          }
        });
      } catch (error) {
        throw storeWriteError(this.storeName, this.path, error);
      }
    }
  }

  /** Drops every segment below `minLive` (retention): the whole directory goes. */
  dropBelow(minLive: number): void {
    for (const segment of [...this.#pending.keys()])
      if (segment < minLive) {
        this.#pendingCount -= this.#pending.get(segment)!.length;
        this.#pending.delete(segment);
      }
    for (const segment of this.#onDisk()) {
      if (segment >= minLive) break;
      this.#drop(segment);
    }
  }

  #drop(segment: number): void {
    const env = this.#envs.get(segment);
    if (env !== undefined) {
      void env.close();
      this.#envs.delete(segment);
    }
    rmSync(join(this.path, String(segment)), { recursive: true, force: true });
  }

  /** Deletes every segment (the local copy is not trusted: rebuilt from the changelog). */
  wipe(): void {
    this.#pending.clear();
    this.#pendingCount = 0;
    // Open segments are emptied rather than deleted: a rebuild writes the same segment ids again,
    // and lmdb's close is asynchronous.
    for (const env of this.#envs.values()) env.clearSync();
    for (const segment of this.#onDisk()) if (!this.#envs.has(segment)) this.#drop(segment);
    // Empty now: what is written from here on carries checksums, whatever the layout before.
    if (!this.#checksums) this.#markChecksummed();
  }

  close(): void {
    this.flush();
    for (const env of this.#envs.values()) void env.close();
    this.#envs.clear();
  }
}
