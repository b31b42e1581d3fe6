// The disk of a persistent stream–table join buffer (time-ordered-buffer.ts): Kafka Streams keeps
// the buffer in RocksDB (RocksDBTimeOrderedKeyValueBuffer), here it is one lmdb environment,
// `<task dir>/lmdb/<store>/0` (lmdb-segments.ts, a single segment), holding the committed entries
// in their changelog layout (key: the store key; value: BufferValue), so its byte order is the
// buffer's order, plus the buffer's stream time under a key after them. The buffer keeps in memory
// at most `timeOrderedBufferCache.entries` committed entries, the newest ones (puts land among
// them, evictions read the oldest from disk in key order), plus everything put since the commit.
import { Buffer } from 'node:buffer';
import type { StoredRecord } from '../backend-spi.js';
import { READ_CACHE_ENTRIES } from './lmdb-key-value-store.js';
import { LmdbSegments } from './lmdb-segments.js';
import { readLong, viewOf, writeLong } from './task-store.js';

/**
 * How many committed entries a persistent stream–table join buffer keeps in memory (the window
 * stores' bound, lmdb-window-stores.ts). Tests lower it to read every entry back from disk.
 */
export const timeOrderedBufferCache = { entries: READ_CACHE_ENTRIES };

const SEGMENT = 0;
/** Sorts after every store key (prefix byte 0): the end of the entries. */
export const ENTRIES_END: Buffer = Buffer.from([1]);
const ENTRIES_START = Buffer.from([0]);
/** The buffer's stream time (int64), after the entries. */
const STREAM_TIME_KEY = Buffer.from([2]);
/** Entries are read from disk this many at a time. */
export const READ_CHUNK = 1024;

export interface StoredEntry {
  readonly storeKey: Buffer;
  /** BufferValue, as logged. */
  readonly value: Buffer;
}

const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export class TimeOrderedBufferDisk {
  readonly #segments: LmdbSegments;
  /** The bound of committed entries held in memory. */
  readonly limit: number;
  /** Null: every entry is held in memory; otherwise entries below it may be on disk only. */
  floor: Buffer | null = null;
  /** The smallest timestamp of an entry on disk only (Infinity: none). */
  nextTimestamp = Infinity;
  /** Entries up to this timestamp are evicted (the deletes of those on disk wait for the commit). */
  evictedThrough = -1;
  /**
   * Entries up to this timestamp may share their store key with one on disk (the sequence number
   * restarts with the buffer): their eviction always deletes the key on disk.
   */
  reusedKeysThrough = -1;
  /** The disk has entries (found at open, or restored) not read into memory yet. */
  needsLoad = true;
  #committedStreamTime = -1;

  constructor(path: string, storeName: string, limit: number) {
    this.#segments = new LmdbSegments(path, storeName);
    this.limit = Math.max(0, limit);
  }

  /** The stream time of the last commit (-1: none). */
  streamTime(): number {
    const bytes = this.#segments.get(SEGMENT, STREAM_TIME_KEY);
    // The stored value: the record timestamp (int64) then the stream time.
    return bytes === undefined ? -1 : readLong(viewOf(bytes), 8);
  }

  /** Queues a restored changelog record; it is written before the next read. */
  restore(record: StoredRecord): void {
    this.#segments.add(SEGMENT, record);
    this.needsLoad = true;
  }

  /** The newest `limit` entries in store order, and whether older ones stay on disk. */
  newest(limit: number): { entries: StoredEntry[]; more: boolean } {
    const entries: StoredEntry[] = [];
    for (const e of this.#segments.range(SEGMENT, ENTRIES_END, undefined, {
      reverse: true,
      limit: limit + 1,
    })) {
      if (e.key[0] !== 0) continue;
      entries.push({ storeKey: Buffer.from(e.key), value: Buffer.from(e.value.subarray(8)) });
    }
    const more = entries.length > limit;
    if (more) entries.length = limit;
    return { entries: entries.reverse(), more };
  }

  /** The oldest entry on disk, or undefined. */
  oldest(): StoredEntry | undefined {
    return this.range(ENTRIES_START, ENTRIES_END, 1)[0];
  }

  /** Entries with store keys in [from, to), in order, at most `limit`. */
  range(from: Uint8Array, to: Uint8Array, limit = READ_CHUNK): StoredEntry[] {
    const out: StoredEntry[] = [];
    // lmdb may reuse the bytes it hands out: copies.
    for (const e of this.#segments.range(SEGMENT, asBuffer(from), asBuffer(to), { limit }))
      out.push({ storeKey: Buffer.from(e.key), value: Buffer.from(e.value.subarray(8)) });
    return out;
  }

  /**
   * Writes a commit in one transaction: the entries put since the last one that are still
   * buffered, the deletes of evicted entries, the stream time.
   */
  write(
    puts: readonly { storeKey: Uint8Array; value: Uint8Array; timestamp: number }[],
    deletes: readonly Uint8Array[],
    streamTime: number,
  ): void {
    const segments = this.#segments;
    for (const p of puts)
      segments.add(SEGMENT, { key: p.storeKey, value: p.value, timestamp: p.timestamp });
    for (const key of deletes) segments.add(SEGMENT, { key, value: null });
    if (streamTime !== this.#committedStreamTime) {
      const bytes = new Uint8Array(8);
      writeLong(viewOf(bytes), 0, streamTime);
      segments.add(SEGMENT, { key: STREAM_TIME_KEY, value: bytes });
      this.#committedStreamTime = streamTime;
    }
    segments.flush();
  }

  /** Checks every stored value's checksum: what is damaged, or null. */
  verify(): string | null {
    return this.#segments.verify();
  }

  /** Empties the disk (a rebuild from the changelog follows). */
  wipe(): void {
    this.#segments.wipe();
    this.#committedStreamTime = -1;
    this.#reset();
    this.needsLoad = false;
  }

  /** After a load or a wipe: everything on disk is live and nothing is evicted. */
  #reset(): void {
    this.floor = null;
    this.nextTimestamp = Infinity;
    this.evictedThrough = -1;
  }

  /** Before reading the disk into memory. */
  startLoad(): void {
    this.#segments.flush();
    this.#reset();
    this.needsLoad = false;
  }

  close(): void {
    this.#segments.close();
  }
}
