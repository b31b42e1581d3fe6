// KTable#suppress's buffer (Kafka Streams' InMemoryTimeOrderedKeyValueChangelogBuffer): one entry
// per key, ordered by buffer time then key, owning its changelog
// (`<application.id>-KTABLE-SUPPRESS-STATE-STORE-<n>-changelog`). A changed entry is logged once
// per commit; an emitted entry is a tombstone. Layout: key = the key's bytes (windowed keys as
// Kafka's windowed serializers write them); value = buffer time (int64), then the new, the prior
// and the old value, each as an int32 length (−1: null) and the bytes (an entry logged before
// the old value was kept has no third part: its old value is the prior one); the record's
// timestamp and headers are the changelog record's.
import type { SerdeName } from '@streamwright/topology-model';
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import type { BufferMetrics } from '../metrics/metric-groups.js';
import { Change, type EngineRecord } from '../processor/record.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { isWindowedKey, sessionWindowedSerde, timeWindowedSerde } from '../windows/windowed-key.js';
import { readLong, viewOf, writeLong, type TaskStateStore } from './task-store.js';
import { keyId } from './window-store.js';

export interface BufferedEntry {
  readonly id: string;
  /** The key's sort position among entries of the same time: base key, then window start. */
  readonly order: readonly [string, number];
  readonly time: number;
  /**
   * The record to emit: its value is the latest Change(newValue, oldValue) buffered for the key
   * (Kafka's BufferValue newValue / oldValue; evictWhile emits those).
   */
  record: EngineRecord;
  /**
   * The key's old value when it was first buffered (BufferValue#priorValue): what was last
   * emitted, as the suppressed table's value getter reads a buffered key.
   */
  prior: unknown;
  bytes: number;
}

export interface SuppressionBufferOptions {
  name: string;
  keySerde: SerdeName;
  valueSerde: SerdeName;
  changelogTopic: string | null;
  logging?: boolean;
  /** Keys of a windowed table: how they serialize (the window size gives a time window's end). */
  windowed?: { type: 'time'; sizeMs: number } | { type: 'session' };
}

function sizeOf(record: EngineRecord): number {
  const change = record.value as Change;
  // An estimate of the serialized entry (Kafka counts key, value, prior value and context bytes).
  return JSON.stringify([record.key, change.newValue ?? null, change.oldValue ?? null]).length + 24;
}

function orderOf(key: unknown): [string, number] {
  return isWindowedKey(key) ? [keyId(key.key), key.start] : [keyId(key), 0];
}

function before(a: BufferedEntry, b: BufferedEntry): boolean {
  if (a.time !== b.time) return a.time < b.time;
  if (a.order[0] !== b.order[0]) return a.order[0] < b.order[0];
  return a.order[1] < b.order[1];
}

