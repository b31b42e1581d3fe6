import { avroSerde, type AvroSchema } from './avro-serde.js';
import { bytesSerde } from './bytes-serde.js';
import { doubleSerde } from './double-serde.js';
import { integerSerde } from './integer-serde.js';
import { jsonSerde } from './json-serde.js';
import { longSerde } from './long-serde.js';
import { registryAvroSerde, type SchemaRegistrySettings } from './registry-avro-serde.js';
import type { Serde, SerdeContext } from './serde.js';
import { stringSerde } from './string-serde.js';

export type { Serde, SerdeContext } from './serde.js';
export type { AvroSchema } from './avro-serde.js';
export type { SchemaRegistrySettings, SubjectNameStrategy } from './registry-avro-serde.js';
export { SchemaRegistryError } from './schema-registry-client.js';
export {
  avroSerde,
  bytesSerde,
  doubleSerde,
  integerSerde,
  jsonSerde,
  longSerde,
  registryAvroSerde,
  stringSerde,
};

const serdes: Record<string, Serde<unknown>> = {
  string: stringSerde as Serde<unknown>,
  json: jsonSerde,
  bytes: bytesSerde as Serde<unknown>,
  long: longSerde as Serde<unknown>,
  integer: integerSerde as Serde<unknown>,
  double: doubleSerde as Serde<unknown>,
};

/**
 * A serde as a topology names it: a built-in name, or Avro with its schema (in Confluent's wire
 * format through a schema registry when `registry` is given).
 */
export type SerdeSpec =
  string | { type: 'avro'; schema: AvroSchema; registry?: SchemaRegistrySettings };

const avroCache = new WeakMap<object, Serde<unknown>>();
// Registry serdes by spec (as JSON: plans reach worker threads as copies) and bound topic, and
// the topic each spec was last bound to, for the calls that bring none.
const registryCache = new Map<string, Serde<unknown>>();
const lastBound = new Map<string, SerdeContext>();

/**
 * The serde `spec` names. `context`: the topic a node reads or writes with it. Only registry
 * serdes use it: their calls without a topic of their own (a table's store putting what its topic
 * gave) name subjects after it, or, for a serde got without one, after the topic the same spec
 * was last got for (as Kafka Streams hands a store's serde the topic it restores from).
 */
export function getSerde(spec: SerdeSpec, context?: SerdeContext): Serde<unknown> {
  if (typeof spec === 'object' && spec !== null) {
    if (spec.type !== 'avro') throw new Error(`unknown serde ${JSON.stringify(spec)}`);
    if (spec.registry !== undefined) {
      const specKey = JSON.stringify(spec);
      if (context !== undefined) lastBound.set(specKey, context);
      const key = `${context === undefined ? '' : `${context.isKey ? 'k' : 'v'}${context.topic}`}\u0000${specKey}`;
      let serde = registryCache.get(key);
      if (!serde)
        registryCache.set(
          key,
          (serde = registryAvroSerde(
            spec.schema,
            spec.registry,
            context ?? (() => lastBound.get(specKey)),
          )),
        );
      return serde;
    }
    let serde = avroCache.get(spec);
    if (!serde) avroCache.set(spec, (serde = avroSerde(spec.schema)));
    return serde;
  }
  const serde = serdes[spec];
  if (!serde) throw new Error(`unknown serde ${String(spec)}`);
  return serde;
}

const contexts = new Map<string, { key: SerdeContext; value: SerdeContext }>();
// Records come in runs of one topic: the last pair saves the map lookup on the per-record path.
let last: { topic: string; key: SerdeContext; value: SerdeContext } | null = null;

/** The SerdeContext of a topic's keys or values (one object per topic, not one per record). */
export function topicSerdeContext(topic: string, isKey: boolean): SerdeContext {
  if (last?.topic !== topic) {
    let pair = contexts.get(topic);
    if (pair === undefined)
      contexts.set(topic, (pair = { key: { topic, isKey: true }, value: { topic, isKey: false } }));
    last = { topic, ...pair };
  }
  return isKey ? last.key : last.value;
}
