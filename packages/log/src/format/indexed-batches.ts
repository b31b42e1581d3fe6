// The producer's encoder for its common case — uncompressed records without headers — written
// straight from the caller's records, picked by index: one pass measures every record and decides
// where each batch ends, a second writes them into one buffer. No per-record object, no per-batch
// record list or layout (the general path in record-batch.ts builds both, and GC then finds them
// all). The bytes are exactly those of encodeBatchSequence for the same batches.
import { BATCH_HEADER_SIZE, writeBatchHeader, type EncodeBatchOptions } from './batch-header.js';
import { copyInto, varint } from './record-batch.js';
import { varintSize, varlongSize, writeVarint, writeVarlong } from './varint.js';

/** What is read of a record here: its key and value (timestamps come separately). */
export interface KeyValueBytes {
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
}

/** Where a new batch starts: a record's estimated size and the most a batch may hold. */
export interface BatchSplit {
  maxBytes: number;
  /** Added to key and value length for the estimate (as the general path's split). */
  recordOverhead: number;
}

/**
 * Where the batches' buffer comes from: an object with a method (the encoder's BufferPool), not a
 * closure, so that a call site optimized for one encoder's memory stays valid for the next one's
 * (a new closure per encoder was a new call target: the optimized encoder was thrown away and
 * compiled again for every new producer, e.g. every app a pooled stream thread runs).
 */
export interface BatchMemory {
  acquire(size: number): Buffer;
}

/** Each record's body size, reused between calls (encoding is synchronous). */
let bodySizes = new Int32Array(1024);

/**
 * Encodes `records[indexes[j]]` for j = 0..n-1 (`timestamps[i]` is record i's CreateTime) as v2
 * batches back to back in one buffer from `memory`. A batch ends before the record whose estimated
 * size (`split.recordOverhead` + key + value bytes) would take its estimate past `split.maxBytes`.
 */
export function encodeIndexedBatches(
  records: readonly KeyValueBytes[],
  indexes: readonly number[],
  timestamps: Float64Array,
  split: BatchSplit,
  options: EncodeBatchOptions,
  memory: BatchMemory,
): Buffer {
  const n = indexes.length;
  if (n === 0) throw new RangeError('a record batch holds at least one record');
  if (bodySizes.length < n) bodySizes = new Int32Array(Math.max(n, bodySizes.length * 2));
  const sizes = bodySizes;
  // Per batch: where it ends (exclusive), its base and max timestamp and its size in bytes.
  const ends: number[] = [];
  const bases: number[] = [];
  const maxes: number[] = [];
  const batchSizes: number[] = [];
  let start = 0;
  let estimate = 0;
  let base = timestamps[indexes[0]!]!;
  let max = -1;
  let bytes = 0;
  let total = 0;
  for (let j = 0; j < n; j++) {
    const i = indexes[j]!;
    const r = records[i]!;
    const key = r.key;
    const value = r.value;
    const keyLength = key === null ? 0 : key.length;
    const valueLength = value === null ? 0 : value.length;
    const estimated = split.recordOverhead + keyLength + valueLength;
    const ts = timestamps[i]!;
    if (j > start && estimate + estimated > split.maxBytes) {
      ends.push(j);
      bases.push(base);
      maxes.push(max);
      batchSizes.push(BATCH_HEADER_SIZE + bytes);
      total += BATCH_HEADER_SIZE + bytes;
      start = j;
      estimate = 0;
      bytes = 0;
      max = -1;
      base = ts;
    }
    estimate += estimated;
    if (ts > max) max = ts;
    // attributes, timestamp delta, offset delta, key, value, header count (0: one byte)
    const body =
      1 +
      varlongSize(ts - base) +
      varintSize(j - start) +
      (key === null ? 1 : varintSize(keyLength) + keyLength) +
      (value === null ? 1 : varintSize(valueLength) + valueLength) +
      1;
    sizes[j] = body;
    bytes += varintSize(body) + body;
  }
  ends.push(n);
  bases.push(base);
  maxes.push(max);
  batchSizes.push(BATCH_HEADER_SIZE + bytes);
  total += BATCH_HEADER_SIZE + bytes;

  const out = memory.acquire(total);
  let pos = 0;
  start = 0;
  for (let b = 0; b < ends.length; b++) {
    const end = ends[b]!;
    const baseTimestamp = bases[b]!;
    let p = pos + BATCH_HEADER_SIZE;
    for (let j = start; j < end; j++) {
      const i = indexes[j]!;
      const r = records[i]!;
      p = writeVarint(out, p, sizes[j]!);
      out[p++] = 0;
      const tsDelta = timestamps[i]! - baseTimestamp;
      p = tsDelta >= -64 && tsDelta <= 63 ? varint(out, p, tsDelta) : writeVarlong(out, p, tsDelta);
      p = varint(out, p, j - start);
      const key = r.key;
      if (key === null)
        out[p++] = 1; // varint -1
      else p = copyInto(out, varint(out, p, key.length), key);
      const value = r.value;
      if (value === null) out[p++] = 1;
      else p = copyInto(out, varint(out, p, value.length), value);
      out[p++] = 0; // no headers
    }
    // An idempotent producer's sequence numbers run on from batch to batch of the partition.
    const header =
      options.baseSequence !== undefined && start > 0
        ? { ...options, baseSequence: addSequence(options.baseSequence, start) }
        : options;
    writeBatchHeader(out, pos, batchSizes[b]!, header, {
      recordCount: end - start,
      lastOffsetDelta: end - start - 1,
      baseTimestamp,
      maxTimestamp: maxes[b]!,
    });
    pos += batchSizes[b]!;
    start = end;
  }
  return out;
}

/** Kafka's sequence numbers wrap from Integer.MAX_VALUE to 0 (DefaultRecordBatch.incrementSequence). */
export function addSequence(sequence: number, increment: number): number {
  return (sequence + increment) % 2_147_483_648;
}
