// Kafka's record batch, magic v2, byte for byte:
//
//   baseOffset int64 | batchLength int32 | partitionLeaderEpoch int32 | magic int8 (2) |
//   crc uint32 (CRC-32C of everything after it) | attributes int16 | lastOffsetDelta int32 |
//   baseTimestamp int64 | maxTimestamp int64 | producerId int64 | producerEpoch int16 |
//   baseSequence int32 | recordCount int32 | records (compressed as one block when compressed)
//
// baseOffset sits outside the CRC so the log can assign offsets without re-checksumming, exactly
// as Kafka's broker does. Each record is
//   length varint | attributes int8 | timestampDelta varlong | offsetDelta varint |
//   keyLength varint (-1 = null) | key | valueLength varint | value | headerCount varint |
//   headers (keyLength varint | key utf8 | valueLength varint | value).
import { COMPRESSION_CODES, compressionName, compressSync, decompressSync } from './compression.js';
import {
  ATTR_COMPRESSION_MASK,
  ATTR_CONTROL,
  ATTR_DELETE_HORIZON,
  ATTR_LOG_APPEND_TIME,
  ATTR_TRANSACTIONAL,
  BATCH_HEADER_SIZE,
  LOG_OVERHEAD,
  MAGIC,
  OFF_ATTRIBUTES,
  OFF_BASE_SEQUENCE,
  OFF_BASE_TIMESTAMP,
  OFF_CRC,
  OFF_LAST_OFFSET_DELTA,
  OFF_LEADER_EPOCH,
  OFF_LENGTH,
  OFF_MAGIC,
  OFF_MAX_TIMESTAMP,
  OFF_PRODUCER_EPOCH,
  OFF_PRODUCER_ID,
  OFF_RECORD_COUNT,
  writeBatchHeader,
  type EncodeBatchOptions,
  type TimestampType,
} from './batch-header.js';
import { headerEntries, headersOf, type Header, type Headers } from './headers.js';
import { crc32c } from './crc32c.js';
import {
  Reader,
  readInt64,
  varintSize,
  varlongSize,
  writeInt64,
  writeVarint,
  writeVarlong,
} from './varint.js';

export {
  BATCH_HEADER_SIZE,
  LOG_OVERHEAD,
  MAGIC,
  type EncodeBatchOptions,
  type TimestampType,
} from './batch-header.js';

export type { Headers } from './headers.js';

export interface RecordInput {
  key: Uint8Array | null;
  value: Uint8Array | null;
  timestamp: number;
  headers?: Headers;
}

export interface StoredRecord {
  offset: number;
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: Headers;
}

export interface BatchHeader {
  baseOffset: number;
  /** Total bytes of the batch on disk, LOG_OVERHEAD included. */
  sizeInBytes: number;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

interface SizedHeader {
  key: Uint8Array;
  value: Uint8Array | null;
}

const NO_HEADERS: SizedHeader[] = [];

/** First pass of encoding: each record's body size (and encoded headers, when it has any). */
interface Layout {
  bodySizes: Int32Array;
  headers: SizedHeader[][] | null;
  total: number;
}

function layoutRecords(
  records: readonly RecordInput[],
  baseTimestamp: number,
  offsetDeltas: readonly number[] | undefined,
): Layout {
  const bodySizes = new Int32Array(records.length);
  // Filled only once a record has headers; null means none has.
  let headers: SizedHeader[][] | null = null;
  let total = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    let body = 1 + varlongSize(r.timestamp - baseTimestamp) + varintSize(offsetDeltas?.[i] ?? i);
    body += r.key === null ? 1 : varintSize(r.key.length) + r.key.length;
    body += r.value === null ? 1 : varintSize(r.value.length) + r.value.length;
    let hs = NO_HEADERS;
    if (r.headers) {
      for (const e of headerEntries(r.headers)) {
        if (hs === NO_HEADERS) hs = [];
        const h = { key: utf8.encode(e.key), value: e.value };
        hs.push(h);
        body += varintSize(h.key.length) + h.key.length;
        body += h.value === null ? 1 : varintSize(h.value.length) + h.value.length;
      }
    }
    body += varintSize(hs.length);
    if (hs !== NO_HEADERS) {
      if (headers === null) headers = new Array<SizedHeader[]>(records.length).fill(NO_HEADERS);
      headers[i] = hs;
    }
    bodySizes[i] = body;
    total += varintSize(body) + body;
  }
  return { bodySizes, headers, total };
}

