// Persistent window and session stores (what `default.dsl.store: rocksDB` gives windowed
// aggregations, stream–stream joins and Processor API window / session stores, as Kafka Streams'
// RocksDB segmented stores): each segment lives on disk (lmdb-segments.ts), written at every
// commit with the windows or sessions changed since the last one (in the changelog's key layout;
// a window's value prefixed by its timestamp, as RocksDB keeps ValueAndTimestamp); in memory the store keeps at most
// `windowStoreCache.entries` windows or sessions that are on disk (the newest segments first, as
// recent windows are the ones read again) plus those changed since the last commit, and reads
// what it does not hold from disk (window-store.ts, session-store.ts). Opening the store loads
// the newest segments that fit that bound and leaves the others on disk, so a checkpointed
// restart replays only the changelog's tail. Retention drops a segment's directory as it drops
// the segment in memory.
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import { READ_CACHE_ENTRIES, StoreCorruptedError } from './lmdb-key-value-store.js';
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

/** What the disk part needs of a segmented window or session store. */
interface SegmentedStore {
  readonly observedStreamTime: number;
  readonly retentionMs: number;
  readonly residentEntries: number;
  segmentId(timestamp: number): number;
  evictTo(limit: number): void;
  adoptOnDisk(segment: number): void;
}

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

/**
 * A persistent store's segments on disk and its bound, for either store kind: opening loads the
 * newest segments that fit and leaves the others on disk, a commit writes its changelog records
 * to their segments and drops those past retention, a restored record is written as it comes.
 */
class OnDisk {
  readonly #limit: number;
  #closed = false;
  /** The segments left on disk at open (not read then: verify() reads them). */
  #adopted: number[] = [];
  /** A damaged value met while loading at open (the store is then rebuilt: verify()). */
  #damage: string | null = null;

  constructor(
    readonly disk: LmdbSegments,
    readonly store: SegmentedStore,
    /** Changelog keys end with the segment's time (int64) and then `suffix` − 8 more bytes. */
    readonly suffix: number,
    cacheEntries: number,
  ) {
    this.#limit = Math.max(0, cacheEntries);
  }

  /** Loads what fits (through the in-memory store's restore) and adopts the other segments. */
  open(restore: (record: StoredRecord) => void, partition: number): void {
    const load = segmentsToLoad(this.disk, this.#limit);
    for (const segment of this.disk.ids()) {
      if (!load.has(segment)) {
        this.store.adoptOnDisk(segment);
        this.#adopted.push(segment);
        continue;
      }
      try {
        this.disk.load(segment, restore, partition);
      } catch (error) {
        // Not served: the task's restore sees it through verify() and rebuilds the store.
        if (!(error instanceof StoreCorruptedError)) throw error;
        this.#damage = error.message;
      }
    }
  }

  /**
   * What is damaged on disk, or null: a value met while loading at open, else the checksums of
   * the segments left on disk then (the loaded ones were checked as they were read).
   */
  verify(): string | null {
    return this.#damage ?? this.disk.verify(this.#adopted);
  }

  segmentOf = (key: Uint8Array): number | null =>
    key.byteLength < this.suffix
      ? null
      : this.store.segmentId(readLong(viewOf(key), key.byteLength - this.suffix));

  commit(out: ProduceRecord[]): void {
    const store = this.store;
    this.disk.addAll(out, this.segmentOf);
    this.disk.flush();
    this.disk.dropBelow(store.segmentId(store.observedStreamTime - store.retentionMs));
    store.evictTo(this.#limit);
  }

  /**
   * A changelog record restored, as its disk record (`toDisk`: the value it keeps on disk);
   * `kept`: whether the store kept it (one it dropped as expired is not written).
   */
  restored(
    record: StoredRecord,
    toDisk: (record: StoredRecord) => StoredRecord,
    kept = true,
  ): void {
    const segment = !kept || record.key === null ? null : this.segmentOf(record.key);
    if (segment !== null) this.disk.add(segment, toDisk(record));
    if (this.store.residentEntries > slack(this.#limit)) this.store.evictTo(this.#limit);
  }

  wipe(): void {
    // The in-memory close() empties the store through wipe(): the disk keeps its segments then.
    if (this.#closed) return;
    this.disk.wipe();
    this.#damage = null;
    this.#adopted = [];
  }

  close(): void {
    this.disk.close();
    this.#closed = true;
  }
}

export class LmdbWindowStore extends SegmentedWindowStore {
  override readonly persistent = true;
  readonly #onDisk: OnDisk;

  constructor(
    options: WindowStoreOptions,
    partition: number,
    path: string,
    cacheEntries: number = windowStoreCache.entries,
  ) {
    const disk = new LmdbSegments(path, options.name ?? 'window-store');
    super(options, partition, disk);
    this.#onDisk = new OnDisk(disk, this, WINDOW_SUFFIX, cacheEntries);
    this.#onDisk.open((record) => super.loadFromDisk(record), partition);
  }

  override takeChangelogRecords(): ProduceRecord[] {
    const out = super.takeChangelogRecords();
    // Every changed window goes to disk, one at the retention edge too (fetchAll's
    // retentionEdge still reads it, and evicting it from memory would lose it).
    this.#onDisk.commit(this.takeDirtyRecords());
    return out;
  }

  override restore(record: StoredRecord): void {
    this.restoreKept(record);
  }

  override restoreKept(record: StoredRecord): boolean {
    // The changelog holds puts the store dropped as expired (logged before the store skips
    // them); on disk such a record would show at the retention edge (fetchAll's retentionEdge)
    // a window the store never kept, or overwrite one it keeps there.
    const kept = super.restoreKept(record);
    this.#onDisk.restored(record, (r) => this.changelogToDisk(r), kept);
    return kept;
  }

  verify(): string | null {
    return this.#onDisk.verify();
  }

  override wipe(): void {
    super.wipe();
    this.#onDisk.wipe();
  }

  override close(): void {
    this.#onDisk.close();
    super.close();
  }
}

/** Sessions are segmented by their end: the first of the two times their keys end with. */
export class LmdbSessionStore extends SegmentedSessionStore {
  override readonly persistent = true;
  readonly #onDisk: OnDisk;

  constructor(
    options: SessionStoreOptions,
    partition: number,
    path: string,
    cacheEntries: number = windowStoreCache.entries,
  ) {
    const disk = new LmdbSegments(path, options.name ?? 'session-store');
    super(options, partition, disk);
    this.#onDisk = new OnDisk(disk, this, SESSION_SUFFIX, cacheEntries);
    this.#onDisk.open((record) => super.restore(record), partition);
  }

  override takeChangelogRecords(): ProduceRecord[] {
    const out = super.takeChangelogRecords();
    this.#onDisk.commit(this.takeDirtyRecords());
    return out;
  }

  override restore(record: StoredRecord): void {
    super.restore(record);
    this.#onDisk.restored(record, (r) => r);
  }

  verify(): string | null {
    return this.#onDisk.verify();
  }

  override wipe(): void {
    super.wipe();
    this.#onDisk.wipe();
  }

  override close(): void {
    this.#onDisk.close();
    super.close();
  }
}
