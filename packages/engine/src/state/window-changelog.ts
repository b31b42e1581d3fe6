// Kafka Streams' changelog layout of window stores, which SegmentedWindowStore writes and restores
// from: key = the key's bytes, the window start (int64) and a sequence number (int32,
// WindowKeySchema); value = the value's bytes alone, the timestamp of a timestamped store being
// the record's timestamp (ChangeLoggingTimestampedWindowBytesStore#log logs
// rawValue(valueAndTimestamp) with timestamp(valueAndTimestamp); checked against Kafka Streams'
// changelog on a broker in test/kafka/window-changelog-broker-oracle.test.ts). A persistent store
// keeps its entries on disk in the same key layout with the value prefixed by its timestamp
// (int64) in a timestamped store (ValueAndTimestampSerializer), as RocksDB holds them.
import type { ProduceRecord } from '../backend-spi.js';
import type { Serde } from '../serdes/serde.js';
import type { ValueAndTimestamp } from './key-value-store.js';
import { readLong, viewOf, writeLong } from './task-store.js';
import { ColumnSegment } from './window-columns.js';
import type { Segment } from './window-segments.js';

const SUFFIX_BYTES = 12;

export class WindowChangelogFormat {
  readonly #integerKeys: boolean;

  constructor(
    readonly keySerde: Serde<unknown>,
    readonly valueSerde: Serde<unknown>,
    readonly timestamped: boolean,
  ) {
    this.#integerKeys = keySerde.name === 'integer';
  }

  key(recordKey: unknown, start: number, seq: number): Uint8Array {
    // Written by hand: a windowed count logs two of these per record (no serialized key to copy
    // for integer keys, no DataView).
    if (this.#integerKeys && typeof recordKey === 'number' && (recordKey | 0) === recordKey) {
      const out = new Uint8Array(4 + SUFFIX_BYTES);
      out[0] = recordKey >>> 24;
      out[1] = recordKey >>> 16;
      out[2] = recordKey >>> 8;
      out[3] = recordKey;
      writeSuffix(out, 4, start, seq);
      return out;
    }
    const key = this.keySerde.serialize(recordKey) ?? new Uint8Array(0);
    const out = new Uint8Array(key.byteLength + SUFFIX_BYTES);
    out.set(key, 0);
    writeSuffix(out, key.byteLength, start, seq);
    return out;
  }

  /** A changelog record's value: the value's bytes (the timestamp is the record's). */
  changelogValue(windowValue: unknown): Uint8Array | null {
    return this.valueSerde.serialize(windowValue);
  }

  /** An entry's value on disk: prefixed by its timestamp in a timestamped store. */
  diskValue(windowValue: unknown, timestamp: number): Uint8Array | null {
    const value = this.valueSerde.serialize(windowValue);
    if (!this.timestamped) return value;
    const bytes = value ?? new Uint8Array(0);
    const out = new Uint8Array(8 + bytes.byteLength);
    writeLong(viewOf(out), 0, timestamp);
    out.set(bytes, 8);
    return out;
  }

  /** A changelog key's record key, window start and sequence number; null if too short. */
  parseKey(bytes: Uint8Array | null): { key: unknown; start: number; seq: number } | null {
    if (bytes === null || bytes.byteLength < SUFFIX_BYTES) return null;
    const n = bytes.byteLength - SUFFIX_BYTES;
    const view = viewOf(bytes);
    return {
      key: this.keySerde.deserialize(bytes.subarray(0, n)),
      start: readLong(view, n),
      seq: view.getInt32(n + 8, false),
    };
  }

  /** A disk entry's window value and timestamp (`recordTimestamp` when not prefixed). */
  parseValue(bytes: Uint8Array, recordTimestamp: number): ValueAndTimestamp {
    let timestamp = recordTimestamp;
    let valueBytes = bytes;
    if (this.timestamped && valueBytes.byteLength >= 8) {
      timestamp = readLong(viewOf(valueBytes), 0);
      valueBytes = valueBytes.subarray(8);
    }
    return { value: this.valueSerde.deserialize(valueBytes), timestamp };
  }
}

