import { avroSerde, type AvroSchema } from './avro-serde.js';
import { bytesSerde } from './bytes-serde.js';
import { doubleSerde } from './double-serde.js';
import { integerSerde } from './integer-serde.js';
import { jsonSerde } from './json-serde.js';
import { longSerde } from './long-serde.js';
import type { Serde } from './serde.js';
import { stringSerde } from './string-serde.js';

export type { Serde } from './serde.js';
export type { AvroSchema } from './avro-serde.js';
export { avroSerde, bytesSerde, doubleSerde, integerSerde, jsonSerde, longSerde, stringSerde };

const serdes: Record<string, Serde<unknown>> = {
  string: stringSerde as Serde<unknown>,
  json: jsonSerde,
  bytes: bytesSerde as Serde<unknown>,
  long: longSerde as Serde<unknown>,
  integer: integerSerde as Serde<unknown>,
  double: doubleSerde as Serde<unknown>,
};

/** A serde as a topology names it: a built-in name, or Avro with its schema. */
export type SerdeSpec = string | { type: 'avro'; schema: AvroSchema };

const avroCache = new WeakMap<object, Serde<unknown>>();

export function getSerde(spec: SerdeSpec): Serde<unknown> {
  if (typeof spec === 'object' && spec !== null) {
    if (spec.type !== 'avro') throw new Error(`unknown serde ${JSON.stringify(spec)}`);
    let serde = avroCache.get(spec);
    if (!serde) avroCache.set(spec, (serde = avroSerde(spec.schema)));
    return serde;
  }
  const serde = serdes[spec];
  if (!serde) throw new Error(`unknown serde ${String(spec)}`);
  return serde;
}
