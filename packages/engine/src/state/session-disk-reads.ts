// Reads of a persistent session store's segments on disk (lmdb-segments.ts), for the segments
// whose sessions the store no longer holds in full: entries are stored in the changelog layout
// (SessionKeySchema: the key's bytes, then the session end and start as signed big-endian int64),
// whose key ranges are disk-key-range.ts'.
import { Buffer } from 'node:buffer';
import type { KeyOrder } from './key-order.js';
import type { LmdbSegments } from './lmdb-segments.js';
import type { Serde } from '../serdes/serde.js';
import {
  asBuffer,
  bySign,
  keyBounds,
  keyTimeRange,
  storedKey,
  withinKeys,
} from './disk-key-range.js';
import { readLong, viewOf } from './task-store.js';

const SUFFIX = 16;
const MAX = Number.MAX_SAFE_INTEGER;

export interface DiskSession {
  key: unknown;
  id: string | number;
  start: number;
  end: number;
  value: unknown;
  timestamp: number;
}

export class SessionDiskReads {
  constructor(
    readonly disk: LmdbSegments,
    readonly keys: KeyOrder,
    readonly valueSerde: Serde<unknown>,
  ) {}

  /** One session's value (undefined: not on disk): an exact lookup of its key. */
  one(segment: number, key: unknown, start: number, end: number): unknown {
    const stored = storedKey(asBuffer(this.keys.serde.serialize(key)), SUFFIX, end, start);
    const value = this.disk.get(segment, stored);
    return value === undefined
      ? undefined
      : this.valueSerde.deserialize(Buffer.from(value.subarray(8)));
  }

  /** The key's sessions of `segment` ending at or after `earliestEnd`, starting at or before `latestStart`. */
  ofKey(segment: number, key: unknown, earliestEnd: number, latestStart: number): DiskSession[] {
    const bytes = asBuffer(this.keys.serde.serialize(key));
    const id = this.keys.id(key);
    const out: DiskSession[] = [];
    const n = bytes.byteLength;
    bySign(earliestEnd, MAX, (from, to) => {
      const [lo, hi] = keyTimeRange(bytes, SUFFIX, from, to);
      for (const { key: stored, value } of this.disk.range(segment, lo, hi)) {
        if (stored.byteLength !== n + SUFFIX) continue; // a longer key with this key's bytes first
        const s = this.#session(stored, value, key, id);
        if (s.start <= latestStart) out.push(s);
      }
    });
    return out;
  }

  /**
   * The sessions of `segment` ending at or after `earliestEnd` and starting at or before
   * `latestStart` whose key lies within [keyFrom, keyTo] (byte order; null: open).
   */
  scan(
    segment: number,
    earliestEnd: number,
    latestStart: number,
    keyFrom: unknown = null,
    keyTo: unknown = null,
  ): DiskSession[] {
    const { fromBytes, toBytes } = keyBounds(this.keys.serde, keyFrom, keyTo);
    const out: DiskSession[] = [];
    for (const { key: stored, value } of this.disk.range(segment, fromBytes)) {
      const n = stored.byteLength - SUFFIX;
      if (n < 0) continue;
      const view = viewOf(stored);
      if (readLong(view, n) < earliestEnd || readLong(view, n + 8) > latestStart) continue;
      const keyBytes = stored.subarray(0, n);
      if (!withinKeys(keyBytes, fromBytes, toBytes)) continue;
      // lmdb may reuse the bytes it hands out: what a serde keeps must be a copy.
      const key = this.keys.serde.deserialize(Buffer.from(keyBytes));
      out.push(this.#session(stored, value, key, this.keys.id(key)));
    }
    return out;
  }

  /** The largest session end in a segment (reading its keys only). */
  maxEnd(segment: number): number {
    let max = Number.MIN_SAFE_INTEGER;
    for (const stored of this.disk.keys(segment)) {
      const n = stored.byteLength - SUFFIX;
      if (n < 0) continue;
      const end = readLong(viewOf(stored), n);
      if (end > max) max = end;
    }
    return max;
  }

  #session(stored: Buffer, value: Buffer, key: unknown, id: string | number): DiskSession {
    const n = stored.byteLength - SUFFIX;
    const view = viewOf(stored);
    return {
      key,
      id,
      end: readLong(view, n),
      start: readLong(view, n + 8),
      value: this.valueSerde.deserialize(Buffer.from(value.subarray(8))),
      timestamp: Number(value.readBigInt64BE(0)),
    };
  }
}
