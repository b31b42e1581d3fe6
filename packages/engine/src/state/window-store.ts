// A window store segmented by time, as Kafka Streams' segmented window stores: entries live in
// segments of `segmentIntervalMs` by window start; once stream time (the largest window start put)
// moves past a segment's end + retention, the whole segment is dropped. Windows starting at or
// before stream time − retention are invisible to reads and skipped by puts even while their
// segment lives (AbstractRocksDBSegmentedBytesStore's actualFrom).
//
// The store is also Kafka's ChangeLoggingWindowBytesStore: every write is logged, in Kafka's
// layout (window-changelog.ts), even one the store drops because its window has expired —
// Kafka's change-logging layer logs each put it passes to the segmented store, which may then
// skip it (AbstractRocksDBSegmentedBytesStore#put, InMemoryWindowStore#put). Without a record
// cache each put is a write. With one (CachingWindowStore, state/record-cache.ts) the processor's
// puts reach the store at once (reads never go through the cache) but are not writes for the
// changelog: the cache's flushes and evictions are, through the writer logThroughCache() hands
// out. So a window updated and expired between two commits is logged once at the commit, as
// Kafka Streams logs every window its cache flushes. With `retainDuplicates` (stream–stream join
// buffers) every put is a new entry with its own sequence number, as Kafka's stores with
// duplicates keep them; such a store keeps its segments in columns (window-columns.ts), the others
// a window object each (window-segments.ts).
//
// A persistent store (lmdb-window-stores.ts) passes its segments on disk: it then holds in memory
// only what fits its cache (evictTo) and what changed since the last commit, and a segment it no
// longer holds in full (`complete` false) is read from disk and merged with what it holds
// (window-disk-reads.ts). Results are the same either way; the oracle tests run on both.
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import { EngineError } from '../errors.js';
import { getSerde } from '../serdes/index.js';
import { keyOrderFor, type KeyId, type KeyOrder } from './key-order.js';
import type { LmdbSegments } from './lmdb-segments.js';
import { viewOf, writeLong, type TaskStateStore } from './task-store.js';
import {
  isPre839dValue,
  takeSegmentDirty,
  windowChangelogRecord,
  WindowChangelogFormat,
} from './window-changelog.js';
import { ColumnSegment, WindowRead } from './window-columns.js';
import { WindowDiskReads } from './window-disk-reads.js';
import { evictWindows } from './window-eviction.js';
import { defaultSegmentInterval, type WindowStoreOptions } from './window-store-options.js';
import {
  collectAll,
  collectKeyRange,
  sortByStartThenKey,
  startThenKey,
  type KeyRange,
} from './window-range-reads.js';
import {
  collectAt,
  find,
  insert,
  remove,
  replace,
  Segment,
  Slot,
  type WindowEntry,
} from './window-segments.js';

export type { WindowEntry } from './window-segments.js';

/**
 * What a record cache in front of a window or session store writes through at a flush (Kafka's
 * CachingWindowStore / CachingSessionStore putting a dirty entry into the change-logging store):
 * `old` is what the store below the cache would read for the entry's windowed key at that moment
 * (null once the window has expired there), `write` logs the entry.
 */
export interface CacheWriter {
  old(windowedKey: unknown, before: unknown): unknown;
  /**
   * `timestamp`: the value's (the entry's forwarded timestamp); `contextTimestamp`: the record's
   * that made the last update, which a tombstone, or any write of a store without timestamps,
   * carries (ChangeLogging*BytesStore log with the record context's timestamp).
   */
  write(windowedKey: unknown, value: unknown, timestamp: number, contextTimestamp: number): void;
}
export { defaultSegmentInterval, keyId, type WindowStoreOptions } from './window-store-options.js';

