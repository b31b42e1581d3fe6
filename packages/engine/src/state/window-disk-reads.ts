// Reads of a persistent window store's segments on disk (lmdb-segments.ts), for the segments whose
// windows the store no longer holds in full (Segment#complete): entries are stored in the
// changelog layout, key = the key's bytes, the window start (signed big-endian int64) and a
// sequence number (int32), as in Kafka's RocksDB window stores (WindowKeySchema); its key ranges
// are disk-key-range.ts'. What is read is not cached: the store's cache holds what it kept.
import { Buffer } from 'node:buffer';
import type { KeyId, KeyOrder } from './key-order.js';
import type { LmdbSegments } from './lmdb-segments.js';
import {
  asBuffer,
  bySign,
  keyBounds,
  keyTimeRange,
  storedKey,
  withinKeys,
} from './disk-key-range.js';
import { readLong, viewOf } from './task-store.js';
import type { WindowChangelogFormat } from './window-changelog.js';
import { ColumnSegment, type WindowRead } from './window-columns.js';
import type { KeyRange } from './window-range-reads.js';
import { collect, find, Slot, type Segment, type WindowEntry } from './window-segments.js';

const bySeq = (a: { start: number; seq: number }, b: { start: number; seq: number }) =>
  a.start - b.start || a.seq - b.seq;

const SUFFIX = 12;

export class WindowDiskReads {
  constructor(
    readonly disk: LmdbSegments,
    readonly keys: KeyOrder,
    readonly format: WindowChangelogFormat,
    /** Every key serializes to the same number of bytes (integer, long): ranges need no tail scan. */
    readonly fixedKeyLength: boolean,
  ) {}

  /**
   * The window of a store without duplicates (sequence number 0): one exact lookup, as Kafka's
   * RocksDBWindowStore#fetch(key, time) gets toStoreKeyBinary(key, time, 0).
   */
  one(segment: number, key: unknown, start: number): Slot | undefined {
    const stored = storedKey(asBuffer(this.keys.serde.serialize(key)), SUFFIX, start);
    const value = this.disk.get(segment, stored);
    return value === undefined ? undefined : this.#slot(stored, value, key, this.keys.id(key));
  }