/** Copies small arrays by hand: TypedArray#set has a fixed cost that dominates for keys. */
export function copyInto(out: Uint8Array, p: number, src: Uint8Array): number {
  const n = src.length;
  if (n < 48) {
    for (let i = 0; i < n; i++) out[p + i] = src[i]!;
  } else out.set(src, p);
  return p + n;
}

/** writeVarint with a fast path for the common one-byte case (values in [-64, 63]). */
export function varint(out: Uint8Array, p: number, v: number): number {
  if (v >= -64 && v <= 63) {
    out[p] = (v << 1) ^ (v >> 31);
    return p + 1;
  }
  return writeVarint(out, p, v);
}

function writeRecords(
  out: Uint8Array,
  start: number,
  records: readonly RecordInput[],
  layout: Layout,
  baseTimestamp: number,
  offsetDeltas: readonly number[] | undefined,
): void {
  let p = start;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    p = writeVarint(out, p, layout.bodySizes[i]!);
    out[p++] = 0;
    const tsDelta = r.timestamp - baseTimestamp;
    p = tsDelta >= -64 && tsDelta <= 63 ? varint(out, p, tsDelta) : writeVarlong(out, p, tsDelta);
    p = varint(out, p, offsetDeltas === undefined ? i : offsetDeltas[i]!);
    const key = r.key;
    if (key === null)
      out[p++] = 1; // varint -1
    else p = copyInto(out, varint(out, p, key.length), key);
    const value = r.value;
    if (value === null) out[p++] = 1;
    else p = copyInto(out, varint(out, p, value.length), value);
    const hs = layout.headers === null ? NO_HEADERS : layout.headers[i]!;
    p = varint(out, p, hs.length);
    for (const h of hs) {
      p = copyInto(out, varint(out, p, h.key.length), h.key);
      if (h.value === null)
        out[p++] = 1; // varint -1
      else p = copyInto(out, varint(out, p, h.value.length), h.value);
    }
  }
}

function encodeRecords(
  records: readonly RecordInput[],
  baseTimestamp: number,
  offsetDeltas: readonly number[] | undefined,
): Buffer {
  const layout = layoutRecords(records, baseTimestamp, offsetDeltas);
  const out = Buffer.allocUnsafe(layout.total);
  writeRecords(out, 0, records, layout, baseTimestamp, offsetDeltas);
  return out;
}

/** A batch measured but not yet written: its size, and the record layout when uncompressed. */
interface PlannedBatch {
  records: readonly RecordInput[];
  options: EncodeBatchOptions;
  size: number;
  layout: Layout | null;
  body: Buffer | null;
  baseTimestamp: number;
  maxTimestamp: number;
}

function planBatch(
  records: readonly RecordInput[],
  options: EncodeBatchOptions,
  compressed: Buffer | undefined,
): PlannedBatch {
  if (records.length === 0) throw new RangeError('a record batch holds at least one record');
  const compression = options.compression ?? 'none';
  let maxTimestamp = -1;
  for (const r of records) if (r.timestamp > maxTimestamp) maxTimestamp = r.timestamp;
  const baseTimestamp = options.deleteHorizonMs ?? records[0]!.timestamp;
  if (compressed === undefined && compression === 'none') {
    // Uncompressed: the records are written straight after the header, with no extra copy.
    const layout = layoutRecords(records, baseTimestamp, options.offsetDeltas);
    const size = BATCH_HEADER_SIZE + layout.total;
    return { records, options, size, layout, body: null, baseTimestamp, maxTimestamp };
  }
  const body =
    compressed ??
    compressSync(compression, encodeRecords(records, baseTimestamp, options.offsetDeltas));
  const size = BATCH_HEADER_SIZE + body.length;
  return { records, options, size, layout: null, body, baseTimestamp, maxTimestamp };
}

/** Writes a planned batch at `pos` of `buf` (which has `plan.size` bytes there), CRC last. */
function writeBatch(buf: Buffer, pos: number, plan: PlannedBatch): void {
  const { records, options, baseTimestamp } = plan;
  if (plan.layout !== null)
    writeRecords(
      buf,
      pos + BATCH_HEADER_SIZE,
      records,
      plan.layout,
      baseTimestamp,
      options.offsetDeltas,
    );
  else buf.set(plan.body!, pos + BATCH_HEADER_SIZE);
  const lastOffsetDelta =
    options.lastOffsetDelta ?? options.offsetDeltas?.[records.length - 1] ?? records.length - 1;
  writeBatchHeader(buf, pos, plan.size, options, {
    recordCount: records.length,
    lastOffsetDelta,
    baseTimestamp,
    maxTimestamp: plan.maxTimestamp,
  });
}

