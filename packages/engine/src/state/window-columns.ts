// The in-memory layout of a SegmentedWindowStore that keeps duplicates (stream–stream join
// buffers, Stores…(retainDuplicates = true)): one time segment's windows in columns — typed
// arrays of starts, timestamps and sequence numbers, plain arrays of keys, key ids and values —
// and a key's windows as positions into them. Reads get copies (WindowRead).
//
// Why columns: a join buffer keeps every record for the retention (before + after, 20 s of
// records in the benchmark). An entry object per record outlived two scavenges, was promoted and
// then died in old space. Columns add no heap object per window (integer keys are small integers
// in a plain array; a value is the object the record brought), and since such a store never
// changes a window once put (a put is a new window, a null put is ignored), they are append-only.
// Stores without duplicates keep window objects (window-segments.ts): their range reads hand out
// the same window again and again, which columns would have to copy each time.
import type { KeyId } from './key-order.js';
import type { WindowEntry } from './window-segments.js';

/** A window read from a column segment: a copy of it at the time of the read. */
export class WindowRead implements WindowEntry {
  key: unknown;
  start: number;
  value: unknown;
  timestamp: number;
  id: KeyId;
  seq: number;
  constructor(segment: ColumnSegment, at: number) {
    this.key = segment.keys[at];
    this.start = segment.starts[at]!;
    this.value = segment.values[at];
    this.timestamp = segment.timestamps[at]!;
    this.id = segment.ids[at]!;
    this.seq = segment.seqs[at]!;
  }

  /** Makes this read the one of another window (a caller reusing its reads allocates less). */
  reset(segment: ColumnSegment, at: number): void {
    this.key = segment.keys[at];
    this.start = segment.starts[at]!;
    this.value = segment.values[at];
    this.timestamp = segment.timestamps[at]!;
    this.id = segment.ids[at]!;
    this.seq = segment.seqs[at]!;
  }
}

/** A key's windows within one segment: one position alone, or several by start, then put order. */
type Positions = number | number[];

function grown<T extends Float64Array | Uint8Array>(from: T, size: number): T {
  const to = new (from.constructor as new (n: number) => T)(size);
  to.set(from);
  return to;
}

/**
 * One time segment: its windows in columns, indexed by key, and the positions put since the last
 * commit (in put order) — dropped with the segment when it expires, so expired windows are
 * neither kept alive nor logged. A window removed by a restored tombstone leaves the index; its
 * columns stay until the segment goes.
 */
export class ColumnSegment {
  readonly byKey = new Map<KeyId, Positions>();
  dirty: number[] = [];
  /**
   * False in a persistent store once its windows were evicted: it then holds only the windows put
   * since the last commit (those on disk are read from there; see Segment#complete).
   */
  complete = true;
  /** Windows written (every position used). */
  size = 0;
  /** Windows in the index (what approximateNumEntries counts). */
  indexed = 0;
  starts: Float64Array;
  timestamps: Float64Array;
  seqs: Float64Array;
  keys: unknown[] = [];
  ids: KeyId[] = [];
  values: unknown[] = [];

  /** `capacity`: the expected number of windows (the previous segment's), to grow less often. */
  constructor(
    readonly id: number,
    capacity = 8,
  ) {
    const n = Math.max(8, capacity);
    this.starts = new Float64Array(n);
    this.timestamps = new Float64Array(n);
    this.seqs = new Float64Array(n);
  }

  /** Forgets every window (they are on disk), keeping the columns' capacity. */
  clear(): void {
    this.byKey.clear();
    this.dirty = [];
    this.size = 0;
    this.indexed = 0;
    this.keys = [];
    this.ids = [];
    this.values = [];
  }

  /** Appends a window to the columns and the index; returns its position. */
  add(key: unknown, id: KeyId, start: number, seq: number, value: unknown, timestamp: number) {
    const at = this.size;
    if (at === this.starts.length) {
      const n = at * 2;
      this.starts = grown(this.starts, n);
      this.timestamps = grown(this.timestamps, n);
      this.seqs = grown(this.seqs, n);
    }
    this.size = at + 1;
    this.keys[at] = key;
    this.ids[at] = id;
    this.values[at] = value;
    this.starts[at] = start;
    this.seqs[at] = seq;
    this.timestamps[at] = timestamp;
    this.#index(at, id, start);
    return at;
  }

