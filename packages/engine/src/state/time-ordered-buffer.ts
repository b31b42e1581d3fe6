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
const textDecoder = new TextDecoder();

export class TimeOrderedKeyValueBuffer implements TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly persistent = false;
  readonly graceMs: number;
  /** In store-key order. */
  #entries: Entry[] = [];
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
    return this.#entries.length;
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
  put(record: BufferedStreamRecord, now: number): boolean {
    // RocksDBTimeOrderedKeyValueBuffer#put's requireNonNull checks (a left join lets null keys
    // through to here, so Kafka Streams 4.1 fails the task on them too).
    if (record.value === null || record.value === undefined)
      throw new TypeError('value cannot be null');
    if (record.key === null || record.key === undefined) throw new TypeError('key cannot be null');
    if (this.#observedStreamTime - this.graceMs > record.timestamp) return false;
    this.#seqnum = (this.#seqnum + 1) & 0x7fffffff;
    const keyBytes = this.#keySerde.serialize(record.key) ?? new Uint8Array(0);
    const storeKey = new Uint8Array(
      PREFIX_SIZE + TIMESTAMP_SIZE + keyBytes.byteLength + SEQNUM_SIZE,
    );
    const view = viewOf(storeKey);
    writeLong(view, PREFIX_SIZE, record.timestamp);
    storeKey.set(keyBytes, PREFIX_SIZE + TIMESTAMP_SIZE);
    view.setInt32(storeKey.byteLength - SEQNUM_SIZE, this.#seqnum, false);
    const entry: Entry = { ...record, storeKey };
    this.#insert(entry);
    this.#observedStreamTime = Math.max(this.#observedStreamTime, record.timestamp);
    if (this.#logging) this.#log(storeKey, this.#bufferValue(entry), now);
    return true;
  }

  /** Removes and hands over, in store order, every record at or before stream time − grace. */
  evict(emit: (record: BufferedStreamRecord) => void, now: number): void {
    const deadline = this.#observedStreamTime - this.graceMs;
    const entries = this.#entries;
    let n = 0;
    while (n < entries.length && entries[n]!.timestamp <= deadline) {
      const entry = entries[n]!;
      emit(entry);
      if (this.#logging) this.#log(entry.storeKey, null, now);
      n++;
    }
    if (n > 0) entries.splice(0, n);
  }

  #insert(entry: Entry): void {
    const entries = this.#entries;
    let i = entries.length;
    // Records mostly arrive in time order: look from the end.
    while (i > 0 && Buffer.compare(entry.storeKey, entries[i - 1]!.storeKey) < 0) i--;
    // The same store key (a sequence number restarting at 0 after a restore) overwrites, as a
    // RocksDB put does.
    if (i > 0 && Buffer.compare(entry.storeKey, entries[i - 1]!.storeKey) === 0)
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

  /** BufferValue#serialize(8) with the buffer time (0) in the padding. */
  #bufferValue(entry: Entry): Uint8Array {
    const topic = textEncoder.encode(entry.metadata.topic);
    const headers = Object.entries(entry.headers).map(
      ([k, v]) => [textEncoder.encode(k), textEncoder.encode(v)] as const,
    );
    const value = this.#valueSerde.serialize(entry.value);
    let size = 8 + 8 + 4 + topic.byteLength + 4 + 4;
    for (const [k, v] of headers) size += 8 + k.byteLength + v.byteLength;
    size += 4 + 4 + 4 + (value?.byteLength ?? 0) + 8;
    const bytes = new Uint8Array(size);
    const view = viewOf(bytes);
    writeLong(view, 0, entry.timestamp);
    writeLong(view, 8, entry.metadata.offset);
    let at = 16;
    view.setInt32(at, topic.byteLength, false);
    bytes.set(topic, at + 4);
    at += 4 + topic.byteLength;
    view.setInt32(at, entry.metadata.partition, false);
    view.setInt32(at + 4, headers.length, false);
    at += 8;
    for (const [k, v] of headers) {
      view.setInt32(at, k.byteLength, false);
      bytes.set(k, at + 4);
      at += 4 + k.byteLength;
      view.setInt32(at, v.byteLength, false);
      bytes.set(v, at + 4);
      at += 4 + v.byteLength;
    }
    view.setInt32(at, -1, false); // prior value
    view.setInt32(at + 4, -1, false); // old value
    at += 8;
    view.setInt32(at, value === null ? -1 : value.byteLength, false);
    at += 4;
    if (value !== null) {
      bytes.set(value, at);
      at += value.byteLength;
    }
    writeLong(view, at, 0); // buffer time
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
    if (at >= 0) this.#entries.splice(at, 1);
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

  #find(storeKey: Uint8Array): number {
    const entries = this.#entries;
    for (let i = entries.length - 1; i >= 0; i--)
      if (Buffer.compare(entries[i]!.storeKey, storeKey) === 0) return i;
    return -1;
  }

  wipe(): void {
    this.#entries = [];
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
