// Kafka v2 record batches (as @streamwright/log stores and reads them) decoded straight into the
// engine's StoredRecords: one object per record with key and value as views into the batch, no
// intermediate record. This runs once per record on every fetch, in-process or in a worker, so it
// is written for speed; compressed batches (rare on the engine's path) go through the log's own
// decoder. The batches were CRC-checked by the log when it read them.
import { decodeRecords, headersOf, type BatchHeader, type Header } from '@streamwright/log/reader';
import { Buffer } from 'node:buffer';
import type { Headers, StoredRecord } from '../../backend-spi.js';

const HEADER_SIZE = 61;
const ATTR_COMPRESSION = 0x07;
const ATTR_LOG_APPEND_TIME = 0x08;
const ATTR_CONTROL = 0x20;
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
/**
 * The headers of every record read without any: one frozen object instead of an empty one per
 * record (≈ 56 of the ≈ 470 bytes a decoded record allocated). Records are immutable by
 * convention; code that adds headers copies them first (as the dead-letter path does).
 */
export const NO_HEADERS: Headers = Object.freeze({});

/** A batch's attributes say it is a transaction marker (never returned to consumers). */
export function isControlBatch(header: Pick<BatchHeader, 'attributes'>): boolean {
  return (header.attributes & ATTR_CONTROL) !== 0;
}

export function lastOffsetOfBatch(
  header: Pick<BatchHeader, 'baseOffset' | 'lastOffsetDelta'>,
): number {
  return header.baseOffset + header.lastOffsetDelta;
}

// The decoder's position in the batch being decoded: one module-level cursor instead of an
// object per batch, so the hot loop below reads and advances it without allocating. Decoding is
// synchronous and never re-entrant, so a single position is enough.
let at = 0;

/** A zig-zag varint at `at` (the one-byte case is inlined by the caller). */
function varintAt(buf: Uint8Array): number {
  let b = buf[at++]!;
  let v = b & 0x7f;
  if (b & 0x80) {
    b = buf[at++]!;
    v |= (b & 0x7f) << 7;
    if (b & 0x80) {
      b = buf[at++]!;
      v |= (b & 0x7f) << 14;
      if (b & 0x80) {
        b = buf[at++]!;
        v |= (b & 0x7f) << 21;
        if (b & 0x80) {
          b = buf[at++]!;
          if (b & 0xf0) throw new RangeError('varint is longer than 5 bytes');
          v |= b << 28;
        }
      }
    }
  }
  return (v >>> 1) ^ -(v & 1);
}

/** A zig-zag varlong at `at` (timestamp deltas beyond 31 bits, exactly, as doubles). */
function varlongAt(buf: Uint8Array): number {
  let b = buf[at++]!;
  if ((b & 0x80) === 0) return (b >>> 1) ^ -(b & 1); // one byte: the common timestamp delta
  let result = b & 0x7f;
  let mul = 128;
  for (let i = 1; ; i++) {
    if (i > 9) throw new RangeError('varlong is longer than 10 bytes');
    b = buf[at++]!;
    result += (b & 0x7f) * mul;
    if ((b & 0x80) === 0) break;
    mul *= 128;
  }
  return result % 2 === 0 ? result / 2 : -(result + 1) / 2;
}

/** The UTF-8 text of the next `len` bytes (header names and values). */
function textAt(buf: Uint8Array, len: number, end: number): string {
  if (at + len > end) throw new RangeError('field runs past the end of its batch');
  const text = utf8.decode(buf.subarray(at, at + len));
  at += len;
  return text;
}

/** The most slots `decodeBatches` gives its array up front (beyond it, the array grows). */
const MAX_PRESIZE = 1 << 16;

/**
 * The records with offset >= `from` of a partition's batches, in order (see decodeBatchInto). The
 * array is sized up front from the batches' record counts and filled by index: a pushed array is
 * grown and copied over and over, ≈ 30 bytes of garbage per record on every fetch.
 */
