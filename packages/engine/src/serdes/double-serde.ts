import { DeserializationError, SerializationError } from '../errors.js';
import type { Serde } from './serde.js';
import { describe } from './string-serde.js';

/**
 * Java's DoubleSerde: the 8 bytes of the IEEE 754 double, big-endian (`Double.doubleToLongBits`),
 * byte-identical to `DoubleSerializer`. NaN is written as Java's canonical NaN (0x7ff8000000000000),
 * which is what `doubleToLongBits` produces for every NaN.
 */
export const doubleSerde: Serde<number> = {
  name: 'double',
  serialize(value) {
    if (value === null || value === undefined) return null;
    if (typeof value !== 'number')
      throw new SerializationError('double', `expected a number, got ${describe(value)}`);
    const out = new Uint8Array(8);
    const view = new DataView(out.buffer);
    if (Number.isNaN(value)) view.setBigUint64(0, 0x7ff8000000000000n, false);
    else view.setFloat64(0, value, false);
    return out;
  },
  deserialize(bytes) {
    if (bytes === null) return null;
    if (bytes.byteLength !== 8) {
      throw new DeserializationError(
        'double',
        `size of data received by DoubleDeserializer is not 8 (got ${bytes.byteLength})`,
      );
    }
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, false);
  },
};
