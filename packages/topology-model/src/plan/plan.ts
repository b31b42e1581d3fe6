// planTopology: the topology as the equivalent Kafka Streams DSL program would build it.
//
// DSL call order (it decides every generated name): for each source or generator in `nodes`
// array order, build it, then depth-first build its children, visiting a node's outgoing edges
// in canonical order (fromPort, to, toPort). A node with several inputs (joins, merges: later
// kinds) is built when the last of its inputs has been built.
import { compareEdges, inputPortsOf, isSourceKind } from '../graph.js';
import type { PlannedNode, Plan, SubtopologyPlan } from '../plan-types.js';
import type { Edge, Topology, TopologyNode } from '../schema.js';
import { PlanBuilder, type BuiltNode, type PlanningError } from './builder.js';
import { describeOrder } from './describe-order.js';
import { javaHashOrder } from './java-collections.js';
import { kindPlanners, type Flow } from './kind-planners.js';

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
export function buildPlan(topology: Topology): { plan: Plan; conflicts: PlanningError[] } {
  const b = new PlanBuilder(topology.application.id);
  buildInDslOrder(topology, b);
  if (b.conflicts.length > 0) return { plan: emptyPlan(topology), conflicts: b.conflicts };
  return { plan: assemblePlan(b), conflicts: [] };
}

/** Sub-topologies, describe() order and store placement for a fully built graph. */
export function assemblePlan(b: PlanBuilder): Plan {
  const groups = subtopologyGroups(b);
  const subtopologies = groups.map((group, id) => subtopologyPlan(id, group, b));
  const subtopologyOf = new Map<string, number>();
  for (const sub of subtopologies) for (const n of sub.nodes) subtopologyOf.set(n.name, sub.id);
  const stores = b.stores.map((s) => ({ ...s, subtopology: subtopologyOf.get(s.processor) ?? -1 }));
  return {
    applicationId: b.applicationId,
    subtopologies,
    stores,
    internalTopics: b.internalTopics,
    nodeNames: b.nodeNames,
  };
}

function emptyPlan(topology: Topology): Plan {
  return {
    applicationId: topology.application.id,
    subtopologies: [],
    stores: [],
    internalTopics: [],
    nodeNames: {},
  };
}

function buildInDslOrder(topology: Topology, b: PlanBuilder): void {
  const byId = new Map(topology.nodes.map((n) => [n.id, n]));
  const outEdges = new Map<string, Edge[]>();
  for (const e of topology.edges) {
    const list = outEdges.get(e.from) ?? [];
    list.push(e);
    outEdges.set(e.from, list);
  }
  for (const list of outEdges.values()) list.sort(compareEdges);
  const delivered = new Map<string, Map<string, Flow>>();
  const built = new Set<string>();

  const build = (node: TopologyNode, input: Flow | undefined): void => {
    built.add(node.id);
    const planner = kindPlanners[node.kind] as (
      n: TopologyNode,
      i: Flow | undefined,
      builder: PlanBuilder,
    ) => Flow | null;
    const out = planner(node, input, b);
    if (!out) return;
    for (const e of outEdges.get(node.id) ?? []) {
      const target = byId.get(e.to);
      if (!target)
        throw new Error(`edge ${e.from} → ${e.to}: no such node (validate before planning)`);
      if (built.has(target.id))
        throw new Error(`node "${target.id}" is reached twice: the graph has a cycle or a fan-in`);
      const inputs = delivered.get(target.id) ?? new Map<string, Flow>();
      inputs.set(e.toPort, out);
      delivered.set(target.id, inputs);
      const ports = inputPortsOf(target.kind);
      if (ports.every((p) => inputs.has(p.port))) {
        // v1 kinds have one input; multi-input kinds will receive `inputs` whole.
        build(target, inputs.get(ports[0]?.port ?? 'in'));
      }
    }
  };
  for (const node of topology.nodes) if (isSourceKind(node.kind)) build(node, undefined);
  const unbuilt = topology.nodes.filter((n) => !built.has(n.id)).map((n) => n.id);
  if (unbuilt.length > 0)
    throw new Error(
      `nodes not reachable from a source: ${unbuilt.join(', ')} (validate before planning)`,
    );
}

/**
 * InternalTopologyBuilder#makeNodeGroups: connected components of the processor graph (a
 * repartition topic does not connect its sink to its source), numbered in the order their first
 * node was added.
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
    // Processors sharing a store must run in the same task.
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
  const nodes: PlannedNode[] = order.nodes.map((name) => {
    const { parents: _parents, ...node } = built(name);
    const planned: PlannedNode = {
      ...node,
      stores: javaHashOrder(node.stores, 'copy'),
      successors: order.successors.get(name) ?? [],
      predecessors: order.predecessors.get(name) ?? [],
    };
    // Source topics print as a HashSet built from the topic list (new HashSet<>(topics)).
    if (node.topics) planned.topics = javaHashOrder(node.topics, 'copy');
    return planned;
  });
  const unique = (xs: (string | undefined)[]): string[] =>
    [...new Set(xs.filter((x): x is string => x !== undefined))].sort();
  return {
    id,
    nodes,
    sourceTopics: unique(nodes.flatMap((n) => (n.role === 'source' ? (n.topics ?? []) : []))),
    sinkTopics: unique(nodes.map((n) => (n.role === 'sink' ? n.topic : undefined))),
  };
}
