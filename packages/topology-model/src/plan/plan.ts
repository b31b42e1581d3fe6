// planTopology: the topology as the equivalent Kafka Streams DSL program would build it.
//
// DSL call order (it decides every generated name): for each source kind (source, generator,
// table, globalTable) in `nodes` array order, build it, then depth-first build its children:
// output ports in port order (a split's branches in branch order, default last), and within a
// port the outgoing edges in canonical order (to, toPort). A node with several inputs (merge,
// cogroup) is built when the last of its incoming edges has been delivered; its inputs arrive in
// canonical edge order (from, fromPort).
import { compareEdges, isSourceKind, outputPortsOf } from '../graph.js';
import type { PlannedNode, Plan, StorePlan, SubtopologyPlan } from '../plan-types.js';
import type { Edge, Topology, TopologyNode } from '../schema.js';
import { PlanBuilder, storePlanOf, type BuiltNode, type PlanningError } from './builder.js';
import { describeOrder } from './describe-order.js';
import type { Flow } from './flow.js';
import { javaHashOrder } from './java-collections.js';
import { kindPlanners } from './kind-planners.js';
import { markNullKeyFilters } from './null-key-filters.js';
import { versionedPlan } from './versioned-plan.js';

/**
 * @throws PlanningError when two nodes get the same Kafka Streams name or materialize the same
 *   store (validateTopology reports these as `duplicate_name` / `duplicate_store`).
 */
export function planTopology(topology: Topology): Plan {
  const { plan, conflicts } = buildPlan(topology);
  if (conflicts[0]) throw conflicts[0];
  return plan;
}

/** The plan plus every naming conflict found (the plan is only meaningful without conflicts). */
export function buildPlan(topology: Topology): {
  plan: Plan;
  conflicts: PlanningError[];
  /** The model node (a join) each of the plan's copartitionGroups is for. */
  copartitionOwners: (string | undefined)[];
} {
  const b = new PlanBuilder(topology.application.id, {
    reuseSourceTopics:
      topology.application.config['topology.optimization'] === 'reuse.ktable.source.topics',
    declaredTopics: topology.topics.map((t) => t.name),
  });
  // StreamsBuilder#addStateStore: document stores exist whether or not a processor uses them.
  for (const s of topology.stores ?? []) {
    const pending = b.addStore(
      {
        name: s.name,
        keySerde: s.keySerde,
        valueSerde: s.valueSerde,
        logging: s.logging,
        caching: s.caching,
        storeType: s.storeType,
        global: false,
        materialized: true,
      },
      undefined,
    );
    if (s.type === 'versioned') {
      pending.versioned = versionedPlan(s);
      continue;
    }
    if (s.type === 'keyValue') continue;
    pending.type = s.type;
    pending.retentionMs = s.retentionMs ?? 0;
    if (s.type === 'window')
      pending.windowStore = {
        sizeMs: s.windowSizeMs ?? 0,
        retainDuplicates: s.retainDuplicates ?? false,
      };
  }
  buildInDslOrder(topology, b);
  markNullKeyFilters(topology, b);
  if (b.conflicts.length > 0)
    return { plan: emptyPlan(topology), conflicts: b.conflicts, copartitionOwners: [] };
  return { plan: assemblePlan(b), conflicts: [], copartitionOwners: b.copartitionOwners };
}

