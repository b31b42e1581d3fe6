// Which nodes are laid out together: one group per sub-topology of the plan, so each
// sub-topology's box is drawn around nodes that sit together and no box overlaps another (laid
// out as one graph, ELK interleaves the layers of sub-topologies joined through a table, and the
// boxes drawn around their nodes cross).
import type { Plan, TopologyDocument } from '@streamwright/topology-model';
import { modelNodeNear, plannedNodesByName } from './planned-nodes.js';

export interface LayoutGroup {
  /** The sub-topology's id, or null for nodes the plan places nowhere. */
  subtopology: number | null;
  nodeIds: string[];
}

/**
 * The document's nodes in groups, in the plan's sub-topology order. A model node runs in the
 * first sub-topology that has a processor of it; a node without processors of its own (a
 * `windowedBy`) joins the group of the nearest node downstream of it (else upstream).
 */
export function layoutGroups(doc: TopologyDocument, plan: Plan): LayoutGroup[] {
  const groupOf = new Map<string, number>();
  for (const st of plan.subtopologies)
    for (const n of st.nodes)
      if (n.modelNodeId && !groupOf.has(n.modelNodeId)) groupOf.set(n.modelNodeId, st.id);

  const downstream = new Map<string, string[]>();
  const upstream = new Map<string, string[]>();
  const link = (links: Map<string, string[]>, a: string, b: string) =>
    links.set(a, [...(links.get(a) ?? []), b]);
  for (const e of doc.edges) {
    link(downstream, e.from, e.to);
    link(upstream, e.to, e.from);
  }
  for (const node of doc.nodes) {
    if (groupOf.has(node.id)) continue;
    // downstream first: a windowedBy belongs with the aggregation it configures
    const found =
      nearestGrouped(node.id, downstream, groupOf) ?? nearestGrouped(node.id, upstream, groupOf);
    if (found !== null) groupOf.set(node.id, found);
  }

  const groups: LayoutGroup[] = plan.subtopologies.map((st) => ({
    subtopology: st.id,
    nodeIds: [],
  }));
  const loose: string[] = [];
  for (const node of doc.nodes) {
    const id = groupOf.get(node.id);
    const group = id === undefined ? undefined : groups.find((g) => g.subtopology === id);
    if (group) group.nodeIds.push(node.id);
    else loose.push(node.id);
  }
  const out = groups.filter((g) => g.nodeIds.length > 0);
  return loose.length > 0 ? [...out, { subtopology: null, nodeIds: loose }] : out;
}

function nearestGrouped(
  start: string,
  neighbours: ReadonlyMap<string, string[]>,
  groupOf: ReadonlyMap<string, number>,
): number | null {
  const seen = new Set([start]);
  const queue = [...(neighbours.get(start) ?? [])];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const group = groupOf.get(id);
    if (group !== undefined) return group;
    queue.push(...(neighbours.get(id) ?? []));
  }
  return null;
}

/** How many state-store labels the overlay stacks under each node (its owner). */
export function storeRowsByOwner(plan: Plan): Map<string, number> {
  const byName = plannedNodesByName(plan);
  const rows = new Map<string, number>();
  for (const store of plan.stores) {
    const owner = byName.get(store.processor)?.modelNodeId;
    if (owner) rows.set(owner, (rows.get(owner) ?? 0) + 1);
  }
  return rows;
}

/** The nodes that write a repartition topic: the overlay labels the topic at their right. */
export function repartitionWriters(plan: Plan): Set<string> {
  const byName = plannedNodesByName(plan);
  const writers = new Set<string>();
  for (const node of byName.values()) {
    if (node.op !== 'repartition-sink') continue;
    const from = node.modelNodeId ?? modelNodeNear(byName, node, 'predecessors');
    if (from) writers.add(from);
  }
  return writers;
}
