// Sequential validation of a segment file: walks batches from a position, checking structure and
// CRC, in large chunks so a gigabyte scans with a few hundred reads. Used by recovery, by index
// rebuilds and by the cleaner.
import {
  BATCH_HEADER_SIZE,
  batchSizeAt,
  checkBatch,
  LOG_OVERHEAD,
  readBatchHeader,
  type BatchHeader,
} from '../format/record-batch.js';
import { readAtSync } from './fs-util.js';

const CHUNK = 1 << 20;

export interface ScanResult {
  /** Position just after the last valid batch. */
  end: number;
  /** The first invalid batch, if the scan stopped early. */
  bad: { position: number; reason: string } | null;
}

/**
 * Calls `visit` for each valid batch from `from` until `to` (exclusive). `buf` holds the batch at
 * `buf[at..at+size)`; it is only valid during the call.
 */
export function scanBatches(
  fd: number,
  from: number,
  to: number,
  visit: (h: BatchHeader, position: number, buf: Buffer, at: number) => boolean | void,
): ScanResult {
  let pos = from;
  let chunk: Buffer = Buffer.alloc(0);
  let chunkStart = from;
  while (pos < to) {
    let at = pos - chunkStart;
    if (at + LOG_OVERHEAD > chunk.length) {
      chunk = readAtSync(fd, Math.min(to - pos, CHUNK), pos);
      chunkStart = pos;
      at = 0;
    }
    const size = batchSizeAt(chunk, at, chunk.length);
    // A batch larger than what was read: read it whole (unless it claims to run past `to`).
    if (size >= BATCH_HEADER_SIZE && at + size > chunk.length && pos + size <= to) {
      chunk = readAtSync(fd, Math.min(to - pos, Math.max(CHUNK, size)), pos);
      chunkStart = pos;
      at = 0;
    }
    // The chunk never extends past `to`, so a batch that does not fit in it is cut short.
    const reason = checkBatch(chunk, at, chunk.length);
    if (reason !== null) return { end: pos, bad: { position: pos, reason } };
    if (visit(readBatchHeader(chunk, at), pos, chunk, at) === false)
      return { end: pos + size, bad: null };
    pos += size;
  }
  return { end: pos, bad: null };
}

/**
 * After a bad batch at `from`: is there any valid batch later in the file? If so the damage is in
 * the middle of the log (corruption); if not, it is a torn tail that a crash left behind.
 * Looks for a plausible header (magic 2, sane length, offset not below `minOffset`) with a good CRC.
 */
export function findValidBatchAfter(
  fd: number,
  from: number,
  to: number,
  minOffset: number,
): number | null {
  for (let chunkStart = from + 1; chunkStart < to; chunkStart += CHUNK) {
    const chunk = readAtSync(fd, Math.min(CHUNK + BATCH_HEADER_SIZE, to - chunkStart), chunkStart);
    const limit = Math.min(CHUNK, chunk.length - BATCH_HEADER_SIZE + 1);
    for (let i = 0; i < limit; i++) {
      if (chunk[i + 16] !== 2) continue;
      const h = readBatchHeader(chunk, i);
      if (
        h.baseOffset < minOffset ||
        h.sizeInBytes < BATCH_HEADER_SIZE ||
        chunkStart + i + h.sizeInBytes > to
      )
        continue;
      const whole =
        i + h.sizeInBytes <= chunk.length ? chunk : readAtSync(fd, h.sizeInBytes, chunkStart + i);
      if (checkBatch(whole, whole === chunk ? i : 0, whole.length) === null) return chunkStart + i;
    }
  }
  return null;
}