/** Sub-topologies, describe() order and store placement for a fully built graph. */
export function assemblePlan(b: PlanBuilder): Plan {
  // Stores that were never materialized (an unnamed table nobody forced) do not exist.
  const exists = (store: string): boolean => b.stores.get(store)?.materialized ?? true;
  for (const node of b.nodes.values()) node.stores = node.stores.filter(exists);
  const groups = subtopologyGroups(b);
  const subtopologies = groups.map((group, id) => subtopologyPlan(id, group, b));
  const subtopologyOf = new Map<string, number>();
  for (const sub of subtopologies) for (const n of sub.nodes) subtopologyOf.set(n.name, sub.id);
  const stores: StorePlan[] = [];
  for (const store of b.stores.values()) {
    if (!store.materialized) continue;
    const processors = [...b.nodes.values()]
      .filter((n) => n.stores.includes(store.name))
      .map((n) => n.name);
    // A document store no processor is connected to is never created (nor its changelog).
    if (processors.length === 0) continue;
    const plan = storePlanOf(store, processors, b.applicationId);
    stores.push({ ...plan, subtopology: subtopologyOf.get(plan.processor) ?? -1 });
  }
  const changelogs = stores
    .filter(
      (s) =>
        s.changelogTopic !== null &&
        s.changelogTopic !== b.stores.get(s.name)?.sourceTopicChangelog,
    )
    .map((s) => ({
      name: s.changelogTopic as string,
      kind: 'changelog' as const,
      partitions: null,
      // Windowed changelogs are compacted and deleted after the store's retention plus
      // windowstore.changelog.additional.retention.ms (1 day), as Kafka Streams configures them.
      // Versioned changelogs (VersionedChangelogTopicConfig) are compacted no sooner than the
      // history retention plus one day, so a restore still finds the history.
      config:
        s.versioned !== undefined
          ? {
              ...CHANGELOG_CONFIG,
              'min.compaction.lag.ms': String(s.versioned.historyRetentionMs + 86_400_000),
            }
          : s.retentionMs === undefined
            ? { ...CHANGELOG_CONFIG, ...s.changelogConfig }
            : {
                ...CHANGELOG_CONFIG,
                'cleanup.policy': 'compact,delete',
                'retention.ms': String(s.retentionMs + 86_400_000),
                // WindowedChangelogTopicConfig: the store's topic configs win, retention.ms too.
                ...s.changelogConfig,
              },
    }));
  return {
    applicationId: b.applicationId,
    subtopologies,
    stores,
    internalTopics: [...b.repartitionTopics, ...changelogs],
    nodeNames: b.nodeNames,
    ...(b.copartitionGroups.length > 0 ? { copartitionGroups: b.copartitionGroups } : {}),
  };
}

const CHANGELOG_CONFIG: Record<string, string> = {
  'message.timestamp.type': 'CreateTime',
  'cleanup.policy': 'compact',
};

function emptyPlan(topology: Topology): Plan {
  return {
    applicationId: topology.application.id,
    subtopologies: [],
    stores: [],
    internalTopics: [],
    nodeNames: Object.create(null) as Record<string, string[]>,
  };
}

function buildInDslOrder(topology: Topology, b: PlanBuilder): void {
  const byId = new Map(topology.nodes.map((n) => [n.id, n]));
  const outEdges = new Map<string, Edge[]>();
  const incoming = new Map<string, number>();
  for (const e of topology.edges) {
    const list = outEdges.get(e.from) ?? [];
    list.push(e);
    outEdges.set(e.from, list);
    incoming.set(e.to, (incoming.get(e.to) ?? 0) + 1);
  }
  for (const list of outEdges.values()) list.sort(compareEdges);
  const delivered = new Map<string, { edge: Edge; flow: Flow }[]>();
  const built = new Set<string>();

  const build = (node: TopologyNode, inputs: Map<string, Flow[]>): void => {
    built.add(node.id);
    b.currentModelNode = node.id;
    const planner = kindPlanners[node.kind] as (
      n: TopologyNode,
      i: Map<string, Flow[]>,
      builder: PlanBuilder,
    ) => Flow | ReadonlyMap<string, Flow> | null;
    const out = planner(node, inputs, b);
    if (!out) return;
    const edges = outEdges.get(node.id) ?? [];
    for (const port of outputPortsOf(node.kind, node.config)) {
      const flow = isFlowMap(out) ? out.get(port) : out;
      if (!flow) continue;
      for (const e of edges) if (e.fromPort === port) deliver(e, flow);
    }
  };
  const deliver = (e: Edge, flow: Flow): void => {
    const target = byId.get(e.to);
    if (!target)
      throw new Error(`edge ${e.from} → ${e.to}: no such node (validate before planning)`);
    if (built.has(target.id))
      throw new Error(`node "${target.id}" is reached after it was built: the graph has a cycle`);
    const list = delivered.get(target.id) ?? [];
    list.push({ edge: e, flow });
    delivered.set(target.id, list);
    if (list.length < (incoming.get(target.id) ?? 0)) return;
    const inputs = new Map<string, Flow[]>();
    for (const { edge, flow: f } of [...list].sort((x, y) => compareEdges(x.edge, y.edge))) {
      const port = inputs.get(edge.toPort) ?? [];
      port.push(f);
      inputs.set(edge.toPort, port);
    }
    build(target, inputs);
  };
  for (const node of topology.nodes) if (isSourceKind(node.kind)) build(node, new Map());
  const unbuilt = topology.nodes.filter((n) => !built.has(n.id)).map((n) => n.id);
  if (unbuilt.length > 0)
    throw new Error(
      `nodes not reachable from a source: ${unbuilt.join(', ')} (validate before planning)`,
    );
}

