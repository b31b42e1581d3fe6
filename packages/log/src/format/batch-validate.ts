// Checks record batches that a producer encoded, before the log appends them: what Kafka's broker
// does in LogValidator for a produce request (magic, sizes, CRC-32C, record count, every record's
// framing, keys on compacted topics). The log never trusts a producer's bytes: a batch that fails
// any check refuses the whole request and nothing of it is written. The one exception is
// `checks: 'headers'`, for batches this package's own BatchEncoder wrote in this process (a
// RemoteLog, the engine's stream threads): the same code whose batches Log.produce appends
// unchecked, so the CRC pass and the record walk are skipped for them (docs/LOG.md says why that
// loses no protection); every header rule still applies.
import { LogError, LogErrorCode } from '../errors.js';
import { COMPRESSION_CODES, decompressSync } from './compression.js';
import {
  BATCH_HEADER_SIZE,
  checkBatch,
  compressionOf,
  isControl,
  isTransactional,
  LOG_OVERHEAD,
  MAGIC,
  readBatchHeader,
  type BatchHeader,
} from './record-batch.js';
import { Reader } from './varint.js';

export interface BatchAt {
  /** Where the batch starts in the buffer it came in. */
  position: number;
  header: BatchHeader;
}

export interface BatchRules {
  /** Names the partition in errors (`topic-partition`). */
  where: string;
  maxMessageBytes: number;
  /** A compacted topic: every record needs a key. */
  compact: boolean;
  /** The transactional producer allowed to write these batches; other producer ids are refused. */
  transactional?: { producerId: number; producerEpoch: number };
  /**
   * 'headers': the batches come from this package's BatchEncoder in this process. Their CRC-32C
   * is not recomputed and their records are not walked (except on compacted topics, where a
   * producer's cached metadata may predate the policy and a keyless record must still be
   * refused); magic, lengths, max.message.bytes, record count and the control / transactional
   * flags are checked as for any producer.
   */
  checks?: 'full' | 'headers';
}

function invalid(rules: BatchRules, position: number, reason: string): LogError {
  return new LogError(
    LogErrorCode.INVALID_RECORD,
    `invalid record batch at byte ${position} of the batches for ${rules.where}: ${reason}`,
    { position },
  );
}

/**
 * Walks the batches in `buf` (Kafka's MemoryRecords: v2 batches back to back) and returns their
 * headers, or throws a LogError naming the partition, the byte position and what is wrong.
 */
export function validateBatches(buf: Uint8Array, rules: BatchRules): BatchAt[] {
  if (buf.length === 0) throw invalid(rules, 0, 'no record batches');
  const out: BatchAt[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const left = buf.length - pos;
    if (left < BATCH_HEADER_SIZE)
      throw invalid(rules, pos, `${left} trailing bytes are less than a batch header`);
    const magic = buf[pos + 16]!;
    if (magic !== MAGIC)
      throw invalid(rules, pos, `magic byte ${magic}: only v2 record batches are accepted`);
    const header = readBatchHeader(buf, pos);
    const size = header.sizeInBytes;
    if (size < BATCH_HEADER_SIZE || size > left)
      throw invalid(
        rules,
        pos,
        `batch length ${size - LOG_OVERHEAD} does not fit the ${left - LOG_OVERHEAD} bytes given`,
      );
    if (size > rules.maxMessageBytes + BATCH_HEADER_SIZE)
      throw new LogError(
        LogErrorCode.RECORD_TOO_LARGE,
        `batch of ${size} bytes exceeds max.message.bytes ${rules.maxMessageBytes} of ${rules.where}`,
        { position: pos },
      );
    const full = rules.checks !== 'headers';
    const bad = full ? checkBatch(buf, pos, pos + size) : null;
    if (bad !== null)
      throw new LogError(
        LogErrorCode.CORRUPT_MESSAGE,
        `corrupt record batch at byte ${pos} of the batches for ${rules.where}: ${bad}`,
        { position: pos },
      );
    checkHeader(header, pos, rules);
    if (full || rules.compact) checkRecords(buf, pos, header, rules);
    out.push({ position: pos, header });
    pos += size;
  }
  return out;
}

function checkHeader(h: BatchHeader, pos: number, rules: BatchRules): void {
  if (h.recordCount < 1) throw invalid(rules, pos, `record count ${h.recordCount}`);
  if (h.lastOffsetDelta !== h.recordCount - 1)
    throw invalid(
      rules,
      pos,
      `last offset delta ${h.lastOffsetDelta} does not match ${h.recordCount} records`,
    );
  if (isControl(h)) throw invalid(rules, pos, 'producers may not write control batches');
  const txn = rules.transactional;
  if (isTransactional(h)) {
    if (!txn) throw invalid(rules, pos, 'a transactional batch outside a transaction');
    if (h.producerId !== txn.producerId || h.producerEpoch !== txn.producerEpoch)
      throw invalid(
        rules,
        pos,
        `producer ${h.producerId} epoch ${h.producerEpoch} is not this transaction's (${txn.producerId}, ${txn.producerEpoch})`,
      );
  } else if (txn) throw invalid(rules, pos, 'a non-transactional batch inside a transaction');
}

/** Every record's framing, as DefaultRecord.readFrom would parse it; no bytes are copied. */
function checkRecords(buf: Uint8Array, pos: number, h: BatchHeader, rules: BatchRules): void {
  let body: Uint8Array = buf.subarray(pos + BATCH_HEADER_SIZE, pos + h.sizeInBytes);
  const codec = compressionOf(h);
  if (codec !== COMPRESSION_CODES.none) {
    try {
      body = decompressSync(codec, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    } catch (err) {
      if (err instanceof LogError) throw err;
      throw invalid(rules, pos, `the compressed records do not decompress (${String(err)})`);
    }
  }
  const r = new Reader(body, 0, body.length);
  let i = 0;
  try {
    for (; i < h.recordCount; i++) {
      const len = r.varint();
      const end = r.pos + len;
      if (len < 6 || end > body.length) throw new RangeError(`length ${len} runs past the batch`);
      r.pos++; // attributes
      r.varlong(); // timestamp delta
      const delta = r.varint();
      if (delta !== i) throw new RangeError(`offset delta ${delta}, expected ${i}`);
      const keyLen = r.varint();
      if (keyLen < -1) throw new RangeError(`key length ${keyLen}`);
      if (keyLen === -1 && rules.compact)
        throw new LogError(
          LogErrorCode.INVALID_RECORD,
          `Compacted topic cannot accept message without key in topic partition ${rules.where}.`,
          { position: pos },
        );
      r.pos += Math.max(0, keyLen);
      const valueLen = r.varint();
      if (valueLen < -1) throw new RangeError(`value length ${valueLen}`);
      r.pos += Math.max(0, valueLen);
      const headers = r.varint();
      if (headers < 0) throw new RangeError(`header count ${headers}`);
      for (let k = 0; k < headers; k++) {
        const hk = r.varint();
        if (hk < 0) throw new RangeError(`header key length ${hk}`);
        r.pos += hk;
        const hv = r.varint();
        if (hv < -1) throw new RangeError(`header value length ${hv}`);
        r.pos += Math.max(0, hv);
      }
      if (r.pos !== end) throw new RangeError(`fields end at ${r.pos - end} bytes from its length`);
    }
  } catch (err) {
    if (err instanceof LogError) throw err;
    throw invalid(rules, pos, `record ${i}: ${(err as Error).message}`);
  }
  if (r.pos !== body.length)
    throw invalid(
      rules,
      pos,
      `${body.length - r.pos} bytes follow the last of ${h.recordCount} records`,
    );
}
