// Reading a partition's batches across its segments: find the segment holding an offset, then read
// on into the following segments while the byte budget lasts, never past the bound the caller may
// see (the high watermark, or the last stable offset for read_committed). When the first segment
// to read was replaced meanwhile (retention or the cleaner), the caller's read starts over.
import { lastOffsetOf } from '../format/record-batch.js';
import type { ReadBatch } from './partition-types.js';
import type { Segment } from './segment.js';

/** The index of the segment that holds `offset` (the last one whose base offset is at or below it). */
export function segmentIndexFor(segments: readonly Segment[], offset: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (segments[mid]!.baseOffset <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Batches from `offset` up to about `maxBytes` (at least one batch when there is one) and below
 * `bound`. `segments` gives the partition's current segment list (it changes under retention and
 * compaction); the caller has checked that `offset` is within the log, and `again` is its read
 * started over (for a segment replaced before anything was read).
 */
export async function readSegments(
  segments: () => readonly Segment[],
  offset: number,
  maxBytes: number,
  bound: number,
  again: () => Promise<ReadBatch[]>,
): Promise<ReadBatch[]> {
  const out: ReadBatch[] = [];
  let budget = maxBytes;
  let from = offset;
  // Continue into the next segments while the byte budget lasts (segments may be tiny); the list
  // is looked at afresh after each read, as a roll may have added a segment meanwhile.
  for (
    let i = segmentIndexFor(segments(), offset);
    i < segments().length && from < bound && budget > 0;
    i++
  ) {
    const seg = segments()[i]!;
    if (!seg.acquire()) {
      if (out.length > 0) return out;
      return again(); // replaced meanwhile: retry
    }
    let batches: ReadBatch[];
    try {
      const size = seg.writtenSize;
      batches = await seg.read(from, bound, out.length === 0 ? maxBytes : budget, size);
    } catch (err) {
      // Damage in a later segment: serve what was read before it; the next read fails there.
      if (out.length > 0) return out;
      throw err;
    } finally {
      seg.release();
    }
    for (const b of batches) {
      if (out.length > 0 && b.header.sizeInBytes > budget) return out;
      out.push(b);
      budget -= b.header.sizeInBytes;
    }
    const last = batches[batches.length - 1];
    if (last && lastOffsetOf(last.header) + 1 < seg.nextOffset) return out; // budget ran out inside
    from = Math.max(from, seg.nextOffset);
  }
  return out;
}