  /** Where a window of `start` goes among `list`: after every window starting at or before it. */
  #upperBound(list: number[], start: number): number {
    const starts = this.starts;
    let hi = list.length;
    // Most puts are for the newest window: check the end first.
    if (hi === 0 || starts[list[hi - 1]!]! <= start) return hi;
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[list[mid]!]! <= start) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #index(at: number, id: KeyId, start: number): void {
    const list = this.byKey.get(id);
    this.indexed++;
    if (list === undefined) this.byKey.set(id, at);
    else if (typeof list === 'number')
      this.byKey.set(id, this.starts[list]! <= start ? [list, at] : [at, list]);
    else {
      const i = this.#upperBound(list, start);
      if (i === list.length) list.push(at);
      else list.splice(i, 0, at);
    }
  }

  /** Removes a window from the index (a restored tombstone). */
  unindex(at: number): void {
    const id = this.ids[at]!;
    const list = this.byKey.get(id);
    if (list === at) {
      this.byKey.delete(id);
      this.indexed--;
    } else if (Array.isArray(list)) {
      const i = list.indexOf(at);
      if (i < 0) return;
      list.splice(i, 1);
      this.indexed--;
      if (list.length === 1) this.byKey.set(id, list[0]!);
    }
  }

  /** Restoring a window already here: its value and timestamp change in place. */
  replace(at: number, value: unknown, timestamp: number): void {
    this.values[at] = value;
    this.timestamps[at] = timestamp;
  }

  /** The key's first (earliest put) window of `start`, or -1. */
  findFirst(id: KeyId, start: number): number {
    const list = this.byKey.get(id);
    if (list === undefined) return -1;
    if (typeof list === 'number') return this.starts[list] === start ? list : -1;
    for (const at of list) if (this.starts[at] === start) return at;
    return -1;
  }

  /** The key's window of `start` and sequence number `seq`, or -1. */
  findSeq(id: KeyId, start: number, seq: number): number {
    const list = this.byKey.get(id);
    if (list === undefined) return -1;
    if (typeof list === 'number')
      return this.starts[list] === start && this.seqs[list] === seq ? list : -1;
    for (const at of list) if (this.starts[at] === start && this.seqs[at] === seq) return at;
    return -1;
  }

  /** Pushes reads of the key's windows (`list`) starting within [from, to] onto `out`, by start. */
  collect(list: Positions, from: number, to: number, out: WindowEntry[]): void {
    const starts = this.starts;
    if (typeof list === 'number') {
      if (starts[list]! >= from && starts[list]! <= to) out.push(new WindowRead(this, list));
      return;
    }
    for (const at of list) {
      const start = starts[at]!;
      if (start > to) break;
      if (start >= from) out.push(new WindowRead(this, at));
    }
  }

  /**
   * As collect, writing from out[n] on and reusing the WindowReads found there; returns the new
   * count (out keeps any older tail).
   */
  collectAt(list: Positions, from: number, to: number, out: WindowEntry[], n: number): number {
    const starts = this.starts;
    if (typeof list === 'number') {
      const start = starts[list]!;
      if (start >= from && start <= to) this.#readInto(list, out, n++);
      return n;
    }
    for (const at of list) {
      const start = starts[at]!;
      if (start > to) break;
      if (start >= from) this.#readInto(at, out, n++);
    }
    return n;
  }

  #readInto(at: number, out: WindowEntry[], n: number): void {
    const read = out[n];
    if (read instanceof WindowRead) read.reset(this, at);
    else out[n] = new WindowRead(this, at);
  }

  /** The key of a key's windows. */
  keyOf(list: Positions): unknown {
    return this.keys[typeof list === 'number' ? list : list[0]!];
  }
}
