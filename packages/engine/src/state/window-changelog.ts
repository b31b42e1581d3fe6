// Kafka Streams' changelog layout of window stores, which SegmentedWindowStore writes at commit
// and restores from: key = the key's bytes, the window start (int64) and a sequence number
// (int32, WindowKeySchema); value = the value's bytes, prefixed by the timestamp (int64) in a
// timestamped store (ValueAndTimestampSerializer).
import type { ProduceRecord } from '../api.js';
import type { Serde } from '../serdes/serde.js';
import type { ValueAndTimestamp } from './key-value-store.js';
import { readLong, viewOf, writeLong } from './task-store.js';
import { ColumnSegment } from './window-columns.js';
import type { Segment } from './window-segments.js';

const SUFFIX_BYTES = 12;

export class WindowChangelogFormat {
  constructor(
    readonly keySerde: Serde<unknown>,
    readonly valueSerde: Serde<unknown>,
    readonly timestamped: boolean,
  ) {}

  key(recordKey: unknown, start: number, seq: number): Uint8Array {
    const key = this.keySerde.serialize(recordKey) ?? new Uint8Array(0);
    const out = new Uint8Array(key.byteLength + SUFFIX_BYTES);
    out.set(key, 0);
    const view = viewOf(out);
    writeLong(view, key.byteLength, start);
    view.setInt32(key.byteLength + 8, seq, false);
    return out;
  }

  value(windowValue: unknown, timestamp: number): Uint8Array | null {
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

  /** A changelog value's window value and timestamp (`recordTimestamp` when not prefixed). */
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
 * Appends the changelog records of one segment's windows changed since the last commit (one per
 * window, in the order they first changed; with duplicates one per put) to `out`, and marks them
 * clean. A window expired though its segment lives is not logged: it is invisible, and the
 * changelog's retention drops it.
 */
export function takeSegmentChangelog(
  segment: Segment | ColumnSegment,
  format: WindowChangelogFormat,
  topic: string,
  partition: number,
  live: (start: number) => boolean,
  out: ProduceRecord[],
  unlogged?: ProduceRecord[],
): void {
  if (segment instanceof ColumnSegment) {
    const dirty = segment.dirty;
    if (dirty.length === 0) return;
    segment.dirty = [];
    for (const at of dirty) {
      const start = segment.starts[at]!;
      const logged = live(start);
      if (!logged && unlogged === undefined) continue;
      const timestamp = segment.timestamps[at]!;
      (logged ? out : unlogged!).push({
        topic,
        partition,
        key: format.key(segment.keys[at], start, segment.seqs[at]!),
        value: format.value(segment.values[at], timestamp),
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
    const logged = slot.value === null || live(slot.start);
    if (!logged && unlogged === undefined) continue;
    (logged ? out : unlogged!).push({
      topic,
      partition,
      key: format.key(slot.key, slot.start, slot.seq),
      value: slot.value === null ? null : format.value(slot.value, slot.timestamp),
      timestamp: slot.timestamp,
    });
  }
}
