// Every change to the topology document is a diff of keyed records, in the shape tldraw uses
// ({added, updated, removed}). Undo/redo, coalescing of drags and typing, and dirty tracking all
// work on this one format, and a diff is plain JSON so it can later travel (sync, workspace).
import type { Edge, TopologyDocument } from '@streamwright/topology-model';

export type RawNode = TopologyDocument['nodes'][number];
export type TopicDecl = TopologyDocument['topics'][number];
export type Application = TopologyDocument['application'];
export interface Position {
  x: number;
  y: number;
}

export interface RecordDiff<T> {
  added?: Record<string, T>;
  /** key → [before, after] */
  updated?: Record<string, readonly [T, T]>;
  removed?: Record<string, T>;
}

export interface ModelDiff {
  nodes?: RecordDiff<RawNode>;
  edges?: RecordDiff<Edge>;
  topics?: RecordDiff<TopicDecl>;
  /** Layout positions, keyed by node id: kept apart from the logic records. */
  layout?: RecordDiff<Position>;
  application?: readonly [Application, Application];
  /**
   * Every other top-level section of the document (e.g. `schemaVersion`, and sections later
   * schema versions add), before and after, so replacing a document never drops what the
   * designer has no editor for yet.
   */
  other?: readonly [Record<string, unknown>, Record<string, unknown>];
}

/** The sections the diff format keys record by record; everything else travels in `other`. */
export const KEYED_SECTIONS = ['nodes', 'edges', 'topics', 'layout', 'application'] as const;

/** The document's sections other than the keyed ones. */
export function otherSections(doc: TopologyDocument): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (!(KEYED_SECTIONS as readonly string[]).includes(key)) rest[key] = value;
  }
  return rest;
}

/** The record kinds that are stored as keyed lists in the document. */
type ListKind = 'nodes' | 'edges' | 'topics';

/** An edge's identity: one edge per (from, fromPort, to, toPort). */
export function edgeKey(edge: Pick<Edge, 'from' | 'fromPort' | 'to' | 'toPort'>): string {
  return `${edge.from}:${edge.fromPort}->${edge.to}:${edge.toPort}`;
}

const keyOf: { [K in ListKind]: (record: TopologyDocument[K][number]) => string } = {
  nodes: (n) => (n as RawNode).id,
  edges: (e) => edgeKey(e as Edge),
  topics: (t) => (t as TopicDecl).name,
};

/** Thrown when a diff does not fit the document it is applied to: always a bug in the caller. */
export class DiffConflictError extends Error {
  constructor(
    readonly kind: string,
    readonly key: string,
    readonly problem: 'exists' | 'missing',
  ) {
    super(
      `diff conflict: ${kind} "${key}" ${problem === 'exists' ? 'already exists' : 'does not exist'}`,
    );
    this.name = 'DiffConflictError';
  }
}

const has = (record: object | undefined, key: string): boolean =>
  record !== undefined && Object.hasOwn(record, key);

function applyToList<T>(
  kind: ListKind,
  list: readonly T[],
  diff: RecordDiff<T> | undefined,
  key: (t: T) => string,
): T[] {
  if (!diff) return list as T[];
  const present = new Set(list.map(key));
  for (const k of Object.keys(diff.removed ?? {}))
    if (!present.has(k)) throw new DiffConflictError(kind, k, 'missing');
  for (const k of Object.keys(diff.updated ?? {}))
    if (!present.has(k)) throw new DiffConflictError(kind, k, 'missing');
  for (const k of Object.keys(diff.added ?? {})) {
    if (present.has(k) && !has(diff.removed, k)) throw new DiffConflictError(kind, k, 'exists');
  }
  const out: T[] = [];
  for (const item of list) {
    const k = key(item);
    if (has(diff.removed, k)) continue;
    const update = diff.updated?.[k];
    out.push(update ? update[1] : item);
  }
  for (const item of Object.values(diff.added ?? {})) out.push(item);
  return out;
}

function applyToRecord<T>(
  kind: string,
  record: Readonly<Record<string, T>>,
  diff: RecordDiff<T> | undefined,
): Record<string, T> {
  if (!diff) return record as Record<string, T>;
  const out: Record<string, T> = {};
  for (const k of Object.keys(diff.removed ?? {}))
    if (!has(record, k)) throw new DiffConflictError(kind, k, 'missing');
  for (const k of Object.keys(diff.updated ?? {}))
    if (!has(record, k)) throw new DiffConflictError(kind, k, 'missing');
  for (const [k, v] of Object.entries(record)) {
    if (has(diff.removed, k)) continue;
    const update = diff.updated?.[k];
    out[k] = update ? update[1] : v;
  }
  for (const [k, v] of Object.entries(diff.added ?? {})) {
    if (has(out, k)) throw new DiffConflictError(kind, k, 'exists');
    out[k] = v;
  }
  return out;
}

