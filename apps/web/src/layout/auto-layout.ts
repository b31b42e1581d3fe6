// Auto-layout with ELK's layered algorithm (left to right, as records flow). Ports are fixed in
// the order topology-model gives them (a split's branches top to bottom, a cogroup's inputs), so
// edges leave and enter where the node draws its handles and branches do not cross.
//
// Each sub-topology is laid out on its own and the sub-topologies are then placed side by side,
// so the box drawn around a sub-topology never overlaps another's (laid out as one graph, ELK
// interleaves sub-topologies joined through a table).
//
// Legible at scale: a long pipeline laid out as one row fits the view only at a zoom where no
// text can be read (the seed's 13-node purchase analysis sat at 0.29). From WRAP_FROM nodes on, a
// large sub-topology may wrap its layers into rows (ELK's multi-edge wrapping) and sub-topologies
// are placed in rows, whichever fits the canvas's aspect ratio at the largest zoom. Each node is
// laid out at the height it will have once it runs (live counter, busy and lag bars, the state
// stores drawn under it), so the numbers that appear after a deploy never overlap the gaps.
import type ElkApi from 'elkjs/lib/elk-api.js';
import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api.js';
import {
  inputPortsOf,
  isNodeKind,
  outputPortsOf,
  type TopologyDocument,
} from '@streamwright/topology-model';
import type { Position } from '../model/diff.js';
import { layoutGroups, repartitionWriters, storeRowsByOwner } from './layout-groups.js';
import {
  DEFAULT_NODE_SIZE,
  GROUP_LABEL,
  GROUP_PADDING,
  LABEL_OFFSET,
  planOf,
  REPARTITION_LABEL_WIDTH,
  STORE_GAP,
  STORE_HEIGHT,
  type Size,
} from './plan-overlay.js';
import { fitScale, shelfPack } from './shelf-pack.js';

const portId = (node: string, side: 'in' | 'out', port: string) =>
  `${node}\u0000${side}\u0000${port}`;

/** Documents with at least this many nodes are wrapped into rows; smaller ones stay one row. */
export const WRAP_FROM = 9;

/** Height a running node gains: the counter row and the busy bar; a source also its lag bar. */
const LIVE_ROWS_HEIGHT = 52;
const LAG_ROW_HEIGHT = 22;
/** Space between two sub-topology boxes. */
const GROUP_GAP = 60;
const ORIGIN = 40;

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

/** What the layout reserves beyond a node's drawn size. */
interface Reserve {
  /** State-store labels stacked under each node. */
  storeRows?: ReadonlyMap<string, number>;
}

/** The ELK graph of a document: nodes with their sizes and ports, edges port to port. */
export function elkGraph(
  doc: TopologyDocument,
  sizes: Readonly<Record<string, Size>>,
  options: AutoLayoutOptions = {},
): ElkNode {
  return elkGraphOf(doc, doc.nodes, sizes, {
    wrap: doc.nodes.length >= WRAP_FROM,
    aspectRatio: options.aspectRatio ?? 1.6,
  });
}

