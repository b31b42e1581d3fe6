// Log compaction proper, as Kafka's LogCleaner does it, run in a worker thread:
//  1. an offset map: for every key in the cleanable part of the log, its latest offset;
//  2. each cleanable segment is rewritten keeping a record only if it is the latest for its key;
//     offsets are never renumbered (batches keep their base offset and last offset delta);
//  3. tombstones (null values) and transaction markers survive the first cleaning, which stamps
//     their batch with a delete horizon (now + delete.retention.ms, KIP-534); a later cleaning
//     after the horizon drops them. Data of aborted transactions is dropped.
// The output goes to `<base>.log.cleaned` (+ `.index.cleaned`, `.timeindex.cleaned`), fsynced;
// the main thread swaps it in.
import fs from 'node:fs';
import path from 'node:path';
import {
  compressionName,
  decodeRecords,
  deleteHorizonOf,
  encodeBatch,
  isControl,
  isTransactional,
  lastOffsetOf,
  timestampTypeOf,
  type BatchHeader,
  type RecordInput,
} from '../format/record-batch.js';
import { scanBatches } from '../storage/batch-scan.js';
import { offsetFileName, writeAllSync } from '../storage/fs-util.js';
import { OffsetIndex, TimeIndex } from '../storage/indexes.js';
import type { AbortedTxn } from '../storage/txn-index.js';

export interface CleanJob {
  dir: string;
  /** Cleanable segments, oldest first; all sealed. */
  segments: { baseOffset: number; size: number }[];
  now: number;
  deleteRetentionMs: number;
  indexIntervalBytes: number;
  aborted: AbortedTxn[];
}

export interface CleanedSegment {
  baseOffset: number;
  /** False when nothing would change: no file was written. */
  rewritten: boolean;
  bytesBefore: number;
  bytesAfter: number;
  recordsBefore: number;
  recordsAfter: number;
}

export interface CleanResult {
  segments: CleanedSegment[];
  keys: number;
  tombstonesRemoved: number;
}

function isAborted(aborted: AbortedTxn[], h: BatchHeader): boolean {
  return aborted.some(
    (a) =>
      a.producerId === h.producerId &&
      h.baseOffset >= a.firstOffset &&
      h.baseOffset <= a.lastOffset,
  );
}

function forEachBatch(
  dir: string,
  seg: { baseOffset: number; size: number },
  visit: (h: BatchHeader, buf: Buffer, at: number) => void,
): void {
  const file = path.join(dir, offsetFileName(seg.baseOffset, '.log'));
  const fd = fs.openSync(file, 'r');
  try {
    const res = scanBatches(fd, 0, seg.size, (h, _pos, buf, at) => visit(h, buf, at));
    if (res.bad)
      throw new Error(
        `corrupt batch in ${file} at position ${res.bad.position}: ${res.bad.reason}`,
      );
  } finally {
    fs.closeSync(fd);
  }
}

const keyString = (key: Uint8Array): string =>
  Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');

