// A persistent window or session store's segments on disk, as Kafka Streams' RocksDB segmented
// stores keep one RocksDB per segment (`<store>/<store>.<segment>`): here one lmdb environment per
// segment under `<task dir>/lmdb/<store>/<segment id>`, so retention drops a whole segment by
// closing it and deleting its directory. Entries are stored in the store's changelog layout (key:
// the changelog key's bytes; value: the record timestamp as int64, then the changelog value), so
// loading a segment is replaying its entries through the store's own changelog restore.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Lmdb from 'lmdb';
import type { RootDatabase } from 'lmdb';
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import { errorMessage } from '../errors.js';
import { storeWriteError } from './lmdb-errors.js';

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

  constructor(
    /** `<task dir>/lmdb/<store>`. */
    readonly path: string,
    readonly storeName: string,
  ) {
    try {
      mkdirSync(path, { recursive: true });
    } catch (error) {
      throw this.#openError(error);
    }
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
    return this.#env(segment).getRange(options) as Iterable<{ key: Buffer; value: Buffer }>;
  }

  /**
   * The stored value of one key of a segment, or undefined; the bytes are lmdb's own buffer,
   * valid until the next read (decode them at once).
   */
  get(segment: number, key: Buffer): Buffer | undefined {
    this.#flushForRead();
    return this.#env(segment).getBinaryFast(key) ?? undefined;
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
      value = Buffer.allocUnsafe(8 + record.value.byteLength);
      value.writeBigInt64BE(BigInt(Math.trunc(record.timestamp ?? 0)), 0);
      value.set(record.value, 8);
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
  }

  close(): void {
    this.flush();
    for (const env of this.#envs.values()) void env.close();
    this.#envs.clear();
  }
}
