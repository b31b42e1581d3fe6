// The topology document: one zod schema is the single source of truth for the type, the
// validation, the defaults and the exported JSON Schema. Logic (nodes, edges, config) and
// layout (positions) are kept in separate sections so diffs of either stay readable.
import { z } from 'zod';

export const SCHEMA_VERSION = 1;

/** Serdes known to v1. `long` is Java's 8-byte big-endian LongSerde. */
export const serdeSchema = z.enum(['string', 'json', 'bytes', 'long']);
export type SerdeName = z.infer<typeof serdeSchema>;

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

/** A CEL expression, compiled once per node. */
export const celSchema = z.string().min(1, 'expression is empty');

const positiveInt = z.number().int().positive();

export const processingGuaranteeSchema = z.enum(['at_least_once', 'exactly_once_v2']);
export const exceptionHandlerSchema = z.enum(['log-and-fail', 'log-and-continue']);

/**
 * Application config uses Kafka Streams' dotted keys. Known keys are typed; unknown keys are kept
 * (as Kafka Streams passes them to clients) but must be scalar.
 */
export const appConfigSchema = z
  .object({
    'processing.guarantee': processingGuaranteeSchema.optional(),
    'commit.interval.ms': positiveInt.optional(),
    'num.stream.threads': positiveInt.max(64).optional(),
    'processing.exception.handler': exceptionHandlerSchema.optional(),
    'default.deserialization.exception.handler': exceptionHandlerSchema.optional(),
    'max.task.idle.ms': z.number().int().min(-1).optional(),
  })
  .catchall(z.union([z.string(), z.number(), z.boolean()]));
export type AppConfig = z.infer<typeof appConfigSchema>;

export const applicationSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .regex(
      /^[a-zA-Z0-9._-]+$/,
      'application.id may only contain letters, digits, ".", "_" and "-"',
    ),
  config: appConfigSchema.default({}),
});

export const topicSchema = z.object({
  name: topicNameSchema,
  partitions: positiveInt.max(1024),
  /** Topic configs with Kafka's keys, e.g. `retention.ms`, `cleanup.policy`. */
  config: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
});
export type TopicSpec = z.infer<typeof topicSchema>;

// ---- node kinds -------------------------------------------------------------------------------

export const generatorConfigSchema = z.object({
  /** The topic the generator writes to; the node then reads it like a source. */
  topic: topicNameSchema,
  /** Records per second across all partitions. */
  ratePerSecond: z.number().positive().max(1_000_000),
  /** CEL over `seq` (int, 0-based counter) and `now` (int ms); null key when absent. */
  key: celSchema.optional(),
  /** CEL over `seq` and `now`. */
  value: celSchema,
  keySerde: serdeSchema.default('string'),
  valueSerde: serdeSchema.default('json'),
});

export const sourceConfigSchema = z.object({
  topic: topicNameSchema,
  keySerde: serdeSchema.default('string'),
  valueSerde: serdeSchema.default('json'),
  offsetReset: z.enum(['earliest', 'latest']).default('earliest'),
});

export const filterConfigSchema = z.object({ expression: celSchema });
export const mapValuesConfigSchema = z.object({ expression: celSchema });
export const peekConfigSchema = z.object({});
export const sinkConfigSchema = z.object({
  topic: topicNameSchema,
  keySerde: serdeSchema.default('string'),
  valueSerde: serdeSchema.default('json'),
});
export const groupByKeyConfigSchema = z.object({
  keySerde: serdeSchema.optional(),
  valueSerde: serdeSchema.optional(),
});
export const countConfigSchema = z.object({
  /** Materialized.as(store): the store name; generated as in Kafka Streams when absent. */
  store: z
    .string()
    .regex(/^[a-zA-Z0-9._-]+$/, 'store names may only contain letters, digits, ".", "_" and "-"')
    .optional(),
});
export const toStreamConfigSchema = z.object({});

/** What flows along an edge: Kafka Streams' three abstractions in the DSL. */
export type FlowType = 'stream' | 'grouped' | 'table';

