// The counterpart of Kafka Streams' InternalStreamsBuilder + InternalTopologyBuilder: one global
// name counter and the processor graph as add*() calls would build it. Kind-specific planning
// (kind-planners.ts, stateful-planners.ts) drives it in the DSL program's call order (plan.ts).
import type { InternalTopicPlan, PlannedNode, PlannedOp, StorePlan } from '../plan-types.js';
import type { SerdeName, TopologyNode } from '../schema.js';

/** A planner-detected conflict Kafka Streams itself would reject while building the topology. */
export class PlanningError extends Error {
  override readonly name = 'PlanningError';
  constructor(
    readonly code:
      | 'duplicate_name'
      | 'duplicate_store'
      | 'retention_too_small'
      | 'grace_needs_versioned_table'
      | 'suppress_of_versioned_table',
    message: string,
    readonly nodeId: string | undefined,
  ) {
    super(message);
  }
}

/** A node as added to the builder, before sub-topologies and describe() order are known. */
export interface BuiltNode extends Omit<PlannedNode, 'successors' | 'predecessors'> {
  /** Parents in the order they were given (InternalTopologyBuilder's `predecessors`). */
  parents: string[];
  /** A global store's source or processor. */
  global?: boolean;
}

export interface NodeExtras {
  modelNode?: TopologyNode;
  keySerde?: SerdeName;
  valueSerde?: SerdeName;
  stores?: string[];
  port?: string;
  global?: boolean;
}

/** A store as the DSL declares it; whether it exists is only known once the graph is complete. */
export interface PendingStore {
  name: string;
  keySerde: SerdeName;
  valueSerde: SerdeName;
  logging: boolean;
  caching: boolean;
  storeType: 'persistent' | 'inMemory';
  storeTypeExplicit?: boolean;
  changelogConfig?: Record<string, string>;
  global: boolean;
  /**
   * KTableSource stores exist only when queryable (named) or when something downstream forces
   * materialization (KTableImpl#enableSendingOldValues(true), value getters).
   */
  materialized: boolean;
  /** `reuse.ktable.source.topics`: this topic is the changelog. */
  sourceTopicChangelog?: string;
  /** Window / session / suppression stores (window-planners.ts); key-value when absent. */
  type?: StorePlan['type'];
  retentionMs?: number;
  windowStore?: StorePlan['windowStore'];
  windowSizeMs?: number;
  versioned?: StorePlan['versioned'];
  modelNodeId: string | undefined;
}

// Kafka Streams' InternalTopicConfig defaults for the topics it creates itself.
const INTERNAL_TOPIC_DEFAULTS = { 'message.timestamp.type': 'CreateTime' };
export const REPARTITION_TOPIC_CONFIG: Record<string, string> = {
  ...INTERNAL_TOPIC_DEFAULTS,
  'cleanup.policy': 'delete',
  'segment.bytes': '52428800',
  'retention.ms': '-1',
};
export const CHANGELOG_TOPIC_CONFIG: Record<string, string> = {
  ...INTERNAL_TOPIC_DEFAULTS,
  'cleanup.policy': 'compact',
};

/** KStreamImpl#createRepartitionedSource: a prefix of this form gets generated node names. */
const GENERATED_NAME = /^KSTREAM.*-[0-9]{10}$/;

export class PlanBuilder {
  readonly applicationId: string;
  /** In insertion order: InternalTopologyBuilder's `nodeFactories` (sub-topology numbering uses it). */
  readonly nodes = new Map<string, BuiltNode>();
  readonly stores = new Map<string, PendingStore>();
  /** Repartition topics, in creation order. */
  readonly repartitionTopics: InternalTopicPlan[] = [];
  // Keyed by node ids, which may be any name (`constructor`, `__proto__`): no prototype.
  readonly nodeNames: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  /** Source topics of both sides of each join (join-planners.ts). */
  readonly copartitionGroups: string[][] = [];
  /** The model node (a join) each co-partition group is for, index by index. */
  readonly copartitionOwners: (string | undefined)[] = [];
  /** Duplicate names and stores, collected so validation can report all of them. */
  readonly conflicts: PlanningError[] = [];
  /**
   * Each repartition's null-key filter (by its repartition source) and the model nodes reading
   * that repartition: whether the filter drops null keys depends on what lies downstream of
   * them (null-key-filters.ts).
   */
  readonly repartitionFilters = new Map<string, { filter: string; readers: string[] }>();
  /** The model node being planned: conflicts in nodes it adds without a model id are its own. */
  currentModelNode: string | undefined;
  /** `topology.optimization: reuse.ktable.source.topics`: table source topics are changelogs. */
  readonly reuseSourceTopics: boolean;
  #index = 0;