/**
 * Applies a diff. Sections the diff does not touch keep their identity, so memoized views (the
 * validation, the canvas) only recompute what changed: moving a node re-validates nothing.
 */
export function applyDiff(doc: TopologyDocument, diff: ModelDiff): TopologyDocument {
  let next: TopologyDocument = { ...doc };
  if (diff.other) {
    const keyed = Object.fromEntries(KEYED_SECTIONS.map((k) => [k, doc[k]]));
    next = { ...diff.other[1], ...keyed } as TopologyDocument;
  }
  if (diff.nodes) next.nodes = applyToList('nodes', doc.nodes, diff.nodes, keyOf.nodes);
  if (diff.edges) next.edges = applyToList('edges', doc.edges, diff.edges, keyOf.edges);
  if (diff.topics) next.topics = applyToList('topics', doc.topics, diff.topics, keyOf.topics);
  if (diff.layout)
    next.layout = { ...doc.layout, nodes: applyToRecord('layout', doc.layout.nodes, diff.layout) };
  if (diff.application) next.application = diff.application[1];
  return next;
}

function invertRecords<T>(diff: RecordDiff<T> | undefined): RecordDiff<T> | undefined {
  if (!diff) return undefined;
  const updated: Record<string, readonly [T, T]> = {};
  for (const [k, [before, after]] of Object.entries(diff.updated ?? {}))
    updated[k] = [after, before];
  return { added: { ...diff.removed }, updated, removed: { ...diff.added } };
}

/** The diff that undoes `diff`. */
export function invertDiff(diff: ModelDiff): ModelDiff {
  const out: ModelDiff = {};
  if (diff.nodes) out.nodes = invertRecords(diff.nodes);
  if (diff.edges) out.edges = invertRecords(diff.edges);
  if (diff.topics) out.topics = invertRecords(diff.topics);
  if (diff.layout) out.layout = invertRecords(diff.layout);
  if (diff.application) out.application = [diff.application[1], diff.application[0]];
  if (diff.other) out.other = [diff.other[1], diff.other[0]];
  return out;
}

function composeRecords<T>(
  a: RecordDiff<T> | undefined,
  b: RecordDiff<T> | undefined,
): RecordDiff<T> | undefined {
  if (!a) return b;
  if (!b) return a;
  const added: Record<string, T> = { ...a.added };
  const updated: Record<string, readonly [T, T]> = { ...a.updated };
  const removed: Record<string, T> = { ...a.removed };
  for (const [k, v] of Object.entries(b.removed ?? {})) {
    if (has(added, k)) delete added[k];
    else if (has(updated, k)) {
      removed[k] = updated[k]![0];
      delete updated[k];
    } else removed[k] = v;
  }
  for (const [k, [before, after]] of Object.entries(b.updated ?? {})) {
    if (has(added, k)) added[k] = after;
    else if (has(updated, k)) updated[k] = [updated[k]![0], after];
    else updated[k] = [before, after];
  }
  for (const [k, v] of Object.entries(b.added ?? {})) {
    if (has(removed, k)) {
      // removed then re-added: an update from the original record
      updated[k] = [removed[k]!, v];
      delete removed[k];
    } else added[k] = v;
  }
  return { added, updated, removed };
}

/** One diff with the effect of applying `a` then `b` (used to coalesce a drag or a typing burst). */
export function composeDiffs(a: ModelDiff, b: ModelDiff): ModelDiff {
  const out: ModelDiff = {};
  const nodes = composeRecords(a.nodes, b.nodes);
  const edges = composeRecords(a.edges, b.edges);
  const topics = composeRecords(a.topics, b.topics);
  const layout = composeRecords(a.layout, b.layout);
  if (nodes) out.nodes = nodes;
  if (edges) out.edges = edges;
  if (topics) out.topics = topics;
  if (layout) out.layout = layout;
  if (a.application && b.application) out.application = [a.application[0], b.application[1]];
  else if (a.application ?? b.application) out.application = (a.application ?? b.application)!;
  if (a.other && b.other) out.other = [a.other[0], b.other[1]];
  else if (a.other ?? b.other) out.other = (a.other ?? b.other)!;
  return out;
}

const emptyRecords = (d: RecordDiff<unknown> | undefined): boolean =>
  !d ||
  (Object.keys(d.added ?? {}).length === 0 &&
    Object.keys(d.updated ?? {}).length === 0 &&
    Object.keys(d.removed ?? {}).length === 0);

export function isEmptyDiff(diff: ModelDiff): boolean {
  return (
    emptyRecords(diff.nodes) &&
    emptyRecords(diff.edges) &&
    emptyRecords(diff.topics) &&
    emptyRecords(diff.layout) &&
    !diff.application &&
    !diff.other
  );
}
