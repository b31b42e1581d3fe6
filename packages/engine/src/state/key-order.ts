// How a store identifies and orders record keys without serializing them on the hot path. Kafka
// Streams' stores compare keys as their serialized bytes; here a key's id (a number for integer
// and long keys, the string itself for string keys, the bytes as latin1 text otherwise) is equal
// exactly when the bytes are, and `compare` orders keys as their bytes would sort.
import { Buffer } from 'node:buffer';
import type { SerdeName } from '@streamwright/topology-model';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';

export type KeyId = string | number;

export interface KeyOrder {
  readonly serde: Serde<unknown>;
  /** The key's identity; throws the serde's error for a key it cannot serialize. */
  id(key: unknown): KeyId;
  /** Byte order of the serialized keys (unsigned, lexicographic). */
  compare(a: unknown, b: unknown): number;
  /**
   * How many keys lie from `from` to `to` (both inclusive, byte order) when there are at most `max`
   * of them and their ids are the consecutive numbers from `from` (integer and long keys): the
   * caller looks up ids from, from + 1, …; 0 for an empty range; -1 when the caller must scan.
   */
  countRange(from: unknown, to: unknown, max: number): number;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Two's-complement big-endian bytes sort non-negative numbers first, each half ascending. */
function compareSigned(a: number, b: number): number {
  if (a < 0 !== b < 0) return a < 0 ? 1 : -1;
  return a - b;
}

function numericOrder(
  serde: Serde<unknown>,
  valid: (key: unknown) => boolean,
  bigints = false,
): KeyOrder {
  const id = (key: unknown): KeyId => {
    if (valid(key)) return key as number;
    // A long given as a bigint has the same bytes as the number it equals.
    if (bigints && typeof key === 'bigint' && valid(Number(key)) && BigInt(Number(key)) === key)
      return Number(key);
    const bytes = serde.serialize(key); // throws the serde's typed error
    return bytes === null ? '' : Buffer.from(bytes).toString('latin1');
  };
  return {
    serde,
    id,
    compare(a, b) {
      if (typeof a === 'number' && typeof b === 'number') return compareSigned(a, b);
      return compareBytes(serde, a, b);
    },
    countRange(from, to, max) {
      if (!valid(from) || !valid(to)) return -1;
      const f = from as number;
      const t = to as number;
      if (compareSigned(f, t) > 0) return 0;
      // Across the sign boundary the range wraps through the largest and smallest values.
      if (f < 0 !== t < 0 || t - f + 1 > max) return -1;
      return t - f + 1;
    },
  };
}

function compareBytes(serde: Serde<unknown>, a: unknown, b: unknown): number {
  const x = serde.serialize(a) ?? new Uint8Array(0);
  const y = serde.serialize(b) ?? new Uint8Array(0);
  return Buffer.compare(x, y);
}

const orders = new Map<string, KeyOrder>();

export function keyOrderFor(serdeName: SerdeName): KeyOrder {
  const cacheKey = typeof serdeName === 'string' ? serdeName : null;
  const cached = cacheKey === null ? undefined : orders.get(cacheKey);
  if (cached) return cached;
  const serde = getSerde(serdeName);
  let order: KeyOrder;
  if (serdeName === 'integer') {
    order = numericOrder(
      serde,
      (k) => typeof k === 'number' && (k | 0) === k && k >= INT32_MIN && k <= INT32_MAX,
    );
  } else if (serdeName === 'long') {
    order = numericOrder(serde, (k) => typeof k === 'number' && Number.isSafeInteger(k), true);
  } else if (serdeName === 'string') {
    order = {
      serde,
      id(key) {
        if (typeof key === 'string') return key;
        serde.serialize(key);
        return String(key);
      },
      compare: (a, b) => compareBytes(serde, a, b),
      countRange: (from, to) => (compareBytes(serde, from, to) > 0 ? 0 : -1),
    };
  } else {
    order = {
      serde,
      id(key) {
        const bytes = serde.serialize(key);
        return bytes === null
          ? ''
          : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
      },
      compare: (a, b) => compareBytes(serde, a, b),
      countRange: (from, to) => (compareBytes(serde, from, to) > 0 ? 0 : -1),
    };
  }
  if (cacheKey !== null) orders.set(cacheKey, order);
  return order;
}
