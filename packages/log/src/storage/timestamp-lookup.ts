// Kafka's ListOffsets by timestamp: the first offset whose record timestamp is at or after the
// target. The time index of each segment narrows the scan to at most one index interval.
import {
  decodeRecords,
  isControl,
  lastOffsetOf,
  type BatchHeader,
} from '../format/record-batch.js';
import type { Segment } from './segment.js';

export async function findOffsetForTimestamp(
  segments: readonly Segment[],
  timestamp: number,
  logStartOffset: number,
  highWatermark: number,
): Promise<{ offset: number; timestamp: number } | null> {
  for (const seg of [...segments]) {
    if (seg.maxTimestamp < timestamp) continue;
    let from = Math.max(seg.timeIndex.lookupStart(timestamp), logStartOffset);
    while (from < Math.min(seg.nextOffset, highWatermark)) {
      if (!seg.acquire()) break;
      let batches: { batch: Buffer; header: BatchHeader }[];
      try {
        batches = await seg.read(from, highWatermark, 1 << 20, seg.writtenSize);
      } finally {
        seg.release();
      }
      if (batches.length === 0) break;
      for (const { batch, header } of batches) {
        if (header.maxTimestamp < timestamp || isControl(header)) continue;
        for (const r of decodeRecords(batch, 0, header)) {
          if (r.offset >= from && r.timestamp >= timestamp)
            return { offset: r.offset, timestamp: r.timestamp };
        }
      }
      from = lastOffsetOf(batches[batches.length - 1]!.header) + 1;
    }
  }
  return null;
}
