// The shape of validation results and the stable issue codes the UI and CLI switch on.
import type { SourcePosition } from '../expressions/errors.js';
import type { Topology } from '../schema.js';

export const ISSUE_CODES = [
  /** The document does not have the structure of schema v1 (wrong types, missing sections). */
  'invalid_schema',
  /** schemaVersion is newer than this build understands, or no migration path exists. */
  'unsupported_version',
  /** The text is not JSON. */
  'invalid_json',
  'unknown_kind',
  'invalid_config',
  'duplicate_node_id',
  'duplicate_topic',
  /** Two nodes plan to the same Kafka Streams node name. */
  'duplicate_name',
  /** Two nodes (or a node and a document store) materialize the same store name. */
  'duplicate_store',
  /** Materialized#withRetention below the window's size (time difference, gap) plus grace. */
  'retention_too_small',
  /**
   * A stream–table join with gracePeriodMs over a table that is not versioned, or whose history
   * retention is shorter than the grace period (Kafka Streams' IllegalArgumentExceptions).
   */
  'grace_needs_versioned_table',
  /** suppress() of a versioned table, or below one (Kafka Streams' TopologyException). */
  'suppress_of_versioned_table',
  /** A process / processValues / transformValues node connects to a store that no node or `stores` entry defines. */
  'unknown_store',
  /** A function reference not in the registry given to validateTopology (`functions` option). */
  'unknown_function',
  /** A processor name not in the registry given to validateTopology (`processors` option). */
  'unknown_processor',
  /** A value transformer name not in the registry given (`valueTransformers` option). */
  'unknown_transformer',
  /** A foreign-key join's partitioner not in the registry given (`partitioners` option). */
  'unknown_partitioner',
  /** A topic read by two sources (Kafka Streams: "Topic has already been registered by another source"). */
  'duplicate_source_topic',
  'unknown_topic',
  'dangling_edge',
  'duplicate_edge',
  'bad_port',
  'sink_has_outputs',
  'wrong_input_count',
  /** An aggregation (count, reduce, aggregate, cogroup, table aggregations) without its grouping. */
  'count_without_grouping',
  'flow_type_mismatch',
  'cycle',
  'dangling_layout',
  'expression_syntax',
  'expression_type',
  /**
   * A join's topics with different partition counts (declared, or as they exist on the backend),
   * or a repartition topic whose fixed count differs (Kafka Streams' CopartitionedTopicsEnforcer).
   */
  'topics_not_copartitioned',
  /** A serde that cannot write the key or value type reaching it (a windowed key, an int as string). */
  'serde_mismatch',
  /** A joiner that fails on the null side of a left or outer join (no null guard). */
  'nullable_join_value',
  /** A topic the application reads or writes that has the name of one of its internal topics. */
  'topic_clash',
  /**
   * (deploy) The engine refused the topology or the new version failed to start: the previous
   * version is kept, or started again from its committed offsets.
   */
  'start_failed',
  /** (warning) An application-config key Kafka does not know there (Kafka logs it at WARN). */
  'unknown_config',
  /** (warning) An application-config key Kafka Streams itself overrides, or that is set elsewhere. */
  'ignored_config',
  /** (warning) A Kafka key Streamwright, or the backend, does not implement. */
  'unsupported_config',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

export interface ValidationIssue {
  /** Where, JSON-pointer-ish: `nodes[2].config.expression`, `edges[0].to`, `application.id`. */
  path: string;
  nodeId?: string;
  code: IssueCode;
  message: string;
  /** For expression errors: where in the expression. */
  position?: SourcePosition;
  /** How to fix it, when there is a usual way (validation of types, partitions, serdes). */
  fix?: string;
}

/**
 * Registries known where validation runs (the runtime knows what the operator registered; the
 * designer may not): when given, references to names outside them are errors.
 */
export interface ValidateOptions {
  /** Names of TypeScript functions logic fields may reference (`{"function": name}`). */
  functions?: readonly string[];
  /** Names of custom processors process / processValues nodes may use. */
  processors?: readonly string[];
  /** Names of value transformers (ValueTransformerWithKey) transformValues nodes may use. */
  valueTransformers?: readonly string[];
  /** Names of partitioners a foreign-key join's `partitioner` / `otherPartitioner` may use. */
  partitioners?: readonly string[];
  /**
   * Partition counts of the topics that exist where the topology will run (name → partitions):
   * an existing topic keeps its count whatever the document declares, so co-partitioning is
   * judged with it. The runtime supplies them; without them the declared counts are used.
   */
  existingTopics?: Readonly<Record<string, number>>;
}

/**
 * `warnings` (with a valid topology): application-config keys that are not honoured — unknown to
 * Kafka, overridden by Kafka Streams, or not implemented (docs/TOPOLOGY_FORMAT.md#application).
 */
export type ValidationResult =
  | { ok: true; topology: Topology; warnings?: ValidationIssue[] }
  | { ok: false; errors: ValidationIssue[] };

/** `['nodes', 2, 'config', 'commit.interval.ms']` → `nodes[2].config["commit.interval.ms"]`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (typeof s === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s))
      out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(String(s))}]`;
  }
  return out;
}
