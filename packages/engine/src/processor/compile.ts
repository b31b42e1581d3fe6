// plan → compiled processor graph. Compilation (logic, serdes, wiring) happens once per planned
// node; `instantiate` then builds one ProcessorNode per planned node for each task. What each op
// runs is in node-factories.ts.
import type {
  Plan,
  PlannedNode,
  StorePlan,
  SubtopologyPlan,
  TimestampExtractorSpec,
} from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import type { NodeMetrics } from '../metrics/metric-groups.js';
import type { KeyValueStore } from '../state/key-value-store.js';
import type { EngineStoreSpec } from '../state/store-factory.js';
import { windowSizeMs } from '../windows/window-assignment.js';
import { fkTopicValueSerde } from '../joins/fk-join-node-factory.js';
import { getSerde, topicSerdeContext } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { changedSerde } from './changed-serde.js';
import { compileNodeFactory, config, serdeOf, type NodeCompileContext } from './node-factories.js';
import type { ProcessorContext } from './processor-context.js';
import { ProcessorNode, type Processor } from './processor-node.js';
import type { CodeRegistries } from './registries.js';
import { nodesSendingOldValues } from './send-old-values.js';
import { filtersWithVersionedSemantics } from './versioned-semantics.js';

export interface CompiledSource {
  nodeName: string;
  topics: string[];
  keySerde: Serde<unknown>;
  valueSerde: Serde<unknown>;
  /** Consumed#withOffsetResetPolicy; absent: the application's auto.offset.reset. */
  offsetReset?: 'earliest' | 'latest';
  /** Consumed.withTimestampExtractor of this source or table (absent: the application's). */
  timestampExtractor?: TimestampExtractorSpec;
}

export interface CompiledNode {
  planned: PlannedNode;
  create(ctx: ProcessorContext): Processor;
}

export interface CompiledSubtopology {
  id: number;
  /** A globalTable's sub-topology: no tasks; its stores are loaded before processing starts. */
  global: boolean;
  sourceTopics: string[];
  sinkTopics: string[];
  nodes: CompiledNode[];
  sources: CompiledSource[];
  stores: (StorePlan & EngineStoreSpec & { logging?: boolean })[];
  /**
   * The application's global stores (globalTable), readable from every processor as in Kafka
   * Streams; filled in once the global state is created, shared by every sub-topology.
   */
  globalStores: Map<string, KeyValueStore>;
}

/** A task's instantiated graph. */
export interface TaskGraph {
  nodes: Map<string, ProcessorNode>;
  /** Input topic → its source node and serdes. */
  sourceByTopic: Map<string, { node: ProcessorNode; source: CompiledSource }>;
}

const TABLE_AGGREGATIONS = new Set(['tableCount', 'tableReduce', 'tableAggregate']);

export function compileSubtopology(
  sub: SubtopologyPlan,
  plan: Plan,
  registries: CodeRegistries = {},
  globalStores = new Map<string, KeyValueStore>(),
): CompiledSubtopology {
  const planned = new Set(plan.stores.map((s) => s.name));
  const byName = new Map(sub.nodes.map((n) => [n.name, n]));
  const materialized = (n: PlannedNode): boolean => n.stores.some((s) => planned.has(s));
  const context: NodeCompileContext = {
    plan,
    registries,
    sendingOldValues: nodesSendingOldValues(sub.nodes, materialized),
    versionedFilters: filtersWithVersionedSemantics(sub.nodes, plan.stores, planned),
    plannedStores: planned,
    byName,
  };
  const nodes = sub.nodes.map((n): CompiledNode => ({
    planned: n,
    create: compileNodeFactory(n, context),
  }));
  const sources: CompiledSource[] = sub.nodes
    .filter((n) => n.role === 'source')
    .map((n) => {
      const topics = n.topics ?? [config(n)['topic'] as string];
      // KTable#groupBy's repartition topic carries Change(new, old) pairs (ChangedSerializer).
      const carriesChanges = n.successors.some((s) =>
        TABLE_AGGREGATIONS.has(byName.get(s)?.op ?? ''),
      );
      // A single topic's name goes with registry serdes, for their calls from the table's store.
      const bound = (isKey: boolean) =>
        topics.length === 1 ? topicSerdeContext(topics[0]!, isKey) : undefined;
      const valueSerde =
        fkTopicValueSerde(n, byName) ?? getSerde(serdeOf(n, 'valueSerde'), bound(false));
      return {
        nodeName: n.name,
        topics,
        keySerde: getSerde(serdeOf(n, 'keySerde'), bound(true)),
        valueSerde: carriesChanges ? (changedSerde(valueSerde) as Serde<unknown>) : valueSerde,
        ...(config(n)['offsetReset'] === 'latest' || config(n)['offsetReset'] === 'earliest'
          ? { offsetReset: config(n)['offsetReset'] as 'earliest' | 'latest' }
          : {}),
        ...(config(n)['timestampExtractor'] !== undefined
          ? { timestampExtractor: config(n)['timestampExtractor'] as TimestampExtractorSpec }
          : {}),
      } satisfies CompiledSource;
    });
  return {
    id: sub.id,
    global: (sub as { global?: boolean }).global === true,
    sourceTopics: sub.sourceTopics,
    sinkTopics: sub.sinkTopics,
    nodes,
    sources,
    stores: plan.stores
      .filter((s) => s.subtopology === sub.id)
      // A source topic used as the changelog is read to restore, never written by the store.
      .map((s) =>
        s.changelogTopic !== null && sub.sourceTopics.includes(s.changelogTopic)
          ? { ...s, logging: false }
          : s,
      )
      .map((s) => engineStoreSpec(s, sub, plan)),
    globalStores,
  };
}

