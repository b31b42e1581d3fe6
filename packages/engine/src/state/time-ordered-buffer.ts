// A stream–table join's buffer of stream records (Joined#withGracePeriod, KIP-923): Kafka
// Streams' RocksDBTimeOrderedKeyValueBuffer, `<join name>-Buffer`. Records are kept in the order
// of their store key — prefix byte 0, timestamp (int64), the key's bytes, a sequence number
// (int32) — so by timestamp, then key bytes, then arrival. The buffer's stream time is the
// largest timestamp put into it (or restored: tombstones count too); a record older than that
// minus the grace period is not buffered (the caller joins it at once), and every record at or
// before it is evicted in store order.
//
// The changelog (`<application.id>-<join name>-Buffer-changelog`) is Kafka's, byte for byte: each
// put logs key = the store key, value = BufferValue (the record context — timestamp, offset,
// topic, partition, headers — then prior and old value absent, then the value's bytes) followed
// by the buffer time (int64, always 0); each eviction logs a tombstone. Like Kafka's buffer
// (which sends them as they happen) every put and eviction is logged, even within one commit.
import { Buffer } from 'node:buffer';
import type { SerdeName } from '@streamwright/topology-model';
import type { Headers, ProduceRecord, StoredRecord } from '../api.js';
import type { RecordMetadata } from '../processor/record.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { readLong, viewOf, writeLong, type TaskStateStore } from './task-store.js';

export interface BufferedStreamRecord {
  readonly key: unknown;
  readonly value: unknown;
  readonly timestamp: number;
  readonly headers: Headers;
  /** The record context it was buffered with (Kafka's ProcessorRecordContext). */
  readonly metadata: RecordMetadata;
}

interface Entry extends BufferedStreamRecord {
  /** The store key: prefix 0, timestamp, key bytes, sequence number. */
  readonly storeKey: Uint8Array;
}

export interface TimeOrderedBufferOptions {
  name: string;
  keySerde: SerdeName;
  valueSerde: SerdeName;
  changelogTopic: string | null;
  logging?: boolean;
  graceMs: number;
}

const PREFIX_SIZE = 1;
const TIMESTAMP_SIZE = 8;
const SEQNUM_SIZE = 4;
const textEncoder = new TextEncoder();

/** Big-endian, without a DataView: a non-negative safe integer (a timestamp) in 8 bytes. */
function writeUint64(bytes: Uint8Array, at: number, value: number): void {
  writeUint32(bytes, at, Math.floor(value / 0x1_0000_0000));
  writeUint32(bytes, at + 4, value >>> 0);
}

function writeUint32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value >>> 24;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}
const textDecoder = new TextDecoder();