/**
 * Whether a changelog value of a timestamped window store is in the layout Streamwright wrote
 * before commit 839d171 (2026-12-07): the value's bytes prefixed by the record's own timestamp
 * (int64), where Kafka Streams and Streamwright since log the value's bytes alone. Restored as the
 * current layout, such a value is read wrongly (a long count would come out as the timestamp).
 * A value is taken for the old layout only when all of this holds, which a value in the
 * current layout meets only if its first 8 bytes are its own record's timestamp and the rest is
 * a whole value too: longer than 8 bytes, its first 8 bytes are the record's timestamp, and the
 * bytes after them deserialize. (Fixed-width 8-byte values — long, double — are never taken.)
 */
export function isPre839dValue(
  format: WindowChangelogFormat,
  bytes: Uint8Array,
  recordTimestamp: number,
): boolean {
  if (!format.timestamped || bytes.byteLength <= 8) return false;
  if (readLong(viewOf(bytes), 0) !== recordTimestamp) return false;
  try {
    format.valueSerde.deserialize(bytes.subarray(8));
    return true;
  } catch {
    return false;
  }
}

/** The window start (int64) and sequence number (int32), big-endian, at `at`. */
function writeSuffix(out: Uint8Array, at: number, start: number, seq: number): void {
  const hi = Math.floor(start / 0x1_0000_0000);
  const lo = start - hi * 0x1_0000_0000;
  out[at] = hi >>> 24;
  out[at + 1] = hi >>> 16;
  out[at + 2] = hi >>> 8;
  out[at + 3] = hi;
  out[at + 4] = lo >>> 24;
  out[at + 5] = lo >>> 16;
  out[at + 6] = lo >>> 8;
  out[at + 7] = lo;
  out[at + 8] = seq >>> 24;
  out[at + 9] = seq >>> 16;
  out[at + 10] = seq >>> 8;
  out[at + 11] = seq;
}

/** One changelog record of a window (a null value: a tombstone). */
export function windowChangelogRecord(
  format: WindowChangelogFormat,
  topic: string,
  partition: number,
  key: unknown,
  start: number,
  seq: number,
  value: unknown,
  timestamp: number,
): ProduceRecord {
  return {
    topic,
    partition,
    key: format.key(key, start, seq),
    value: value === null ? null : format.changelogValue(value),
    timestamp,
  };
}

/**
 * Appends the disk records (changelog key, disk value) of one segment's windows changed since the
 * last commit — one per window, in the order they first changed; with duplicates one per put —
 * to `out` and marks them clean: what a persistent store writes to disk at the commit.
 */
export function takeSegmentDirty(
  segment: Segment | ColumnSegment,
  format: WindowChangelogFormat,
  partition: number,
  out: ProduceRecord[],
): void {
  if (segment instanceof ColumnSegment) {
    const dirty = segment.dirty;
    if (dirty.length === 0) return;
    segment.dirty = [];
    for (const at of dirty) {
      const start = segment.starts[at]!;
      const timestamp = segment.timestamps[at]!;
      out.push({
        topic: '',
        partition,
        key: format.key(segment.keys[at], start, segment.seqs[at]!),
        value: format.diskValue(segment.values[at], timestamp),
        timestamp,
      });
    }
    return;
  }
  const dirty = segment.dirty;
  if (dirty.length === 0) return;
  segment.dirty = [];
  for (const listed of dirty) {
    const slot = listed.latest ?? listed;
    listed.dirty = false;
    listed.latest = null;
    slot.dirty = false;
    slot.listed = null;
    out.push({
      topic: '',
      partition,
      key: format.key(slot.key, slot.start, slot.seq),
      value: slot.value === null ? null : format.diskValue(slot.value, slot.timestamp),
      timestamp: slot.timestamp,
    });
  }
}
