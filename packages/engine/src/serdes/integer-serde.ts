import { DeserializationError, SerializationError } from '../errors.js';
import type { Serde } from './serde.js';
import { describe } from './string-serde.js';

// Serialized integers are views into a shared block of memory, as Buffer.allocUnsafe's are into
// Node's pool: one typed-array object per call instead of a typed array and an ArrayBuffer of its
// own (≈ 97 instead of ≈ 209 bytes of garbage for every key a sink writes). A view keeps its
// block (1 KiB) alive; keys are rarely kept as bytes (stores key by value, output is copied into
// record batches at the flush). Use byteOffset and byteLength with `.buffer`, as for a Buffer.
const BLOCK_BYTES = 1024;
let block = new ArrayBuffer(BLOCK_BYTES);
let used = 0;

/**
 * Java's IntegerSerde: 4 bytes, big-endian, two's complement — byte-identical to
 * `IntegerSerializer`. Only integers in the int32 range serialize; anything else would be silently
 * truncated by Java's `int`, so it is refused here instead.
 */
export const integerSerde: Serde<number> = {
  name: 'integer',
  // 4 bytes ↔ one int32: deserialize accepts exactly 4 bytes and serialize writes them back.
  exactBytes: true,
  serialize(value) {
    if (value === null || value === undefined) return null;
    if (
      typeof value !== 'number' ||
      !Number.isInteger(value) ||
      value < -2147483648 ||
      value > 2147483647
    ) {
      throw new SerializationError(
        'integer',
        `expected an integer within the int32 range, got ${describe(value)}`,
      );
    }
    // By hand rather than through a DataView: this runs once per record.
    if (used === BLOCK_BYTES) {
      block = new ArrayBuffer(BLOCK_BYTES);
      used = 0;
    }
    const out = new Uint8Array(block, used, 4);
    used += 4;
    out[0] = value >>> 24;
    out[1] = value >>> 16;
    out[2] = value >>> 8;
    out[3] = value;
    return out;
  },
  deserialize(bytes) {
    if (bytes === null) return null;
    if (bytes.byteLength !== 4) {
      // Java's IntegerDeserializer says the same.
      throw new DeserializationError(
        'integer',
        `size of data received by IntegerDeserializer is not 4 (got ${bytes.byteLength})`,
      );
    }
    return (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!;
  },
};
