// A window store segmented by time, as Kafka Streams' segmented window stores: entries live in
// segments of `segmentIntervalMs` by window start; once stream time (the largest window start put)
// moves past a segment's end + retention, the whole segment is dropped. Windows starting at or
// before stream time − retention are invisible to reads and skipped by puts even while their
// segment lives (AbstractRocksDBSegmentedBytesStore's actualFrom).
//
// The store owns its changelog: a put marks the window dirty (once, however often it changes
// before the commit) and the commit writes one record per dirty window in Kafka's layout
// (window-changelog.ts). With `retainDuplicates` (stream–stream join buffers) every put is
// a new entry with its own sequence number, as Kafka's stores with duplicates keep them; such a
// store keeps its segments in columns (window-columns.ts), the others a window object each
// (window-segments.ts).
import type { SerdeName } from '@streamwright/topology-model';
import type { ProduceRecord, StoredRecord } from '../api.js';
import { getSerde } from '../serdes/index.js';
import { keyOrderFor, type KeyId, type KeyOrder } from './key-order.js';
import type { TaskStateStore } from './task-store.js';
import { WindowChangelogFormat } from './window-changelog.js';
import { ColumnSegment, WindowRead } from './window-columns.js';
import {
  collect,
  collectAt,
  find,
  insert,
  keyOf,
  remove,
  replace,
  Segment,
  Slot,
  type WindowEntry,
} from './window-segments.js';

export type { WindowEntry } from './window-segments.js';

export interface WindowStoreOptions {
  retentionMs: number;
  /** Default retention / 2 (see defaultSegmentInterval). */
  segmentIntervalMs?: number;
  name?: string;
  keySerde?: SerdeName;
  valueSerde?: SerdeName;
  changelogTopic?: string | null;
  /** False when logging is off (the store is not backed up). */
  logging?: boolean;
  /** Every put is kept, also for the same key and start (Stores.persistentWindowStore(…, true)). */
  retainDuplicates?: boolean;
  /** Values are logged with their timestamp (TimestampedWindowStore, the DSL's); default true. */
  timestamped?: boolean;
  /** The window size, where the store knows it (Processor API stores: a windowed key's end). */
  windowSizeMs?: number;
}

/** An identity for any record key (keys are compared by value, as bytes in Kafka Streams). */
export function keyId(key: unknown): string {
  if (typeof key === 'string') return `s${key}`;
  if (typeof key === 'number') return `n${key}`;
  return `j${JSON.stringify(key)}`;
}

/**
 * Kafka's persistent stores use max(retention / 2, 60 s) segments; what a reader sees does not
 * depend on it (windows older than stream time − retention are invisible either way), only how
 * long expired entries linger. In memory we use retention / 2 without the 60 s floor, so short
 * windows do not keep a minute of expired entries around.
 */
export function defaultSegmentInterval(retentionMs: number): number {
  return Math.max(Math.floor(retentionMs / 2), 1);
}

