// What the canvas draws around the nodes from topology-model's plan: one box per sub-topology
// (the nodes that run in the same task), the repartition topics between them and the state
// stores beside the node that owns them. Pure, so it is tested without a browser; derived, so
// none of it is stored in the document.
import {
  planTopology,
  validateTopology,
  type Plan,
  type TopologyDocument,
} from '@streamwright/topology-model';
import type { Position } from '../model/diff.js';
import { layoutGroups } from './layout-groups.js';
import { modelNodeNear, plannedNodesByName } from './planned-nodes.js';

export interface Size {
  width: number;
  height: number;
}
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SubtopologyBox extends Box {
  id: number;
  global: boolean;
  nodeIds: string[];
}
export interface RepartitionMark {
  /** The topic's full name, `<application.id>-<name>-repartition`. */
  topic: string;
  from: string;
  to: string;
  /** Left end of the label, at the height of the edge it sits above. */
  at: Position;
  maxWidth: number;
}
export interface StoreMark {
  name: string;
  owner: string;
  /** Every model node connected to the store. */
  nodeIds: string[];
  changelogTopic: string | null;
  global: boolean;
  at: Position;
  /** The owner's width: a longer label is cut (its title has it all). */
  maxWidth: number;
}
export interface PlanOverlay {
  subtopologies: SubtopologyBox[];
  repartitions: RepartitionMark[];
  stores: StoreMark[];
}

/** React Flow's size for a node not measured yet (about what KindNode renders). */
export const DEFAULT_NODE_SIZE: Size = { width: 200, height: 84 };
export const GROUP_PADDING = 18;
/** Room above a sub-topology's nodes for its box's label. */
export const GROUP_LABEL = 14;
export const STORE_GAP = 14;
export const STORE_HEIGHT = 26;
/** Widest a repartition topic's label is drawn, and its distance from the writing node. */
export const REPARTITION_LABEL_WIDTH = 190;
export const LABEL_OFFSET = 10;

let memo: { key: readonly unknown[]; plan: Plan | null } | null = null;

/** The plan of a valid document (null while it has problems), memoized on its logic sections. */
export function planOf(doc: TopologyDocument): Plan | null {
  const key = [doc.application, doc.topics, doc.nodes, doc.edges, doc.stores] as const;
  if (memo && memo.key.every((part, i) => part === key[i])) return memo.plan;
  let plan: Plan | null = null;
  const result = validateTopology(doc);
  if (result.ok) {
    try {
      plan = planTopology(result.topology);
    } catch {
      plan = null; // a planning conflict is reported by validation's caller; draw nothing
    }
  }
  memo = { key, plan };
  return plan;
}

export function planOverlay(
  doc: TopologyDocument,
  plan: Plan,
  positions: Readonly<Record<string, Position>>,
  sizes: Readonly<Record<string, Size>>,
): PlanOverlay {
  const boxOf = (id: string): Box | null => {
    const p = positions[id];
    if (!p) return null;
    const s = sizes[id] ?? DEFAULT_NODE_SIZE;
    return { x: p.x, y: p.y, width: s.width, height: s.height };
  };
  const byName = plannedNodesByName(plan);

  const subtopologies: SubtopologyBox[] = [];
  // each node in one box: the one the layout puts it in (a windowedBy, which has no processor of
  // its own, in its neighbours' box), listed in the sub-topology's processor order
  const groups = layoutGroups(doc, plan);
  for (const st of plan.subtopologies) {
    const order = st.nodes.flatMap((n) => (n.modelNodeId ? [n.modelNodeId] : []));
    const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
    const group = groups.find((g) => g.subtopology === st.id)?.nodeIds ?? [];
    const nodeIds = [...group].sort((a, b) => rank(a) - rank(b));
    // stores drawn under their owner belong inside its sub-topology's box
    const storeCount = new Map<string, number>();
    for (const s of plan.stores) {
      const owner = ownerOf(s.processor);
      if (s.subtopology === st.id && owner) storeCount.set(owner, (storeCount.get(owner) ?? 0) + 1);
    }
    const boxes = nodeIds.flatMap((id) => {
      const b = boxOf(id);
      return b ? [{ ...b, below: (storeCount.get(id) ?? 0) * (STORE_HEIGHT + 4) }] : [];
    });
    if (boxes.length === 0) continue;
    const x = Math.min(...boxes.map((b) => b.x)) - GROUP_PADDING;
    const y = Math.min(...boxes.map((b) => b.y)) - GROUP_PADDING - GROUP_LABEL;
    const right = Math.max(...boxes.map((b) => b.x + b.width)) + GROUP_PADDING;
    const bottom =
      Math.max(...boxes.map((b) => b.y + b.height + (b.below > 0 ? STORE_GAP + b.below : 0))) +
      GROUP_PADDING;
    subtopologies.push({
      id: st.id,
      global: st.global,
      nodeIds,
      x,
      y,
      width: right - x,
      height: bottom - y,
    });
  }

  function ownerOf(processor: string): string | null {
    return byName.get(processor)?.modelNodeId ?? null;
  }

  const repartitions: RepartitionMark[] = [];
  for (const topic of plan.internalTopics) {
    if (topic.kind !== 'repartition') continue;
    const sink = [...byName.values()].find(
      (n) => n.op === 'repartition-sink' && n.topic === topic.name,
    );
    const source = [...byName.values()].find(
      (n) => n.op === 'repartition-source' && n.topics?.includes(topic.name),
    );
    if (!sink || !source) continue;
    const from = sink.modelNodeId ?? modelNodeNear(byName, sink, 'predecessors');
    const to = source.modelNodeId ?? modelNodeNear(byName, source, 'successors');
    const a = from ? boxOf(from) : null;
    const b = to ? boxOf(to) : null;
    if (!from || !to || !a || !b) continue;
    // above the edge where it leaves the writing node: the layout keeps that room free
    repartitions.push({
      topic: topic.name,
      from,
      to,
      at: { x: Math.round(a.x + a.width + LABEL_OFFSET), y: Math.round(a.y + a.height / 2) },
      maxWidth: REPARTITION_LABEL_WIDTH,
    });
  }

  const stores: StoreMark[] = [];
  const stacked = new Map<string, number>();
  for (const store of plan.stores) {
    const owner = ownerOf(store.processor);
    const box = owner ? boxOf(owner) : null;
    if (!owner || !box) continue;
    const index = stacked.get(owner) ?? 0;
    stacked.set(owner, index + 1);
    const nodeIds = [
      ...new Set(store.processors.flatMap((p) => (ownerOf(p) ? [ownerOf(p)!] : []))),
    ];
    stores.push({
      name: store.name,
      owner,
      nodeIds,
      changelogTopic: store.changelogTopic,
      global: store.global,
      at: { x: box.x, y: box.y + box.height + STORE_GAP + index * (STORE_HEIGHT + 4) },
      maxWidth: box.width,
    });
  }
  return { subtopologies, repartitions, stores };
}
