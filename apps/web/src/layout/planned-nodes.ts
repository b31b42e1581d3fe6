// Lookups over a plan's processor graph that both the plan overlay and the layout groups use.
// Their own module so that plan-overlay.ts (which lays out with layout-groups.ts) and
// layout-groups.ts do not import each other.
import type { Plan, PlannedNode } from '@streamwright/topology-model';

/** Every planned node of every sub-topology, by its processor name. */
export function plannedNodesByName(plan: Plan): Map<string, PlannedNode> {
  const byName = new Map<string, PlannedNode>();
  for (const st of plan.subtopologies) for (const n of st.nodes) byName.set(n.name, n);
  return byName;
}

/** The model node a planned node stands for, looking through synthetic repartition nodes. */
export function modelNodeNear(
  byName: ReadonlyMap<string, PlannedNode>,
  start: PlannedNode,
  direction: 'predecessors' | 'successors',
): string | null {
  const seen = new Set<string>();
  const queue = [...start[direction]];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const node = byName.get(name);
    if (!node) continue;
    if (node.modelNodeId) return node.modelNodeId;
    queue.push(...node[direction]);
  }
  return null;
}