  /** The document's topics, in declaration order: what a pattern source can match. */
  readonly declaredTopics: readonly string[];

  constructor(
    applicationId: string,
    options: { reuseSourceTopics?: boolean; declaredTopics?: readonly string[] } = {},
  ) {
    this.applicationId = applicationId;
    this.reuseSourceTopics = options.reuseSourceTopics ?? false;
    this.declaredTopics = options.declaredTopics ?? [];
  }

  /** A join's co-partition group, owned by the model node being planned. */
  addCopartitionGroup(topics: string[]): void {
    this.copartitionGroups.push(topics);
    this.copartitionOwners.push(this.currentModelNode);
  }

  /** `prefix` + the next counter value, 10 digits (InternalStreamsBuilder#newProcessorName). */
  newProcessorName(prefix: string): string {
    return prefix + String(this.#index++).padStart(10, '0');
  }

  /** `prefix` + `STATE-STORE-` + the next counter value (InternalStreamsBuilder#newStoreName). */
  newStoreName(prefix: string): string {
    return `${prefix}STATE-STORE-${String(this.#index++).padStart(10, '0')}`;
  }

  /**
   * NamedInternal#orElseGenerateWithPrefix: a user-given name still burns a counter value, so
   * naming one node does not renumber the others.
   */
  nameOrGenerate(name: string | undefined, prefix: string): string {
    const generated = this.newProcessorName(prefix);
    return name ?? generated;
  }

  /** NamedInternal#suffixWithOrElseGet: `<name><suffix>`, burning a counter value either way. */
  suffixOrGenerate(name: string | undefined, suffix: string, prefix: string): string {
    const generated = this.newProcessorName(prefix);
    return name === undefined ? generated : name + suffix;
  }

  /** Internal topics are prefixed with the application id, as Kafka Streams does at run time. */
  internalTopicName(name: string): string {
    return `${this.applicationId}-${name}`;
  }

  addSource(
    name: string,
    op: PlannedOp,
    topics: string[],
    modelNodeId: string | undefined,
    extras: NodeExtras = {},
  ): void {
    this.#add({
      name,
      role: 'source',
      op,
      topics,
      stores: [],
      parents: [],
      ...this.#model(modelNodeId, extras),
    });
  }

  addProcessor(
    name: string,
    op: PlannedOp,
    parents: string[],
    modelNodeId: string | undefined,
    extras: NodeExtras = {},
  ): void {
    this.#add({
      name,
      role: 'processor',
      op,
      stores: extras.stores ?? [],
      parents,
      ...this.#model(modelNodeId, extras),
    });
  }

  addSink(
    name: string,
    op: PlannedOp,
    target: { topic: string } | { topicExtractor: string },
    parent: string,
    modelNodeId: string | undefined,
    extras: NodeExtras = {},
  ): void {
    this.#add({
      name,
      role: 'sink',
      op,
      ...target,
      stores: [],
      parents: [parent],
      ...this.#model(modelNodeId, extras),
    });
  }

  /**
   * Declares a store (KeyValueStoreMaterializer). Stores that are not `materialized` yet may be
   * forced later through the returned handle; those never forced do not exist.
   */
  addStore(
    store: Omit<PendingStore, 'modelNodeId'>,
    modelNodeId: string | undefined,
  ): PendingStore {
    const existing = this.stores.get(store.name);
    if (existing) {
      this.conflicts.push(
        new PlanningError(
          'duplicate_store',
          `state store "${store.name}" is materialized by more than one node`,
          modelNodeId ?? this.currentModelNode,
        ),
      );
      return existing;
    }
    const pending: PendingStore = { ...store, modelNodeId };
    this.stores.set(store.name, pending);
    return pending;
  }

  /**
   * KStreamImpl#createRepartitionedSource + (Un)OptimizableRepartitionNode#writeToTopology:
   * burns three counter values (sink, filter, source) and uses them as names when the prefix is
   * itself generated (`KSTREAM…-NNNNNNNNNN`), else derives `<topic>-sink`, `<topic>-filter`,
   * `<topic>-source`. Adds filter → sink → (topic) → source and returns the source's name. The
   * sink/source pair splits the graph, so the downstream part becomes its own sub-topology.
   */
  repartition(
    prefix: string,
    parent: string,
    modelNodeId: string,
    serdes: { keySerde: SerdeName; valueSerde: SerdeName },
    partitions: number | null = null,
  ): string {
    const topic = prefix.endsWith('-repartition') ? prefix : `${prefix}-repartition`;
    const genSink = this.newProcessorName('KSTREAM-SINK-');
    const genFilter = this.newProcessorName('KSTREAM-FILTER-');
    const genSource = this.newProcessorName('KSTREAM-SOURCE-');
    const generated = GENERATED_NAME.test(prefix);
    const sink = generated ? genSink : `${topic}-sink`;
    const filter = generated ? genFilter : `${topic}-filter`;
    const source = generated ? genSource : `${topic}-source`;
    const fullTopic = this.internalTopicName(topic);
    this.addProcessor(filter, 'peek', [parent], undefined); // null keys: null-key-filters.ts
    this.addSink(sink, 'repartition-sink', { topic: fullTopic }, filter, undefined, serdes);
    this.addSource(source, 'repartition-source', [fullTopic], undefined, serdes);
    this.#repartitionTopic(fullTopic, partitions);
    (this.nodeNames[modelNodeId] ??= []).push(filter, sink, source);
    this.repartitionFilters.set(source, { filter, readers: [modelNodeId] });
    return source;
  }

  /** Another model node reads an existing repartition (a named grouping's second aggregation). */
  readRepartition(source: string, modelNodeId: string): void {
    this.repartitionFilters.get(source)?.readers.push(modelNodeId);
  }

  /** Burns the three names createRepartitionedSource generates, when a repartition is reused. */
  burnRepartitionNames(): void {
    for (let i = 0; i < 3; i++) this.#index++;
  }

  /**
   * GroupedTableOperationRepartitionNode#writeToTopology: sink → (topic) → source, no filter;
   * the names were chosen (and burnt) by the aggregation.
   */
  groupedTableRepartition(
    topic: string,
    sink: string,
    source: string,
    parent: string,
    modelNodeId: string,
    serdes: { keySerde: SerdeName; valueSerde: SerdeName },
  ): void {
    const fullTopic = this.internalTopicName(topic);
    this.addSink(sink, 'repartition-sink', { topic: fullTopic }, parent, undefined, serdes);
    this.addSource(source, 'repartition-source', [fullTopic], undefined, serdes);
    this.#repartitionTopic(fullTopic, null);
    (this.nodeNames[modelNodeId] ??= []).push(sink, source);
  }

  #repartitionTopic(name: string, partitions: number | null): void {
    this.repartitionTopics.push({
      name,
      kind: 'repartition',
      partitions,
      config: { ...REPARTITION_TOPIC_CONFIG },
    });
  }

  #model(modelNodeId: string | undefined, extras: NodeExtras): Partial<BuiltNode> {
    const out: Partial<BuiltNode> = {};
    if (modelNodeId !== undefined) out.modelNodeId = modelNodeId;
    if (extras.modelNode) out.modelNode = extras.modelNode;
    if (extras.keySerde) out.keySerde = extras.keySerde;
    if (extras.valueSerde) out.valueSerde = extras.valueSerde;
    if (extras.port !== undefined) out.port = extras.port;
    if (extras.global) out.global = true;
    return out;
  }

  #add(node: BuiltNode): void {
    const existing = this.nodes.get(node.name);
    if (existing) {
      this.conflicts.push(
        new PlanningError(
          'duplicate_name',
          `Kafka Streams node name "${node.name}" is used twice` +
            (existing.modelNodeId && existing.modelNodeId !== node.modelNodeId
              ? ` (also by node "${existing.modelNodeId}")`
              : ''),
          node.modelNodeId ?? this.currentModelNode ?? existing.modelNodeId,
        ),
      );
      return;
    }
    this.nodes.set(node.name, node);
    if (node.modelNodeId !== undefined) (this.nodeNames[node.modelNodeId] ??= []).push(node.name);
  }
}

/** A finished store for the plan (sub-topology assigned by the caller). */
export function storePlanOf(
  store: PendingStore,
  processors: string[],
  applicationId: string,
): Omit<StorePlan, 'subtopology'> {
  const changelogTopic = !store.logging
    ? null
    : (store.sourceTopicChangelog ?? `${applicationId}-${store.name}-changelog`);
  return {
    name: store.name,
    type: store.type ?? 'keyValue',
    ...(store.retentionMs === undefined ? {} : { retentionMs: store.retentionMs }),
    ...(store.windowStore === undefined ? {} : { windowStore: store.windowStore }),
    ...(store.windowSizeMs === undefined ? {} : { windowSizeMs: store.windowSizeMs }),
    ...(store.versioned === undefined ? {} : { versioned: store.versioned }),
    changelogTopic,
    keySerde: store.keySerde,
    valueSerde: store.valueSerde,
    processor: processors[0] ?? '',
    processors,
    caching: store.caching,
    storeType: store.storeType,
    ...(store.storeTypeExplicit === true ? { storeTypeExplicit: true } : {}),
    ...(store.changelogConfig === undefined ? {} : { changelogConfig: store.changelogConfig }),
    global: store.global,
  };
}
