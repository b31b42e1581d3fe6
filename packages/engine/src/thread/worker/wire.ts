// Records crossing between the main thread (where the backend lives) and a stream thread in a
// worker: a whole fetch response or produce batch is packed into ONE ArrayBuffer that is
// transferred, never cloned record by record. On the receiving side keys and values are views
// into that buffer (no copy); a record costs one object, its headers object and two views.
//
// Layout per record (little-endian):
//   fetch:   f64 offset | f64 timestamp | i32 key length (-1 = null) | key | i32 value length | value | headers
//   produce: u32 topic index | i32 partition (-1 = default partitioner) | f64 timestamp (NaN = none)
//            | key | value | headers
//   headers: u16 count | (u16 name length | name (UTF-8) | u32 value length (2^32-1 = null) | value)*
//            in order, repeated names kept: a record's exact Kafka headers
import { headerEntries, headersOf, type Header } from '@streamwright/log/reader';
import type { FetchResponse, Headers, ProduceRecord, StoredRecord } from '../../backend-spi.js';

/** A header value length that stands for null. */
const NULL_VALUE = 0xffffffff;

/** What travels with a packed fetch response besides its buffer. */
export interface PackedFetch {
  kind: 'records';
  partitions: {
    topic: string;
    partition: number;
    highWatermark: number;
    count: number;
    error?: 'OFFSET_OUT_OF_RANGE';
  }[];
  buffer: ArrayBuffer;
}

export interface PackedProduce {
  topics: string[];
  count: number;
  buffer: ArrayBuffer;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A growable little-endian writer over one ArrayBuffer. */
class Writer {
  bytes: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(size: number) {
    this.bytes = new Uint8Array(Math.max(64, size));
    this.view = new DataView(this.bytes.buffer);
  }

  ensure(extra: number): void {
    if (this.pos + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.pos + extra));
    grown.set(this.bytes.subarray(0, this.pos));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  f64(v: number): void {
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  i32(v: number): void {
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }

  u16(v: number): void {
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }

  /** Length-prefixed bytes (i32 length, -1 for null). */
  blob(b: Uint8Array | null): void {
    if (b === null) {
      this.ensure(4);
      this.i32(-1);
      return;
    }
    const n = b.byteLength;
    this.ensure(4 + n);
    this.i32(n);
    // A small key or value is copied by hand: TypedArray#set costs more than the copy itself.
    if (n <= 16) {
      const out = this.bytes;
      let p = this.pos;
      for (let i = 0; i < n; i++) out[p++] = b[i]!;
    } else {
      this.bytes.set(b, this.pos);
    }
    this.pos += n;
  }

  headers(h: Headers | undefined): void {
    if (h === undefined) {
      this.ensure(2);
      this.u16(0);
      return;
    }
    const entries = headerEntries(h);
    this.ensure(2);
    this.u16(entries.length);
    for (const e of entries) {
      const n = encoder.encode(e.key);
      const v = e.value;
      this.ensure(6 + n.length + (v?.length ?? 0));
      this.u16(n.length);
      this.bytes.set(n, this.pos);
      this.pos += n.length;
      this.view.setUint32(this.pos, v === null ? NULL_VALUE : v.length, true);
      this.pos += 4;
      if (v !== null) {
        this.bytes.set(v, this.pos);
        this.pos += v.length;
      }
    }
  }

  /** The written bytes as a buffer of their own, ready to transfer. */
  finish(): ArrayBuffer {
    return this.bytes.buffer.slice(0, this.pos) as ArrayBuffer;
  }
}

class Reader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  pos = 0;

  constructor(buffer: ArrayBuffer) {
    this.bytes = new Uint8Array(buffer);
    this.view = new DataView(buffer);
  }

