// The counterpart of Kafka Streams' InternalStreamsBuilder + InternalTopologyBuilder: one global
// name counter and the processor graph as add*() calls would build it. Kind-specific planning
// (kind-planners.ts) drives it in the DSL program's call order (plan.ts).
import type { InternalTopicPlan, PlannedNode, StorePlan } from '../plan-types.js';
import type { SerdeName, TopologyNode } from '../schema.js';

/** A planner-detected conflict Kafka Streams itself would reject while building the topology. */
export class PlanningError extends Error {
  override readonly name = 'PlanningError';
  constructor(
    readonly code: 'duplicate_name' | 'duplicate_store',
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
}

export interface NodeExtras {
  modelNode?: TopologyNode;
  keySerde?: SerdeName;
  valueSerde?: SerdeName;
  stores?: string[];
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

export class PlanBuilder {
  readonly applicationId: string;
  /** In insertion order: InternalTopologyBuilder's `nodeFactories` (sub-topology numbering uses it). */
  readonly nodes = new Map<string, BuiltNode>();
  readonly stores: StorePlan[] = [];
  readonly internalTopics: InternalTopicPlan[] = [];
  readonly nodeNames: Record<string, string[]> = {};
  /** Duplicate names and stores, collected so validation can report all of them. */
  readonly conflicts: PlanningError[] = [];
  #index = 0;

  constructor(applicationId: string) {
    this.applicationId = applicationId;
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

  /** Internal topics are prefixed with the application id, as Kafka Streams does at run time. */
  internalTopicName(name: string): string {
    return `${this.applicationId}-${name}`;
  }

  addSource(
    name: string,
    op: PlannedNode['op'],
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
    op: PlannedNode['op'],
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
    op: PlannedNode['op'],
    topic: string,
    parent: string,
    modelNodeId: string | undefined,
    extras: NodeExtras = {},
  ): void {
    this.#add({
      name,
      role: 'sink',
      op,
      topic,
      stores: [],
      parents: [parent],
      ...this.#model(modelNodeId, extras),
    });
  }

  addStore(store: Omit<StorePlan, 'subtopology' | 'changelogTopic'>, modelNodeId: string): void {
    if (this.stores.some((s) => s.name === store.name)) {
      this.conflicts.push(
        new PlanningError(
          'duplicate_store',
          `state store "${store.name}" is materialized by more than one node`,
          modelNodeId,
        ),
      );
      return;
    }
    const changelogTopic = this.internalTopicName(`${store.name}-changelog`);
    // The sub-topology is assigned once the graph is complete (plan.ts).
    this.stores.push({ ...store, changelogTopic, subtopology: -1 });
    this.internalTopics.push({
      name: changelogTopic,
      kind: 'changelog',
      partitions: null,
      config: { ...CHANGELOG_TOPIC_CONFIG },
    });
  }

  /**
   * KStreamImpl#createRepartitionedSource: burns three counter values (sink, filter, source) and uses them as names when the prefix is itself generated, else derives
   * `<topic>-sink`, `<topic>-filter`, `<topic>-source`. Returns the new source's name, from
   * which the downstream processor reads. The sink/source pair splits the graph, so the
   * downstream part becomes its own sub-topology.
   */
  repartition(
    prefix: string,
    parent: string,
    modelNodeId: string,
    serdes: { keySerde: SerdeName; valueSerde: SerdeName },
  ): string {
    const topic = prefix.endsWith('-repartition') ? prefix : `${prefix}-repartition`;
    const genSink = this.newProcessorName('KSTREAM-SINK-');
    const genFilter = this.newProcessorName('KSTREAM-FILTER-');
    const genSource = this.newProcessorName('KSTREAM-SOURCE-');
    const generated = /^KSTREAM.*-[0-9]{10}$/.test(prefix);
    const sink = generated ? genSink : `${topic}-sink`;
    const filter = generated ? genFilter : `${topic}-filter`;
    const source = generated ? genSource : `${topic}-source`;
    const fullTopic = this.internalTopicName(topic);
    // Same add order as OptimizableRepartitionNode#writeToTopology: filter, sink, source.
    this.addProcessor(filter, 'peek', [parent], undefined); // accepts everything: see plan-types.ts
    this.addSink(sink, 'repartition-sink', fullTopic, filter, undefined, serdes);
    this.addSource(source, 'repartition-source', [fullTopic], undefined, serdes);
    this.internalTopics.push({
      name: fullTopic,
      kind: 'repartition',
      partitions: null,
      config: { ...REPARTITION_TOPIC_CONFIG },
    });
    (this.nodeNames[modelNodeId] ??= []).push(filter, sink, source);
    return source;
  }

  #model(modelNodeId: string | undefined, extras: NodeExtras): Partial<BuiltNode> {
    const out: Partial<BuiltNode> = {};
    if (modelNodeId !== undefined) out.modelNodeId = modelNodeId;
    if (extras.modelNode) out.modelNode = extras.modelNode;
    if (extras.keySerde) out.keySerde = extras.keySerde;
    if (extras.valueSerde) out.valueSerde = extras.valueSerde;
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
          node.modelNodeId ?? existing.modelNodeId,
        ),
      );
      return;
    }
    this.nodes.set(node.name, node);
    if (node.modelNodeId !== undefined) (this.nodeNames[node.modelNodeId] ??= []).push(node.name);
  }
}
