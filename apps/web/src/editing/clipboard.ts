// Copy / paste of canvas selections. A copied selection is a small JSON fragment (nodes, the
// edges between them, their positions) so it survives the system clipboard and can be pasted
// into another designer tab; pasted nodes get fresh ids and keep their edges among themselves.
import type { Edge, TopologyDocument } from '@streamwright/topology-model';
import { edgeKey, type ModelDiff, type Position, type RawNode } from '../model/diff.js';
import { freshNodeId } from '../model/operations.js';

export const FRAGMENT_FORMAT = 'streamwright/fragment';

export interface Fragment {
  format: typeof FRAGMENT_FORMAT;
  nodes: RawNode[];
  edges: Edge[];
  layout: Record<string, Position>;
}

/** The selected nodes with the edges that run between them (edges leaving the selection stay). */
export function copyFragment(doc: TopologyDocument, nodeIds: readonly string[]): Fragment | null {
  const ids = new Set(nodeIds);
  const nodes = doc.nodes.filter((n) => ids.has(n.id));
  if (nodes.length === 0) return null;
  const layout: Record<string, Position> = {};
  for (const n of nodes) {
    const p = doc.layout.nodes[n.id];
    if (p) layout[n.id] = p;
  }
  return {
    format: FRAGMENT_FORMAT,
    nodes,
    edges: doc.edges.filter((e) => ids.has(e.from) && ids.has(e.to)),
    layout,
  };
}

/** Reads a fragment from clipboard text; null when the text is something else. */
export function parseFragment(text: string): Fragment | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const f = value as Partial<Fragment>;
  if (f.format !== FRAGMENT_FORMAT || !Array.isArray(f.nodes) || !Array.isArray(f.edges))
    return null;
  const nodes = f.nodes.filter(
    (n): n is RawNode =>
      typeof n === 'object' && n !== null && typeof n.id === 'string' && typeof n.kind === 'string',
  );
  return {
    format: FRAGMENT_FORMAT,
    nodes: nodes.map((n) => ({
      ...n,
      config: typeof n.config === 'object' && n.config ? n.config : {},
    })),
    edges: f.edges.filter(
      (e): e is Edge => typeof e?.from === 'string' && typeof e?.to === 'string',
    ),
    layout: typeof f.layout === 'object' && f.layout !== null ? f.layout : {},
  };
}

/**
 * Adds a fragment's nodes under fresh ids (`filter1` → `filter2` when taken), shifted by
 * `offset` so the copy is visible beside the original. Kafka Streams names are dropped: two
 * processors may not share one.
 */
export function pasteFragment(
  doc: TopologyDocument,
  fragment: Fragment,
  offset: Position,
): { ids: string[]; diff: ModelDiff } {
  const renamed = new Map<string, string>();
  const addedNodes: Record<string, RawNode> = {};
  const addedLayout: Record<string, Position> = {};
  // each new id must also avoid the ones this paste already took
  let scratch: TopologyDocument = doc;
  fragment.nodes.forEach((node, i) => {
    const kindBase = node.id.replace(/\d+$/, '') || node.kind;
    const id = freshNodeId(scratch, kindBase);
    renamed.set(node.id, id);
    const { name: _name, ...rest } = node;
    addedNodes[id] = { ...rest, id };
    const p = fragment.layout[node.id] ?? { x: 40 + i * 30, y: 40 + i * 30 };
    addedLayout[id] = { x: Math.round(p.x + offset.x), y: Math.round(p.y + offset.y) };
    scratch = { ...scratch, nodes: [...scratch.nodes, addedNodes[id]] };
  });
  const addedEdges: Record<string, Edge> = {};
  for (const e of fragment.edges) {
    const from = renamed.get(e.from);
    const to = renamed.get(e.to);
    if (!from || !to) continue;
    const edge = { ...e, from, to };
    addedEdges[edgeKey(edge)] = edge;
  }
  return {
    ids: [...renamed.values()],
    diff: {
      nodes: { added: addedNodes },
      edges: { added: addedEdges },
      layout: { added: addedLayout },
    },
  };
}