export class TimeOrderedKeyValueBuffer implements TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly persistent = false;
  readonly graceMs: number;
  /** In store-key order from #head on (evicted entries before it are dropped in bulk). */
  #entries: (Entry | undefined)[] = [];
  #head = 0;
  #observedStreamTime = -1;
  #seqnum = 0;
  #changes: ProduceRecord[] = [];
  readonly #logging: boolean;
  readonly #keySerde: Serde<unknown>;
  readonly #valueSerde: Serde<unknown>;

  constructor(
    options: TimeOrderedBufferOptions,
    readonly partition = 0,
  ) {
    this.name = options.name;
    this.changelogTopic = options.changelogTopic;
    this.#logging = options.changelogTopic !== null && options.logging !== false;
    this.graceMs = options.graceMs;
    this.#keySerde = getSerde(options.keySerde);
    this.#valueSerde = getSerde(options.valueSerde);
  }

  get size(): number {
    return this.#entries.length - this.#head;
  }

  /** The largest timestamp put (or restored) into the buffer; -1 before any. */
  get observedStreamTime(): number {
    return this.#observedStreamTime;
  }

  /**
   * Buffers the record, or returns false when it is older than the buffer's stream time minus
   * the grace period. `now`: the wall clock, the changelog record's timestamp (Kafka's producer
   * stamps the buffer's changelog records, sent without a timestamp).
   */
  put(
    key: unknown,
    value: unknown,
    timestamp: number,
    headers: Headers,
    metadata: RecordMetadata,
    now: number,
  ): boolean {
    // RocksDBTimeOrderedKeyValueBuffer#put's requireNonNull checks (a left join lets null keys
    // through to here, so Kafka Streams 4.1 fails the task on them too).
    if (value === null || value === undefined) throw new TypeError('value cannot be null');
    if (key === null || key === undefined) throw new TypeError('key cannot be null');
    if (this.#observedStreamTime - this.graceMs > timestamp) return false;
    this.#seqnum = (this.#seqnum + 1) & 0x7fffffff;
    const keyBytes = this.#keySerde.serialize(key) ?? new Uint8Array(0);
    const storeKey = new Uint8Array(
      PREFIX_SIZE + TIMESTAMP_SIZE + keyBytes.byteLength + SEQNUM_SIZE,
    );
    writeUint64(storeKey, PREFIX_SIZE, timestamp);
    storeKey.set(keyBytes, PREFIX_SIZE + TIMESTAMP_SIZE);
    writeUint32(storeKey, storeKey.byteLength - SEQNUM_SIZE, this.#seqnum);
    const entry: Entry = { key, value, timestamp, headers, metadata, storeKey };
    this.#insert(entry);
    if (timestamp > this.#observedStreamTime) this.#observedStreamTime = timestamp;
    if (this.#logging) this.#log(storeKey, this.#bufferValue(entry), now);
    return true;
  }

  /** Removes and hands over, in store order, every record at or before stream time − grace. */
  evict(emit: (record: BufferedStreamRecord) => void, now: number): void {
    const deadline = this.#observedStreamTime - this.graceMs;
    const entries = this.#entries;
    while (this.#head < entries.length && entries[this.#head]!.timestamp <= deadline) {
      const entry = entries[this.#head]!;
      entries[this.#head++] = undefined;
      emit(entry);
      if (this.#logging) this.#log(entry.storeKey, null, now);
    }
    // Drop the evicted slots once they are most of the array (not one splice per eviction).
    if (this.#head === entries.length) {
      entries.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > entries.length) {
      this.#entries = entries.slice(this.#head);
      this.#head = 0;
    }
  }

  #insert(entry: Entry): void {
    const entries = this.#entries;
    const head = this.#head;
    let i = entries.length;
    // Records mostly arrive in time order: after the last one.
    if (i === head || Buffer.compare(entry.storeKey, entries[i - 1]!.storeKey) > 0) {
      entries.push(entry);
      return;
    }
    while (i > head && Buffer.compare(entry.storeKey, entries[i - 1]!.storeKey) < 0) i--;
    // The same store key (a sequence number restarting at 0 after a restore) overwrites, as a
    // RocksDB put does.
    if (i > head && Buffer.compare(entry.storeKey, entries[i - 1]!.storeKey) === 0)
      entries[i - 1] = entry;
    else if (i === entries.length) entries.push(entry);
    else entries.splice(i, 0, entry);
  }

  #log(key: Uint8Array, value: Uint8Array | null, now: number): void {
    this.#changes.push({
      topic: this.changelogTopic!,
      partition: this.partition,
      key,
      value,
      timestamp: now,
    });
  }

  #topics = new Map<string, Uint8Array>();
  #topicBytes(topic: string): Uint8Array {
    let bytes = this.#topics.get(topic);
    if (bytes === undefined) this.#topics.set(topic, (bytes = textEncoder.encode(topic)));
    return bytes;
  }

  /** BufferValue#serialize(8) with the buffer time (0) in the padding. */
  #bufferValue(entry: Entry): Uint8Array {
    const topic = this.#topicBytes(entry.metadata.topic);
    let headers: (readonly [Uint8Array, Uint8Array])[] | null = null;
    for (const k in entry.headers)
      (headers ??= []).push([textEncoder.encode(k), textEncoder.encode(entry.headers[k])]);
    const value = this.#valueSerde.serialize(entry.value);
    let size = 8 + 8 + 4 + topic.byteLength + 4 + 4;
    if (headers !== null) for (const [k, v] of headers) size += 8 + k.byteLength + v.byteLength;
    size += 4 + 4 + 4 + (value?.byteLength ?? 0) + 8;
    // Written byte by byte (big-endian): a DataView per record costs more than the writes.
    const bytes = new Uint8Array(size);
    writeUint64(bytes, 0, entry.timestamp);
    const offset = entry.metadata.offset;
    if (offset >= 0) writeUint64(bytes, 8, offset);
    else writeLong(viewOf(bytes), 8, offset);
    let at = 16;
    writeUint32(bytes, at, topic.byteLength);
    bytes.set(topic, at + 4);
    at += 4 + topic.byteLength;
    writeUint32(bytes, at, entry.metadata.partition);
    writeUint32(bytes, at + 4, headers === null ? 0 : headers.length);
    at += 8;
    if (headers !== null)
      for (const [k, v] of headers) {
        writeUint32(bytes, at, k.byteLength);
        bytes.set(k, at + 4);
        at += 4 + k.byteLength;
        writeUint32(bytes, at, v.byteLength);
        bytes.set(v, at + 4);
        at += 4 + v.byteLength;
      }
    writeUint32(bytes, at, -1); // prior value
    writeUint32(bytes, at + 4, -1); // old value
    at += 8;
    writeUint32(bytes, at, value === null ? -1 : value.byteLength);
    at += 4;
    if (value !== null) bytes.set(value, at);
    // The buffer time (0) is already there: a new Uint8Array is zeroed.
    return bytes;
  }

  takeChangelogRecords(): ProduceRecord[] {
    if (this.#changes.length === 0) return [];
    const out = this.#changes;
    this.#changes = [];
    return out;
  }

  restore(record: StoredRecord): void {
    const storeKey = record.key;
    if (storeKey === null || storeKey.byteLength < PREFIX_SIZE + TIMESTAMP_SIZE + SEQNUM_SIZE)
      return;
    const timestamp = readLong(viewOf(storeKey), PREFIX_SIZE);
    this.#observedStreamTime = Math.max(this.#observedStreamTime, timestamp);
    const at = this.#find(storeKey);
    if (at === this.#head) this.#entries[this.#head++] = undefined;
    else if (at >= 0) this.#entries.splice(at, 1);
    if (record.value === null) return;
    const keyBytes = storeKey.subarray(
      PREFIX_SIZE + TIMESTAMP_SIZE,
      storeKey.byteLength - SEQNUM_SIZE,
    );
    const { metadata, headers, valueBytes } = parseBufferValue(record.value);
    this.#insert({
      key: this.#keySerde.deserialize(keyBytes),
      value: valueBytes === null ? null : this.#valueSerde.deserialize(valueBytes),
      timestamp: readLong(viewOf(record.value), 0),
      headers,
      metadata,
      storeKey: new Uint8Array(storeKey),
    });
  }

  /** A restored tombstone's entry: evictions go in store order, so look from the oldest. */
  #find(storeKey: Uint8Array): number {
    const entries = this.#entries;
    for (let i = this.#head; i < entries.length; i++)
      if (Buffer.compare(entries[i]!.storeKey, storeKey) === 0) return i;
    return -1;
  }

  wipe(): void {
    this.#entries = [];
    this.#head = 0;
    this.#changes = [];
    this.#observedStreamTime = -1;
  }

  close(): void {
    this.wipe();
  }
}

/** BufferValue#deserialize: the record context and the new value's bytes. */
function parseBufferValue(bytes: Uint8Array): {
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
