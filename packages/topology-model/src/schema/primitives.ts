// Building blocks shared by the document and the node-kind configs: names, serdes, logic fields
// and Kafka Streams' Materialized options.
import { z } from 'zod';
import { avroSerdeSchema } from './avro.js';

/**
 * Built-in serdes: `long` / `integer` / `double` are Java's big-endian LongSerde / IntegerSerde /
 * DoubleSerde; `string` is UTF-8; `json` is Streamwright's JSON serde and also stands in for
 * Kafka Streams' `default.key.serde` / `default.value.serde` wherever the DSL drops a serde
 * (after a key or value change).
 */
export const builtinSerdeSchema = z.enum(['string', 'json', 'bytes', 'long', 'integer', 'double']);
export type BuiltinSerdeName = z.infer<typeof builtinSerdeSchema>;

/**
 * A serde field: a built-in serde's name, or `{"type": "avro", "schema": <Avro schema>}` (Avro
 * binary encoding of one datum with that writer schema, no schema registry framing).
 */
export const serdeSchema = z
  .union([builtinSerdeSchema, avroSerdeSchema], {
    error: (issue) =>
      typeof issue.input === 'object' && issue.input !== null && !Array.isArray(issue.input)
        ? 'an object serde is {"type": "avro", "schema": <Avro schema>}'
        : `a serde is one of ${builtinSerdeSchema.options.join(', ')} or {"type": "avro", "schema": …}`,
  })
  .meta({ id: 'serde' });
/** What a serde field holds: a built-in name or an Avro serde (see `isAvroSerde`). */
export type SerdeName = z.infer<typeof serdeSchema>;

/** A serde for messages and labels: its name, or `avro:<record name>`. */
export function serdeLabel(serde: SerdeName): string {
  if (typeof serde === 'string') return serde;
  const s = serde.schema;
  const name = typeof s === 'string' ? s : Array.isArray(s) ? 'union' : s.name;
  const label = typeof name === 'string' ? `avro:${name}` : 'avro';
  return serde.registry === undefined ? label : `${label} (registry)`;
}

/** Kafka's legal topic names: [a-zA-Z0-9._-], at most 249 characters. */
export const topicNameSchema = z
  .string()
  .min(1, 'topic name is empty')
  .max(249, 'topic name is longer than 249 characters')
  .regex(/^[a-zA-Z0-9._-]+$/, 'topic names may only contain letters, digits, ".", "_" and "-"');

/** Node ids are stable handles for edges, layout and metrics; names are Kafka Streams' names. */
export const nodeIdSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/,
    'node ids start with a letter or "_" and use [A-Za-z0-9_-]',
  );

/** Kafka Streams' Named.validate: the characters a processor (or branch) name may use. */
export const kafkaNameSchema = z
  .string()
  .min(1, 'name is empty')
  .max(249, 'names are at most 249 characters')
  .regex(/^[a-zA-Z0-9._-]+$/, 'names may only contain letters, digits, ".", "_" and "-"');

/** State store names (they prefix changelog topic names, so topic characters only). */
export const storeNameSchema = z
  .string()
  .min(1, 'store name is empty')
  .max(200, 'store names are at most 200 characters')
  .regex(/^[a-zA-Z0-9._-]+$/, 'store names may only contain letters, digits, ".", "_" and "-"');

/** Port names of kinds whose ports come from their config (split branches, cogroup inputs). */
export const portNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/, 'port names use [A-Za-z0-9._-] (at most 64)');

/** A CEL expression, compiled once per node. */
export const celSchema = z.string().min(1, 'expression is empty');

/** Names in the registries the operator provides at start (functions, processors). */
export const registryNameSchema = z
  .string()
  .regex(
    /^[A-Za-z_$][A-Za-z0-9_$.-]{0,127}$/,
    'names start with a letter, "_" or "$" and use [A-Za-z0-9_$.-] (at most 128)',
  );

/**
 * A reference to a TypeScript function provided in-process by a DSL program (view-only in the
 * designer): `{"function": "isLarge"}`.
 */
export const functionRefSchema = z.object({ function: registryNameSchema }).strict();
export type FunctionRef = z.infer<typeof functionRefSchema>;

/**
 * Every user-logic field (predicate, mapper, reducer, aggregator, initializer, key selector,
 * topic extractor) holds either CEL source text or a function reference.
 */
export const logicSchema = z.union([celSchema, functionRefSchema], {
  error: (issue) => {
    const input = issue.input;
    // a node fresh from the palette has none yet: say what is missing, not zod's "undefined"
    if (input === undefined)
      return 'a CEL expression is required (or a function reference {"function": "<name>"})';
    if (typeof input === 'string') return 'expression is empty';
    if (typeof input === 'object' && input !== null && !Array.isArray(input))
      return 'a function reference is {"function": "<name>"}, the name using [A-Za-z0-9_$.-]';
    const got = input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input;
    return `expected a CEL expression (string) or a function reference {"function": "<name>"}, received ${got}`;
  },
});
export type Logic = z.infer<typeof logicSchema>;

export function isFunctionRef(logic: unknown): logic is FunctionRef {
  return (
    typeof logic === 'object' &&
    logic !== null &&
    typeof (logic as { function?: unknown }).function === 'string'
  );
}

/** Kafka Streams' Materialized options (absent = Kafka Streams' default). */
export const storeTypeSchema = z.enum(['persistent', 'inMemory']);
export const materializedFields = {
  /** Materialized.as(store); generated as Kafka Streams does when absent. */
  store: storeNameSchema.optional(),
  keySerde: serdeSchema.optional(),
  valueSerde: serdeSchema.optional(),
  /** withLoggingEnabled / withLoggingDisabled: a changelog topic (default true). */
  logging: z.boolean().optional(),
  /** withCachingEnabled / withCachingDisabled (default true). */
  caching: z.boolean().optional(),
  /** withStoreType (default persistent). */
  storeType: storeTypeSchema.optional(),
} as const;

/** Materialized options other than the store name: any of them means "Materialized was given". */
export const MATERIALIZED_OPTIONS = [
  'keySerde',
  'valueSerde',
  'logging',
  'caching',
  'storeType',
  'versioned',
] as const;

export {
  avroSchemaJsonSchema,
  avroSerdeSchema,
  canonicalAvroSchema,
  checkAvroSchema,
  isAvroSerde,
  schemaRegistrySchema,
  type AvroSchemaIssue,
  type AvroSchemaJson,
  type AvroSerde,
  type SchemaRegistryConfig,
} from './avro.js';
