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
//
// Persistent (with a disk, time-ordered-buffer-disk.ts: what `default.dsl.store: rocksDB` gives a
// logged buffer, as Kafka keeps it in RocksDB) the buffer holds in memory at most its bound of
// committed entries, the newest, and every entry put since the last commit; entries below its
// floor may be on disk only, and an eviction that reaches them reads them back in key order,
// merged with those held. A commit writes what is still buffered of the puts since the last one
// and deletes what was evicted of the entries on disk (a record put and evicted between two
// commits never reaches the disk), then drops the oldest held entries down to the bound.
import { Buffer } from 'node:buffer';
import type { SerdeName } from '@streamwright/topology-model';
import type { Headers, ProduceRecord, StoredRecord } from '../backend-spi.js';
import type { RecordMetadata } from '../processor/record.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import {
  parseBufferValue,
  PREFIX_SIZE,
  SEQNUM_SIZE,
  storeKeyKeyBytes,
  storeKeyTimestamp,
  TIMESTAMP_SIZE,
  timestampKey,
  writeUint32,
  writeUint64,
} from './time-ordered-buffer-codec.js';
import {
  ENTRIES_END,
  READ_CHUNK,
  TimeOrderedBufferDisk,
  timeOrderedBufferCache,
} from './time-ordered-buffer-disk.js';
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
  /** Persistent buffer: put since the last commit and not evicted (its put is still to write). */
  fresh: boolean;
}

export interface TimeOrderedBufferOptions {
  name: string;
  keySerde: SerdeName;
  valueSerde: SerdeName;
  changelogTopic: string | null;
  logging?: boolean;
  graceMs: number;
}

const textEncoder = new TextEncoder();

/** The smallest store key after `storeKey`. */
const after = (storeKey: Uint8Array): Uint8Array => {
  const next = new Uint8Array(storeKey.byteLength + 1);
  next.set(storeKey);
  return next;
};

