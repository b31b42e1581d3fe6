// Document → React Flow nodes and edges. React Flow re-renders a node whenever its object changes,
// so objects are rebuilt only when something they show changed (the model node, its position,
// selection or measured size): dragging one node re-creates one node object, not all of them.
import type { Edge as FlowEdge, Node as FlowNode } from '@xyflow/react';
import type { TopologyDocument } from '@streamwright/topology-model';
import { edgeKey, type Position, type RawNode } from '../model/diff.js';
import { edgeFlow, type EdgeFlow } from '../live/edge-flow.js';

export interface KindNodeData extends Record<string, unknown> {
  node: RawNode;
}
export type KindFlowNode = FlowNode<KindNodeData, 'kind'>;

interface CachedNode {
  node: RawNode;
  position: Position;
  selected: boolean;
  measured: { width: number; height: number } | undefined;
  flow: KindFlowNode;
}

/** Where a node without a stored position goes: a simple left-to-right grid. */
export function fallbackPosition(index: number): Position {
  return { x: 40 + (index % 5) * 240, y: 40 + Math.floor(index / 5) * 160 };
}

export function createNodeMapper() {
  let cache = new Map<string, CachedNode>();
  return function toFlowNodes(
    nodes: TopologyDocument['nodes'],
    layout: TopologyDocument['layout']['nodes'],
    selectedNodeIds: readonly string[],
    measured: Readonly<Record<string, { width: number; height: number }>>,
  ): KindFlowNode[] {
    const next = new Map<string, CachedNode>();
    const selection = new Set(selectedNodeIds);
    const out = nodes.map((node, index) => {
      const position = layout[node.id] ?? fallbackPosition(index);
      const selected = selection.has(node.id);
      const size = measured[node.id];
      const hit = cache.get(node.id);
      if (
        hit &&
        hit.node === node &&
        hit.selected === selected &&
        hit.measured === size &&
        hit.position.x === position.x &&
        hit.position.y === position.y
      ) {
        next.set(node.id, hit);
        return hit.flow;
      }
      const flow: KindFlowNode = { id: node.id, type: 'kind', position, data: { node }, selected };
      if (size) flow.measured = size;
      next.set(node.id, { node, position, selected, measured: size, flow });
      return flow;
    });
    cache = next;
    return out;
  };
}

export function createEdgeMapper() {
  type Cached = {
    edge: TopologyDocument['edges'][number];
    selected: boolean;
    live: EdgeFlow;
    flow: FlowEdge;
  };
  let cache = new Map<string, Cached>();
  return function toFlowEdges(
    edges: TopologyDocument['edges'],
    selectedKeys: readonly string[],
    rates: Readonly<Record<string, { rate: number }>> = {},
  ): FlowEdge[] {
    const selected = new Set(selectedKeys);
    const next = new Map<string, Cached>();
    const out = edges.map((edge) => {
      const id = edgeKey(edge);
      const isSelected = selected.has(id);
      const live = edgeFlow(rates[edge.from]?.rate);
      const hit = cache.get(id);
      if (
        hit &&
        hit.edge === edge &&
        hit.selected === isSelected &&
        hit.live.width === live.width &&
        hit.live.animated === live.animated
      ) {
        next.set(id, hit);
        return hit.flow;
      }
      const flow: FlowEdge = {
        id,
        source: edge.from,
        sourceHandle: edge.fromPort,
        target: edge.to,
        targetHandle: edge.toPort,
        selected: isSelected,
        animated: live.animated,
        style: { strokeWidth: live.width },
        ...(live.animated ? { className: 'sw-edge--flowing' } : {}),
      };
      next.set(id, { edge, selected: isSelected, live, flow });
      return flow;
    });
    cache = next;
    return out;
  };
}
