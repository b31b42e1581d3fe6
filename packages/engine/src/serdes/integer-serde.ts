import { DeserializationError, SerializationError } from '../errors.js';
import type { Serde } from './serde.js';
import { describe } from './string-serde.js';

/**
 * Java's IntegerSerde: 4 bytes, big-endian, two's complement — byte-identical to
 * `IntegerSerializer`. Only integers in the int32 range serialize; anything else would be silently
 * truncated by Java's `int`, so it is refused here instead.
 */
export const integerSerde: Serde<number> = {
  name: 'integer',
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
    const out = new Uint8Array(4);
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
