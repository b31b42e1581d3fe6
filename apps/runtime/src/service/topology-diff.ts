// A readable, structured diff between two versions of a topology document: what a reviewer asks
// ("which nodes changed, and which field?"), not a line diff. Nodes, topics and stores are matched
// by id / name, edges by their endpoints and ports; config changes are listed field by field.
// Layout (positions) is reported on its own, so moving boxes around never hides a logic change.
import { formatPath } from '@streamwright/topology-model';

export interface FieldChange {
  /** Path below the entity, e.g. `config.expression`, `config.branches[1].predicate`. */
  path: string;
  change: 'added' | 'removed' | 'changed';
  from?: unknown;
  to?: unknown;
}

/** Topics and stores, matched by name: added and removed entries whole, changed ones by field. */
export interface NamedChanges {
  added: (Record<string, unknown> & { name: string })[];
  removed: (Record<string, unknown> & { name: string })[];
  changed: { name: string; changes: FieldChange[] }[];
}

export interface NodeRef {
  id: string;
  kind: string;
}

export interface EdgeRef {
  from: string;
  fromPort: string;
  to: string;
  toPort: string;
}

export interface TopologyDiff {
  /** Nothing differs at all. */
  identical: boolean;
  /** Only positions differ: the logic is the same. */
  layoutOnly: boolean;
  application: FieldChange[];
  topics: NamedChanges;
  stores: NamedChanges;
  nodes: {
    added: NodeRef[];
    removed: NodeRef[];
    changed: (NodeRef & { changes: FieldChange[] })[];
  };
  edges: { added: EdgeRef[]; removed: EdgeRef[] };
  layout: {
    moved: { id: string; from: { x: number; y: number }; to: { x: number; y: number } }[];
    /** Layout entries or fields that are not a node position moving. */
    other: FieldChange[];
  };
  /** One line per change, for people (the CLI, a review panel). */
  summary: string[];
}

type Json = Record<string, unknown>;

export function diffTopologies(before: unknown, after: unknown): TopologyDiff {
  const a = asObject(before);
  const b = asObject(after);
  const application = [
    ...fieldChanges(asObject(a.application), asObject(b.application), []),
    ...topLevelExtras(a, b),
  ];
  const topics = diffNamed(asList(a.topics), asList(b.topics));
  const stores = diffNamed(asList(a.stores), asList(b.stores));
  const nodes = diffNodes(asList(a.nodes), asList(b.nodes));
  const edges = diffEdges(asList(a.edges), asList(b.edges));
  const layout = diffLayout(asObject(a.layout), asObject(b.layout));
  const logicChanged =
    application.length > 0 ||
    hasChanges(topics) ||
    hasChanges(stores) ||
    nodes.added.length + nodes.removed.length + nodes.changed.length > 0 ||
    edges.added.length + edges.removed.length > 0;
  const layoutChanged = layout.moved.length + layout.other.length > 0;
  const diff: TopologyDiff = {
    identical: !logicChanged && !layoutChanged,
    layoutOnly: !logicChanged && layoutChanged,
    application,
    topics,
    stores,
    nodes,
    edges,
    layout,
    summary: [],
  };
  diff.summary = summarize(diff);
  return diff;
}

// ---- sections ---------------------------------------------------------------------------------

const KNOWN_SECTIONS = new Set([
  'schemaVersion',
  'application',
  'topics',
  'stores',
  'nodes',
  'edges',
  'layout',
]);

/** schemaVersion, and sections a later schema may add, as document-level field changes. */
function topLevelExtras(a: Json, b: Json): FieldChange[] {
  const out: FieldChange[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (KNOWN_SECTIONS.has(key) && key !== 'schemaVersion') continue;
    out.push(...fieldChanges(a[key], b[key], [key]));
  }
  return out;
}

function diffNamed(before: Json[], after: Json[]): NamedChanges {
  const index = (list: Json[]) => new Map(list.map((e) => [String(e.name), e]));
  const a = index(before);
  const b = index(after);
  const out: NamedChanges = { added: [], removed: [], changed: [] };
  for (const [name, entry] of b) if (!a.has(name)) out.added.push({ ...entry, name });
  for (const [name, entry] of a) if (!b.has(name)) out.removed.push({ ...entry, name });
  for (const [name, entry] of a) {
    const other = b.get(name);
    if (!other) continue;
    const changes = fieldChanges(entry, other, []);
    if (changes.length > 0) out.changed.push({ name, changes });
  }
  return out;
}

function diffNodes(before: Json[], after: Json[]): TopologyDiff['nodes'] {
  const ref = (n: Json): NodeRef => ({ id: String(n.id), kind: String(n.kind) });
  const a = new Map(before.map((n) => [String(n.id), n]));
  const b = new Map(after.map((n) => [String(n.id), n]));
  const out: TopologyDiff['nodes'] = { added: [], removed: [], changed: [] };
  for (const [id, node] of b) if (!a.has(id)) out.added.push(ref(node));
  for (const [id, node] of a) if (!b.has(id)) out.removed.push(ref(node));
  for (const [id, node] of a) {
    const other = b.get(id);
    if (!other) continue;
    const changes = fieldChanges(node, other, []).filter((c) => c.path !== 'id');
    if (changes.length > 0) out.changed.push({ ...ref(other), changes });
  }
  return out;
}

