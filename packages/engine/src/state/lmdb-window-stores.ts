// Persistent window and session stores (what `default.dsl.store: rocksDB` gives windowed
// aggregations, stream–stream joins and Processor API window / session stores, as Kafka Streams'
// RocksDB segmented stores): the segmented in-memory stores answer every read, and each segment
// is also kept on disk (lmdb-segments.ts), written at every commit with the commit's changelog
// records and loaded when the task starts, so a checkpointed restart replays only the changelog's
// tail instead of rebuilding the windows from the whole changelog. Retention drops a segment's
// directory as it drops the segment in memory.
import type { ProduceRecord, StoredRecord } from '../api.js';
import { LmdbSegments } from './lmdb-segments.js';
import { SegmentedSessionStore, type SessionStoreOptions } from './session-store.js';
import { readLong, viewOf } from './task-store.js';
import { SegmentedWindowStore, type WindowStoreOptions } from './window-store.js';

/** Window changelog keys end with the window start (int64) and a sequence number (int32). */
const WINDOW_SUFFIX = 12;
/** Session changelog keys end with the session end and start (int64 each). */
const SESSION_SUFFIX = 16;

export class LmdbWindowStore extends SegmentedWindowStore {
  override readonly persistent = true;
  readonly #disk: LmdbSegments;
  #closed = false;

  constructor(options: WindowStoreOptions, partition: number, path: string) {
    super(options, partition);
    this.#disk = new LmdbSegments(path, this.name);
    this.#disk.load((record) => super.restore(record), partition);
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
    return out;
  }

  override restore(record: StoredRecord): void {
    super.restore(record);
    const segment = record.key === null ? null : this.#segmentOf(record.key);
    if (segment !== null) this.#disk.add(segment, record);
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
  #closed = false;
  /** The largest session end written or restored (the store's observed stream time). */
  #streamTime = -1;

  constructor(options: SessionStoreOptions, partition: number, path: string) {
    super(options, partition);
    this.#disk = new LmdbSegments(path, this.name);
    this.#disk.load((record) => this.restoreLoaded(record), partition);
  }

  /** An entry loaded from disk: into memory only. */
  private restoreLoaded(record: StoredRecord): void {
    if (record.key !== null) this.#segmentOf(record.key);
    super.restore(record);
  }

  /** Sessions are segmented by their end. */
  #segmentOf = (key: Uint8Array): number | null => {
    if (key.byteLength < SESSION_SUFFIX) return null;
    const end = readLong(viewOf(key), key.byteLength - SESSION_SUFFIX);
    if (end > this.#streamTime) this.#streamTime = end;
    return this.segmentId(end);
  };

  override takeChangelogRecords(): ProduceRecord[] {
    const out = super.takeChangelogRecords();
    this.#disk.addAll(out, this.#segmentOf);
    this.#disk.flush();
    this.#disk.dropBelow(this.segmentId(this.#streamTime - this.retentionMs));
    return out;
  }

  override restore(record: StoredRecord): void {
    super.restore(record);
    const segment = record.key === null ? null : this.#segmentOf(record.key);
    if (segment !== null) this.#disk.add(segment, record);
  }

  override wipe(): void {
    super.wipe();
    // The in-memory close() empties the store through wipe(): the disk keeps its segments then.
    if (!this.#closed) this.#disk.wipe();
    this.#streamTime = -1;
  }

  override close(): void {
    this.#disk.close();
    this.#closed = true;
    super.close();
  }
}
