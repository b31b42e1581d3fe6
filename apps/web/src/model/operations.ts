// The edits a user makes, each expressed as a ModelDiff against the current document. They are
// pure: the store applies (and records) the diff, so every edit is undoable the same way.
import { freshNodeId, type Edge, type TopologyDocument } from '@streamwright/topology-model';
import {
  edgeKey,
  otherSections,
  type Application,
  type ModelDiff,
  type Position,
  type RawNode,
  type TopicDecl,
} from './diff.js';

export type EditResult = { ok: true; diff: ModelDiff } | { ok: false; reason: string };

const NODE_ID = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

// one rule for new node ids, shared with describe() import (@streamwright/codegen)
export { freshNodeId };

export function addNode(
  doc: TopologyDocument,
  kind: string,
  config: Record<string, unknown>,
  position: Position,
): { id: string; diff: ModelDiff } {
  const id = freshNodeId(doc, kind);
  const node: RawNode = { id, kind, config };
  return {
    id,
    diff: {
      nodes: { added: { [id]: node } },
      layout: { added: { [id]: roundPosition(position) } },
    },
  };
}

/** Removes nodes (with every edge touching them and their positions) and edges. */
export function removeElements(
  doc: TopologyDocument,
  nodeIds: readonly string[],
  edgeKeys: readonly string[],
): ModelDiff {
  const ids = new Set(nodeIds);
  const nodes: Record<string, RawNode> = {};
  for (const n of doc.nodes) if (ids.has(n.id)) nodes[n.id] = n;
  const edges: Record<string, Edge> = {};
  const keys = new Set(edgeKeys);
  for (const e of doc.edges) {
    const key = edgeKey(e);
    if (keys.has(key) || ids.has(e.from) || ids.has(e.to)) edges[key] = e;
  }
  const layout: Record<string, Position> = {};
  for (const id of ids) {
    const p = doc.layout.nodes[id];
    if (p) layout[id] = p;
  }
  return { nodes: { removed: nodes }, edges: { removed: edges }, layout: { removed: layout } };
}

export function connect(doc: TopologyDocument, edge: Edge): EditResult {
  const key = edgeKey(edge);
  if (doc.edges.some((e) => edgeKey(e) === key))
    return { ok: false, reason: 'these ports are already connected' };
  return { ok: true, diff: { edges: { added: { [key]: edge } } } };
}

const roundPosition = (p: Position): Position => ({ x: Math.round(p.x), y: Math.round(p.y) });

/** Positions are rounded to whole pixels so exported layouts stay short and diff cleanly. */
export function moveNodes(doc: TopologyDocument, positions: Record<string, Position>): ModelDiff {
  const updated: Record<string, readonly [Position, Position]> = {};
  const added: Record<string, Position> = {};
  for (const [id, p] of Object.entries(positions)) {
    const next = roundPosition(p);
    const before = doc.layout.nodes[id];
    if (!before) added[id] = next;
    else if (before.x !== next.x || before.y !== next.y) updated[id] = [before, next];
  }
  return { layout: { added, updated } };
}

function updateNode(doc: TopologyDocument, id: string, change: (n: RawNode) => RawNode): ModelDiff {
  const node = doc.nodes.find((n) => n.id === id);
  if (!node) return {};
  return { nodes: { updated: { [id]: [node, change(node)] } } };
}

/** Sets one config field; `undefined` removes it (an optional field left empty). */
export function setConfigField(
  doc: TopologyDocument,
  id: string,
  field: string,
  value: unknown,
): ModelDiff {
  return updateNode(doc, id, (n) => {
    const config = { ...n.config };
    if (value === undefined) delete config[field];
    else config[field] = value;
    return { ...n, config };
  });
}

/** Sets the Kafka Streams processor name (`Named.as`); empty means "generate it". */
export function setNodeName(
  doc: TopologyDocument,
  id: string,
  name: string | undefined,
): ModelDiff {
  return updateNode(doc, id, (n) => {
    const { name: _old, ...rest } = n;
    return name ? { ...rest, name } : rest;
  });
}

/** Renames a node id, carrying its edges and layout position along. */
export function renameNode(doc: TopologyDocument, id: string, nextId: string): EditResult {
  if (nextId === id) return { ok: true, diff: {} };
  if (!NODE_ID.test(nextId)) {
    return {
      ok: false,
      reason: 'ids start with a letter or "_" and use letters, digits, "_" and "-" (at most 64)',
    };
  }
  if (doc.nodes.some((n) => n.id === nextId))
    return { ok: false, reason: `a node "${nextId}" already exists` };
  const node = doc.nodes.find((n) => n.id === id);
  if (!node) return { ok: false, reason: `no node "${id}"` };
  const diff: ModelDiff = {
    nodes: { removed: { [id]: node }, added: { [nextId]: { ...node, id: nextId } } },
    edges: { removed: {}, added: {} },
    layout: { removed: {}, added: {} },
  };
  for (const e of doc.edges) {
    if (e.from !== id && e.to !== id) continue;
    const moved = { ...e, from: e.from === id ? nextId : e.from, to: e.to === id ? nextId : e.to };
    diff.edges!.removed![edgeKey(e)] = e;
    diff.edges!.added![edgeKey(moved)] = moved;
  }
  const position = doc.layout.nodes[id];
  if (position) {
    diff.layout!.removed![id] = position;
    diff.layout!.added![nextId] = position;
  }
  return { ok: true, diff };
}

/** Adds a topic declaration, or replaces the one named `previousName`. */
export function putTopic(
  doc: TopologyDocument,
  topic: TopicDecl,
  previousName?: string,
): EditResult {
  const existing = doc.topics.find((t) => t.name === (previousName ?? topic.name));
  if (
    previousName !== undefined &&
    previousName !== topic.name &&
    doc.topics.some((t) => t.name === topic.name)
  ) {
    return { ok: false, reason: `topic "${topic.name}" is already declared` };
  }
  if (!existing) {
    if (doc.topics.some((t) => t.name === topic.name)) {
      return { ok: false, reason: `topic "${topic.name}" is already declared` };
    }
    return { ok: true, diff: { topics: { added: { [topic.name]: topic } } } };
  }
  if (existing.name === topic.name)
    return { ok: true, diff: { topics: { updated: { [topic.name]: [existing, topic] } } } };
  return {
    ok: true,
    diff: { topics: { removed: { [existing.name]: existing }, added: { [topic.name]: topic } } },
  };
}

export function removeTopic(doc: TopologyDocument, name: string): ModelDiff {
  const existing = doc.topics.find((t) => t.name === name);
  return existing ? { topics: { removed: { [name]: existing } } } : {};
}

export function setApplication(doc: TopologyDocument, application: Application): ModelDiff {
  return { application: [doc.application, application] };
}

/** Replaces the whole document (New, Import, open the deployed topology) as one undoable diff. */
export function replaceDocument(doc: TopologyDocument, next: TopologyDocument): ModelDiff {
  const list = <T>(before: readonly T[], after: readonly T[], key: (t: T) => string) => ({
    removed: Object.fromEntries(before.map((t) => [key(t), t])),
    added: Object.fromEntries(after.map((t) => [key(t), t])),
  });
  return {
    nodes: list(doc.nodes, next.nodes, (n) => n.id),
    edges: list(doc.edges, next.edges, edgeKey),
    topics: list(doc.topics, next.topics, (t) => t.name),
    layout: { removed: { ...doc.layout.nodes }, added: { ...next.layout.nodes } },
    application: [doc.application, next.application],
    other: [otherSections(doc), otherSections(next)],
  };
}
