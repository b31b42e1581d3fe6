// The fixed part of Kafka's record batch v2 (see record-batch.ts for the whole layout): where each
// header field sits, the attribute bits, and the header's writer, shared by the general encoder
// (record-batch.ts) and the producer's one-pass encoder (indexed-batches.ts).
import { COMPRESSION_CODES, type CompressionType } from './compression.js';
import { crc32c } from './crc32c.js';
import { writeInt64 } from './varint.js';

export const BATCH_HEADER_SIZE = 61;
export const MAGIC = 2;
/** Bytes before the length field's payload begins: baseOffset + batchLength. */
export const LOG_OVERHEAD = 12;

export const OFF_LENGTH = 8;
export const OFF_LEADER_EPOCH = 12;
export const OFF_MAGIC = 16;
export const OFF_CRC = 17;
export const OFF_ATTRIBUTES = 21;
export const OFF_LAST_OFFSET_DELTA = 23;
export const OFF_BASE_TIMESTAMP = 27;
export const OFF_MAX_TIMESTAMP = 35;
export const OFF_PRODUCER_ID = 43;
export const OFF_PRODUCER_EPOCH = 51;
export const OFF_BASE_SEQUENCE = 53;
export const OFF_RECORD_COUNT = 57;

export const ATTR_COMPRESSION_MASK = 0x07;
export const ATTR_LOG_APPEND_TIME = 0x08;
export const ATTR_TRANSACTIONAL = 0x10;
export const ATTR_CONTROL = 0x20;
export const ATTR_DELETE_HORIZON = 0x40;

export type TimestampType = 'CreateTime' | 'LogAppendTime';

export interface EncodeBatchOptions {
  baseOffset?: number;
  compression?: CompressionType;
  timestampType?: TimestampType;
  /** With LogAppendTime: the time every record reads back as. */
  logAppendTime?: number;
  producerId?: number;
  producerEpoch?: number;
  baseSequence?: number;
  transactional?: boolean;
  control?: boolean;
  /** Set by the cleaner on batches whose tombstones may go once this time has passed (KIP-534). */
  deleteHorizonMs?: number;
  /** Offset deltas per record when they are not 0..n-1 (a compacted batch keeps its offsets). */
  offsetDeltas?: readonly number[];
  /** Kept from the original batch by compaction so the batch still ends at the same offset. */
  lastOffsetDelta?: number;
}

/** What the header of a batch says about its records. */
export interface BatchRecordsSummary {
  recordCount: number;
  lastOffsetDelta: number;
  baseTimestamp: number;
  maxTimestamp: number;
}

/**
 * Writes the fixed header of the batch of `size` bytes at `pos` of `buf`, whose records section
 * (after BATCH_HEADER_SIZE) is already written, and its CRC over both.
 */
export function writeBatchHeader(
  buf: Buffer,
  pos: number,
  size: number,
  options: EncodeBatchOptions,
  summary: BatchRecordsSummary,
): void {
  const compression = options.compression ?? 'none';
  const logAppend = (options.timestampType ?? 'CreateTime') === 'LogAppendTime';
  const view = new DataView(buf.buffer, buf.byteOffset + pos, size);
  let attributes: number = COMPRESSION_CODES[compression];
  if (logAppend) attributes |= ATTR_LOG_APPEND_TIME;
  if (options.transactional) attributes |= ATTR_TRANSACTIONAL;
  if (options.control) attributes |= ATTR_CONTROL;
  if (options.deleteHorizonMs !== undefined) attributes |= ATTR_DELETE_HORIZON;
  writeInt64(view, 0, options.baseOffset ?? 0);
  view.setInt32(OFF_LENGTH, size - LOG_OVERHEAD);
  view.setInt32(OFF_LEADER_EPOCH, 0);
  view.setInt8(OFF_MAGIC, MAGIC);
  view.setInt16(OFF_ATTRIBUTES, attributes);
  view.setInt32(OFF_LAST_OFFSET_DELTA, summary.lastOffsetDelta);
  writeInt64(view, OFF_BASE_TIMESTAMP, summary.baseTimestamp);
  writeInt64(
    view,
    OFF_MAX_TIMESTAMP,
    logAppend && options.logAppendTime !== undefined ? options.logAppendTime : summary.maxTimestamp,
  );
  writeInt64(view, OFF_PRODUCER_ID, options.producerId ?? -1);
  view.setInt16(OFF_PRODUCER_EPOCH, options.producerEpoch ?? -1);
  view.setInt32(OFF_BASE_SEQUENCE, options.baseSequence ?? -1);
  view.setInt32(OFF_RECORD_COUNT, summary.recordCount);
  view.setUint32(OFF_CRC, crc32c(buf.subarray(pos + OFF_ATTRIBUTES, pos + size)));
}