export function cleanSegments(job: CleanJob): CleanResult {
  const latest = new Map<string, number>();
  for (const seg of job.segments) {
    forEachBatch(job.dir, seg, (h, buf, at) => {
      if (isControl(h) || (isTransactional(h) && isAborted(job.aborted, h))) return;
      for (const r of decodeRecords(buf.subarray(at, at + h.sizeInBytes), 0, h)) {
        if (r.key !== null) latest.set(keyString(r.key), r.offset);
      }
    });
  }
  let tombstonesRemoved = 0;
  const out: CleanedSegment[] = [];
  for (const seg of job.segments) {
    const parts: Buffer[] = [];
    let changed = false;
    let recordsBefore = 0;
    let recordsAfter = 0;
    forEachBatch(job.dir, seg, (h, buf, at) => {
      const original = buf.subarray(at, at + h.sizeInBytes);
      const horizon = deleteHorizonOf(h);
      const expired = horizon !== null && horizon <= job.now;
      if (isControl(h)) {
        recordsBefore += h.recordCount;
        if (expired) {
          changed = true;
          return;
        }
        recordsAfter += h.recordCount;
        if (horizon !== null) return void parts.push(Buffer.from(original));
        changed = true;
        const records = decodeRecords(original, 0, h);
        parts.push(
          encodeBatch(records, {
            baseOffset: h.baseOffset,
            control: true,
            transactional: true,
            producerId: h.producerId,
            producerEpoch: h.producerEpoch,
            deleteHorizonMs: job.now + job.deleteRetentionMs,
            offsetDeltas: records.map((r) => r.offset - h.baseOffset),
            lastOffsetDelta: h.lastOffsetDelta,
          }),
        );
        return;
      }
      const records = decodeRecords(original, 0, h);
      recordsBefore += records.length;
      if (isTransactional(h) && isAborted(job.aborted, h)) {
        changed = true;
        return;
      }
      const kept: typeof records = [];
      let tombstones = 0;
      for (const r of records) {
        if (r.key === null || latest.get(keyString(r.key)) !== r.offset) continue;
        if (r.value === null) {
          if (expired) {
            tombstonesRemoved++;
            continue;
          }
          tombstones++;
        }
        kept.push(r);
      }
      recordsAfter += kept.length;
      const needsHorizon = tombstones > 0 && horizon === null;
      if (kept.length === records.length && !needsHorizon)
        return void parts.push(Buffer.from(original));
      changed = true;
      if (kept.length === 0) return;
      const logAppend = timestampTypeOf(h) === 'LogAppendTime';
      parts.push(
        encodeBatch(
          kept.map((r): RecordInput => ({
            key: r.key,
            value: r.value,
            timestamp: r.timestamp,
            headers: r.headers,
          })),
          {
            baseOffset: h.baseOffset,
            compression: compressionName(h.attributes & 0x07),
            timestampType: timestampTypeOf(h),
            ...(logAppend ? { logAppendTime: h.maxTimestamp } : {}),
            producerId: h.producerId,
            producerEpoch: h.producerEpoch,
            baseSequence: h.baseSequence,
            transactional: isTransactional(h),
            ...(tombstones > 0
              ? { deleteHorizonMs: horizon ?? job.now + job.deleteRetentionMs }
              : {}),
            offsetDeltas: kept.map((r) => r.offset - h.baseOffset),
            lastOffsetDelta: h.lastOffsetDelta,
          },
        ),
      );
    });
    const bytesAfter = parts.reduce((n, p) => n + p.length, 0);
    if (changed) writeCleaned(job, seg.baseOffset, parts);
    out.push({
      baseOffset: seg.baseOffset,
      rewritten: changed,
      bytesBefore: seg.size,
      bytesAfter,
      recordsBefore,
      recordsAfter,
    });
  }
  return { segments: out, keys: latest.size, tombstonesRemoved };
}

/** Writes the cleaned log and its two indexes, all fsynced before the swap may begin. */
function writeCleaned(job: CleanJob, baseOffset: number, parts: Buffer[]): void {
  const p = (suffix: string): string => path.join(job.dir, offsetFileName(baseOffset, suffix));
  const index = new OffsetIndex(p('.index.cleaned'), baseOffset);
  const time = new TimeIndex(p('.timeindex.cleaned'), baseOffset);
  const fd = fs.openSync(p('.log.cleaned'), 'w');
  try {
    let pos = 0;
    let sinceEntry = Infinity;
    let max = -1;
    let maxAt = baseOffset;
    for (const part of parts) {
      const h = {
        baseOffset: part.readInt32BE(0) * 2 ** 32 + part.readUInt32BE(4),
        maxTimestamp: part.readInt32BE(35) * 2 ** 32 + part.readUInt32BE(39),
      };
      if (h.maxTimestamp > max) {
        max = h.maxTimestamp;
        maxAt = h.baseOffset;
      }
      if (sinceEntry >= job.indexIntervalBytes) {
        if (pos > 0) index.append(h.baseOffset, pos);
        time.maybeAppend(max, maxAt);
        sinceEntry = 0;
      }
      writeAllSync(fd, part, pos);
      pos += part.length;
      sinceEntry += part.length;
    }
    if (max >= 0) time.maybeAppend(max, maxAt);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  for (const idx of [index, time]) {
    idx.writeFile();
    const ifd = fs.openSync(idx.file, 'r');
    fs.fsyncSync(ifd);
    fs.closeSync(ifd);
  }
}

export { lastOffsetOf };
