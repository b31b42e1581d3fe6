// The in-memory layout of a SegmentedWindowStore without duplicates (window-store.ts; with
// duplicates: window-columns.ts): a window entry per put (Slot), a key's windows within one time
// segment (one Slot or an array ordered by start), and the sorted insert / find / remove helpers.
import type { ValueAndTimestamp } from './key-value-store.js';
import type { KeyId } from './key-order.js';

export interface WindowEntry extends ValueAndTimestamp {
  key: unknown;
  start: number;
}

/** One window of one key; the store's entries are these objects. */
export class Slot implements WindowEntry {
  dirty = false;
  /**
   * A put never changes an entry a reader may hold: it puts a new one. The slot in the segment's
   * dirty list then points to the latest (`latest`), and its successors to it (`listed`).
   */
  latest: Slot | null = null;
  listed: Slot | null = null;
  /**
   * What readers of the Processor API see of this window (its KeyValue<Windowed<K>, V>), made at
   * its first read: the entry never changes, so every later read returns the same frozen object.
   */
  view: unknown = undefined;
  constructor(
    public key: unknown,
    public id: KeyId,
    public start: number,
    public seq: number,
    public value: unknown,
    public timestamp: number,
  ) {}
}

/**
 * A key's windows within one segment: one window alone (the common case: no array), or several
 * ordered by start (then sequence number).
 */
export type Windows = Slot | Slot[];

/**
 * One time segment: its windows by key, and those changed since the last commit — dropped with
 * the segment when it expires, so expired windows are neither kept alive nor logged.
 *
 * A persistent store's segment is `complete` while it holds every window of the segment (what
 * is on disk and what changed since); once the store evicts some of its windows to stay within
 * its cache, it holds only those still cached and those changed since the last commit, a delete
 * among them as a window of null value (it hides the window on disk until the commit), and reads
 * merge it with the disk (window-disk-reads.ts). In memory a segment is always complete.
 */
export class Segment {
  readonly byKey = new Map<KeyId, Windows>();
  dirty: Slot[] = [];
  complete = true;
  /** Windows in byKey. */
  size = 0;
  constructor(readonly id: number) {}
}

/** Where `start` goes in `windows`: the first index whose start is larger (binary search). */
function upperBound(windows: Slot[], start: number): number {
  let lo = 0;
  let hi = windows.length;
  // Most puts are for the newest window: check the end first.
  if (hi === 0 || windows[hi - 1]!.start <= start) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (windows[mid]!.start <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function find(windows: Windows | undefined, start: number): Slot | undefined {
  if (windows === undefined) return undefined;
  if (windows instanceof Slot) return windows.start === start ? windows : undefined;
  const slot = windows[upperBound(windows, start) - 1];
  return slot !== undefined && slot.start === start ? slot : undefined;
}

export function insert(segment: Segment, slot: Slot): void {
  segment.size++;
  const windows = segment.byKey.get(slot.id);
  if (windows === undefined) segment.byKey.set(slot.id, slot);
  else if (windows instanceof Slot)
    segment.byKey.set(slot.id, windows.start <= slot.start ? [windows, slot] : [slot, windows]);
  else {
    const at = upperBound(windows, slot.start);
    if (at === windows.length) windows.push(slot);
    else windows.splice(at, 0, slot);
  }
}

export function replace(segment: Segment, old: Slot, fresh: Slot): void {
  const windows = segment.byKey.get(old.id);
  if (windows === old) segment.byKey.set(old.id, fresh);
  else if (Array.isArray(windows)) windows[windows.indexOf(old)] = fresh;
}

export function remove(segment: Segment, slot: Slot): void {
  const windows = segment.byKey.get(slot.id);
  if (windows === slot) {
    segment.byKey.delete(slot.id);
    segment.size--;
  } else if (Array.isArray(windows)) {
    const i = windows.indexOf(slot);
    if (i >= 0) {
      windows.splice(i, 1);
      segment.size--;
    }
    if (windows.length === 1) segment.byKey.set(slot.id, windows[0]!);
  }
}

/** Pushes the windows of `windows` starting within [from, to] onto `out`, by start. */
export function collect(windows: Windows, from: number, to: number, out: Slot[]): void {
  if (windows instanceof Slot) {
    if (windows.start >= from && windows.start <= to) out.push(windows);
    return;
  }
  for (const s of windows) {
    if (s.start > to) break;
    if (s.start >= from) out.push(s);
  }
}

/** As collect, writing from out[n] on; returns the new count (out keeps any older tail). */
export function collectAt(
  windows: Windows,
  from: number,
  to: number,
  out: WindowEntry[],
  n: number,
): number {
  if (windows instanceof Slot) {
    if (windows.start >= from && windows.start <= to) out[n++] = windows;
    return n;
  }
  for (const s of windows) {
    if (s.start > to) break;
    if (s.start >= from) out[n++] = s;
  }
  return n;
}

export function keyOf(windows: Windows): unknown {
  return windows instanceof Slot ? windows.key : windows[0]!.key;
}