  /** The key's windows of `segment` starting within [from, to], by start, then sequence number. */
  ofKey(segment: number, key: unknown, from: number, to: number): Slot[] {
    const bytes = asBuffer(this.keys.serde.serialize(key));
    const id = this.keys.id(key);
    const out: Slot[] = [];
    bySign(from, to, (lo, hi) => this.#keyRange(segment, bytes, key, id, lo, hi, out));
    if (out.length > 1) out.sort((a, b) => a.start - b.start || a.seq - b.seq);
    return out;
  }

  #keyRange(
    segment: number,
    bytes: Buffer,
    key: unknown,
    id: string | number,
    from: number,
    to: number,
    out: Slot[],
  ): void {
    const n = bytes.byteLength;
    // Exclusive end just past (key, to, any sequence number).
    const [lo, hi] = keyTimeRange(bytes, SUFFIX, from, to);
    for (const { key: stored, value } of this.disk.range(segment, lo, hi)) {
      if (stored.byteLength !== n + SUFFIX) continue; // a longer key with this key's bytes first
      out.push(this.#slot(stored, value, key, id));
    }
  }

  /**
   * The windows of `segment` starting within [from, to] whose key lies within [keyFrom, keyTo]
   * (byte order; null: open), in stored order (the caller sorts).
   */
  scan(
    segment: number,
    from: number,
    to: number,
    keyFrom: unknown = null,
    keyTo: unknown = null,
  ): Slot[] {
    const { fromBytes, toBytes } = keyBounds(this.keys.serde, keyFrom, keyTo);
    // Every key at or above keyFrom sorts at or above keyFrom's bytes; the end is exact only when
    // no key's bytes can be a prefix of another's.
    let end: Buffer | undefined;
    if (toBytes !== null && this.fixedKeyLength) {
      end = Buffer.alloc(toBytes.byteLength + SUFFIX + 1, 0xff);
      toBytes.copy(end, 0);
    }
    const out: Slot[] = [];
    for (const { key: stored, value } of this.disk.range(segment, fromBytes, end)) {
      const n = stored.byteLength - SUFFIX;
      if (n < 0) continue;
      const view = viewOf(stored);
      const start = readLong(view, n);
      if (start < from || start > to) continue;
      const keyBytes = stored.subarray(0, n);
      if (!withinKeys(keyBytes, fromBytes, toBytes)) continue;
      // lmdb may reuse the bytes it hands out: what a serde keeps must be a copy.
      const key = this.keys.serde.deserialize(Buffer.from(keyBytes));
      out.push(this.#slot(stored, value, key, this.keys.id(key)));
    }
    return out;
  }

  /** A key's windows in a segment held in part: those on disk, merged with those held. */
  merged(
    segment: Segment | ColumnSegment,
    key: unknown,
    id: KeyId,
    from: number,
    to: number,
  ): WindowEntry[] {
    const onDisk: (Slot | WindowRead)[] = this.ofKey(segment.id, key, from, to);
    if (segment instanceof ColumnSegment) {
      // Held: the windows put since the last commit, none of them on disk yet.
      const positions = segment.byKey.get(id);
      if (positions === undefined) return onDisk;
      segment.collect(positions, from, to, onDisk as WindowEntry[]);
      return onDisk.sort(bySeq);
    }
    const windows = segment.byKey.get(id);
    if (windows === undefined) return onDisk;
    const held: Slot[] = [];
    collect(windows, from, to, held);
    if (held.length === 0) return onDisk;
    const out = onDisk.filter((d) => find(windows, d.start) === undefined);
    for (const s of held) if (s.value !== null) out.push(s);
    return out.sort(bySeq);
  }

  /**
   * Completes out[first…), the windows a segment held in part holds in the range (deletes among
   * them), with those on disk: the deletes go, and what is on disk is added unless held (held
   * windows and deletes win). Within the key range (null: every key); the caller sorts.
   */
  mergeInto(
    segment: Segment | ColumnSegment,
    from: number,
    to: number,
    range: KeyRange | null,
    out: WindowEntry[],
    first: number,
  ): void {
    let w = first;
    for (let r = first; r < out.length; r++) if (out[r]!.value !== null) out[w++] = out[r]!;
    out.length = w;
    for (const d of this.scan(segment.id, from, to, range?.keyFrom, range?.keyTo))
      if (segment instanceof ColumnSegment || find(segment.byKey.get(d.id), d.start) === undefined)
        out.push(d);
  }

  /** The largest window start and sequence number in a segment (reading its keys only). */
  bounds(segment: number): { maxStart: number; maxSeq: number } {
    let maxStart = Number.MIN_SAFE_INTEGER;
    let maxSeq = 0;
    for (const stored of this.disk.keys(segment)) {
      const n = stored.byteLength - SUFFIX;
      if (n < 0) continue;
      const view = viewOf(stored);
      const start = readLong(view, n);
      const seq = view.getInt32(n + 8, false);
      if (start > maxStart) maxStart = start;
      if (seq > maxSeq) maxSeq = seq;
    }
    return { maxStart, maxSeq };
  }

  #slot(stored: Buffer, value: Buffer, key: unknown, id: string | number): Slot {
    const n = stored.byteLength - SUFFIX;
    const view = viewOf(stored);
    const parsed = this.format.parseValue(
      Buffer.from(value.subarray(8)),
      Number(value.readBigInt64BE(0)),
    );
    return new Slot(
      key,
      id,
      readLong(view, n),
      view.getInt32(n + 8, false),
      parsed.value,
      parsed.timestamp,
    );
  }
}