/** What range reads sort by (Slot and WindowRead both have it). */
interface Sortable {
  start: number;
  id: KeyId;
  key: unknown;
  seq: number;
}

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
  #seq = 0;
  readonly #logging: boolean;
  readonly #keys: KeyOrder;
  readonly #format: WindowChangelogFormat;
  /** Puts skipped because their segment had expired (Kafka: expired-window-record-drop). */
  expiredRecordsTotal = 0;

  constructor(
    options: WindowStoreOptions,
    /** Changelog partition = the task's partition. */
    readonly partition = 0,
  ) {
    this.name = options.name ?? 'window-store';
    this.changelogTopic = options.changelogTopic ?? null;
    this.#logging = this.changelogTopic !== null && options.logging !== false;
    this.retentionMs = options.retentionMs;
    this.segmentIntervalMs =
      options.segmentIntervalMs ?? defaultSegmentInterval(options.retentionMs);
    this.retainDuplicates = options.retainDuplicates ?? false;
    this.timestamped = options.timestamped ?? true;
    this.windowSizeMs = options.windowSizeMs ?? 0;
    this.#keys = keyOrderFor(options.keySerde ?? 'json');
    this.#format = new WindowChangelogFormat(
      this.#keys.serde,
      getSerde(options.valueSerde ?? 'json'),
      this.timestamped,
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
    if (!this.#advance(windowStart)) return false;
    const deleting = value === null || value === undefined;
    if (this.retainDuplicates) {
      // Kafka Streams' stores with duplicates ignore deletes (a null put is a no-op).
      if (deleting) return true;
      const columns = this.#segment(this.segmentId(windowStart)) as ColumnSegment;
      const at = columns.add(key, id, windowStart, ++this.#seq, value, timestamp);
      if (this.#logging) columns.dirty.push(at);
      return true;
    }
    const segment = this.#segments.get(this.segmentId(windowStart)) as Segment | undefined;
    const slot = find(segment?.byKey.get(id), windowStart);
    if (slot !== undefined) {
      const fresh = new Slot(key, id, windowStart, 0, deleting ? null : value, timestamp);
      if (deleting) remove(segment!, slot);
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
    if (deleting) this.#markDirty(this.#segment(this.segmentId(windowStart)) as Segment, fresh);
    else this.#insert(fresh, true);
    return true;
  }

  /** Moves stream time; drops expired segments. False when `start` is already expired. */
  #advance(start: number): boolean {
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
      this.expiredRecordsTotal++;
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
    if (!this.#logging) return;
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
    if (segment instanceof ColumnSegment) {
      // With duplicates: the earliest put of that window (WindowStore#fetch(key, time)).
      const at = segment.findFirst(this.#keys.id(key), windowStart);
      return at < 0 ? undefined : new WindowRead(segment, at);
    }
    return find(segment?.byKey.get(this.#keys.id(key)), windowStart);
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
    const hi = this.segmentId(timeTo);
    const list = this.#ordered;
    for (let i = this.#firstSegment(timeFrom); i < list.length && list[i]!.id <= hi; i++) {
      const segment = list[i]!;
      if (segment instanceof ColumnSegment) {
        this.#collectColumns(segment, keyFrom, keyTo, count, timeFrom, timeTo, out);
        continue;
      }
      const byKey = segment.byKey;
      if (count > 0) {
        // countRange > 0: the ids are the consecutive numbers from keyFrom.
        const first = keyFrom as number;
        for (let k = 0; k < count; k++) {
          const windows = byKey.get(first + k);
          if (windows !== undefined) collect(windows, timeFrom, timeTo, out as Slot[]);
        }
        continue;
      }
      for (const windows of byKey.values()) {
        const key = keyOf(windows);
        if (hasFrom && this.#keys.compare(key, keyFrom) < 0) continue;
        if (hasTo && this.#keys.compare(key, keyTo) > 0) continue;
        collect(windows, timeFrom, timeTo, out as Slot[]);
      }
    }
    return this.#sortByStartThenKey(out);
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
      if (segment instanceof ColumnSegment)
        for (const positions of segment.byKey.values())
          segment.collect(positions, timeFrom, timeTo, out);
      else
        for (const windows of segment.byKey.values())
          collect(windows, timeFrom, timeTo, out as Slot[]);
    }
    return this.#sortByStartThenKey(out);
  }

  /** fetchKeyRange's matches in a column segment (see there). */
  #collectColumns(
    segment: ColumnSegment,
    keyFrom: unknown,
    keyTo: unknown,
    count: number,
    timeFrom: number,
    timeTo: number,
    out: WindowEntry[],
  ): void {
    const byKey = segment.byKey;
    if (count > 0) {
      const first = keyFrom as number;
      for (let k = 0; k < count; k++) {
        const positions = byKey.get(first + k);
        if (positions !== undefined) segment.collect(positions, timeFrom, timeTo, out);
      }
      return;
    }
    const hasFrom = keyFrom !== null && keyFrom !== undefined;
    const hasTo = keyTo !== null && keyTo !== undefined;
    for (const positions of byKey.values()) {
      const key = segment.keyOf(positions);
      if (hasFrom && this.#keys.compare(key, keyFrom) < 0) continue;
      if (hasTo && this.#keys.compare(key, keyTo) > 0) continue;
      segment.collect(positions, timeFrom, timeTo, out);
    }
  }

  all(): WindowEntry[] {
    return this.fetchAll(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  }

  readonly #byStartThenKey = (a: Sortable, b: Sortable): number =>
    a.start - b.start || (a.id === b.id ? 0 : this.#keys.compare(a.key, b.key)) || a.seq - b.seq;

  #sortByStartThenKey<T extends Sortable>(slots: T[]): T[] {
    const n = slots.length;
    if (n > 32) return slots.sort(this.#byStartThenKey);
    // Insertion sort in place: no allocation, and linear on the nearly ordered matches of a
    // short key range (keys collected in key order usually have their windows in time order).
    for (let i = 1; i < n; i++) {
      const slot = slots[i]!;
      let j = i - 1;
      while (j >= 0 && this.#byStartThenKey(slots[j]!, slot) > 0) {
        slots[j + 1] = slots[j]!;
        j--;
      }
      slots[j + 1] = slot;
    }
    return slots;
  }

  approximateNumEntries(): number {
    let n = 0;
    for (const segment of this.#ordered) {
      if (segment instanceof ColumnSegment) n += segment.indexed;
      else
        for (const windows of segment.byKey.values())
          n += windows instanceof Slot ? 1 : windows.length;
    }
    return n;
  }

  takeChangelogRecords(): ProduceRecord[] {
    if (this.changelogTopic === null) return [];
    const out: ProduceRecord[] = [];
    for (const segment of this.#ordered) {
      if (segment instanceof ColumnSegment) {
        this.#columnChangelog(segment, out);
        continue;
      }
      const dirty = segment.dirty;
      if (dirty.length === 0) continue;
      segment.dirty = [];
      for (const listed of dirty) {
        const slot = listed.latest ?? listed;
        listed.dirty = false;
        listed.latest = null;
        slot.dirty = false;
        slot.listed = null;
        // Expired though its segment lives: invisible, and the changelog's retention drops it.
        if (slot.value !== null && !this.#live(slot.start)) continue;
        out.push({
          topic: this.changelogTopic,
          partition: this.partition,
          key: this.#format.key(slot.key, slot.start, slot.seq),
          value: slot.value === null ? null : this.#format.value(slot.value, slot.timestamp),
          timestamp: slot.timestamp,
        });
      }
    }
    return out;
  }

  /** A column segment's windows put since the last commit, in put order. */
  #columnChangelog(segment: ColumnSegment, out: ProduceRecord[]): void {
    const dirty = segment.dirty;
    if (dirty.length === 0) return;
    segment.dirty = [];
    for (const at of dirty) {
      const start = segment.starts[at]!;
      if (!this.#live(start)) continue; // as above
      const timestamp = segment.timestamps[at]!;
      out.push({
        topic: this.changelogTopic!,
        partition: this.partition,
        key: this.#format.key(segment.keys[at], start, segment.seqs[at]!),
        value: this.#format.value(segment.values[at], timestamp),
        timestamp,
      });
    }
  }

  restore(record: StoredRecord): void {
    const parsed = this.#format.parseKey(record.key);
    if (parsed === null) return;
    const { key, start, seq } = parsed;
    const id = this.#keys.id(key);
    if (!this.#advance(start)) return;
    if (seq > this.#seq) this.#seq = seq;
    if (this.retainDuplicates) {
      this.#restoreColumn(record, key, id, start, seq);
      return;
    }
    const segment = this.#segments.get(this.segmentId(start)) as Segment | undefined;
    const windows = segment?.byKey.get(id);
    const existing =
      windows === undefined
        ? undefined
        : (windows instanceof Slot ? [windows] : windows).find(
            (s) => s.start === start && s.seq === seq,
          );
    if (record.value === null) {
      if (existing !== undefined) remove(segment!, existing);
      return;
    }
    const { value, timestamp } = this.#format.parseValue(record.value, record.timestamp);
    if (existing !== undefined) {
      existing.value = value;
      existing.timestamp = timestamp;
      existing.view = undefined;
    } else {
      this.#insert(new Slot(key, id, start, seq, value, timestamp), false);
    }
  }

  #restoreColumn(record: StoredRecord, key: unknown, id: KeyId, start: number, seq: number): void {
    const segment = this.#segments.get(this.segmentId(start)) as ColumnSegment | undefined;
    const existing = segment === undefined ? -1 : segment.findSeq(id, start, seq);
    if (record.value === null) {
      if (existing >= 0) segment!.unindex(existing);
      return;
    }
    const { value, timestamp } = this.#format.parseValue(record.value, record.timestamp);
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
  }

  close(): void {
    this.wipe();
  }
}