/** Builds a complete batch; `compressed` lets callers compress asynchronously beforehand. */
export function encodeBatch(
  records: readonly RecordInput[],
  options: EncodeBatchOptions = {},
  compressed?: Buffer,
): Buffer {
  const plan = planBatch(records, options, compressed);
  const buf = Buffer.allocUnsafe(plan.size);
  writeBatch(buf, 0, plan);
  return buf;
}

export interface BatchSpec {
  records: readonly RecordInput[];
  options?: EncodeBatchOptions;
  /** The records section already compressed (see encodeRecordsSection). */
  compressed?: Buffer;
}

/**
 * Several batches back to back (Kafka's MemoryRecords), in a buffer of its own: never a slice of
 * Buffer's shared pool, so its ArrayBuffer can be transferred to another thread. `alloc` gives
 * that buffer (a BufferPool's, say); its contents are overwritten.
 */
export function encodeBatchSequence(
  batches: readonly BatchSpec[],
  alloc: (size: number) => Buffer = Buffer.allocUnsafeSlow,
): Buffer {
  const plans = batches.map((b) => planBatch(b.records, b.options ?? {}, b.compressed));
  let total = 0;
  for (const p of plans) total += p.size;
  const buf = alloc(total);
  let pos = 0;
  for (const p of plans) {
    writeBatch(buf, pos, p);
    pos += p.size;
  }
  return buf;
}

/** The records section before compression, for callers that compress asynchronously. */
export function encodeRecordsSection(
  records: readonly RecordInput[],
  deleteHorizonMs?: number,
): Buffer {
  return encodeRecords(records, deleteHorizonMs ?? records[0]!.timestamp, undefined);
}

