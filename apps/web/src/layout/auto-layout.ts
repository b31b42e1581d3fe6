// Auto-layout with ELK's layered algorithm (left to right, as records flow). Ports are fixed in
// the order topology-model gives them (a split's branches top to bottom, a cogroup's inputs), so
// edges leave and enter where the node draws its handles and branches do not cross.
import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api.js';
import {
  inputPortsOf,
  isNodeKind,
  outputPortsOf,
  type TopologyDocument,
} from '@streamwright/topology-model';
import type { Position } from '../model/diff.js';
import { DEFAULT_NODE_SIZE, type Size } from './plan-overlay.js';

const portId = (node: string, side: 'in' | 'out', port: string) =>
  `${node}\u0000${side}\u0000${port}`;

export const LAYOUT_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.layered.spacing.nodeNodeBetweenLayers': '90',
  'elk.spacing.nodeNode': '60',
  'elk.spacing.componentComponent': '90',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.crossingMinimization.semiInteractive': 'true',
};

/** The ELK graph of a document: nodes with their sizes and ports, edges port to port. */
export function elkGraph(doc: TopologyDocument, sizes: Readonly<Record<string, Size>>): ElkNode {
  const ports = new Set<string>();
  const children: ElkNode[] = doc.nodes.map((node) => {
    const size = sizes[node.id] ?? DEFAULT_NODE_SIZE;
    const kind = node.kind;
    const inputs = isNodeKind(kind) ? inputPortsOf(kind, node.config).map((p) => p.port) : ['in'];
    const outputs = isNodeKind(kind) ? outputPortsOf(kind, node.config) : ['out'];
    const nodePorts: ElkPort[] = [
      ...inputs.map((port, i) => ({
        id: portId(node.id, 'in', port),
        width: 8,
        height: 8,
        layoutOptions: { 'elk.port.side': 'WEST', 'elk.port.index': String(inputs.length - i) },
      })),
      ...outputs.map((port, i) => ({
        id: portId(node.id, 'out', port),
        width: 8,
        height: 8,
        // ELK numbers ports clockwise: EAST ports top to bottom
        layoutOptions: { 'elk.port.side': 'EAST', 'elk.port.index': String(i) },
      })),
    ];
    for (const p of nodePorts) ports.add(p.id);
    return {
      id: node.id,
      width: size.width,
      height: size.height,
      ports: nodePorts,
      layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' },
    };
  });
  // edges to a missing node or port (a half-edited document) are left out of the layout
  const edges: ElkExtendedEdge[] = doc.edges.flatMap((e, i) => {
    const source = portId(e.from, 'out', e.fromPort);
    const target = portId(e.to, 'in', e.toPort);
    return ports.has(source) && ports.has(target)
      ? [{ id: `e${i}`, sources: [source], targets: [target] }]
      : [];
  });
  return { id: 'root', layoutOptions: LAYOUT_OPTIONS, children, edges };
}

/** Node positions laid out by ELK, offset so the drawing starts near the origin. */
export async function autoLayout(
  doc: TopologyDocument,
  sizes: Readonly<Record<string, Size>>,
): Promise<Record<string, Position>> {
  if (doc.nodes.length === 0) return {};
  // loaded on first use: ELK is large and most sessions never lay out
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const laid = await new ELK().layout(elkGraph(doc, sizes));
  const out: Record<string, Position> = {};
  for (const child of laid.children ?? []) {
    out[child.id] = { x: Math.round((child.x ?? 0) + 40), y: Math.round((child.y ?? 0) + 40) };
  }
  return out;
}
