// Avro with the writer schema given in the topology (no schema registry): Avro's binary encoding
// of one datum, without Confluent's magic byte and schema id, so a Java consumer reads it with a
// plain `GenericDatumReader` of the same schema. avsc does the encoding; records decode to plain
// objects so CEL and JSON see ordinary maps.
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import type avroTypes from 'avsc';
import { DeserializationError, SerializationError } from '../errors.js';
import type { Serde } from './serde.js';

export type AvroSchema = Record<string, unknown> | string | unknown[];

// Loaded on first use: most topologies have no Avro serde, and every worker thread would
// otherwise load avsc at start-up.
let avsc: typeof avroTypes | null = null;
export const avro = (): typeof avroTypes =>
  (avsc ??= createRequire(import.meta.url)('avsc') as typeof avroTypes);

export function avroSerde<T = unknown>(schema: AvroSchema): Serde<T> {
  let type: avroTypes.Type;
  try {
    type = avro().Type.forSchema(schema as avroTypes.Schema);
  } catch (error) {
    throw new SerializationError('avro', `invalid Avro schema: ${(error as Error).message}`, error);
  }
  return {
    name: 'avro',
    serialize(value) {
      if (value === null || value === undefined) return null;
      checkAvroValue('avro', type, value);
      return type.toBuffer(value);
    },
    deserialize(bytes) {
      if (bytes === null) return null;
      try {
        return plainAvroValue(
          type.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
        ) as T;
      } catch (error) {
        throw new DeserializationError('avro', (error as Error).message, error);
      }
    },
  };
}

/** @throws SerializationError naming the fields of `value` that `type` does not accept. */
export function checkAvroValue(serde: string, type: avroTypes.Type, value: unknown): void {
  const errors: string[] = [];
  const valid = type.isValid(value, {
    errorHook: (path: string[]) =>
      errors.push(path.length === 0 ? 'the value' : `field ${path.join('.')}`),
  });
  if (!valid)
    throw new SerializationError(
      serde,
      `${errors.join(', ')} does not match the schema ${type.name ?? type.typeName}`,
    );
}

/** avsc decodes records into generated classes; downstream code expects plain objects. */
export function plainAvroValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(plainAvroValue);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = plainAvroValue(v);
  return out;
}
