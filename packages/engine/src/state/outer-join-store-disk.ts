// The disk of a persistent stream–stream join outer store (outer-join-store.ts): Kafka Streams
// keeps the outer store in RocksDB (`KSTREAM-OUTERSHARED-<n>-store`), here it is one lmdb
// environment, `<task dir>/lmdb/<store>/0` (lmdb-segments.ts, a single segment), holding the
// committed records under their changelog key (TimestampedKeyAndJoinSide: timestamp, side, key
// bytes), so its byte order is the store's order. The value is the record's headers (the
// changelog carries them as the changelog record's headers, the disk must keep them too), then
// the changelog value (LeftOrRightValue).
import { Buffer } from 'node:buffer';
import type { Headers, StoredRecord } from '../backend-spi.js';
import { READ_CACHE_ENTRIES } from './lmdb-key-value-store.js';
import { LmdbSegments } from './lmdb-segments.js';

/**
 * How many committed records a persistent outer store keeps in memory (the window stores' bound,
 * lmdb-window-stores.ts). Tests lower it to read every record back from disk.
 */
export const outerJoinStoreCache = { entries: READ_CACHE_ENTRIES };

const SEGMENT = 0;
/** Records are read from disk this many at a time. */
export const OUTER_READ_CHUNK = 1024;

export interface StoredOuterRecord {
  /** The changelog key: timestamp (int64), side (1: left), the key's bytes. */
  readonly storeKey: Buffer;
  /** LeftOrRightValue, as logged. */
  readonly value: Uint8Array;
  readonly headers: Headers;
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** Headers (count, then length-prefixed names and values), then the changelog value. */
export function encodeDiskValue(headers: Headers, value: Uint8Array): Uint8Array {
  let entries: [Uint8Array, Uint8Array][] | null = null;
  let size = 4 + value.byteLength;
  for (const k in headers) {
    const pair: [Uint8Array, Uint8Array] = [textEncoder.encode(k), textEncoder.encode(headers[k])];
    (entries ??= []).push(pair);
    size += 8 + pair[0].byteLength + pair[1].byteLength;
  }
  const out = Buffer.allocUnsafe(size);
  out.writeUInt32BE(entries?.length ?? 0, 0);
  let at = 4;
  for (const [k, v] of entries ?? []) {
    out.writeUInt32BE(k.byteLength, at);
    out.set(k, at + 4);
    at += 4 + k.byteLength;
    out.writeUInt32BE(v.byteLength, at);
    out.set(v, at + 4);
    at += 4 + v.byteLength;
  }
  out.set(value, at);
  return out;
}

function decodeDiskValue(bytes: Buffer): { headers: Headers; value: Uint8Array } {
  const headers: Headers = {};
  const count = bytes.readUInt32BE(0);
  let at = 4;
  for (let i = 0; i < count; i++) {
    const kl = bytes.readUInt32BE(at);
    const k = textDecoder.decode(bytes.subarray(at + 4, at + 4 + kl));
    at += 4 + kl;
    const vl = bytes.readUInt32BE(at);
    headers[k] = textDecoder.decode(bytes.subarray(at + 4, at + 4 + vl));
    at += 4 + vl;
  }
  // lmdb may reuse the bytes it hands out: a copy.
  return { headers, value: Uint8Array.prototype.slice.call(bytes, at) };
}

const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export class OuterJoinStoreDisk {
  readonly #segments: LmdbSegments;
  /** The bound of committed records held in memory. */
  readonly limit: number;

  constructor(path: string, storeName: string, limit: number) {
    this.#segments = new LmdbSegments(path, storeName);
    this.limit = Math.max(0, limit);
  }

  /** The record stored under this changelog key, or undefined. */
  get(storeKey: Uint8Array): StoredOuterRecord | undefined {
    const bytes = this.#segments.get(SEGMENT, asBuffer(storeKey));
    if (bytes === undefined) return undefined;
    const { headers, value } = decodeDiskValue(bytes.subarray(8));
    return { storeKey: Buffer.from(storeKey), value, headers };
  }

  /** Records with keys in [from, to) (undefined: open ends), in order, at most `limit`. */
  range(
    from: Uint8Array | undefined,
    to: Uint8Array | undefined,
    limit: number,
  ): StoredOuterRecord[] {
    const out: StoredOuterRecord[] = [];
    const start = from === undefined ? undefined : asBuffer(from);
    const end = to === undefined ? undefined : asBuffer(to);
    for (const e of this.#segments.range(SEGMENT, start, end, { limit })) {
      const { headers, value } = decodeDiskValue(e.value.subarray(8));
      out.push({ storeKey: Buffer.from(e.key), value, headers });
    }
    return out;
  }

  /** The newest `limit` records in store order, and whether older ones stay on disk. */
  newest(limit: number): { records: StoredOuterRecord[]; more: boolean } {
    const records: StoredOuterRecord[] = [];
    for (const e of this.#segments.range(SEGMENT, undefined, undefined, {
      reverse: true,
      limit: limit + 1,
    })) {
      const { headers, value } = decodeDiskValue(e.value.subarray(8));
      records.push({ storeKey: Buffer.from(e.key), value, headers });
    }
    const more = records.length > limit;
    if (more) records.length = limit;
    return { records: records.reverse(), more };
  }

  /** Queues a commit's put (value) or delete (null); `flush` writes them in one transaction. */
  add(storeKey: Uint8Array, value: Uint8Array | null, headers: Headers, timestamp: number): void {
    this.#segments.add(SEGMENT, {
      key: storeKey,
      value: value === null ? null : encodeDiskValue(headers, value),
      timestamp,
    });
  }

  /** Queues a restored changelog record; it is written before the next read. */
  restore(record: StoredRecord): void {
    this.add(record.key!, record.value, record.headers, record.timestamp);
  }

  flush(): void {
    this.#segments.flush();
  }

  /** Checks every stored value's checksum: what is damaged, or null. */
  verify(): string | null {
    return this.#segments.verify();
  }

  /** Empties the disk (a rebuild from the changelog follows). */
  wipe(): void {
    this.#segments.wipe();
  }

  close(): void {
    this.#segments.close();
  }
}