export interface NodeKindSpec {
  config: z.ZodType;
  /** Input ports and the flow type each accepts. Empty for sources. */
  inputs: readonly { port: string; accepts: FlowType }[];
  /** Output flow type, or null for terminal nodes (sinks). */
  output: FlowType | null;
  category: 'sources' | 'stateless' | 'stateful' | 'sinks';
  label: string;
}

const streamIn = [{ port: 'in', accepts: 'stream' }] as const;

export const nodeKinds = {
  generator: {
    config: generatorConfigSchema,
    inputs: [],
    output: 'stream',
    category: 'sources',
    label: 'Generator',
  },
  source: {
    config: sourceConfigSchema,
    inputs: [],
    output: 'stream',
    category: 'sources',
    label: 'Source',
  },
  filter: {
    config: filterConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Filter',
  },
  mapValues: {
    config: mapValuesConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Map values',
  },
  peek: {
    config: peekConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Peek',
  },
  groupByKey: {
    config: groupByKeyConfigSchema,
    inputs: streamIn,
    output: 'grouped',
    category: 'stateful',
    label: 'Group by key',
  },
  count: {
    config: countConfigSchema,
    inputs: [{ port: 'in', accepts: 'grouped' }],
    output: 'table',
    category: 'stateful',
    label: 'Count',
  },
  toStream: {
    config: toStreamConfigSchema,
    inputs: [{ port: 'in', accepts: 'table' }],
    output: 'stream',
    category: 'stateless',
    label: 'To stream',
  },
  sink: {
    config: sinkConfigSchema,
    inputs: streamIn,
    output: null,
    category: 'sinks',
    label: 'Sink',
  },
} as const satisfies Record<string, NodeKindSpec>;

export type NodeKind = keyof typeof nodeKinds;
export const nodeKindNames = Object.keys(nodeKinds) as NodeKind[];

export type NodeConfigOf<K extends NodeKind> = z.output<(typeof nodeKinds)[K]['config']>;

/** A node with its config already validated against its kind. */
export type TopologyNode = {
  [K in NodeKind]: { id: string; kind: K; name?: string | undefined; config: NodeConfigOf<K> };
}[NodeKind];

/**
 * The raw node shape: `kind` and `config` are checked per kind by `validateTopology`, which
 * reports an unknown kind or a bad config with the node's path instead of one opaque union error.
 */
export const rawNodeSchema = z.object({
  id: nodeIdSchema,
  kind: z.string(),
  /** Kafka Streams processor name (Named.as); generated like the DSL does when absent. */
  name: z
    .string()
    .min(1, 'name is empty')
    .max(249, 'names are at most 249 characters')
    // Kafka Streams' Named.validate accepts exactly these characters.
    .regex(/^[a-zA-Z0-9._-]+$/, 'names may only contain letters, digits, ".", "_" and "-"')
    .optional(),
  config: z.record(z.string(), z.unknown()).default({}),
});

export const edgeSchema = z.object({
  from: nodeIdSchema,
  fromPort: z.string().min(1).default('out'),
  to: nodeIdSchema,
  toPort: z.string().min(1).default('in'),
});
export type Edge = z.infer<typeof edgeSchema>;

export const positionSchema = z.object({ x: z.number(), y: z.number() });
export const layoutSchema = z.object({
  nodes: z.record(z.string(), positionSchema).default({}),
});
export type Layout = z.infer<typeof layoutSchema>;

export const topologyDocumentSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  application: applicationSchema,
  topics: z.array(topicSchema).default([]),
  nodes: z.array(rawNodeSchema).default([]),
  edges: z.array(edgeSchema).default([]),
  layout: layoutSchema.default({ nodes: {} }),
});

/** A document that passed the structural schema (kinds and configs not yet checked). */
export type TopologyDocument = z.infer<typeof topologyDocumentSchema>;
/** The input shape (defaults may be omitted). */
export type TopologyDocumentInput = z.input<typeof topologyDocumentSchema>;

/** A fully validated topology: every node's kind is known and its config parsed. */
export interface Topology extends Omit<TopologyDocument, 'nodes'> {
  nodes: TopologyNode[];
}
