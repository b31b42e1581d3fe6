import { DeserializationError, SerializationError } from '../errors.js';
import type { Serde } from './serde.js';
import { describe } from './string-serde.js';

const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;

/**
 * Java's LongSerde: 8 bytes, big-endian, two's complement — byte-identical to
 * `LongSerializer`. Serializes a number (which must be an integer within ±2^53-1, so that no
 * precision was lost before it got here) or a bigint in the int64 range. Deserializes to a number
 * when the value is within ±2^53-1 and to a bigint otherwise, so counts stay plain numbers and a
 * full 64-bit value is never rounded.
 */
export const longSerde: Serde<number | bigint> = {
  name: 'long',
  serialize(value) {
    if (value === null || value === undefined) return null;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return fromSafeInteger(value);
    let big: bigint;
    if (typeof value === 'bigint') {
      if (value < MIN_INT64 || value > MAX_INT64) {
        throw new SerializationError('long', `${value} does not fit in 64 bits`);
      }
      big = value;
    } else if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) {
        throw new SerializationError(
          'long',
          `${value} is not an integer within ±2^53-1 (use a bigint for larger values)`,
        );
      }
      big = BigInt(value);
    } else {
      throw new SerializationError('long', `expected a number or bigint, got ${describe(value)}`);
    }
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigInt64(0, big, false);
    return out;
  },
  deserialize(bytes) {
    if (bytes === null) return null;
    if (bytes.byteLength !== 8) {
      // Java's LongDeserializer says the same.
      throw new DeserializationError(
        'long',
        `size of data received by LongDeserializer is not 8 (got ${bytes.byteLength})`,
      );
    }
    // Fast path without BigInt: the high word decides whether the value is within ±2^53-1.
    const hi = (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!;
    const lo = ((bytes[4]! << 24) | (bytes[5]! << 16) | (bytes[6]! << 8) | bytes[7]!) >>> 0;
    if (hi >= -0x200000 && hi < 0x200000) {
      const n = hi * 0x100000000 + lo;
      if (Number.isSafeInteger(n)) return n;
    }
    const big = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0, false);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(big)
      : big;
  },
};

/** Big-endian two's complement of an integer within ±2^53-1, without BigInt (once per record). */
function fromSafeInteger(value: number): Uint8Array {
  const hi = Math.floor(value / 0x100000000); // within ±2^21; negative values floor towards -∞
  const lo = value - hi * 0x100000000; // in [0, 2^32)
  const out = new Uint8Array(8);
  out[0] = hi >>> 24;
  out[1] = hi >>> 16;
  out[2] = hi >>> 8;
  out[3] = hi;
  out[4] = lo >>> 24;
  out[5] = lo >>> 16;
  out[6] = lo >>> 8;
  out[7] = lo;
  return out;
}
