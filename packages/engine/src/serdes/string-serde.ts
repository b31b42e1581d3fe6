import { Buffer } from 'node:buffer';
import { SerializationError } from '../errors.js';
import type { Serde } from './serde.js';

// TextDecoder is ~2× faster than a Buffer view + toString for record-sized strings. ignoreBOM
// keeps a leading U+FEFF, as Java's decoder does; invalid input becomes U+FFFD (fatal: false).
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** UTF-8 text of bytes (invalid sequences replaced), for the serdes' record path. */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * UTF-8, as Kafka's StringSerde. Like Java's decoder, invalid UTF-8 is replaced (U+FFFD) rather
 * than rejected, so a string deserializer never fails.
 */
export const stringSerde: Serde<string> = {
  name: 'string',
  serialize(value) {
    if (value === null || value === undefined) return null;
    if (typeof value !== 'string') {
      throw new SerializationError('string', `expected a string, got ${describe(value)}`);
    }
    return Buffer.from(value, 'utf8');
  },
  deserialize(bytes) {
    if (bytes === null) return null;
    return decodeUtf8(bytes);
  },
};

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'bytes';
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${String(value)})`;
}
