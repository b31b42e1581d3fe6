import { Buffer } from 'node:buffer';
import { DeserializationError, SerializationError } from '../errors.js';
import type { Serde } from './serde.js';
import { decodeUtf8 } from './string-serde.js';

// JSON cannot carry 64-bit integers exactly. A bigint that fits a double's safe range is written
// as a plain number; a larger one is refused instead of being rounded silently.
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') {
    if (value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER))
      return Number(value);
    throw new SerializationError(
      'json',
      `integer ${value} is outside JSON's safe integer range (±2^53-1)`,
    );
  }
  return value;
}

/** UTF-8 JSON text. `null` is the tombstone (no bytes), as with Kafka's JSON serdes. */
export const jsonSerde: Serde<unknown> = {
  name: 'json',
  serialize(value) {
    if (value === null || value === undefined) return null;
    let text: string | undefined;
    try {
      // The replacer costs a call per key; only values holding a bigint need it.
      text = JSON.stringify(value);
    } catch {
      try {
        text = JSON.stringify(value, replacer);
      } catch (error) {
        if (error instanceof SerializationError) throw error;
        throw new SerializationError('json', (error as Error).message, error);
      }
    }
    if (text === undefined)
      throw new SerializationError('json', `${typeof value} has no JSON form`);
    return Buffer.from(text, 'utf8');
  },
  deserialize(bytes) {
    if (bytes === null) return null;
    const text = decodeUtf8(bytes);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      const preview = text.length > 60 ? `${text.slice(0, 60)}…` : text;
      throw new DeserializationError(
        'json',
        `${(error as Error).message} in ${JSON.stringify(preview)}`,
        error,
      );
    }
  },
};
