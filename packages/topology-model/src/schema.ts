// The topology document: one zod schema is the single source of truth for the type, the
// validation, the defaults and the exported JSON Schema. Logic (nodes, edges, config) and
// layout (positions) are kept in separate sections so diffs of either stay readable.
import { z } from 'zod';
import { intInRange } from './issue-words.js';
import { storeSpecSchema } from './schema/kind-configs.js';
import type { TopologyNode } from './schema/kinds.js';
import { kafkaNameSchema, nodeIdSchema, topicNameSchema } from './schema/primitives.js';

export const SCHEMA_VERSION = 1;

export * from './schema/primitives.js';
export * from './schema/kind-configs.js';
export * from './schema/kinds.js';
export * from './schema/window-kinds.js';
export * from './schema/join-kinds.js';

const positiveInt = z.number().int().positive();

export const processingGuaranteeSchema = z.enum(['at_least_once', 'exactly_once_v2']);
export const exceptionHandlerSchema = z.enum(['log-and-fail', 'log-and-continue']);

/** Kafka Streams 4.1's UpgradeFromValues. */
export const UPGRADE_FROM_VALUES = [
  '0.10.0',
  '0.10.1',
  '0.10.2',
  '0.11.0',
  '1.0',
  '1.1',
  '2.0',
  '2.1',
  '2.2',
  '2.3',
  '2.4',
  '2.5',
  '2.6',
  '2.7',
  '2.8',
  '3.0',
  '3.1',
  '3.2',
  '3.3',
  '3.4',
  '3.5',
  '3.6',
  '3.7',
  '3.8',
  '3.9',
  '4.0',
] as const;

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
    /** Serialization errors at sinks and records the log refuses (Kafka's production handler). */
    'default.production.exception.handler': exceptionHandlerSchema.optional(),
    /**
     * Kafka Streams' KIP-1034: records the three exception handlers deal with are copied to this
     * topic (raw bytes, with `__streams.errors.*` headers), whatever the handler decides.
     */
    'errors.dead.letter.queue.topic.name': topicNameSchema.optional(),
    /** Kafka Streams' record cache size in bytes (default 10485760; 0 disables it). */
    'statestore.cache.max.bytes': z.number().int().min(0).optional(),
    /**
     * Kafka Streams' store type of DSL stores: `rocksDB` (the default: persistent stores on disk,
     * lmdb here, under `<state.dir>/<application.id>/<task id>/`) or `in_memory`. `lmdb` means
     * the same as `rocksDB`. A store materialized `inMemory` stays in memory either way.
     */
    'default.dsl.store': z.enum(['rocksDB', 'in_memory', 'lmdb']).optional(),
    'max.task.idle.ms': z.number().int().min(-1).optional(),
    /**
     * Kafka Streams' topology optimizations: only `reuse.ktable.source.topics` is implemented
     * (a table's source topic doubles as its store's changelog); `none` is the default.
     */
    'topology.optimization': z.enum(['none', 'reuse.ktable.source.topics']).optional(),
    /**
     * Kafka Streams' upgrade.from (a rolling upgrade from that version): from 3.3 or older, a
     * foreign-key join writes version 0 subscription wrappers (no primary partition), which
     * Kafka Streams before 3.4 can read; from 2.3 or older, the eager rebalance protocol on
     * Kafka (AssignorConfiguration#rebalanceProtocol). Other effects (subscription versions) do
     * not exist here.
     */
    'upgrade.from': z
      .enum(UPGRADE_FROM_VALUES, {
        error: (issue) =>
          `Invalid value ${String(issue.input)} for configuration upgrade.from: String must be one of: null, ${UPGRADE_FROM_VALUES.join(', ')}`,
      })
      .optional(),
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
  partitions: intInRange(1, 1024, 'partitions'),
  /** Topic configs with Kafka's keys, e.g. `retention.ms`, `cleanup.policy`. */
  config: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
});
export type TopicSpec = z.infer<typeof topicSchema>;

/**
 * The raw node shape: `kind` and `config` are checked per kind by `validateTopology`, which
 * reports an unknown kind or a bad config with the node's path instead of one opaque union error.
 */
export const rawNodeSchema = z.object({
  id: nodeIdSchema,
  kind: z.string(),
  /** Kafka Streams processor name (Named.as); generated like the DSL does when absent. */
  name: kafkaNameSchema.optional(),
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
  schemaVersion: z.literal(SCHEMA_VERSION, {
    error: (issue) =>
      issue.input === undefined
        ? `schemaVersion is required (${SCHEMA_VERSION})`
        : `schemaVersion ${JSON.stringify(issue.input)} is not known; this version reads ${SCHEMA_VERSION}`,
  }),
  application: applicationSchema,
  topics: z.array(topicSchema).default([]),
  /** State stores for process / processValues nodes (StreamsBuilder#addStateStore). */
  stores: z.array(storeSpecSchema).default([]),
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