export function decodeBatches(
  batches: readonly { batch: Uint8Array; header: BatchHeader }[],
  topic: string,
  partition: number,
  from: number,
): StoredRecord[] {
  let most = 0;
  for (const { header } of batches)
    if (!isControlBatch(header) && lastOffsetOfBatch(header) >= from) most += header.recordCount;
  const out = new Array<StoredRecord>(Math.min(Math.max(most, 0), MAX_PRESIZE));
  let n = 0;
  for (const { batch, header } of batches)
    n = decodeBatchInto(batch, header, topic, partition, from, out, n);
  if (out.length !== n) out.length = n;
  return out;
}

/**
 * Writes the records of one batch with offset >= `from` into `out` from index `n` on (by default
 * appends them) and returns the index after the last one written. `batch` holds exactly the batch
 * (header included); `header` is its parsed header. Control batches yield nothing.
 */
export function decodeBatchInto(
  batch: Uint8Array,
  header: BatchHeader,
  topic: string,
  partition: number,
  from: number,
  out: StoredRecord[],
  n: number = out.length,
): number {
  if (isControlBatch(header) || lastOffsetOfBatch(header) < from) return n;
  const baseOffset = header.baseOffset;
  if ((header.attributes & ATTR_COMPRESSION) !== 0) {
    const buf = Buffer.from(batch.buffer, batch.byteOffset, batch.byteLength);
    for (const r of decodeRecords(buf, 0, header)) {
      if (r.offset >= from)
        out[n++] = {
          topic,
          partition,
          offset: r.offset,
          timestamp: r.timestamp,
          key: r.key,
          value: r.value,
          headers: r.headers,
        };
    }
    return n;
  }
  const logAppend = (header.attributes & ATTR_LOG_APPEND_TIME) !== 0;
  const baseTimestamp = header.baseTimestamp;
  // One plain Uint8Array over the batch (a Buffer too is read through it, so the element loads
  // below see one kind of array); key and value are views of its memory, created in place.
  const memory = batch.buffer;
  const base = batch.byteOffset;
  const buf = new Uint8Array(memory, base, Math.min(header.sizeInBytes, batch.length));
  const end = buf.length;
  at = HEADER_SIZE;
  for (let i = 0; i < header.recordCount; i++) {
    const length = varintAt(buf);
    const recordEnd = at + length;
    if (length < 0 || recordEnd > end)
      throw new RangeError('record runs past the end of its batch');
    at++; // attributes: unused in v2
    const tsDelta = varlongAt(buf);
    const offset = baseOffset + varintAt(buf);
    if (offset < from) {
      at = recordEnd;
      continue;
    }
    const keyLength = varintAt(buf);
    let key: Uint8Array | null = null;
    if (keyLength >= 0) {
      if (at + keyLength > end) throw new RangeError('field runs past the end of its batch');
      key = new Uint8Array(memory, base + at, keyLength);
      at += keyLength;
    }
    const valueLength = varintAt(buf);
    let value: Uint8Array | null = null;
    if (valueLength >= 0) {
      if (at + valueLength > end) throw new RangeError('field runs past the end of its batch');
      value = new Uint8Array(memory, base + at, valueLength);
      at += valueLength;
    }
    const headerCount = varintAt(buf);
    let headers: Headers = NO_HEADERS;
    if (headerCount !== 0) {
      // Kafka's headers exactly (bytes, repeated keys, order), behind the text view.
      const entries: Header[] = new Array(headerCount);
      for (let h = 0; h < headerCount; h++) {
        const name = textAt(buf, varintAt(buf), end);
        const valueLen = varintAt(buf);
        if (valueLen >= 0 && at + valueLen > end)
          throw new RangeError('field runs past the end of its batch');
        entries[h] = {
          key: name,
          value: valueLen < 0 ? null : new Uint8Array(memory, base + at, valueLen),
        };
        if (valueLen > 0) at += valueLen;
      }
      headers = headersOf(entries);
    }
    if (at !== recordEnd) throw new RangeError('record length does not match its fields');
    out[n++] = {
      topic,
      partition,
      offset,
      timestamp: logAppend ? header.maxTimestamp : baseTimestamp + tsDelta,
      key,
      value,
      headers,
    };
  }
  return n;
}