/** The ELK graph of some of a document's nodes and the edges among them. */
function elkGraphOf(
  doc: TopologyDocument,
  nodes: TopologyDocument['nodes'],
  sizes: Readonly<Record<string, Size>>,
  options: { wrap: boolean; aspectRatio: number } & Reserve,
): ElkNode {
  const ports = new Set<string>();
  const children: ElkNode[] = nodes.map((node) => {
    const size = reservedSize(
      node.kind,
      sizes[node.id] ?? DEFAULT_NODE_SIZE,
      options.storeRows?.get(node.id) ?? 0,
    );
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
  const wrap: Record<string, string> = options.wrap
    ? {
        'elk.layered.wrapping.strategy': 'MULTI_EDGE',
        'elk.aspectRatio': String(options.aspectRatio),
      }
    : {};
  return { id: 'root', layoutOptions: { ...LAYOUT_OPTIONS, ...wrap }, children, edges };
}

/**
 * A node's size with room for what a running app adds (a measured node that already shows them
 * is taller than DEFAULT_NODE_SIZE and keeps its height) and for the store labels under it.
 */
function reservedSize(kind: string, size: Size, storeRows: number): Size {
  const reading = kind === 'source' || kind === 'table' || kind === 'globalTable';
  const reserved = DEFAULT_NODE_SIZE.height + LIVE_ROWS_HEIGHT + (reading ? LAG_ROW_HEIGHT : 0);
  const stores = storeRows > 0 ? STORE_GAP + storeRows * (STORE_HEIGHT + 4) : 0;
  return { width: size.width, height: Math.max(size.height, reserved) + stores };
}

type Elk = InstanceType<typeof ElkApi>;

interface LaidGroup {
  /** Node positions relative to the group's box (its padding and label included). */
  positions: Record<string, Position>;
  size: Size;
}

async function layOutGroup(
  elk: Elk,
  doc: TopologyDocument,
  nodes: TopologyDocument['nodes'],
  sizes: Readonly<Record<string, Size>>,
  options: { wrap: boolean; aspectRatio: number; rightMargin: number } & Reserve,
): Promise<LaidGroup> {
  const laid = await elk.layout(elkGraphOf(doc, nodes, sizes, options));
  const children = laid.children ?? [];
  const left = Math.min(...children.map((c) => c.x ?? 0));
  const top = Math.min(...children.map((c) => c.y ?? 0));
  const positions: Record<string, Position> = {};
  let right = 0;
  let bottom = 0;
  for (const c of children) {
    const x = (c.x ?? 0) - left + GROUP_PADDING;
    const y = (c.y ?? 0) - top + GROUP_PADDING + GROUP_LABEL;
    positions[c.id] = { x, y };
    right = Math.max(right, x + (c.width ?? 0));
    bottom = Math.max(bottom, y + (c.height ?? 0));
  }
  return {
    positions,
    size: { width: right + GROUP_PADDING + options.rightMargin, height: bottom + GROUP_PADDING },
  };
}

/** Node positions laid out by ELK, offset so the drawing starts near the origin. */
export async function autoLayout(
  doc: TopologyDocument,
  sizes: Readonly<Record<string, Size>>,
  options: AutoLayoutOptions = {},
): Promise<Record<string, Position>> {
  if (doc.nodes.length === 0) return {};
  const aspectRatio = options.aspectRatio ?? 1.6;
  // loaded on first use: ELK is large and most sessions never lay out
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const elk: Elk = new ELK();
  const plan = planOf(doc);
  if (!plan) {
    // a document with problems has no sub-topologies yet: one graph
    const laid = await elk.layout(elkGraph(doc, sizes, options));
    const out: Record<string, Position> = {};
    for (const child of laid.children ?? [])
      out[child.id] = {
        x: Math.round((child.x ?? 0) + ORIGIN),
        y: Math.round((child.y ?? 0) + ORIGIN),
      };
    return out;
  }

  const storeRows = storeRowsByOwner(plan);
  const writers = repartitionWriters(plan);
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const groups = layoutGroups(doc, plan).map((g) => g.nodeIds.map((id) => byId.get(id)!));
  const large = doc.nodes.length >= WRAP_FROM;
  const layOut = (wrap: boolean, aspect: number) =>
    Promise.all(
      groups.map((nodes) =>
        layOutGroup(elk, doc, nodes, sizes, {
          wrap: wrap && nodes.length >= WRAP_FROM,
          aspectRatio: aspect,
          storeRows,
          // the label of a repartition topic sits right of the node writing it
          rightMargin: nodes.some((n) => writers.has(n.id))
            ? LABEL_OFFSET + REPARTITION_LABEL_WIDTH - GROUP_PADDING + 10
            : 0,
        }),
      ),
    );
  // small documents read left to right in one row; larger ones try large sub-topologies unwrapped
  // and wrapped, and keep what fits the canvas at the largest zoom
  const variants = large
    ? await Promise.all([layOut(false, aspectRatio), layOut(true, aspectRatio)])
    : [await layOut(false, aspectRatio)];
  let best: { laid: LaidGroup[]; packed: ReturnType<typeof shelfPack> } | null = null;
  for (const laid of variants) {
    const packed = shelfPack(
      laid.map((g) => g.size),
      { gap: GROUP_GAP, aspect: aspectRatio, oneRow: !large },
    );
    if (!best || fitScale(packed, aspectRatio) > fitScale(best.packed, aspectRatio))
      best = { laid, packed };
  }
  const out: Record<string, Position> = {};
  best!.laid.forEach((group, i) => {
    const at = best!.packed.at[i]!;
    for (const [id, p] of Object.entries(group.positions))
      out[id] = { x: Math.round(at.x + p.x + ORIGIN), y: Math.round(at.y + p.y + ORIGIN) };
  });
  return out;
}