export class SuppressionBufferStore implements TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly persistent = false;
  readonly #byKey = new Map<string, BufferedEntry>();
  /** Ordered by (time, key), as Kafka orders by time then serialized key. */
  #queue: BufferedEntry[] = [];
  #bytes = 0;
  /** Changed since the last commit: id → the entry, or its key once emitted (a tombstone). */
  #dirty = new Map<string, BufferedEntry | { gone: unknown; timestamp: number }>();
  readonly #logging: boolean;
  /** suppression-buffer-size|count (metrics.recording.level DEBUG), sampled as Kafka does. */
  metrics: BufferMetrics | null = null;
  readonly #keySerde: Serde<unknown>;
  readonly #valueSerde: Serde<unknown>;

  constructor(
    options: SuppressionBufferOptions,
    readonly partition = 0,
  ) {
    this.name = options.name;
    this.changelogTopic = options.changelogTopic;
    this.#logging = options.changelogTopic !== null && options.logging !== false;
    const inner = getSerde(options.keySerde);
    const w = options.windowed;
    this.#keySerde =
      w === undefined
        ? inner
        : ((w.type === 'session'
            ? sessionWindowedSerde(inner)
            : timeWindowedSerde(inner, w.sizeMs)) as Serde<unknown>);
    this.#valueSerde = getSerde(options.valueSerde);
  }

  get size(): number {
    return this.#byKey.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(key: unknown): BufferedEntry | undefined {
    return this.#byKey.get(keyId(key));
  }

  /**
   * Buffers `record` (value Change(new, old)); a key already buffered keeps its time and its
   * prior value (a new key's is the change's old value, or `prior` when restoring).
   */
  put(record: EngineRecord, time: number, prior?: unknown): void {
    const id = keyId(record.key);
    const previous = this.#byKey.get(id);
    if (previous !== undefined) {
      this.#bytes -= previous.bytes;
      previous.record = record;
      previous.bytes = sizeOf(record);
      this.#bytes += previous.bytes;
      this.#mark(id, previous);
      this.recordMetrics();
      return;
    }
    const entry: BufferedEntry = {
      id,
      order: orderOf(record.key),
      time,
      record,
      prior: prior === undefined ? (record.value as Change).oldValue : prior,
      bytes: 0,
    };
    entry.bytes = sizeOf(record);
    this.#bytes += entry.bytes;
    this.#byKey.set(id, entry);
    const queue = this.#queue;
    let i = queue.length;
    while (i > 0 && before(entry, queue[i - 1]!)) i--;
    queue.splice(i, 0, entry);
    this.#mark(id, entry);
    this.recordMetrics();
  }

  /** Samples the buffer's size and count (after a put, and after each run of evictions). */
  recordMetrics(): void {
    this.metrics?.record(this.#bytes, this.#queue.length);
  }

  /** The entry with the smallest (time, key), if any. */
  first(): BufferedEntry | undefined {
    return this.#queue[0];
  }

  /** Removes and returns the first entry (it is being emitted or evicted). */
  shift(): BufferedEntry {
    const first = this.#queue.shift()!;
    this.#byKey.delete(first.id);
    this.#bytes -= first.bytes;
    if (this.#logging) {
      this.#dirty.delete(first.id);
      this.#dirty.set(first.id, { gone: first.record.key, timestamp: first.record.timestamp });
    }
    return first;
  }

  #mark(id: string, entry: BufferedEntry): void {
    if (!this.#logging) return;
    this.#dirty.delete(id);
    this.#dirty.set(id, entry);
  }

  takeChangelogRecords(): ProduceRecord[] {
    if (this.#dirty.size === 0 || this.changelogTopic === null) return [];
    const out: ProduceRecord[] = [];
    for (const change of this.#dirty.values()) {
      if ('gone' in change) {
        out.push({
          topic: this.changelogTopic,
          partition: this.partition,
          key: this.#keySerde.serialize(change.gone),
          value: null,
          timestamp: change.timestamp,
        });
        continue;
      }
      const { record } = change;
      const value = record.value as Change;
      const newBytes = this.#valueSerde.serialize(value.newValue ?? null);
      const priorBytes = this.#valueSerde.serialize(change.prior ?? null);
      const oldBytes = this.#valueSerde.serialize(value.oldValue ?? null);
      const parts = [newBytes, priorBytes, oldBytes];
      const size = 8 + parts.reduce((n, p) => n + 4 + (p?.byteLength ?? 0), 0);
      const bytes = new Uint8Array(size);
      const view = viewOf(bytes);
      writeLong(view, 0, change.time);
      let at = 8;
      for (const part of parts) {
        view.setInt32(at, part === null ? -1 : part.byteLength, false);
        at += 4;
        if (part !== null) {
          bytes.set(part, at);
          at += part.byteLength;
        }
      }
      out.push({
        topic: this.changelogTopic,
        partition: this.partition,
        key: this.#keySerde.serialize(record.key),
        value: bytes,
        timestamp: record.timestamp,
        headers: record.headers,
      });
    }
    this.#dirty = new Map();
    return out;
  }

  restore(record: StoredRecord): void {
    const key = this.#keySerde.deserialize(record.key);
    const id = keyId(key);
    const existing = this.#byKey.get(id);
    if (existing !== undefined) {
      this.#queue.splice(this.#queue.indexOf(existing), 1);
      this.#byKey.delete(id);
      this.#bytes -= existing.bytes;
    }
    if (record.value === null) return;
    const bytes = record.value;
    const view = viewOf(bytes);
    const time = readLong(view, 0);
    let at = 8;
    const parts: unknown[] = [];
    for (let i = 0; i < 3 && at < bytes.byteLength; i++) {
      const length = view.getInt32(at, false);
      at += 4;
      if (length < 0) {
        parts.push(null);
        continue;
      }
      parts.push(this.#valueSerde.deserialize(bytes.subarray(at, at + length)));
      at += length;
    }
    const logging = this.#dirty;
    this.put(
      {
        key,
        value: new Change(parts[0], parts.length > 2 ? parts[2] : parts[1]),
        timestamp: record.timestamp,
        headers: { ...record.headers },
      },
      time,
      parts[1] ?? null,
    );
    logging.clear(); // restoring does not log
  }

  wipe(): void {
    this.#byKey.clear();
    this.#queue = [];
    this.#bytes = 0;
    this.#dirty = new Map();
  }

  close(): void {
    this.wipe();
  }
}