/**
 * What the engine's own store kinds need beyond the plan: a stream–stream join's window stores
 * keep duplicates and plain values (KStreamImplJoin's stores), its outer store logs both sides'
 * values, a suppression buffer over a windowed table serializes windowed keys.
 */
function engineStoreSpec(
  s: StorePlan & { logging?: boolean },
  sub: SubtopologyPlan,
  plan: Plan,
): EngineStoreSpec & StorePlan & { logging?: boolean } {
  // Stores.windowStoreBuilder: plain values (WindowStore, not TimestampedWindowStore).
  if (s.windowStore !== undefined)
    return {
      ...s,
      retainDuplicates: s.windowStore.retainDuplicates,
      timestamped: false,
      windowSizeMs: s.windowStore.sizeMs,
    };
  const users = sub.nodes.filter((n) => n.stores.includes(s.name));
  if (users.some((n) => n.op === 'join-window'))
    return { ...s, retainDuplicates: true, timestamped: false };
  // The outer store is the join processors' key-value store (the other one is a window store).
  const join = s.type === 'keyValue' ? users.find((n) => n.op === 'streamStreamJoin') : undefined;
  if (join !== undefined) {
    // The left-port join processor reads the right side's window store, and vice versa.
    const sideStore = (readerPort: string): StorePlan | undefined => {
      const reader = users.find((n) => n.op === 'streamStreamJoin' && n.port === readerPort);
      return plan.stores.find((p) => p.type === 'window' && reader?.stores.includes(p.name));
    };
    const left = sideStore('right');
    const right = sideStore('left');
    return {
      ...s,
      outerJoin: {
        keySerde: left?.keySerde ?? s.keySerde,
        leftValueSerde: left?.valueSerde ?? s.valueSerde,
        rightValueSerde: right?.valueSerde ?? s.valueSerde,
      },
    };
  }
  if (s.type === 'timeOrderedBuffer') {
    // Joined#withGracePeriod: the join's grace decides what the buffer keeps.
    const join = users.find((n) => n.op === 'streamTableJoin')?.modelNode;
    const grace = join?.kind === 'streamTableJoin' ? join.config.gracePeriodMs : undefined;
    return { ...s, timeOrderedBuffer: { graceMs: grace ?? 0 } };
  }
  const window = s.type === 'suppression' ? users[0]?.windowing?.window : undefined;
  if (window !== undefined) {
    return {
      ...s,
      windowed:
        window.type === 'session'
          ? { type: 'session' }
          : { type: 'time', sizeMs: windowSizeMs(window) },
    };
  }
  return s;
}

export function compilePlan(plan: Plan, registries: CodeRegistries = {}): CompiledSubtopology[] {
  const globalStores = new Map<string, KeyValueStore>();
  return plan.subtopologies.map((s) => compileSubtopology(s, plan, registries, globalStores));
}

/** Builds a task's ProcessorNodes and wires children in the plan's successor order. */
export function instantiate(
  compiled: CompiledSubtopology,
  ctx: ProcessorContext,
  metricsFor: (nodeName: string) => NodeMetrics,
): TaskGraph {
  const nodes = new Map<string, ProcessorNode>();
  for (const c of compiled.nodes) {
    // Processors may look up their stores here, so the context must already hold them.
    const node = new ProcessorNode(
      c.planned.name,
      c.planned.modelNodeId,
      c.create(ctx),
      metricsFor(c.planned.name),
    );
    nodes.set(node.name, node);
    ctx.nodes.set(node.name, node);
  }
  for (const c of compiled.nodes) {
    const node = nodes.get(c.planned.name)!;
    // Forwarding order is Kafka Streams' child order, not describe()'s sorted successors.
    for (const child of c.planned.children ?? c.planned.successors) {
      const target = nodes.get(child);
      if (!target)
        throw new EngineError(
          'INVALID_PLAN',
          `${node.name} → ${child}: no such node in sub-topology ${compiled.id}`,
        );
      node.children.push(target);
    }
  }
  for (const node of nodes.values()) if (node.children.length === 0) node.recordsE2e = true;
  const sourceByTopic = new Map<string, { node: ProcessorNode; source: CompiledSource }>();
  for (const source of compiled.sources) {
    const node = nodes.get(source.nodeName)!;
    node.recordsE2e = true;
    for (const topic of source.topics) sourceByTopic.set(topic, { node, source });
  }
  return { nodes, sourceByTopic };
}
