// On-disk record frame: [u32 body length][u32 crc32(body)][body]. The checksum makes a torn tail
// (a crash in the middle of a write) detectable even when the length field itself was written.
// body: f64 offset | f64 timestamp | i32 key length (-1 = null) | key | i32 value length | value |
//       u16 header count | (u16 name length | name | u32 value length | value)*
import { Buffer } from 'node:buffer';
import { crc32 } from 'node:zlib';
import type { Headers } from '../../api.js';

/** A stored record; the same object is handed to every fetch, so consumers must not mutate it. */
export interface LogRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: Headers;
}

const FRAME_HEADER = 8;
const FIXED_BODY = 8 + 8 + 4 + 4 + 2;

export function frameSize(record: Pick<LogRecord, 'key' | 'value' | 'headers'>): number {
  let size = FRAME_HEADER + FIXED_BODY + (record.key?.byteLength ?? 0) + (record.value?.byteLength ?? 0);
  for (const name in record.headers) {
    size += 2 + Buffer.byteLength(name) + 4 + Buffer.byteLength(record.headers[name]!);
  }
  return size;
}

/** Encodes records into one buffer (one write per produce batch). */
export function encodeRecords(records: readonly LogRecord[]): Buffer {
  let total = 0;
  for (const r of records) total += frameSize(r);
  const buf = Buffer.allocUnsafe(total);
  let pos = 0;
  for (const r of records) {
    const start = pos;
    pos += FRAME_HEADER;
    buf.writeDoubleBE(r.offset, pos);
    buf.writeDoubleBE(r.timestamp, pos + 8);
    pos += 16;
    pos = writeBytes(buf, pos, r.key);
    pos = writeBytes(buf, pos, r.value);
    const names = Object.keys(r.headers);
    buf.writeUInt16BE(names.length, pos);
    pos += 2;
    for (const name of names) {
      const n = buf.write(name, pos + 2, 'utf8');
      buf.writeUInt16BE(n, pos);
      pos += 2 + n;
      const v = buf.write(r.headers[name]!, pos + 4, 'utf8');
      buf.writeUInt32BE(v, pos);
      pos += 4 + v;
    }
    const bodyLength = pos - start - FRAME_HEADER;
    buf.writeUInt32BE(bodyLength, start);
    buf.writeUInt32BE(crc32(buf.subarray(start + FRAME_HEADER, pos)), start + 4);
  }
  return buf;
}

function writeBytes(buf: Buffer, pos: number, bytes: Uint8Array | null): number {
  if (bytes === null) {
    buf.writeInt32BE(-1, pos);
    return pos + 4;
  }
  buf.writeInt32BE(bytes.byteLength, pos);
  buf.set(bytes, pos + 4);
  return pos + 4 + bytes.byteLength;
}

export interface DecodeResult {
  records: { record: LogRecord; size: number }[];
  /** Bytes of complete, checksum-valid frames; anything after is a torn or corrupt tail. */
  validLength: number;
}

/** Decodes frames until the end or the first incomplete/corrupt frame. Never throws on bad data. */
export function decodeRecords(buf: Buffer, topic: string, partition: number): DecodeResult {
  const records: { record: LogRecord; size: number }[] = [];
  let pos = 0;
  while (pos + FRAME_HEADER <= buf.length) {
    const bodyLength = buf.readUInt32BE(pos);
    const end = pos + FRAME_HEADER + bodyLength;
    if (bodyLength < FIXED_BODY || end > buf.length) break;
    const body = buf.subarray(pos + FRAME_HEADER, end);
    if (crc32(body) !== buf.readUInt32BE(pos + 4)) break;
    const record = decodeBody(body, topic, partition);
    if (record === null) break;
    records.push({ record, size: end - pos });
    pos = end;
  }
  return { records, validLength: pos };
}

function decodeBody(body: Buffer, topic: string, partition: number): LogRecord | null {
  try {
    let pos = 0;
    const offset = body.readDoubleBE(pos);
    const timestamp = body.readDoubleBE(pos + 8);
    pos += 16;
    const [key, p1] = readBytes(body, pos);
    const [value, p2] = readBytes(body, p1);
    pos = p2;
    const count = body.readUInt16BE(pos);
    pos += 2;
    const headers: Headers = {};
    for (let i = 0; i < count; i++) {
      const n = body.readUInt16BE(pos);
      const name = body.toString('utf8', pos + 2, pos + 2 + n);
      pos += 2 + n;
      const v = body.readUInt32BE(pos);
      headers[name] = body.toString('utf8', pos + 4, pos + 4 + v);
      pos += 4 + v;
    }
    if (pos !== body.length) return null;
    return { topic, partition, offset, timestamp, key, value, headers };
  } catch {
    return null;
  }
}

function readBytes(body: Buffer, pos: number): [Uint8Array | null, number] {
  const length = body.readInt32BE(pos);
  if (length === -1) return [null, pos + 4];
  if (length < 0 || pos + 4 + length > body.length) throw new RangeError('bad length');
  return [body.subarray(pos + 4, pos + 4 + length), pos + 4 + length];
}
