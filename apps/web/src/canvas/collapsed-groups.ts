// Collapsed sub-topology groups: at 100+ nodes a user folds the sub-topologies they are not
// looking at into one summary node each (like NiFi's process groups). A folded group's nodes are
// hidden; an edge between a folded node and a shown one is drawn from or to the summary; edges
// inside the group disappear. Pure, derived from the plan's boxes: nothing is stored in the
// document, only which groups are folded (view state).
import type { Edge as FlowEdge } from '@xyflow/react';
import type { TopologyDocument } from '@streamwright/topology-model';
import type { SubtopologyBox } from '../layout/plan-overlay.js';

export interface GroupSummary {
  /** The summary's React Flow id. */
  id: string;
  subtopology: number;
  position: { x: number; y: number };
  nodeIds: string[];
}

export interface CollapsedView {
  /** Model nodes hidden inside a folded group. */
  hidden: ReadonlySet<string>;
  summaries: GroupSummary[];
  /** Edges crossing into or out of folded groups, drawn to their summaries. */
  edges: FlowEdge[];
}

export const NO_COLLAPSE: CollapsedView = { hidden: new Set(), summaries: [], edges: [] };

const SUMMARY_PREFIX = 'subtopology-group-';
export const summaryId = (subtopology: number) => `${SUMMARY_PREFIX}${subtopology}`;
export const isSummaryId = (id: string) => id.startsWith(SUMMARY_PREFIX);

/**
 * Each model node is folded with the first sub-topology it runs in (a groupBy's repartition
 * source also runs in the next one, but the node is drawn where its key selector runs).
 */
export function collapsedView(
  boxes: readonly SubtopologyBox[],
  collapsed: ReadonlySet<number>,
  edges: TopologyDocument['edges'],
): CollapsedView {
  if (collapsed.size === 0) return NO_COLLAPSE;
  const home = new Map<string, number>();
  for (const box of boxes) for (const id of box.nodeIds) if (!home.has(id)) home.set(id, box.id);
  const hidden = new Set<string>();
  const summaries: GroupSummary[] = [];
  for (const box of boxes) {
    if (!collapsed.has(box.id)) continue;
    const nodeIds = box.nodeIds.filter((id) => home.get(id) === box.id);
    if (nodeIds.length === 0) continue;
    for (const id of nodeIds) hidden.add(id);
    summaries.push({
      id: summaryId(box.id),
      subtopology: box.id,
      position: { x: box.x, y: box.y },
      nodeIds,
    });
  }
  const endOf = (nodeId: string) => (hidden.has(nodeId) ? summaryId(home.get(nodeId)!) : null);
  const out = new Map<string, FlowEdge>();
  for (const e of edges) {
    const from = endOf(e.from);
    const to = endOf(e.to);
    if (from === null && to === null) continue; // drawn as usual
    if (from !== null && from === to) continue; // inside one folded group
    const source = from ?? e.from;
    const target = to ?? e.to;
    const sourceHandle = from === null ? (e.fromPort ?? 'out') : 'out';
    const targetHandle = to === null ? (e.toPort ?? 'in') : 'in';
    const id = `folded:${source}:${sourceHandle}->${target}:${targetHandle}`;
    if (!out.has(id))
      out.set(id, {
        id,
        source,
        target,
        sourceHandle,
        targetHandle,
        selectable: false,
        deletable: false,
        className: 'sw-edge--folded',
      });
  }
  return { hidden, summaries, edges: [...out.values()] };
}
