// The plan: what the engine executes. topology-model owns it so that the designer, describe()
// and the engine agree on sub-topologies, Kafka Streams node names, internal topics and stores.
import type { NodeKind, SerdeName, TopologyNode } from './schema.js';

/** A Kafka Streams processor-graph node (Source / Processor / Sink in describe()). */
export interface PlannedNode {
  /** Kafka Streams name, e.g. `KSTREAM-FILTER-0000000001`, or the user's `name`. */
  name: string;
  role: 'source' | 'processor' | 'sink';
  /**
   * What the engine runs here. Model kinds map 1:1 except that a `count` becomes the
   * aggregate processor, `groupByKey` has no node of its own (as in Kafka Streams) unless it
   * needs a repartition, and repartitions add a filter → sink → (topic) → source chain on an
   * internal topic. That filter is planned as a `peek`: Kafka Streams keeps the node for
   * compatibility but its predicate accepts every record, so it only forwards.
   */
  op: NodeKind | 'repartition-sink' | 'repartition-source';
  /** The model node this was planned from (absent only for synthetic repartition nodes). */
  modelNodeId?: string;
  /** The model node itself, with its parsed config (absent for synthetic nodes). */
  modelNode?: TopologyNode;
  /**
   * For sources: the topics read, in describe() order. Internal (repartition) topics carry their
   * full name, `<application.id>-<name>-repartition`; describe() prints them without the prefix.
   */
  topics?: string[];
  /** For sinks: the topic written (full name for internal topics, as for `topics`). */
  topic?: string;
  /** Store names this processor is connected to. */
  stores: string[];
  /** Successor / predecessor names, in Kafka Streams' order. */
  successors: string[];
  predecessors: string[];
  keySerde?: SerdeName;
  valueSerde?: SerdeName;
}

export interface SubtopologyPlan {
  id: number;
  /** Nodes in describe() order. */
  nodes: PlannedNode[];
  sourceTopics: string[];
  sinkTopics: string[];
}

export interface StorePlan {
  name: string;
  type: 'keyValue';
  /** `<application.id>-<store>-changelog`, or null when logging is disabled. */
  changelogTopic: string | null;
  keySerde: SerdeName;
  valueSerde: SerdeName;
  subtopology: number;
  /** The processor that owns the store. */
  processor: string;
}

export interface InternalTopicPlan {
  name: string;
  kind: 'repartition' | 'changelog';
  /** Null: decided at deploy time from the sub-topology's task count. */
  partitions: number | null;
  config: Record<string, string>;
}

export interface Plan {
  applicationId: string;
  subtopologies: SubtopologyPlan[];
  stores: StorePlan[];
  internalTopics: InternalTopicPlan[];
  /** model node id → the planned node names created for it (for metrics and the UI). */
  nodeNames: Record<string, string[]>;
}
