import { Buffer } from 'node:buffer';
import { SerializationError } from '../errors.js';
import type { Serde } from './serde.js';

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
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  },
};

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'bytes';
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${String(value)})`;
}