function viewOf(buf: Uint8Array): DataView {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Reads the fixed header at `pos`; the caller checks that BATCH_HEADER_SIZE bytes are there. */
export function readBatchHeader(buf: Uint8Array, pos = 0): BatchHeader {
  const v = viewOf(buf);
  return {
    baseOffset: readInt64(v, pos),
    sizeInBytes: v.getInt32(pos + OFF_LENGTH) + LOG_OVERHEAD,
    partitionLeaderEpoch: v.getInt32(pos + OFF_LEADER_EPOCH),
    magic: v.getInt8(pos + OFF_MAGIC),
    crc: v.getUint32(pos + OFF_CRC),
    attributes: v.getInt16(pos + OFF_ATTRIBUTES),
    lastOffsetDelta: v.getInt32(pos + OFF_LAST_OFFSET_DELTA),
    baseTimestamp: readInt64(v, pos + OFF_BASE_TIMESTAMP),
    maxTimestamp: readInt64(v, pos + OFF_MAX_TIMESTAMP),
    producerId: readInt64(v, pos + OFF_PRODUCER_ID),
    producerEpoch: v.getInt16(pos + OFF_PRODUCER_EPOCH),
    baseSequence: v.getInt32(pos + OFF_BASE_SEQUENCE),
    recordCount: v.getInt32(pos + OFF_RECORD_COUNT),
  };
}

export function lastOffsetOf(h: BatchHeader): number {
  return h.baseOffset + h.lastOffsetDelta;
}
export function compressionOf(h: BatchHeader): number {
  return h.attributes & ATTR_COMPRESSION_MASK;
}
export function isTransactional(h: BatchHeader): boolean {
  return (h.attributes & ATTR_TRANSACTIONAL) !== 0;
}
export function isControl(h: BatchHeader): boolean {
  return (h.attributes & ATTR_CONTROL) !== 0;
}
export function timestampTypeOf(h: BatchHeader): TimestampType {
  return (h.attributes & ATTR_LOG_APPEND_TIME) !== 0 ? 'LogAppendTime' : 'CreateTime';
}
export function deleteHorizonOf(h: BatchHeader): number | null {
  return (h.attributes & ATTR_DELETE_HORIZON) !== 0 ? h.baseTimestamp : null;
}

/** Reads only the size field, for scanning: -1 when fewer than 12 bytes are available. */
export function batchSizeAt(buf: Uint8Array, pos: number, end: number): number {
  if (end - pos < LOG_OVERHEAD) return -1;
  return viewOf(buf).getInt32(pos + OFF_LENGTH) + LOG_OVERHEAD;
}

/** Rewrites baseOffset in place (outside the CRC, so the checksum stays valid). */
export function setBaseOffset(batch: Uint8Array, baseOffset: number): void {
  writeInt64(viewOf(batch), 0, baseOffset);
}

/** Stamps LogAppendTime into a batch and refreshes its CRC (maxTimestamp is inside the CRC). */
export function setLogAppendTime(batch: Uint8Array, time: number): void {
  const v = viewOf(batch);
  v.setInt16(OFF_ATTRIBUTES, v.getInt16(OFF_ATTRIBUTES) | ATTR_LOG_APPEND_TIME);
  writeInt64(v, OFF_MAX_TIMESTAMP, time);
  v.setUint32(OFF_CRC, crc32c(batch.subarray(OFF_ATTRIBUTES)));
}

/** Why a batch at `pos` is invalid, or null when its structure and CRC check out. */
export function checkBatch(buf: Uint8Array, pos: number, end: number): string | null {
  if (end - pos < BATCH_HEADER_SIZE) return 'truncated batch header';
  const v = viewOf(buf);
  const size = v.getInt32(pos + OFF_LENGTH) + LOG_OVERHEAD;
  if (size < BATCH_HEADER_SIZE) return `batch length ${size} is below the header size`;
  if (pos + size > end) return 'batch runs past the end of the file';
  if (v.getInt8(pos + OFF_MAGIC) !== MAGIC)
    return `unknown magic byte ${v.getInt8(pos + OFF_MAGIC)}`;
  const stored = v.getUint32(pos + OFF_CRC);
  const actual = crc32c(buf.subarray(pos + OFF_ATTRIBUTES, pos + size));
  if (stored !== actual)
    return `CRC-32C mismatch (stored ${stored.toString(16)}, computed ${actual.toString(16)})`;
  if (v.getInt32(pos + OFF_LAST_OFFSET_DELTA) < 0 || v.getInt32(pos + OFF_RECORD_COUNT) < 0) {
    return 'negative record count or offset delta';
  }
  return null;
}

/**
 * Decodes a batch's records. Key and value are views into `buf` (or into the decompressed block),
 * so callers that keep records beyond the buffer's life must copy them.
 */
export function decodeRecords(
  buf: Buffer,
  pos: number,
  header = readBatchHeader(buf, pos),
): StoredRecord[] {
  const codec = compressionOf(header);
  let body = buf.subarray(pos + BATCH_HEADER_SIZE, pos + header.sizeInBytes);
  if (codec !== COMPRESSION_CODES.none) body = decompressSync(codec, body);
  const logAppend = (header.attributes & ATTR_LOG_APPEND_TIME) !== 0;
  const r = new Reader(body, 0, body.length);
  const out: StoredRecord[] = new Array(header.recordCount);
  for (let i = 0; i < header.recordCount; i++) {
    const len = r.varint();
    const end = r.pos + len;
    if (len < 0 || end > body.length) throw new RangeError('record runs past the end of its batch');
    r.pos++; // attributes, unused by v2
    const tsDelta = r.varlong();
    const offsetDelta = r.varint();
    const keyLen = r.varint();
    const key = keyLen < 0 ? null : r.bytes(keyLen);
    const valueLen = r.varint();
    const value = valueLen < 0 ? null : r.bytes(valueLen);
    const headerCount = r.varint();
    let headers: Headers = {};
    if (headerCount > 0) {
      const entries: Header[] = new Array(headerCount);
      for (let h = 0; h < headerCount; h++) {
        const k = utf8Decoder.decode(r.bytes(r.varint()));
        const vLen = r.varint();
        entries[h] = { key: k, value: vLen < 0 ? null : r.bytes(vLen) };
      }
      headers = headersOf(entries);
    }
    if (r.pos !== end) throw new RangeError('record length does not match its fields');
    out[i] = {
      offset: header.baseOffset + offsetDelta,
      timestamp: logAppend ? header.maxTimestamp : header.baseTimestamp + tsDelta,
      key,
      value,
      headers,
    };
  }
  return out;
}

// ---- control records (transaction markers) -----------------------------------------------------

export type ControlType = 'ABORT' | 'COMMIT';

export function encodeControlRecord(
  type: ControlType,
  timestamp: number,
  coordinatorEpoch = 0,
): RecordInput {
  const key = Buffer.alloc(4);
  key.writeInt16BE(0, 0);
  key.writeInt16BE(type === 'COMMIT' ? 1 : 0, 2);
  const value = Buffer.alloc(6);
  value.writeInt16BE(0, 0);
  value.writeInt32BE(coordinatorEpoch, 2);
  return { key, value, timestamp };
}

export function controlTypeOf(record: StoredRecord): ControlType | null {
  if (!record.key || record.key.length < 4) return null;
  const type = viewOf(record.key).getInt16(2);
  return type === 1 ? 'COMMIT' : type === 0 ? 'ABORT' : null;
}

export { compressionName };