  f64(): number {
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  i32(): number {
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u16(): number {
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  blob(): Uint8Array | null {
    const n = this.i32();
    if (n < 0) return null;
    const b = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  headers(): Headers {
    const count = this.u16();
    if (count === 0) return {};
    const entries: Header[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const n = this.u16();
      const key = decoder.decode(this.bytes.subarray(this.pos, this.pos + n));
      this.pos += n;
      const v = this.view.getUint32(this.pos, true);
      this.pos += 4;
      if (v === NULL_VALUE) {
        entries[i] = { key, value: null };
        continue;
      }
      // A copy: the headers may outlive the transferred buffer's other views.
      entries[i] = { key, value: this.bytes.slice(this.pos, this.pos + v) };
      this.pos += v;
    }
    return headersOf(entries);
  }
}

function estimate(
  records: readonly { key: Uint8Array | null; value: Uint8Array | null }[],
): number {
  let n = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    n += 32 + (r.key?.byteLength ?? 0) + (r.value?.byteLength ?? 0);
  }
  return n;
}

export function packFetch(responses: readonly FetchResponse[]): PackedFetch {
  let size = 0;
  for (const r of responses) size += estimate(r.records);
  const w = new Writer(size);
  const partitions: PackedFetch['partitions'] = [];
  for (const r of responses) {
    const meta: PackedFetch['partitions'][number] = {
      topic: r.topic,
      partition: r.partition,
      highWatermark: r.highWatermark,
      count: r.records.length,
    };
    if (r.error !== undefined) meta.error = r.error;
    partitions.push(meta);
    for (let i = 0; i < r.records.length; i++) {
      const rec = r.records[i]!;
      w.ensure(16);
      w.f64(rec.offset);
      w.f64(rec.timestamp);
      w.blob(rec.key);
      w.blob(rec.value);
      w.headers(rec.headers);
    }
  }
  return { kind: 'records', partitions, buffer: w.finish() };
}

export function unpackFetch(packed: PackedFetch): FetchResponse[] {
  const r = new Reader(packed.buffer);
  return packed.partitions.map((p) => {
    const records: StoredRecord[] = new Array(p.count);
    for (let i = 0; i < p.count; i++) {
      const offset = r.f64();
      const timestamp = r.f64();
      const key = r.blob();
      const value = r.blob();
      records[i] = {
        topic: p.topic,
        partition: p.partition,
        offset,
        timestamp,
        key,
        value,
        headers: r.headers(),
      };
    }
    const response: FetchResponse = {
      topic: p.topic,
      partition: p.partition,
      records,
      highWatermark: p.highWatermark,
    };
    if (p.error !== undefined) response.error = p.error;
    return response;
  });
}

export function packProduce(records: readonly ProduceRecord[]): PackedProduce {
  const topics: string[] = [];
  const topicIndex = new Map<string, number>();
  const w = new Writer(estimate(records));
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    let t = topicIndex.get(rec.topic);
    if (t === undefined) {
      t = topics.length;
      topics.push(rec.topic);
      topicIndex.set(rec.topic, t);
    }
    w.ensure(16);
    w.i32(t);
    w.i32(rec.partition ?? -1);
    w.f64(rec.timestamp ?? NaN);
    w.blob(rec.key);
    w.blob(rec.value);
    w.headers(rec.headers);
  }
  return { topics, count: records.length, buffer: w.finish() };
}

export function unpackProduce(packed: PackedProduce): ProduceRecord[] {
  const r = new Reader(packed.buffer);
  const out: ProduceRecord[] = new Array(packed.count);
  for (let i = 0; i < packed.count; i++) {
    const topic = packed.topics[r.i32()]!;
    const partition = r.i32();
    const timestamp = r.f64();
    const key = r.blob();
    const value = r.blob();
    const headers = r.headers();
    const record: ProduceRecord = { topic, key, value, headers };
    if (partition >= 0) record.partition = partition;
    if (!Number.isNaN(timestamp)) record.timestamp = timestamp;
    out[i] = record;
  }
  return out;
}
