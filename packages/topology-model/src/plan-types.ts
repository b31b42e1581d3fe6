// The plan: what the engine executes. topology-model owns it so that the designer, describe()
// and the engine agree on sub-topologies, Kafka Streams node names, internal topics and stores.
import type { Logic, NodeKind, SerdeName, TopologyNode, WindowSpec } from './schema.js';

/**
 * What the engine runs at a planned node. Model kinds map to their own op, plus the nodes the
 * DSL adds around them:
 * - `repartition-sink` / `repartition-source`: the two ends of a repartition topic. The filter
 *   Kafka Streams puts before a repartition sink (KStreamImpl#createRepartitionedSource) drops
 *   records with a null key; it is planned as a `peek` without a model node, which the engine
 *   runs as that null-key filter (checked against Kafka Streams 4.1 by the engine's oracle tests);
 * - `table-source`: the source node reading a `table` / `globalTable` topic (the KTABLE-SOURCE
 *   processor after it has the model kind's op);
 * - `split-branch`: a split's pass-through child for one branch (`port` says which);
 * - `cogroup-aggregate`: a cogroup's aggregator for one input (`port` says which); the
 *   COGROUPKSTREAM-MERGE node has op `cogroup`.
 * - `join-window`: a stream–stream join's KSTREAM-WINDOWED node for one side (`port`);
 * - `join-merge`: a join's KSTREAM-MERGE / KTABLE-MERGE node; the JOINTHIS / JOINOTHER
 *   processors have the join's kind as op and `port` `left` / `right`.
 * `groupByKey` has no node of its own, as in Kafka Streams.
 */
export type PlannedOp =
  | NodeKind
  | 'repartition-sink'
  | 'repartition-source'
  | 'table-source'
  | 'split-branch'
  | 'cogroup-aggregate'
  | 'join-window'
  | 'join-merge'
  // foreignKeyJoin (fk-join-planner.ts): SubscriptionSend / Receive / Join, ForeignTableJoin,
  // ResponseJoin processors and the KTableSource holding the result.
  | 'fk-subscription-send'
  | 'fk-subscription-receive'
  | 'fk-subscription-join'
  | 'fk-foreign-join'
  | 'fk-response-join'
  | 'fk-result';

/** A Kafka Streams processor-graph node (Source / Processor / Sink in describe()). */
export interface PlannedNode {
  /** Kafka Streams name, e.g. `KSTREAM-FILTER-0000000001`, or one derived from the user's `name`. */
  name: string;
  role: 'source' | 'processor' | 'sink';
  op: PlannedOp;
  /** The model node this was planned from (absent only for synthetic repartition nodes). */
  modelNodeId?: string;
  /** The model node itself, with its parsed config (absent for synthetic nodes). */
  modelNode?: TopologyNode;
  /**
   * For sources: the topics read, in describe() order. Internal (repartition) topics carry their
   * full name, `<application.id>-<name>-repartition`; describe() prints them without the prefix.
   */
  topics?: string[];
  /**
   * For a source reading a pattern (builder.stream(Pattern)): the pattern, which describe()
   * prints instead of the topics. `topics` then holds the declared topics it matches; topics
   * created later are not picked up (the plan is made from the document).
   */
  topicPattern?: string;
  /** For sinks with a fixed topic: the topic written (full name for internal topics). */
  topic?: string;
  /**
   * For sinks with a topic extractor: how describe() shows it (`extractor class: …`): the
   * function's name, or `cel: <expression>`.
   */
  topicExtractor?: string;
  /** Store names this processor is connected to. */
  stores: string[];
  /** Successor / predecessor names, in Kafka Streams' describe() order. */
  successors: string[];
  predecessors: string[];
  /**
   * The successors in the order records are forwarded to them: the order Kafka Streams added
   * the child processors (InternalTopologyBuilder's node factories, in DSL build order), which
   * differs from describe()'s sorted order. Absent: `successors`.
   */
  children?: string[];
  keySerde?: SerdeName;
  valueSerde?: SerdeName;
  /** The model port this node stands for: a split branch's output port, a cogroup input port. */
  port?: string;
  /**
   * For a split: its branches in Kafka Streams' order (predicates in config order, then the
   * default branch), each with the child node records go to. `index` is 1-based for predicated
   * branches and 0 for the default branch.
   */
  branches?: { port: string; index: number; child: string }[];
  /**
   * Windowed aggregations: the windows of their windowedBy (which has no node of its own);
   * suppress: the windows of the table it suppresses (untilWindowCloses waits for their grace).
   */
  windowing?: { window: WindowSpec; emitStrategy: 'onWindowUpdate' | 'onWindowClose' };
  /** A stream–globalTable join: the global store it reads (not connected, as in Kafka Streams). */
  globalStores?: string[];
  /**
   * A stream–table join (or one side of a table–table join) reading its table (the other side)
   * through unmaterialized tableFilter / tableFilterNot / tableMapValues / transformValues nodes (KTableImpl#valueGetterSupplier chains their getters over the store):
   * their logic, store side first, applied to every value looked up.
   */
  tableGetter?: TableGetterStep[];
  /**
   * The filter in front of a repartition sink: true when it forwards null keys, because a join
   * that accepts them lies downstream (KIP-962; plan/null-key-filters.ts). Absent: it drops
   * records with a null key, without counting them.
   */
  passesNullKeys?: true;
}

/**
 * One value getter over the store a join reads: KTableFilter / KTableMapValues (their logic) or
 * KTableTransformValues (KTableTransformValuesGetter: its own instance of the registered
 * transformer, applied to every value read, a missing one included).
 */
