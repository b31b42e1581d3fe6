// The key-range and time-range reads of one segment of a SegmentedWindowStore (window-store.ts),
// in either in-memory layout (window-segments.ts, window-columns.ts), and the order range reads
// return: by window start, then the key's bytes, then put order — Kafka Streams' in-memory
// window store's order.
import type { KeyId, KeyOrder } from './key-order.js';
import { ColumnSegment } from './window-columns.js';
import { collect, keyOf, type Segment, type Slot, type WindowEntry } from './window-segments.js';

/** What range reads sort by (Slot and WindowRead both have it). */
interface Sortable {
  start: number;
  id: KeyId;
  key: unknown;
  seq: number;
}

/** A key range: `count` > 0 when its keys are the consecutive integers from keyFrom (countRange). */
export interface KeyRange {
  keyFrom: unknown;
  keyTo: unknown;
  count: number;
}

const bound = (k: unknown): boolean => k !== null && k !== undefined;

/** Pushes the windows of `segment` in the key range starting within [from, to] onto `out`. */
export function collectKeyRange(
  segment: Segment | ColumnSegment,
  range: KeyRange,
  from: number,
  to: number,
  keys: KeyOrder,
  out: WindowEntry[],
): void {
  const { keyFrom, keyTo, count } = range;
  if (count > 0) {
    // countRange > 0: the ids are the consecutive numbers from keyFrom.
    const first = keyFrom as number;
    if (segment instanceof ColumnSegment)
      for (let k = 0; k < count; k++) {
        const positions = segment.byKey.get(first + k);
        if (positions !== undefined) segment.collect(positions, from, to, out);
      }
    else
      for (let k = 0; k < count; k++) {
        const windows = segment.byKey.get(first + k);
        if (windows !== undefined) collect(windows, from, to, out as Slot[]);
      }
    return;
  }
  const hasFrom = bound(keyFrom);
  const hasTo = bound(keyTo);
  if (segment instanceof ColumnSegment) {
    for (const positions of segment.byKey.values()) {
      const key = segment.keyOf(positions);
      if (hasFrom && keys.compare(key, keyFrom) < 0) continue;
      if (hasTo && keys.compare(key, keyTo) > 0) continue;
      segment.collect(positions, from, to, out);
    }
    return;
  }
  for (const windows of segment.byKey.values()) {
    const key = keyOf(windows);
    if (hasFrom && keys.compare(key, keyFrom) < 0) continue;
    if (hasTo && keys.compare(key, keyTo) > 0) continue;
    collect(windows, from, to, out as Slot[]);
  }
}

/** Pushes every window of `segment` starting within [from, to] onto `out`. */
export function collectAll(
  segment: Segment | ColumnSegment,
  from: number,
  to: number,
  out: WindowEntry[],
): void {
  if (segment instanceof ColumnSegment)
    for (const positions of segment.byKey.values()) segment.collect(positions, from, to, out);
  else for (const windows of segment.byKey.values()) collect(windows, from, to, out as Slot[]);
}

export type WindowComparator = (a: Sortable, b: Sortable) => number;

/** The order range reads return: by start, then key bytes, then put order. */
export function startThenKey(keys: KeyOrder): WindowComparator {
  return (a, b) =>
    a.start - b.start || (a.id === b.id ? 0 : keys.compare(a.key, b.key)) || a.seq - b.seq;
}

/** Sorts in place by `byStartThenKey` (startThenKey). */
export function sortByStartThenKey<T extends Sortable>(
  slots: T[],
  byStartThenKey: WindowComparator,
): T[] {
  const n = slots.length;
  if (n > 32) return slots.sort(byStartThenKey);
  // Insertion sort in place: no allocation, and linear on the nearly ordered matches of a
  // short key range (keys collected in key order usually have their windows in time order).
  for (let i = 1; i < n; i++) {
    const slot = slots[i]!;
    let j = i - 1;
    while (j >= 0 && byStartThenKey(slots[j]!, slot) > 0) {
      slots[j + 1] = slots[j]!;
      j--;
    }
    slots[j + 1] = slot;
  }
  return slots;
}
