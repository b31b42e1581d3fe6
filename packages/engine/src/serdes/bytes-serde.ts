import { SerializationError } from '../errors.js';
import type { Serde } from './serde.js';
import { describe } from './string-serde.js';

/** Raw bytes, as Kafka's ByteArraySerde: no transformation either way. */
export const bytesSerde: Serde<Uint8Array> = {
  name: 'bytes',
  serialize(value) {
    if (value === null || value === undefined) return null;
    if (!(value instanceof Uint8Array)) {
      throw new SerializationError('bytes', `expected a Uint8Array, got ${describe(value)}`);
    }
    return value;
  },
  deserialize(bytes) {
    return bytes;
  },
};