function edgeOf(e: Json): EdgeRef {
  return {
    from: String(e.from),
    fromPort: typeof e.fromPort === 'string' ? e.fromPort : 'out',
    to: String(e.to),
    toPort: typeof e.toPort === 'string' ? e.toPort : 'in',
  };
}

function diffEdges(before: Json[], after: Json[]): TopologyDiff['edges'] {
  const key = (e: EdgeRef) => JSON.stringify([e.from, e.fromPort, e.to, e.toPort]);
  const a = new Map(before.map(edgeOf).map((e) => [key(e), e]));
  const b = new Map(after.map(edgeOf).map((e) => [key(e), e]));
  return {
    added: [...b].filter(([k]) => !a.has(k)).map(([, e]) => e),
    removed: [...a].filter(([k]) => !b.has(k)).map(([, e]) => e),
  };
}

function diffLayout(before: Json, after: Json): TopologyDiff['layout'] {
  const out: TopologyDiff['layout'] = { moved: [], other: [] };
  const a = asObject(before.nodes);
  const b = asObject(after.nodes);
  for (const id of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const from = a[id];
    const to = b[id];
    if (isPosition(from) && isPosition(to)) {
      if (from.x !== to.x || from.y !== to.y) out.moved.push({ id, from, to });
    } else {
      out.other.push(...fieldChanges(from, to, ['nodes', id]));
    }
  }
  const rest = (o: Json) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'nodes'));
  out.other.push(...fieldChanges(rest(before), rest(after), []));
  return out;
}

// ---- field-level changes ----------------------------------------------------------------------

/** Every leaf that differs between two JSON values, with its path. */
export function fieldChanges(
  a: unknown,
  b: unknown,
  path: readonly (string | number)[],
): FieldChange[] {
  if (deepEqual(a, b)) return [];
  const at = formatPath(path);
  if (a === undefined) return [{ path: at, change: 'added', to: b }];
  if (b === undefined) return [{ path: at, change: 'removed', from: a }];
  if (isPlainObject(a) && isPlainObject(b)) {
    const out: FieldChange[] = [];
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      out.push(...fieldChanges(a[key], b[key], [...path, key]));
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: FieldChange[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      out.push(...fieldChanges(a[i], b[i], [...path, i]));
    }
    return out;
  }
  return [{ path: at, change: 'changed', from: a, to: b }];
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

// ---- summary ----------------------------------------------------------------------------------

function summarize(diff: TopologyDiff): string[] {
  if (diff.identical) return ['no changes'];
  const lines: string[] = [];
  for (const c of diff.application) lines.push(`application ${describeChange(c)}`);
  section(lines, 'topic', diff.topics, (t) =>
    typeof t.partitions === 'number' ? ` (${t.partitions} partitions)` : '',
  );
  section(lines, 'store', diff.stores, () => '');
  for (const n of diff.nodes.added) lines.push(`node ${n.id} (${n.kind}) added`);
  for (const n of diff.nodes.removed) lines.push(`node ${n.id} (${n.kind}) removed`);
  for (const n of diff.nodes.changed) {
    for (const c of n.changes) lines.push(`node ${n.id} (${n.kind}): ${describeChange(c)}`);
  }
  for (const e of diff.edges.added) lines.push(`edge ${edgeText(e)} added`);
  for (const e of diff.edges.removed) lines.push(`edge ${edgeText(e)} removed`);
  const moved = diff.layout.moved.length;
  if (moved > 0) {
    const ids = diff.layout.moved.map((m) => m.id);
    const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ', …' : '');
    lines.push(`layout: ${moved} node${moved === 1 ? '' : 's'} moved (${shown})`);
  }
  for (const c of diff.layout.other) lines.push(`layout ${describeChange(c)}`);
  return lines;
}

function section(
  lines: string[],
  what: string,
  changes: NamedChanges,
  detail: (entry: Record<string, unknown>) => string,
): void {
  for (const e of changes.added) lines.push(`${what} ${e.name} added${detail(e)}`);
  for (const e of changes.removed) lines.push(`${what} ${e.name} removed`);
  for (const e of changes.changed) {
    for (const c of e.changes) lines.push(`${what} ${e.name}: ${describeChange(c)}`);
  }
}

function describeChange(c: FieldChange): string {
  const where = c.path === '' ? '(whole)' : c.path;
  if (c.change === 'added') return `${where} added: ${show(c.to)}`;
  if (c.change === 'removed') return `${where} removed (was ${show(c.from)})`;
  return `${where}: ${show(c.from)} → ${show(c.to)}`;
}

function edgeText(e: EdgeRef): string {
  const from = e.fromPort === 'out' ? e.from : `${e.from}.${e.fromPort}`;
  const to = e.toPort === 'in' ? e.to : `${e.to}.${e.toPort}`;
  return `${from} → ${to}`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

// ---- helpers ----------------------------------------------------------------------------------

function hasChanges(c: NamedChanges): boolean {
  return c.added.length + c.removed.length + c.changed.length > 0;
}

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Json {
  return isPlainObject(value) ? value : {};
}

function asList(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function isPosition(value: unknown): value is { x: number; y: number } {
  return isPlainObject(value) && typeof value.x === 'number' && typeof value.y === 'number';
}
