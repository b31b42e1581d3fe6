// The stored keys of a persistent window or session store's segment (lmdb-segments.ts), in the
// changelog layout: the key's bytes, then its times as signed big-endian int64s (window: start and
// a sequence number, int32; session: end and start), so a key's entries of one segment are one key
// range. Two things of that layout need care, as Kafka's hasNextCondition takes care of them: a
// longer key that starts with the key's bytes can fall in its range (the readers filter by
// length), and negative times sort after non-negative ones (each half is read as its own range).
import { Buffer } from 'node:buffer';
import type { Serde } from '../serdes/serde.js';
import { viewOf, writeLong } from './task-store.js';

export const asBuffer = (b: Uint8Array | null): Buffer =>
  b === null ? Buffer.alloc(0) : Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** The key's bytes and then `times` (int64 each), zero-padded to `suffix` bytes: an exact key. */
export function storedKey(keyBytes: Buffer, suffix: number, ...times: number[]): Buffer {
  const n = keyBytes.byteLength;
  const stored = Buffer.alloc(n + suffix);
  keyBytes.copy(stored, 0);
  const view = viewOf(stored);
  for (let i = 0; i < times.length; i++) writeLong(view, n + 8 * i, times[i]!);
  return stored;
}

/**
 * [lo, hi) of the key's entries whose first time lies within [from, to] (of one sign): lo is the
 * key with `from`, hi the key with `to` and every later byte 0xff, then one byte more.
 */
export function keyTimeRange(
  keyBytes: Buffer,
  suffix: number,
  from: number,
  to: number,
): [Buffer, Buffer] {
  const n = keyBytes.byteLength;
  const lo = storedKey(keyBytes, suffix, from);
  const hi = Buffer.alloc(n + suffix + 1);
  keyBytes.copy(hi, 0);
  writeLong(viewOf(hi), n, to);
  hi.fill(0xff, n + 8, n + suffix);
  return [lo, hi];
}

/** Calls `range` for the negative part of [from, to], then for the non-negative part. */
export function bySign(from: number, to: number, range: (from: number, to: number) => void): void {
  if (from < 0) range(from, Math.min(to, -1));
  if (to >= 0) range(Math.max(from, 0), to);
}

/** A key range's bounds as bytes (null or undefined: open). */
export function keyBounds(
  serde: Serde<unknown>,
  keyFrom: unknown,
  keyTo: unknown,
): { fromBytes: Buffer | undefined; toBytes: Buffer | null } {
  return {
    fromBytes:
      keyFrom === null || keyFrom === undefined ? undefined : asBuffer(serde.serialize(keyFrom)),
    toBytes: keyTo === null || keyTo === undefined ? null : asBuffer(serde.serialize(keyTo)),
  };
}

/** Whether a stored key's key bytes lie within the bounds (byte order). */
export const withinKeys = (
  keyBytes: Uint8Array,
  fromBytes: Buffer | undefined,
  toBytes: Buffer | null,
): boolean =>
  (fromBytes === undefined || Buffer.compare(keyBytes, fromBytes) >= 0) &&
  (toBytes === null || Buffer.compare(keyBytes, toBytes) <= 0);
