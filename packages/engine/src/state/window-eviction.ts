// What a persistent window store keeps in memory (window-store.ts, lmdb-window-stores.ts): after
// a commit wrote its windows to disk, windows are evicted, oldest segment first (recent windows
// are the ones read and updated again), until at most `limit` are held. Only windows on disk go
// (none changed since the commit). A segment that lost any is no longer `complete`: reads merge
// it with the disk. Segments held in part also forget what is now on disk of what they held: the
// deletes they kept to hide windows on disk, and, with duplicates, every window (a column
// segment held in part holds only the windows put since the last commit).
import { ColumnSegment } from './window-columns.js';
import { Slot, type Segment } from './window-segments.js';

export function evictWindows(
  segments: (Segment | ColumnSegment)[],
  resident: number,
  limit: number,
): void {
  for (const segment of segments) {
    if (segment instanceof ColumnSegment) {
      if (segment.dirty.length > 0) continue;
      if (!segment.complete || resident > limit) {
        resident -= segment.indexed;
        segment.clear();
        segment.complete = false;
      }
      continue;
    }
    for (const [id, windows] of segment.byKey) {
      const single = windows instanceof Slot;
      if (single ? windows.dirty : windows.some((s) => s.dirty)) continue;
      const deletes = single ? windows.value === null : windows.some((s) => s.value === null);
      if (resident <= limit && !deletes) {
        if (segment.complete) break;
        continue;
      }
      const count = single ? 1 : windows.length;
      segment.byKey.delete(id);
      segment.size -= count;
      resident -= count;
      segment.complete = false;
    }
  }
}
