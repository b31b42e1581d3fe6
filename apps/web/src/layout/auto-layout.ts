// Auto-layout with ELK's layered algorithm (left to right, as records flow). Ports are fixed in
// the order topology-model gives them (a split's branches top to bottom, a cogroup's inputs), so
// edges leave and enter where the node draws its handles and branches do not cross.
//
// Legible at scale: a long pipeline laid out as one row fits the view only at a zoom where no
// text can be read (the seed's 13-node purchase analysis sat at 0.29). From WRAP_FROM nodes on,
// ELK wraps the layers into rows (multi-edge wrapping) and packs the sub-topologies (connected
// components) towards the canvas's aspect ratio, so fit-view lands at a readable zoom. Each node
// is laid out at the height it will have once it runs (live counter, busy and lag bars), so the
// numbers that appear after a deploy never overlap the gaps.
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

/** Documents with at least this many nodes are wrapped into rows; smaller ones stay one row. */
export const WRAP_FROM = 9;

/** Height a running node gains: the counter row and the busy bar; a source also its lag bar. */
const LIVE_ROWS_HEIGHT = 52;
const LAG_ROW_HEIGHT = 22;

export interface AutoLayoutOptions {
  /** Width / height of the canvas the result will be fitted into (default 1.6). */
  aspectRatio?: number;
}

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
export function elkGraph(
  doc: TopologyDocument,
  sizes: Readonly<Record<string, Size>>,
  options: AutoLayoutOptions = {},
): ElkNode {
  const ports = new Set<string>();
  const children: ElkNode[] = doc.nodes.map((node) => {
    const size = reservedSize(node.kind, sizes[node.id] ?? DEFAULT_NODE_SIZE);
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
  const wrap: Record<string, string> =
    doc.nodes.length >= WRAP_FROM
      ? {
          'elk.layered.wrapping.strategy': 'MULTI_EDGE',
          'elk.aspectRatio': String(options.aspectRatio ?? 1.6),
        }
      : {};
  return { id: 'root', layoutOptions: { ...LAYOUT_OPTIONS, ...wrap }, children, edges };
}

/**
 * A node's size with room for what a running app adds (a measured node that already shows them
 * is taller than DEFAULT_NODE_SIZE and keeps its height).
 */
function reservedSize(kind: string, size: Size): Size {
  const reading = kind === 'source' || kind === 'table' || kind === 'globalTable';
  const reserved = DEFAULT_NODE_SIZE.height + LIVE_ROWS_HEIGHT + (reading ? LAG_ROW_HEIGHT : 0);
  return { width: size.width, height: Math.max(size.height, reserved) };
}

/** Node positions laid out by ELK, offset so the drawing starts near the origin. */
export async function autoLayout(
  doc: TopologyDocument,
  sizes: Readonly<Record<string, Size>>,
  options: AutoLayoutOptions = {},
): Promise<Record<string, Position>> {
  if (doc.nodes.length === 0) return {};
  // loaded on first use: ELK is large and most sessions never lay out
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const laid = await new ELK().layout(elkGraph(doc, sizes, options));
  const out: Record<string, Position> = {};
  for (const child of laid.children ?? []) {
    out[child.id] = { x: Math.round((child.x ?? 0) + 40), y: Math.round((child.y ?? 0) + 40) };
  }
  return out;
}
