// Persistent window and session stores (what `default.dsl.store: rocksDB` gives windowed
// aggregations, stream–stream joins and Processor API window / session stores, as Kafka Streams'
// RocksDB segmented stores): each segment lives on disk (lmdb-segments.ts), written at every
// commit with the commit's changelog records; in memory the store keeps at most
// `windowStoreCache.entries` windows or sessions that are on disk (the newest segments first, as
// recent windows are the ones read again) plus those changed since the last commit, and reads
// what it does not hold from disk (window-store.ts, session-store.ts). Opening the store loads
// the newest segments that fit that bound and leaves the others on disk, so a checkpointed
// restart replays only the changelog's tail. Retention drops a segment's directory as it drops
// the segment in memory.
import type { ProduceRecord, StoredRecord } from '../api.js';
import { READ_CACHE_ENTRIES } from './lmdb-key-value-store.js';
import { LmdbSegments } from './lmdb-segments.js';
import { SegmentedSessionStore, type SessionStoreOptions } from './session-store.js';
import { readLong, viewOf } from './task-store.js';
import { SegmentedWindowStore, type WindowStoreOptions } from './window-store.js';

/** Window changelog keys end with the window start (int64) and a sequence number (int32). */
const WINDOW_SUFFIX = 12;
/** Session changelog keys end with the session end and start (int64 each). */
const SESSION_SUFFIX = 16;

/**
 * How many committed windows (or sessions) a persistent window or session store keeps in memory,
 * as the key-value store keeps READ_CACHE_ENTRIES clean entries (the role of RocksDB's block
 * cache). Entries changed since the last commit are held on top of it until the commit writes
 * them. Tests lower it to read everything from disk.
 */
export const windowStoreCache = { entries: READ_CACHE_ENTRIES };

/** A restore evicts once the store holds this much more than its bound. */
const slack = (limit: number): number => limit + (limit >> 3);

/** The ids of the newest segments whose entries fit within `limit` together (what is loaded). */
function segmentsToLoad(disk: LmdbSegments, limit: number): Set<number> {
  const ids = disk.ids();
  const load = new Set<number>();
  let total = 0;
  for (let i = ids.length - 1; i >= 0; i--) {
    total += disk.count(ids[i]!);
    if (total > limit) break;
    load.add(ids[i]!);
  }
  return load;
}

export class LmdbWindowStore extends SegmentedWindowStore {
  override readonly persistent = true;
  readonly #disk: LmdbSegments;
  readonly #limit: number;
  #closed = false;

  constructor(
    options: WindowStoreOptions,
    partition: number,
    path: string,
    cacheEntries: number = windowStoreCache.entries,
  ) {
    const disk = new LmdbSegments(path, options.name ?? 'window-store');
    super(options, partition, disk);
    this.#disk = disk;
    this.#limit = Math.max(0, cacheEntries);
    const load = segmentsToLoad(disk, this.#limit);
    for (const segment of disk.ids()) {
      if (load.has(segment)) disk.load(segment, (record) => super.restore(record), partition);
      else this.adoptOnDisk(segment);
    }
  }

  #segmentOf = (key: Uint8Array): number | null =>
    key.byteLength < WINDOW_SUFFIX
      ? null
      : this.segmentId(readLong(viewOf(key), key.byteLength - WINDOW_SUFFIX));

  override takeChangelogRecords(): ProduceRecord[] {
    const out = super.takeChangelogRecords();
    this.#disk.addAll(out, this.#segmentOf);
    this.#disk.flush();
    this.#disk.dropBelow(this.segmentId(this.observedStreamTime - this.retentionMs));
    this.evictTo(this.#limit);
    return out;
  }

  override restore(record: StoredRecord): void {
    super.restore(record);
    const segment = record.key === null ? null : this.#segmentOf(record.key);
    if (segment !== null) this.#disk.add(segment, record);
    if (this.residentEntries > slack(this.#limit)) this.evictTo(this.#limit);
  }

  override wipe(): void {
    super.wipe();
    // The in-memory close() empties the store through wipe(): the disk keeps its segments then.
    if (!this.#closed) this.#disk.wipe();
  }

  override close(): void {
    this.#disk.close();
    this.#closed = true;
    super.close();
  }
}

export class LmdbSessionStore extends SegmentedSessionStore {
  override readonly persistent = true;
  readonly #disk: LmdbSegments;
  readonly #limit: number;
  #closed = false;

  constructor(
    options: SessionStoreOptions,
    partition: number,
    path: string,
    cacheEntries: number = windowStoreCache.entries,
  ) {
    const disk = new LmdbSegments(path, options.name ?? 'session-store');
    super(options, partition, disk);
    this.#disk = disk;
    this.#limit = Math.max(0, cacheEntries);
    const load = segmentsToLoad(disk, this.#limit);
    for (const segment of disk.ids()) {
      if (load.has(segment)) disk.load(segment, (record) => super.restore(record), partition);
      else this.adoptOnDisk(segment);
    }
  }

  /** Sessions are segmented by their end. */
  #segmentOf = (key: Uint8Array): number | null =>
    key.byteLength < SESSION_SUFFIX
      ? null
      : this.segmentId(readLong(viewOf(key), key.byteLength - SESSION_SUFFIX));

  override takeChangelogRecords(): ProduceRecord[] {
    const out = super.takeChangelogRecords();
    this.#disk.addAll(out, this.#segmentOf);
    this.#disk.flush();
    this.#disk.dropBelow(this.segmentId(this.observedStreamTime - this.retentionMs));
    this.evictTo(this.#limit);
    return out;
  }

  override restore(record: StoredRecord): void {
    super.restore(record);
    const segment = record.key === null ? null : this.#segmentOf(record.key);
    if (segment !== null) this.#disk.add(segment, record);
    if (this.residentEntries > slack(this.#limit)) this.evictTo(this.#limit);
  }

  override wipe(): void {
    super.wipe();
    // The in-memory close() empties the store through wipe(): the disk keeps its segments then.
    if (!this.#closed) this.#disk.wipe();
  }

  override close(): void {
    this.#disk.close();
    this.#closed = true;
    super.close();
  }
}