function isFlowMap(out: Flow | ReadonlyMap<string, Flow>): out is ReadonlyMap<string, Flow> {
  return out instanceof Map;
}

/**
 * InternalTopologyBuilder#makeNodeGroups: connected components of the processor graph (a
 * repartition topic does not connect its sink to its source; processors sharing a store are
 * connected), numbered in the order their first node was added.
 */
function subtopologyGroups(b: PlanBuilder): string[][] {
  const parent = new Map<string, string>();
  const root = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r) as string;
    parent.set(x, r);
    return r;
  };
  const unite = (x: string, y: string): void => {
    parent.set(root(x), root(y));
  };
  for (const name of b.nodes.keys()) parent.set(name, name);
  const storeOwner = new Map<string, string>();
  for (const node of b.nodes.values()) {
    for (const p of node.parents) unite(node.name, p);
    for (const s of node.stores) {
      const owner = storeOwner.get(s);
      if (owner) unite(node.name, owner);
      else storeOwner.set(s, node.name);
    }
  }
  const groups = new Map<string, string[]>();
  for (const name of b.nodes.keys()) {
    const r = root(name);
    const group = groups.get(r) ?? [];
    group.push(name);
    groups.set(r, group);
  }
  return [...groups.values()];
}

function subtopologyPlan(id: number, group: string[], b: PlanBuilder): SubtopologyPlan {
  const built = (name: string): BuiltNode => b.nodes.get(name) as BuiltNode;
  const order = describeOrder(group, (name) => built(name).parents);
  // Forwarding order: ProcessorTopology adds each node to its parents' children in the order the
  // nodes were added to the builder, which is the planner's (the DSL's) build order.
  const members = new Set(group);
  const children = new Map<string, string[]>();
  for (const name of b.nodes.keys()) {
    if (!members.has(name)) continue;
    for (const parent of new Set(built(name).parents)) {
      if (!members.has(parent)) continue;
      const list = children.get(parent) ?? [];
      list.push(name);
      children.set(parent, list);
    }
  }
  const nodes: PlannedNode[] = order.nodes.map((name) => {
    const { parents: _parents, global: _global, ...node } = built(name);
    const planned: PlannedNode = {
      ...node,
      stores: javaHashOrder(node.stores, 'copy'),
      successors: order.successors.get(name) ?? [],
      predecessors: order.predecessors.get(name) ?? [],
      children: children.get(name) ?? [],
    };
    // Source topics print as a HashSet built from the topic list (new HashSet<>(topics)).
    if (node.topics) planned.topics = javaHashOrder(node.topics, 'copy');
    return planned;
  });
  const unique = (xs: (string | undefined)[]): string[] =>
    [...new Set(xs.filter((x): x is string => x !== undefined))].sort();
  return {
    id,
    global: group.some((name) => built(name).global === true),
    nodes,
    sourceTopics: unique(nodes.flatMap((n) => (n.role === 'source' ? (n.topics ?? []) : []))),
    sinkTopics: unique(nodes.map((n) => (n.role === 'sink' ? n.topic : undefined))),
  };
}
