import { Buffer } from 'node:buffer';
import type { SerdeName } from '@streamwright/topology-model';
import type { Serde } from '../serdes/serde.js';

/**
 * A Map key for a record key, equal exactly when the serialized bytes are equal (Kafka Streams'
 * stores compare keys as bytes). String, integer and long keys skip serialization on the hot path:
 * their serialization is injective, so the plain value is an equally exact key.
 */
/** A Map key standing for a record key's bytes (numbers for integer keys: no string per lookup). */
export type StoreKey = string | number;

export function storeKeyFunction(
  serdeName: SerdeName,
  serde: Serde<unknown>,
): (key: unknown) => StoreKey {
  switch (serdeName) {
    case 'string':
      return (key) => {
        if (typeof key === 'string') return key;
        serde.serialize(key); // throws the serde's typed error for a non-string
        return String(key);
      };
    case 'long':
      return (key) => {
        if (typeof key === 'bigint' || (typeof key === 'number' && Number.isSafeInteger(key)))
          return String(key);
        serde.serialize(key);
        return String(key);
      };
    case 'integer':
      // Int32 numbers are their own key (a Map treats -0 and 0 alike, as their bytes are).
      return (key) => {
        if (typeof key === 'number' && (key | 0) === key) return key;
        serde.serialize(key);
        return String(key);
      };
    default:
      return (key) => {
        const bytes = serde.serialize(key);
        return bytes === null
          ? ''
          : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
      };
  }
}