export class SegmentedWindowStore implements TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly persistent: boolean = false;
  readonly retentionMs: number;
  readonly segmentIntervalMs: number;
  readonly retainDuplicates: boolean;
  readonly timestamped: boolean;
  readonly windowSizeMs: number;
  /** Segments by id: ColumnSegments with duplicates, Segments without. */
  readonly #segments = new Map<number, Segment | ColumnSegment>();
  /** Live segments, ascending by id. */
  #ordered: (Segment | ColumnSegment)[] = [];
  #observedStreamTime = -1;
  /**
   * Stream time of the store below a record cache in Kafka (which sees a window only when the
   * cache flushes it): the largest start written through the cache since the last commit, or the
   * observed stream time as of that commit (when every cached window had been flushed).
   */
  #flushedStreamTime = -1;
  #seq = 0;
  readonly #logging: boolean;
  /** Changelog records written since the last commit, in write order. */
  #log: ProduceRecord[] = [];
  /** Writes come from the record cache's flushes (logThroughCache), not from put(). */
  #logByCache = false;
  /** Dirty tracking for the disk (a persistent store writes what changed at the commit). */
  readonly #tracksDirty: boolean;
  readonly #keys: KeyOrder;
  readonly #format: WindowChangelogFormat;
  readonly #byStartThenKey;
  /** A persistent store's segments on disk (null in memory). */
  readonly #disk: WindowDiskReads | null;
  /** Puts skipped because their segment had expired (Kafka: expired-window-record-drop). */
  expiredRecordsTotal = 0;

  constructor(
    options: WindowStoreOptions,
    /** Changelog partition = the task's partition. */
    readonly partition = 0,
    disk: LmdbSegments | null = null,
  ) {
    this.name = options.name ?? 'window-store';
    this.changelogTopic = options.changelogTopic ?? null;
    this.#logging = this.changelogTopic !== null && options.logging !== false;
    this.#tracksDirty = disk !== null;
    this.retentionMs = options.retentionMs;
    this.segmentIntervalMs =
      options.segmentIntervalMs ?? defaultSegmentInterval(options.retentionMs);
    this.retainDuplicates = options.retainDuplicates ?? false;
    this.timestamped = options.timestamped ?? true;
    this.windowSizeMs = options.windowSizeMs ?? 0;
    this.#keys = keyOrderFor(options.keySerde ?? 'json');
    this.#byStartThenKey = startThenKey(this.#keys);
    this.#format = new WindowChangelogFormat(
      this.#keys.serde,
      getSerde(options.valueSerde ?? 'json'),
      this.timestamped,
    );
    const keySerde = options.keySerde ?? 'json';
    this.#disk =
      disk === null
        ? null
        : new WindowDiskReads(
            disk,
            this.#keys,
            this.#format,
            keySerde === 'integer' || keySerde === 'long',
          );
  }

  segmentId(timestamp: number): number {
    return Math.floor(timestamp / this.segmentIntervalMs);
  }

  get observedStreamTime(): number {
    return this.#observedStreamTime;
  }

  /** The number of live segments (tests check that retention drops whole segments). */
  get segmentCount(): number {
    return this.#segments.size;
  }

  /** Windows held in memory (a persistent store keeps this near its cache: evictTo). */
  get residentEntries(): number {
    let n = 0;
    for (const segment of this.#ordered)
      n += segment instanceof ColumnSegment ? segment.indexed : segment.size;
    return n;
  }

  /** Orders keys as their serialized bytes (what range reads go by). */
  compareKeys(a: unknown, b: unknown): number {
    return this.#keys.compare(a, b);
  }

  /** The key's serialized bytes (the order compareKeys goes by). */
  serializeKey(key: unknown): Uint8Array | null {
    return this.#keys.serde.serialize(key);
  }

  /**
   * put(key, value, windowStart); a null value deletes (without duplicates). False when skipped
   * as expired.
   */
  put(key: unknown, value: unknown, windowStart: number, timestamp: number): boolean {
    const id = this.#keys.id(key);
    const deleting = value === null || value === undefined;
    const live = this.#advance(windowStart);
    if (this.#logging && !this.#logByCache) {
      // ChangeLoggingWindowBytesStore#put: logged whether or not the store keeps it (a store with
      // duplicates gives every put, a null one too, the next sequence number).
      const seq = this.retainDuplicates ? ++this.#seq : 0;
      this.#log.push(
        windowChangelogRecord(
          this.#format,
          this.changelogTopic!,
          this.partition,
          key,
          windowStart,
          seq,
          deleting ? null : value,
          timestamp,
        ),
      );
    } else if (this.retainDuplicates && !deleting) ++this.#seq;
    if (!live) return false;
    if (this.retainDuplicates) {
      // Kafka Streams' stores with duplicates ignore deletes (a null put is a no-op).
      if (deleting) return true;
      const columns = this.#segment(this.segmentId(windowStart)) as ColumnSegment;
      const at = columns.add(key, id, windowStart, this.#seq, value, timestamp);
      if (this.#tracksDirty) columns.dirty.push(at);
      return true;
    }
    const segment = this.#segments.get(this.segmentId(windowStart)) as Segment | undefined;
    const slot = find(segment?.byKey.get(id), windowStart);
    if (slot !== undefined) {
      const fresh = new Slot(key, id, windowStart, 0, deleting ? null : value, timestamp);
      // A segment held in part keeps the delete: it hides the window on disk until the commit.
      if (deleting && segment!.complete) remove(segment!, slot);
      else replace(segment!, slot, fresh);
      if (slot.dirty) {
        // Already listed: logged through the listed slot, which now points here.
        const listed = slot.listed ?? slot;
        listed.latest = fresh;
        fresh.listed = listed;
        fresh.dirty = true;
      } else this.#markDirty(segment!, fresh);
      return true;
    }
    const fresh = new Slot(key, id, windowStart, 0, deleting ? null : value, timestamp);
    // Deleting what is not here still logs a tombstone (the window may be in the changelog).
    if (deleting) {
      const target = this.#segment(this.segmentId(windowStart)) as Segment;
      if (!target.complete) insert(target, fresh);
      this.#markDirty(target, fresh);
    } else this.#insert(fresh, true);
    return true;
  }

  /** Moves stream time; drops expired segments. False when `start` is already expired. */
  #advance(start: number, counted = true): boolean {
    if (start > this.#observedStreamTime) {
      this.#observedStreamTime = start;
      const minLive = this.segmentId(start - this.retentionMs);
      let drop = 0;
      while (drop < this.#ordered.length && this.#ordered[drop]!.id < minLive) {
        // No tombstones: the changelog (compact,delete) expires old windows by its own retention.
        this.#segments.delete(this.#ordered[drop]!.id);
        drop++;
      }
      if (drop > 0) this.#ordered.splice(0, drop);
    }
    if (start <= this.#observedStreamTime - this.retentionMs) {
      if (counted) this.expiredRecordsTotal++;
      return false;
    }
    return true;
  }

  #segment(segmentId: number): Segment | ColumnSegment {
    let segment = this.#segments.get(segmentId);
    if (segment === undefined) {
      const list = this.#ordered;
      // A new column segment starts as large as the newest one ended up (segments see similar
      // traffic), so its columns rarely grow.
      const newest = list[list.length - 1];
      segment = this.retainDuplicates
        ? new ColumnSegment(segmentId, newest instanceof ColumnSegment ? newest.size : 0)
        : new Segment(segmentId);
      this.#segments.set(segmentId, segment);
      let i = list.length;
      while (i > 0 && list[i - 1]!.id > segmentId) i--;
      if (i === list.length) list.push(segment);
      else list.splice(i, 0, segment);
    }
    return segment;
  }

  #insert(slot: Slot, log: boolean): void {
    const segment = this.#segment(this.segmentId(slot.start)) as Segment;
    insert(segment, slot);
    if (log) this.#markDirty(segment, slot);
  }

  #markDirty(segment: Segment, slot: Slot): void {
    if (!this.#tracksDirty) return;
    slot.dirty = true;
    segment.dirty.push(slot);
  }

  #live(start: number): boolean {
    return start > this.#observedStreamTime - this.retentionMs;
  }

  /** fetch(key, windowStart): the window's value, or undefined (also when expired). */
  fetch(key: unknown, windowStart: number): WindowEntry | undefined {
    if (!this.#live(windowStart)) return undefined;
    const segment = this.#segments.get(this.segmentId(windowStart));
    if (segment === undefined) return undefined;
    if (segment instanceof ColumnSegment) {
      // With duplicates: the earliest put of that window (WindowStore#fetch(key, time)); what is
      // on disk was put before what is held.
      if (!segment.complete) {
        const onDisk = this.#disk!.ofKey(segment.id, key, windowStart, windowStart)[0];
        if (onDisk !== undefined) return onDisk;
      }
      const at = segment.findFirst(this.#keys.id(key), windowStart);
      return at < 0 ? undefined : new WindowRead(segment, at);
    }
    const slot = find(segment.byKey.get(this.#keys.id(key)), windowStart);
    if (slot !== undefined) return slot.value === null ? undefined : slot;
    return segment.complete ? undefined : this.#disk!.one(segment.id, key, windowStart);
  }

  #lowerBound(from: number): number {
    return Math.max(from, this.#observedStreamTime - this.retentionMs + 1);
  }

  /** The index in #ordered of the first live segment that may hold windows starting at `from`. */
  #firstSegment(from: number): number {
    const lo = this.segmentId(from);
    const list = this.#ordered;
    let i = 0;
    while (i < list.length && list[i]!.id < lo) i++;
    return i;
  }

  /** fetch(key, timeFrom, timeTo): the key's windows starting within [from, to], by start. */
  fetchRange(key: unknown, from: number, timeTo: number): WindowEntry[] {
    const out: WindowEntry[] = [];
    out.length = this.fetchRangeInto(key, from, timeTo, out);
    return out;
  }

  /**
   * fetchRange into out[0…n), returning n; entries past n are left as they were. With duplicates
   * the reads found in out are reused (a caller reusing one array for every fetch allocates
   * little, and is done with the previous fetch's entries); without, out gets the store's own.
   */
  fetchRangeInto(key: unknown, from: number, timeTo: number, out: WindowEntry[]): number {
    const timeFrom = this.#lowerBound(from);
    if (timeFrom > timeTo) return 0;
    const id = this.#keys.id(key);
    const hi = this.segmentId(timeTo);
    const list = this.#ordered;
    let n = 0;
    for (let i = this.#firstSegment(timeFrom); i < list.length && list[i]!.id <= hi; i++) {
      const segment = list[i]!;
      if (!segment.complete) {
        for (const e of this.#disk!.merged(segment, key, id, timeFrom, timeTo)) out[n++] = e;
        continue;
      }
      if (segment instanceof ColumnSegment) {
        const positions = segment.byKey.get(id);
        if (positions !== undefined) n = segment.collectAt(positions, timeFrom, timeTo, out, n);
        continue;
      }
      const windows = segment.byKey.get(id);
      if (windows !== undefined) n = collectAt(windows, timeFrom, timeTo, out, n);
    }
    return n;
  }

  /**
   * fetch(keyFrom, keyTo, timeFrom, timeTo): windows of keys within [keyFrom, keyTo] (byte order;
   * null bounds are open) starting within [from, to]; ordered by start, then key bytes, as Kafka
   * Streams' in-memory window store returns them. An inverted key range is empty (Kafka logs a
   * warning and returns nothing). A short range of integer or long keys is looked up key by key
   * in each segment; any other range scans the segments' keys.
   */
  fetchKeyRange(keyFrom: unknown, keyTo: unknown, from: number, timeTo: number): WindowEntry[] {
    const timeFrom = this.#lowerBound(from);
    const out: (Slot | WindowRead)[] = [];
    if (timeFrom > timeTo) return out;
    const hasFrom = keyFrom !== null && keyFrom !== undefined;
    const hasTo = keyTo !== null && keyTo !== undefined;
    const count = hasFrom && hasTo ? this.#keys.countRange(keyFrom, keyTo, 64) : -1;
    if (count === 0) return out;
    const range: KeyRange = { keyFrom, keyTo, count };
    const hi = this.segmentId(timeTo);
    const list = this.#ordered;
    for (let i = this.#firstSegment(timeFrom); i < list.length && list[i]!.id <= hi; i++) {
      const segment = list[i]!;
      const first = out.length;
      collectKeyRange(segment, range, timeFrom, timeTo, this.#keys, out);
      if (segment.complete) continue;
      this.#disk!.mergeInto(segment, timeFrom, timeTo, range, out, first);
    }
    return sortByStartThenKey(out, this.#byStartThenKey);
  }

  /**
   * fetchAll(timeFrom, timeTo): every window starting within [from, to], by start then key.
   * `retentionEdge`: also the window starting exactly at stream time − retention (Kafka's
   * time-ordered store, which onWindowClose aggregations read, still shows it).
   */
  fetchAll(from: number, timeTo: number, retentionEdge = false): WindowEntry[] {
    const timeFrom = retentionEdge
      ? Math.max(from, this.#observedStreamTime - this.retentionMs)
      : this.#lowerBound(from);
    const out: (Slot | WindowRead)[] = [];
    if (timeFrom > timeTo) return out;
    const hi = this.segmentId(timeTo);
    const list = this.#ordered;
    for (let i = this.#firstSegment(timeFrom); i < list.length && list[i]!.id <= hi; i++) {
      const segment = list[i]!;
      const first = out.length;
      collectAll(segment, timeFrom, timeTo, out);
      if (segment.complete) continue;
      this.#disk!.mergeInto(segment, timeFrom, timeTo, null, out, first);
    }
    return sortByStartThenKey(out, this.#byStartThenKey);
  }

  all(): WindowEntry[] {
    return this.fetchAll(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  }

  /** Windows held, plus those on disk of segments held in part (an estimate, as RocksDB's). */
  approximateNumEntries(): number {
    let n = 0;
    for (const segment of this.#ordered) {
      if (!segment.complete) n += this.#disk!.disk.count(segment.id);
      n += segment instanceof ColumnSegment ? segment.indexed : segment.size;
    }
    return n;
  }

  /**
   * The changelog records written since the last commit, in write order (each put, or each
   * window the record cache flushed or evicted).
   */
  takeChangelogRecords(): ProduceRecord[] {
    this.#flushedStreamTime = this.#observedStreamTime;
    if (this.#log.length === 0) return [];
    const out = this.#log;
    this.#log = [];
    return out;
  }

  /** TaskStateStore#drainLoggedWrites: every logged write is final (not collapsed per commit). */
  drainLoggedWrites(send: (record: ProduceRecord) => void): number {
    const log = this.#log;
    if (log.length === 0) return 0;
    this.#log = [];
    for (let i = 0; i < log.length; i++) send(log[i]!);
    return log.length;
  }

  /**
   * The record cache in front of this store takes over its changelog writes (Kafka's
   * CachingWindowStore over ChangeLoggingWindowBytesStore): from now on put() logs nothing and
   * the returned writer logs each entry the cache flushes.
   */
  logThroughCache(): CacheWriter {
    this.#logByCache = true;
    return {
      old: (windowedKey, before) =>
        // AbstractRocksDBSegmentedBytesStore#get: expired below the cache's stream time.
        (windowedKey as { start: number }).start > this.#flushedStreamTime - this.retentionMs
          ? before
          : null,
      write: (windowedKey, value, timestamp, contextTimestamp) => {
        const { key, start } = windowedKey as { key: unknown; start: number };
        if (start > this.#flushedStreamTime) this.#flushedStreamTime = start;
        if (!this.#logging) return;
        this.#log.push(
          windowChangelogRecord(
            this.#format,
            this.changelogTopic!,
            this.partition,
            key,
            start,
            0,
            value ?? null,
            value != null && this.timestamped ? timestamp : contextTimestamp,
          ),
        );
      },
    };
  }

  /**
   * The windows changed since the last commit (one record each, changelog key and disk value, in
   * the order they first changed), marked clean: what a persistent store writes to disk.
   */
  takeDirtyRecords(): ProduceRecord[] {
    const out: ProduceRecord[] = [];
    for (const segment of this.#ordered)
      takeSegmentDirty(segment, this.#format, this.partition, out);
    return out;
  }

  /**
   * After a persistent store wrote a commit's windows to disk: keeps at most `limit` of them in
   * memory (window-eviction.ts).
   */
  evictTo(limit: number): void {
    evictWindows(this.#ordered, this.residentEntries, limit);
  }

  /**
   * A segment on disk that a persistent store does not load (it would not fit its cache): reads
   * of it go to disk. Stream time and the sequence number move past what it holds.
   */
  adoptOnDisk(segmentId: number): void {
    const { maxStart, maxSeq } = this.#disk!.bounds(segmentId);
    if (maxSeq > this.#seq) this.#seq = maxSeq;
    if (maxStart > this.#flushedStreamTime) this.#flushedStreamTime = maxStart;
    if (!this.#advance(maxStart, false)) return;
    this.#segment(segmentId).complete = false;
  }

  /**
   * Applies one changelog record (a plain value; its timestamp is the record's). A record in the
   * layout written before 839d171 (isPre839dValue) fails the restore, naming the store and what
   * to do: restoring it as it is would give the store wrong values, silently.
   */
  restore(record: StoredRecord): void {
    this.restoreKept(record);
  }

  /**
   * restore(), telling whether the store keeps the record: false when it drops it as expired (its
   * window starts at or before stream time − retention, or its segment is gone), as put() drops
   * such a window. A persistent store writes to disk only what is kept: the changelog holds every
   * put, expired ones too (ChangeLoggingWindowBytesStore logs before the store skips them).
   */
  restoreKept(record: StoredRecord): boolean {
    if (
      this.timestamped &&
      record.value !== null &&
      isPre839dValue(this.#format, record.value, record.timestamp)
    )
      throw new EngineError(
        'INVALID_STATE_STORE',
        `window store ${this.name} cannot be restored from its changelog ${record.topic}-${record.partition}: the record at offset ${record.offset} is in the changelog format Streamwright wrote before 2026-12-07 (commit 839d171: each value prefixed by its timestamp), which this version would read as wrong values. Rebuild the store from the input topics: stop the application and run \`streamwright app reset\` (it deletes the changelog and repartition topics and the local state, and reprocesses the input from the earliest offsets), or keep the previous version running until the store's retention has passed.`,
      );
    return this.#apply(record, false);
  }

  /** Applies one record read from a persistent store's disk (a timestamp-prefixed value). */
  loadFromDisk(record: StoredRecord): void {
    this.#apply(record, true);
  }

  /** A changelog record as a persistent store keeps it on disk (value prefixed by timestamp). */
  changelogToDisk(record: StoredRecord): StoredRecord {
    if (!this.timestamped || record.value === null) return record;
    const out = new Uint8Array(8 + record.value.byteLength);
    writeLong(viewOf(out), 0, record.timestamp);
    out.set(record.value, 8);
    return { ...record, value: out };
  }

  #parseValue(bytes: Uint8Array, recordTimestamp: number, fromDisk: boolean) {
    return fromDisk
      ? this.#format.parseValue(bytes, recordTimestamp)
      : { value: this.#format.valueSerde.deserialize(bytes), timestamp: recordTimestamp };
  }

  /** Applies a record; false when it is dropped (unparsable, or expired). */
  #apply(record: StoredRecord, fromDisk: boolean): boolean {
    const parsed = this.#format.parseKey(record.key);
    if (parsed === null) return false;
    const { key, start, seq } = parsed;
    const id = this.#keys.id(key);
    if (start > this.#flushedStreamTime) this.#flushedStreamTime = start;
    if (!this.#advance(start)) return false;
    if (seq > this.#seq) this.#seq = seq;
    const held = this.#segments.get(this.segmentId(start));
    if (held !== undefined && !held.complete) {
      // Held in part: the record goes to disk only (the persistent store writes it); a window
      // held of it would hide it.
      if (held instanceof Segment) {
        const stale = find(held.byKey.get(id), start);
        if (stale !== undefined) remove(held, stale);
      }
      return true;
    }
    if (this.retainDuplicates) {
      this.#restoreColumn(record, key, id, start, seq, fromDisk);
      return true;
    }
    const segment = held as Segment | undefined;
    const windows = segment?.byKey.get(id);
    const existing =
      windows === undefined
        ? undefined
        : (windows instanceof Slot ? [windows] : windows).find(
            (s) => s.start === start && s.seq === seq,
          );
    if (record.value === null) {
      if (existing !== undefined) remove(segment!, existing);
      return true;
    }
    const { value, timestamp } = this.#parseValue(record.value, record.timestamp, fromDisk);
    if (existing !== undefined) {
      existing.value = value;
      existing.timestamp = timestamp;
      existing.view = undefined;
    } else {
      this.#insert(new Slot(key, id, start, seq, value, timestamp), false);
    }
    return true;
  }

  #restoreColumn(
    record: StoredRecord,
    key: unknown,
    id: KeyId,
    start: number,
    seq: number,
    fromDisk: boolean,
  ): void {
    const segment = this.#segments.get(this.segmentId(start)) as ColumnSegment | undefined;
    const existing = segment === undefined ? -1 : segment.findSeq(id, start, seq);
    if (record.value === null) {
      if (existing >= 0) segment!.unindex(existing);
      return;
    }
    const { value, timestamp } = this.#parseValue(record.value, record.timestamp, fromDisk);
    if (existing >= 0) segment!.replace(existing, value, timestamp);
    else
      (this.#segment(this.segmentId(start)) as ColumnSegment).add(
        key,
        id,
        start,
        seq,
        value,
        timestamp,
      );
  }

  wipe(): void {
    this.#segments.clear();
    this.#ordered = [];
    this.#observedStreamTime = -1;
    this.#flushedStreamTime = -1;
    this.#log = [];
  }

  close(): void {
    this.wipe();
  }
}