/** One side of a `tableJoin` getter step: the stores it is read from, then its getters. */
export interface TableGetterSide {
  stores: string[];
  steps: TableGetterStep[];
}

export type TableGetterStep =
  | {
      op: 'tableFilter' | 'tableFilterNot' | 'tableMapValues';
      expression: Logic;
      /** The Kafka Streams node it belongs to (for error messages). */
      node: string;
    }
  | {
      /**
       * An unmaterialized table–table join result (KTableKTableJoinMerger#view → the join's
       * KTableKTable{Inner,Left,Outer}JoinValueGetter): each side read through its own store and
       * getters, then joined as the join type does; what the reader's own store gave is unused.
       */
      op: 'tableJoin';
      type: 'inner' | 'left' | 'outer';
      joiner: Logic;
      left: TableGetterSide;
      right: TableGetterSide;
      node: string;
    }
  | {
      /**
       * KTableSuppressProcessorSupplier's getter: a key buffered in `store` (the suppression
       * buffer) reads as its prior value (the one last emitted; timestamp unknown), any other
       * key as the steps before show it.
       */
      op: 'suppress';
      store: string;
      node: string;
    }
  | {
      op: 'transformValues';
      transformer: string;
      params: Record<string, unknown>;
      /** The node's connected state stores (the getter's transformer may open them). */
      stores: string[];
      node: string;
    };

export interface SubtopologyPlan {
  id: number;
  /**
   * A global store's source and processor (a `globalTable`): describe() prints it as
   * `Sub-topology: N for global store (will not generate tasks)`; it has no tasks.
   */
  global: boolean;
  /** Nodes in describe() order. */
  nodes: PlannedNode[];
  sourceTopics: string[];
  sinkTopics: string[];
}

export interface StorePlan {
  name: string;
  /**
   * `window` / `session`: a windowed aggregation's store (segmented by time, keys are windowed);
   * `suppression`: KTable#suppress's buffer; `timeOrderedBuffer`: a stream–table join's buffer of
   * stream records (Joined#withGracePeriod: RocksDBTimeOrderedKeyValueBuffer, `<join>-Buffer`).
   */
  type: 'keyValue' | 'window' | 'session' | 'suppression' | 'timeOrderedBuffer';
  /** Window and session stores: how long windows are kept (window size + grace at least). */
  retentionMs?: number;
  /**
   * A document's window store (Stores.windowStoreBuilder): its window size and whether it keeps
   * duplicates. Such stores hold plain values; the DSL's window stores are timestamped.
   */
  windowStore?: { sizeMs: number; retainDuplicates: boolean };
  /**
   * A windowed aggregation's window store: the window size (tumbling / hopping: size; sliding:
   * time difference), which gives a stored window's end (start + size) in interactive queries.
   */
  windowSizeMs?: number;
  /**
   * A versioned key-value store (KIP-889: Stores.persistentVersionedKeyValueStore): every version
   * of a key is kept for `historyRetentionMs` behind the store's observed stream time. Its
   * changelog logs every put with its timestamp; Kafka Streams compacts it no sooner than
   * historyRetentionMs + 24 h (min.compaction.lag.ms).
   */
  versioned?: { historyRetentionMs: number; segmentIntervalMs: number };
  /**
   * Where the store is backed up: `<application.id>-<store>-changelog`, the table's source topic
   * (with `topology.optimization: reuse.ktable.source.topics`), or null when logging is off
   * (always for global stores).
   */
  changelogTopic: string | null;
  keySerde: SerdeName;
  valueSerde: SerdeName;
  subtopology: number;
  /** The processor that owns the store (the first one connected to it). */
  processor: string;
  /** Every processor connected to the store, in the order they were added. */
  processors: string[];
  caching: boolean;
  /**
   * `inMemory`, or `persistent`: on lmdb (Kafka's RocksDB) when `default.dsl.store` is `rocksDB`
   * (the default), in memory under `in_memory` — unless `storeTypeExplicit`.
   */
  storeType: 'persistent' | 'inMemory';
  /**
   * The type was chosen by a store supplier (StreamJoined's store suppliers or
   * withDslStoreSuppliers), not by `default.dsl.store`: a `persistent` store is on lmdb even
   * under `default.dsl.store: in_memory`.
   */
  storeTypeExplicit?: boolean;
  /**
   * Topic configs the store's changelog gets over Kafka Streams' defaults
   * (StreamJoined#withLoggingEnabled(config); a stream–stream join's window stores set
   * `cleanup.policy: delete`, as Kafka's StreamJoinedStoreFactory does).
   */
  changelogConfig?: Record<string, string>;
  /** A globalTable's store: fully replicated to every instance. */
  global: boolean;
}

export interface InternalTopicPlan {
  name: string;
  kind: 'repartition' | 'changelog';
  /**
   * Null: decided at deploy time from the sub-topology's task count; a number when fixed
   * (`repartition` with `partitions`).
   */
  partitions: number | null;
  config: Record<string, string>;
}

export interface Plan {
  applicationId: string;
  /**
   * Topics that must have the same partition count (the sources of both sides of each join);
   * repartition topics among them get the group's count, other mismatches fail at start.
   */
  copartitionGroups?: string[][];
  subtopologies: SubtopologyPlan[];
  stores: StorePlan[];
  /** Repartition topics in the order they were created, then changelog topics in store order. */
  internalTopics: InternalTopicPlan[];
  /** model node id → the planned node names created for it (for metrics and the UI). */
  nodeNames: Record<string, string[]>;
}
