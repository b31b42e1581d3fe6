// A window store segmented by time, as Kafka Streams' segmented window stores: entries live in
// segments of `segmentIntervalMs` by window start; once stream time (the largest window start put)
// moves past a segment's end + retention, the whole segment is dropped. Windows starting at or
// before stream time − retention are invisible to reads and skipped by puts even while their
// segment lives (AbstractRocksDBSegmentedBytesStore's actualFrom).
//
// The store owns its changelog: a put marks the window dirty (once, however often it changes
// before the commit) and the commit writes one record per dirty window in Kafka's layout —
// key = the key's bytes, the window start (int64) and a sequence number (int32, WindowKeySchema);
// value = the value's bytes, prefixed by the timestamp (int64) in a timestamped store
// (ValueAndTimestampSerializer). With `retainDuplicates` (stream–stream join buffers) every put is
// a new entry with its own sequence number, as Kafka's stores with duplicates keep them.
import type { SerdeName } from '@streamwright/topology-model';
import type { ProduceRecord, StoredRecord } from '../api.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { keyOrderFor, type KeyOrder } from './key-order.js';
import { readLong, viewOf, writeLong, type TaskStateStore } from './task-store.js';
import {
  collect,
  collectAt,
  find,
  findFirst,
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

const SUFFIX_BYTES = 12;

export class SegmentedWindowStore implements TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly persistent: boolean = false;
  readonly retentionMs: number;
  readonly segmentIntervalMs: number;
  readonly retainDuplicates: boolean;
  readonly timestamped: boolean;
  readonly windowSizeMs: number;
  readonly #segments = new Map<number, Segment>();
  /** Live segments, ascending by id. */
  #ordered: Segment[] = [];
  #observedStreamTime = -1;
  #seq = 0;
  readonly #logging: boolean;
  readonly #keys: KeyOrder;
  readonly #valueSerde: Serde<unknown>;
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
    this.#valueSerde = getSerde(options.valueSerde ?? 'json');
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
      this.#insert(new Slot(key, id, windowStart, ++this.#seq, value, timestamp), true);
      return true;
    }
    const segment = this.#segments.get(this.segmentId(windowStart));
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
    if (deleting) this.#markDirty(this.#segment(this.segmentId(windowStart)), fresh);
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

  #segment(segmentId: number): Segment {
    let segment = this.#segments.get(segmentId);
    if (segment === undefined) {
      this.#segments.set(segmentId, (segment = new Segment(segmentId)));
      const list = this.#ordered;
      let i = list.length;
      while (i > 0 && list[i - 1]!.id > segmentId) i--;
      if (i === list.length) list.push(segment);
      else list.splice(i, 0, segment);
    }
    return segment;
  }

  #insert(slot: Slot, log: boolean): void {
    const segment = this.#segment(this.segmentId(slot.start));
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
    const windows = this.#segments.get(this.segmentId(windowStart))?.byKey.get(this.#keys.id(key));
    // With duplicates: the earliest put of that window (WindowStore#fetch(key, time)).
    return this.retainDuplicates ? findFirst(windows, windowStart) : find(windows, windowStart);
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
   * fetchRange into out[0…n), returning n; entries past n are left as they were (a caller reusing
   * one array for every fetch allocates nothing).
   */
  fetchRangeInto(key: unknown, from: number, timeTo: number, out: WindowEntry[]): number {
    const timeFrom = this.#lowerBound(from);
    if (timeFrom > timeTo) return 0;
    const id = this.#keys.id(key);
    const hi = this.segmentId(timeTo);
    const list = this.#ordered;
    let n = 0;
    for (let i = this.#firstSegment(timeFrom); i < list.length && list[i]!.id <= hi; i++) {
      const windows = list[i]!.byKey.get(id);
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
    const out: Slot[] = [];
    if (timeFrom > timeTo) return out;
    const hasFrom = keyFrom !== null && keyFrom !== undefined;
    const hasTo = keyTo !== null && keyTo !== undefined;
    const count = hasFrom && hasTo ? this.#keys.countRange(keyFrom, keyTo, 64) : -1;
    if (count === 0) return out;
    const hi = this.segmentId(timeTo);
    const list = this.#ordered;
    for (let i = this.#firstSegment(timeFrom); i < list.length && list[i]!.id <= hi; i++) {
      const byKey = list[i]!.byKey;
      if (count > 0) {
        // countRange > 0: the ids are the consecutive numbers from keyFrom.
        const first = keyFrom as number;
        for (let k = 0; k < count; k++) {
          const windows = byKey.get(first + k);
          if (windows !== undefined) collect(windows, timeFrom, timeTo, out);
        }
        continue;
      }
      for (const windows of byKey.values()) {
        const key = keyOf(windows);
        if (hasFrom && this.#keys.compare(key, keyFrom) < 0) continue;
        if (hasTo && this.#keys.compare(key, keyTo) > 0) continue;
        collect(windows, timeFrom, timeTo, out);
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
    const out: Slot[] = [];
    if (timeFrom > timeTo) return out;
    const hi = this.segmentId(timeTo);
    const list = this.#ordered;
    for (let i = this.#firstSegment(timeFrom); i < list.length && list[i]!.id <= hi; i++)
      for (const windows of list[i]!.byKey.values()) collect(windows, timeFrom, timeTo, out);
    return this.#sortByStartThenKey(out);
  }

  all(): WindowEntry[] {
    return this.fetchAll(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  }

  readonly #byStartThenKey = (a: Slot, b: Slot): number =>
    a.start - b.start || (a.id === b.id ? 0 : this.#keys.compare(a.key, b.key)) || a.seq - b.seq;

  #sortByStartThenKey(slots: Slot[]): Slot[] {
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
    for (const segment of this.#ordered)
      for (const windows of segment.byKey.values())
        n += windows instanceof Slot ? 1 : windows.length;
    return n;
  }

  takeChangelogRecords(): ProduceRecord[] {
    if (this.changelogTopic === null) return [];
    const out: ProduceRecord[] = [];
    for (const segment of this.#ordered) {
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
          key: this.#changelogKey(slot),
          value: slot.value === null ? null : this.#changelogValue(slot),
          timestamp: slot.timestamp,
        });
      }
    }
    return out;
  }

  #changelogKey(slot: Slot): Uint8Array {
    const key = this.#keys.serde.serialize(slot.key) ?? new Uint8Array(0);
    const out = new Uint8Array(key.byteLength + SUFFIX_BYTES);
    out.set(key, 0);
    const view = viewOf(out);
    writeLong(view, key.byteLength, slot.start);
    view.setInt32(key.byteLength + 8, slot.seq, false);
    return out;
  }

  #changelogValue(slot: Slot): Uint8Array | null {
    const value = this.#valueSerde.serialize(slot.value);
    if (!this.timestamped) return value;
    const bytes = value ?? new Uint8Array(0);
    const out = new Uint8Array(8 + bytes.byteLength);
    writeLong(viewOf(out), 0, slot.timestamp);
    out.set(bytes, 8);
    return out;
  }

  restore(record: StoredRecord): void {
    const bytes = record.key;
    if (bytes === null || bytes.byteLength < SUFFIX_BYTES) return;
    const n = bytes.byteLength - SUFFIX_BYTES;
    const view = viewOf(bytes);
    const start = readLong(view, n);
    const seq = view.getInt32(n + 8, false);
    const key = this.#keys.serde.deserialize(bytes.subarray(0, n));
    const id = this.#keys.id(key);
    if (!this.#advance(start)) return;
    if (seq > this.#seq) this.#seq = seq;
    const segment = this.#segments.get(this.segmentId(start));
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
    let timestamp = record.timestamp;
    let valueBytes: Uint8Array = record.value;
    if (this.timestamped && valueBytes.byteLength >= 8) {
      timestamp = readLong(viewOf(valueBytes), 0);
      valueBytes = valueBytes.subarray(8);
    }
    const value = this.#valueSerde.deserialize(valueBytes);
    if (existing !== undefined) {
      existing.value = value;
      existing.timestamp = timestamp;
      existing.view = undefined;
    } else {
      this.#insert(new Slot(key, id, start, seq, value, timestamp), false);
    }
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