export class TimeOrderedKeyValueBuffer implements TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
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
  /** Persistent: the committed entries, of which the buffer holds the newest. */
  readonly #disk: TimeOrderedBufferDisk | null;
  /** Persistent: the store keys of evicted entries that may be on disk. */
  #deletes: Uint8Array[] = [];
  #closed = false;

  constructor(
    options: TimeOrderedBufferOptions,
    readonly partition = 0,
    /** `<task dir>/lmdb/<store>` for a persistent buffer; null keeps everything in memory. */
    path: string | null = null,
    cacheEntries: number = timeOrderedBufferCache.entries,
  ) {
    this.name = options.name;
    this.changelogTopic = options.changelogTopic;
    this.#logging = options.changelogTopic !== null && options.logging !== false;
    this.graceMs = options.graceMs;
    this.#keySerde = getSerde(options.keySerde);
    this.#valueSerde = getSerde(options.valueSerde);
    this.#disk = path === null ? null : new TimeOrderedBufferDisk(path, options.name, cacheEntries);
  }

  get persistent(): boolean {
    return this.#disk !== null;
  }

  /** How many records wait, held in memory or on disk. */
  get size(): number {
    this.#loaded();
    let n = this.#entries.length - this.#head;
    const disk = this.#disk;
    if (disk === null || disk.floor === null) return n;
    let from = timestampKey(disk.evictedThrough + 1);
    for (;;) {
      const chunk = disk.range(from, disk.floor);
      for (const d of chunk) if (this.#heldAt(d.storeKey) < 0) n++;
      if (chunk.length < READ_CHUNK) return n;
      from = after(chunk[chunk.length - 1]!.storeKey);
    }
  }

  /** How many records are held in memory. */
  get residentEntries(): number {
    return this.#entries.length - this.#head;
  }

  /** The largest timestamp put (or restored) into the buffer; -1 before any. */
  get observedStreamTime(): number {
    this.#loaded();
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
    const disk = this.#disk;
    if (disk?.needsLoad === true) this.#load();
    if (this.#observedStreamTime - this.graceMs > timestamp) return false;
    this.#seqnum = (this.#seqnum + 1) & 0x7fffffff;
    const keyBytes = this.#keySerde.serialize(key) ?? new Uint8Array(0);
    const storeKey = new Uint8Array(
      PREFIX_SIZE + TIMESTAMP_SIZE + keyBytes.byteLength + SEQNUM_SIZE,
    );
    writeUint64(storeKey, PREFIX_SIZE, timestamp);
    storeKey.set(keyBytes, PREFIX_SIZE + TIMESTAMP_SIZE);
    writeUint32(storeKey, storeKey.byteLength - SEQNUM_SIZE, this.#seqnum);
    const entry: Entry = {
      key,
      value,
      timestamp,
      headers,
      metadata,
      storeKey,
      fresh: disk !== null,
    };
    this.#insert(entry);
    if (timestamp > this.#observedStreamTime) this.#observedStreamTime = timestamp;
    if (this.#logging) this.#log(storeKey, this.#bufferValue(entry), now);
    return true;
  }

  /** Removes and hands over, in store order, every record at or before stream time − grace. */
  evict(emit: (record: BufferedStreamRecord) => void, now: number): void {
    const disk = this.#disk;
    const deadline = this.#observedStreamTime - this.graceMs;
    if (disk !== null) {
      if (disk.needsLoad) this.#load();
      if (disk.floor !== null && deadline >= disk.nextTimestamp)
        this.#evictFromDisk(deadline, emit, now);
    }
    const entries = this.#entries;
    while (this.#head < entries.length && entries[this.#head]!.timestamp <= deadline)
      this.#evictHeld(emit, now);
    if (disk !== null) {
      if (deadline > disk.evictedThrough) disk.evictedThrough = deadline;
      if (disk.floor !== null && deadline >= disk.nextTimestamp) this.#findOnDisk(deadline);
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

  #evictHeld(emit: (record: BufferedStreamRecord) => void, now: number): void {
    const entry = this.#entries[this.#head]!;
    this.#entries[this.#head++] = undefined;
    emit(entry);
    if (this.#logging) this.#log(entry.storeKey, null, now);
    const disk = this.#disk;
    if (disk === null) return;
    // Put since the commit (and no key on disk like its own): the disk never sees it.
    if (!entry.fresh || entry.timestamp <= disk.reusedKeysThrough)
      this.#deletes.push(entry.storeKey);
    entry.fresh = false;
  }

  /**
   * Evicts the entries on disk only up to the deadline, in store order with the held ones before
   * them (a held entry of the same store key is the newer put: it wins).
   */
  #evictFromDisk(
    deadline: number,
    emit: (record: BufferedStreamRecord) => void,
    now: number,
  ): void {
    const disk = this.#disk!;
    const due = timestampKey(deadline + 1);
    const end = Buffer.compare(due, disk.floor!) < 0 ? due : disk.floor!;
    let from = timestampKey(disk.evictedThrough + 1);
    const entries = this.#entries;
    for (;;) {
      const chunk = disk.range(from, end);
      for (const d of chunk) {
        let order = 1;
        while (
          this.#head < entries.length &&
          (order = Buffer.compare(entries[this.#head]!.storeKey, d.storeKey)) < 0
        )
          this.#evictHeld(emit, now);
        if (this.#head < entries.length && order === 0) {
          this.#evictHeld(emit, now);
          continue;
        }
        emit(this.#entryOf(d));
        if (this.#logging) this.#log(d.storeKey, null, now);
        this.#deletes.push(d.storeKey);
      }
      if (chunk.length < READ_CHUNK) break;
      from = after(chunk[chunk.length - 1]!.storeKey);
    }
  }

  /** After an eviction that read the disk: the next entry there that is not held, if any. */
  #findOnDisk(deadline: number): void {
    const disk = this.#disk!;
    let from = timestampKey(deadline + 1);
    for (;;) {
      const chunk = disk.range(from, disk.floor!);
      for (const d of chunk)
        if (this.#heldAt(d.storeKey) < 0) {
          disk.nextTimestamp = storeKeyTimestamp(d.storeKey);
          return;
        }
      if (chunk.length < READ_CHUNK) break;
      from = after(chunk[chunk.length - 1]!.storeKey);
    }
    // Nothing below the floor is on disk only any more: every entry is held.
    disk.floor = null;
    disk.nextTimestamp = Infinity;
  }

  /** The index of the held entry with this store key, or -1. */
  #heldAt(storeKey: Uint8Array): number {
    const entries = this.#entries;
    let lo = this.#head;
    let hi = entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = Buffer.compare(entries[mid]!.storeKey, storeKey);
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  #entryOf(stored: { storeKey: Uint8Array; value: Uint8Array }): Entry {
    const { metadata, headers, valueBytes } = parseBufferValue(stored.value);
    return {
      key: this.#keySerde.deserialize(storeKeyKeyBytes(stored.storeKey)),
      value: valueBytes === null ? null : this.#valueSerde.deserialize(valueBytes),
      timestamp: readLong(viewOf(stored.value), 0),
      headers,
      metadata,
      storeKey: stored.storeKey,
      fresh: false,
    };
  }

  /** Persistent: reads the newest entries on disk into memory (at open, after a restore). */
  #loaded(): void {
    if (this.#disk?.needsLoad === true) this.#load();
  }

  #load(): void {
    const disk = this.#disk!;
    disk.startLoad();
    this.#observedStreamTime = Math.max(this.#observedStreamTime, disk.streamTime());
    const { entries, more } = disk.newest(disk.limit);
    this.#entries = entries.map((e) => this.#entryOf(e));
    this.#head = 0;
    this.#deletes = [];
    if (more) {
      disk.floor = entries[0]?.storeKey ?? ENTRIES_END;
      disk.nextTimestamp = storeKeyTimestamp(disk.oldest()!.storeKey);
    }
    // Sequence numbers start again: a new put may have the store key of one already on disk.
    disk.reusedKeysThrough = this.#observedStreamTime;
  }

  /** Persistent: writes the commit and drops the oldest held entries down to the bound. */
  #commit(): void {
    const disk = this.#disk!;
    // What is still buffered of the puts since the last commit (its BufferValue made again: most
    // records are evicted before the commit, and nothing of theirs is kept for it).
    const puts: { storeKey: Uint8Array; value: Uint8Array; timestamp: number }[] = [];
    const entries = this.#entries;
    for (let i = this.#head; i < entries.length; i++) {
      const entry = entries[i]!;
      if (!entry.fresh) continue;
      puts.push({
        storeKey: entry.storeKey,
        value: this.#bufferValue(entry),
        timestamp: entry.timestamp,
      });
      entry.fresh = false;
    }
    disk.write(puts, this.#deletes, this.#observedStreamTime);
    this.#deletes = [];
    const held = this.#entries.length - this.#head;
    if (held <= disk.limit) return;
    const drop = this.#head + held - disk.limit;
    const retained = this.#entries[drop]?.storeKey ?? ENTRIES_END;
    disk.nextTimestamp = Math.min(disk.nextTimestamp, this.#entries[this.#head]!.timestamp);
    if (disk.floor === null || Buffer.compare(retained, disk.floor) > 0)
      disk.floor = Buffer.from(retained.buffer, retained.byteOffset, retained.byteLength);
    this.#entries = this.#entries.slice(drop);
    this.#head = 0;
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
    // Persistent: the commit writes the disk (restored records not read yet stay on it).
    if (this.#disk !== null && !this.#closed) this.#commit();
    if (this.#changes.length === 0) return [];
    const out = this.#changes;
    this.#changes = [];
    return out;
  }

  restore(record: StoredRecord): void {
    const storeKey = record.key;
    if (storeKey === null || storeKey.byteLength < PREFIX_SIZE + TIMESTAMP_SIZE + SEQNUM_SIZE)
      return;
    const timestamp = storeKeyTimestamp(storeKey);
    this.#observedStreamTime = Math.max(this.#observedStreamTime, timestamp);
    // Persistent: to disk, read back (the newest into memory) when the buffer is next used.
    if (this.#disk !== null) {
      this.#disk.restore(record);
      return;
    }
    const at = this.#find(storeKey);
    if (at === this.#head) this.#entries[this.#head++] = undefined;
    else if (at >= 0) this.#entries.splice(at, 1);
    if (record.value === null) return;
    this.#insert(this.#entryOf({ storeKey: new Uint8Array(storeKey), value: record.value }));
  }

  /** A restored tombstone's entry: evictions go in store order, so look from the oldest. */
  #find(storeKey: Uint8Array): number {
    const entries = this.#entries;
    for (let i = this.#head; i < entries.length; i++)
      if (Buffer.compare(entries[i]!.storeKey, storeKey) === 0) return i;
    return -1;
  }

  /** The persistent store's checksums over its disk: what is damaged, or null. */
  verify(): string | null {
    return this.#disk?.verify() ?? null;
  }

  wipe(): void {
    this.#entries = [];
    this.#head = 0;
    this.#changes = [];
    this.#deletes = [];
    this.#observedStreamTime = -1;
    if (this.#disk !== null && !this.#closed) this.#disk.wipe();
  }

  close(): void {
    if (this.#disk !== null && !this.#closed) this.#disk.close();
    this.#closed = true;
    this.wipe();
  }
}
