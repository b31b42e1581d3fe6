// The byte layouts of a stream–table join buffer (time-ordered-buffer.ts), Kafka Streams' own:
// the store key (prefix byte 0, the timestamp as int64, the key's bytes, a sequence number as
// int32) and BufferValue (the record context, prior and old value, the value's bytes, then the
// buffer time as int64). Shared by the in-memory part and the entries read back from disk.
import type { Headers } from '../backend-spi.js';
import type { RecordMetadata } from '../processor/record.js';
import { readLong, viewOf } from './task-store.js';

export const PREFIX_SIZE = 1;
export const TIMESTAMP_SIZE = 8;
export const SEQNUM_SIZE = 4;
const textDecoder = new TextDecoder();

/** Big-endian, without a DataView: a non-negative safe integer (a timestamp) in 8 bytes. */
export function writeUint64(bytes: Uint8Array, at: number, value: number): void {
  writeUint32(bytes, at, Math.floor(value / 0x1_0000_0000));
  writeUint32(bytes, at + 4, value >>> 0);
}

export function writeUint32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value >>> 24;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}

/** The timestamp of a store key. */
export const storeKeyTimestamp = (storeKey: Uint8Array): number =>
  readLong(viewOf(storeKey), PREFIX_SIZE);

/** The serialized record key within a store key. */
export const storeKeyKeyBytes = (storeKey: Uint8Array): Uint8Array =>
  storeKey.subarray(PREFIX_SIZE + TIMESTAMP_SIZE, storeKey.byteLength - SEQNUM_SIZE);

/** The smallest store key of a timestamp (prefix and timestamp, nothing after; below 0: of 0). */
export function timestampKey(timestamp: number): Uint8Array {
  const bytes = new Uint8Array(PREFIX_SIZE + TIMESTAMP_SIZE);
  writeUint64(bytes, PREFIX_SIZE, Math.max(0, timestamp));
  return bytes;
}

/** BufferValue#deserialize: the record context and the new value's bytes. */
export function parseBufferValue(bytes: Uint8Array): {
  metadata: RecordMetadata;
  headers: Headers;
  valueBytes: Uint8Array | null;
} {
  const view = viewOf(bytes);
  const offset = readLong(view, 8);
  let at = 16;
  const topicLength = view.getInt32(at, false);
  const topic = textDecoder.decode(bytes.subarray(at + 4, at + 4 + topicLength));
  at += 4 + topicLength;
  const partition = view.getInt32(at, false);
  const headerCount = view.getInt32(at + 4, false);
  at += 8;
  const headers: Headers = {};
  for (let i = 0; i < headerCount; i++) {
    const keyLength = view.getInt32(at, false);
    const key = textDecoder.decode(bytes.subarray(at + 4, at + 4 + keyLength));
    at += 4 + keyLength;
    const valueLength = view.getInt32(at, false);
    at += 4;
    // Headers are text here; a null header value (Kafka allows one) becomes empty.
    headers[key] = valueLength < 0 ? '' : textDecoder.decode(bytes.subarray(at, at + valueLength));
    at += Math.max(valueLength, 0);
  }
  // Prior and old values: a length (−1 null, −2 "old = prior") and the bytes.
  for (let i = 0; i < 2; i++) {
    const length = view.getInt32(at, false);
    at += 4 + Math.max(length, 0);
  }
  const valueLength = view.getInt32(at, false);
  at += 4;
  const valueBytes = valueLength < 0 ? null : bytes.subarray(at, at + valueLength);
  return { metadata: { topic, partition, offset }, headers, valueBytes };
}
