// Imports the text of Kafka Streams' Topology#describe() as a canvas. describe() shows the
// processor graph (names, topics, stores, successors), not the logic, so the result is a
// document with names, topics and stores filled in and the logic left for the user; validation
// lists what is missing. The DSL's generated names (KSTREAM-FILTER-0000000001, …) say which
// operation made a processor; the nodes the DSL adds around an operation (repartition topics, a
// table's source, split branches, cogroup aggregators) are folded back into the one node a user
// draws.
import {
  SCHEMA_VERSION,
  freshNodeId,
  topologyDocumentSchema,
  type Edge,
  type NodeKind,
  type TopologyDocument,
} from '@streamwright/topology-model';
import type { RawNode } from './document-node.js';

export interface DescribedNode {
  type: 'source' | 'processor' | 'sink';
  name: string;
  subtopology: number;
  global: boolean;
  topics: string[];
  topic?: string;
  extractor?: string;
  stores: string[];
  successors: string[];
  predecessors: string[];
}

export class DescribeParseError extends Error {}

const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== 'none');

/** Parses describe() text into its nodes; throws DescribeParseError on text of another shape. */
export function parseDescribe(text: string): DescribedNode[] {
  const nodes: DescribedNode[] = [];
  let subtopology = -1;
  let global = false;
  let current: DescribedNode | null = null;
  let sawHeader = false;
  let inGlobalStores = false;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    // "Sub-topologies:" and "Global Stores: none" head the one-line-per-node text of Kafka
    // Streams 1.x (still printed in Kafka's WordCount tutorial).
    if (line === 'Topologies:' || line === 'Sub-topologies:') {
      sawHeader = true;
      return;
    }
    if (line === 'Global Stores:') {
      inGlobalStores = true;
      return;
    }
    if (inGlobalStores && line === 'none') return;
    const sub = /^Sub-topology: (\d+)( for global store)?/.exec(line);
    if (sub) {
      subtopology = Number(sub[1]);
      global = sub[2] !== undefined;
      current = null;
      return;
    }
    // `Name (detail)` on its own line, or (1.x) `Name(detail) --> a, b <-- c` on one line
    const node = /^(Source|Processor|Sink): ([^\s()]+) ?\(([^()]*)\)(.*)$/.exec(line);
    if (node) {
      if (subtopology < 0)
        throw new DescribeParseError(`line ${i + 1}: a node before any Sub-topology`);
      const type = node[1]!.toLowerCase() as DescribedNode['type'];
      const detail = node[3]!;
      const n: DescribedNode = {
        type,
        name: node[2]!,
        subtopology,
        global,
        topics: [],
        stores: [],
        successors: [],
        predecessors: [],
      };
      // 1.x lists a source's topics without brackets
      const topics = /^topics: \[?(.*?)\]?$/.exec(detail);
      const pattern = /^topicPattern: (.*)$/.exec(detail);
      const stores = /^stores: \[(.*)\]$/.exec(detail);
      const topic = /^topic: (.*)$/.exec(detail);
      const extractor = /^extractor class: (.*)$/.exec(detail);
      if (topics) n.topics = list(topics[1]!);
      else if (pattern) n.topics = [pattern[1]!];
      else if (stores) n.stores = list(stores[1]!);
      else if (topic) n.topic = topic[1]!.trim();
      else if (extractor) n.extractor = extractor[1]!.trim();
      const arrows = /^\s*(?:--> (.*?))?\s*(?:<-- (.*))?$/.exec(node[4]!);
      if (!arrows)
        throw new DescribeParseError(
          `line ${i + 1} is not describe() output: ${line.slice(0, 80)}`,
        );
      if (arrows[1] !== undefined) n.successors.push(...list(arrows[1]));
      if (arrows[2] !== undefined) n.predecessors.push(...list(arrows[2]));
      nodes.push(n);
      current = n;
      return;
    }
    const arrow = /^(-->|<--) ?(.*)$/.exec(line);
    if (arrow && current) {
      const names = list(arrow[2]!);
      if (arrow[1] === '-->') current.successors.push(...names);
      else current.predecessors.push(...names);
      return;
    }
    throw new DescribeParseError(`line ${i + 1} is not describe() output: ${line.slice(0, 80)}`);
  });
  if (!sawHeader && nodes.length === 0)
    throw new DescribeParseError('no "Topologies:" header and no nodes');
  if (nodes.length === 0) throw new DescribeParseError('no nodes in the text');
  return nodes;
}

/** Whether text looks like describe() output (for paste detection). */
export function looksLikeDescribe(text: string): boolean {
  return /^\s*(Topologies|Sub-topologies):\s*$/m.test(text) && /Sub-topology: \d+/.test(text);
}

const GENERATED = /^([A-Z]+(?:-[A-Z]+)*)-(\d{10})(.*)$/;

/**
 * How describe() import recognises each kind, one entry per kind (`satisfies Record<NodeKind, …>`:
 * a new kind fails typecheck here until it says how it imports; docs/ARCHITECTURE.md, "How to
 * add a node kind").
 * - `prefix`: the DSL's generated-name prefix its processor is read from. Kinds that print alike
 *   share one, and one of them is the guess (the others have none).
 * - `store`: its `store` config field is filled from the store the described node uses.
 * - `grouped`: its input is a grouped stream: a groupByKey is drawn before it if nothing groups.
 * Kinds with no prefix are recognised by shape (sources, sinks, tables, splits, repartitions,
 * groupBy) or not at all: describe() cannot tell them apart from a custom processor.
 */
interface DescribedKind {
  prefix?: string;
  store?: true;
  grouped?: true;
}

const describedKinds = {
  generator: {}, // a source: describe() cannot tell a generator's topic from any other
  source: {}, // KSTREAM-SOURCE or any source node
  table: { store: true }, // a source followed by its KTABLE-SOURCE
  globalTable: { store: true },
  filter: { prefix: 'KSTREAM-FILTER' },
  filterNot: {}, // prints as KSTREAM-FILTER: imported as filter
  map: { prefix: 'KSTREAM-MAP' },
  mapValues: { prefix: 'KSTREAM-MAPVALUES' },
  selectKey: { prefix: 'KSTREAM-KEY-SELECT' },
  flatMap: { prefix: 'KSTREAM-FLATMAP' },
  flatMapValues: { prefix: 'KSTREAM-FLATMAPVALUES' },
  peek: { prefix: 'KSTREAM-PEEK' },
  split: { prefix: 'KSTREAM-BRANCH' },
  merge: { prefix: 'KSTREAM-MERGE' },
  repartition: {}, // drawn where a repartition topic lies between two operations
  tableFilter: { prefix: 'KTABLE-FILTER', store: true },
  tableFilterNot: {}, // prints as KTABLE-FILTER: imported as tableFilter
  tableMapValues: { prefix: 'KTABLE-MAPVALUES', store: true },
  transformValues: { prefix: 'KTABLE-TRANSFORMVALUES' },
  toStream: { prefix: 'KTABLE-TOSTREAM' },
  groupByKey: {}, // has no node of its own: drawn before an aggregation that needs it
  groupBy: {}, // a key selector followed by a repartition into an aggregation
  // count and aggregate print alike; count needs no logic, so it is the guess
  count: { prefix: 'KSTREAM-AGGREGATE', store: true, grouped: true },
  reduce: { prefix: 'KSTREAM-REDUCE', store: true, grouped: true },
  aggregate: { store: true, grouped: true },
  cogroup: { prefix: 'COGROUPKSTREAM-MERGE', store: true },
  toTable: { prefix: 'KSTREAM-TOTABLE', store: true },
  tableGroupBy: { prefix: 'KTABLE-SELECT' },
  tableCount: { prefix: 'KTABLE-AGGREGATE', store: true }, // tableAggregate prints alike
  tableReduce: { prefix: 'KTABLE-REDUCE', store: true },
  tableAggregate: { store: true },
  process: { prefix: 'KSTREAM-PROCESSOR' }, // also any node of a name no prefix explains
  processValues: { prefix: 'KSTREAM-PROCESSVALUES' },
  sink: {}, // KSTREAM-SINK or any sink node
  foreach: { prefix: 'KSTREAM-FOREACH' },
  print: { prefix: 'KSTREAM-PRINTER' },
  // joins, windowed operations and foreign-key joins are not recognised yet
  streamStreamJoin: {},
  streamTableJoin: {},
  streamGlobalTableJoin: {},
  tableTableJoin: {},
  windowedBy: {},
  windowedCount: {},
  windowedReduce: {},
  windowedAggregate: {},
  suppress: {},
  foreignKeyJoin: {},
} satisfies Record<NodeKind, DescribedKind>;

const describedEntries = Object.entries(describedKinds) as [NodeKind, DescribedKind][];
/** The operation a generated name stands for, by the DSL's name prefix. */
const PREFIX_KIND: Record<string, string> = Object.fromEntries(
  describedEntries.flatMap(([kind, d]) => (d.prefix === undefined ? [] : [[d.prefix, kind]])),
);
/** Kinds whose input is a grouped stream: a groupByKey is drawn before them if nothing groups. */
const NEEDS_GROUPED = new Set<string>(
  describedEntries.filter(([, d]) => d.grouped).map(([kind]) => kind),
);
const STORE_FIELD_KINDS = new Set<string>(
  describedEntries.filter(([, d]) => d.store).map(([kind]) => kind),
);

const isGeneratedStore = (name: string) => /-STATE-STORE-\d{10}$/.test(name);

export interface DescribeImport {
  doc: TopologyDocument;
  /** What was guessed, for the user to check (shown after the import). */
  notes: string[];
}

/**
 * Builds a designer document from describe() text. describe() shows no application config:
 * `config` is the new document's (the designer passes its defaults for new apps).
 */
export function importDescribe(
  text: string,
  applicationId = 'imported-app',
  config: TopologyDocument['application']['config'] = {},
): DescribeImport {
  const described = parseDescribe(text);
  const byName = new Map(described.map((n) => [n.name, n]));
  const notes: string[] = [];
  // parsed through the schema, so every section it declares gets its default (empty) value; the
  // id is set afterwards, unchecked, as the designer lets a user edit an invalid id and fix it
  const doc: TopologyDocument = topologyDocumentSchema.parse({
    schemaVersion: SCHEMA_VERSION,
    application: { id: 'imported-app', config },
  });
  doc.application = { id: applicationId, config: { ...doc.application.config } };

  // internal topics: written by a sink and read by a source of the same topology
  const written = new Map<string, DescribedNode>();
  for (const n of described) if (n.type === 'sink' && n.topic) written.set(n.topic, n);
  const readers = new Map<string, DescribedNode>();
  for (const n of described) for (const t of n.topics) if (n.type === 'source') readers.set(t, n);
  const internal = new Set([...written.keys()].filter((t) => readers.has(t)));

  /** Model node per described name (several described nodes may map to one model node). */
  const modelOf = new Map<string, { id: string; port?: string }>();
  const nodes: RawNode[] = [];
  const add = (kind: string, config: Record<string, unknown>, name?: string): string => {
    const id = freshNodeId({ ...doc, nodes }, kind);
    const node: RawNode = { id, kind, config };
    if (name) node.name = name;
    nodes.push(node);
    return id;
  };

  // a splitter's children are named `<splitter><branch>` (also when the split is named)
  const branchChildren = new Set<string>();
  const splitters = new Set<string>();
  for (const n of described) {
    if (n.type !== 'processor' || n.successors.length === 0) continue;
    const m = GENERATED.exec(n.name);
    const generatedSplit = m?.[1] === 'KSTREAM-BRANCH' && m[3] === '';
    const namedSplit =
      !m && n.successors.every((s) => s.length > n.name.length && s.startsWith(n.name));
    if (generatedSplit || namedSplit) {
      splitters.add(n.name);
      for (const s of n.successors) branchChildren.add(s);
    }
  }

  const kindOf = (n: DescribedNode): { kind: string; generated: boolean; suffix: string } => {
    if (splitters.has(n.name))
      return { kind: 'split', generated: GENERATED.test(n.name), suffix: '' };
    if (branchChildren.has(n.name)) return { kind: 'split', generated: true, suffix: 'branch' };
    const m = GENERATED.exec(n.name);
    if (m) {
      const kind = PREFIX_KIND[m[1]!];
      if (kind) return { kind, generated: true, suffix: m[3] ?? '' };
      if (m[1] === 'KSTREAM-SOURCE') return { kind: 'source', generated: true, suffix: '' };
      if (m[1] === 'KSTREAM-SINK') return { kind: 'sink', generated: true, suffix: '' };
      if (m[1] === 'KTABLE-SOURCE') return { kind: 'tableSource', generated: true, suffix: '' };
      if (m[1] === 'COGROUPKSTREAM-AGGREGATE')
        return { kind: 'cogroupInput', generated: true, suffix: '' };
    }
    if (n.type === 'source') return { kind: 'source', generated: false, suffix: '' };
    if (n.type === 'sink') return { kind: 'sink', generated: false, suffix: '' };
    return { kind: 'process', generated: false, suffix: '' };
  };

  const intoRepartition = (name: string) => {
    const next = byName.get(name);
    return (
      next?.type === 'sink' &&
      next.topic !== undefined &&
      internal.has(next.topic) &&
      next.topic.endsWith('-repartition')
    );
  };
  // Older Kafka Streams printed a repartition's filter as a generated KSTREAM-FILTER (now
  // `<name>-repartition-filter`), as in Kafka's WordCount tutorial; today a repartition sink is
  // always fed by its own `-repartition-filter`, so a user's filter never feeds one directly.
  const oldRepartitionFilter = (n: DescribedNode) =>
    n.type === 'processor' &&
    GENERATED.exec(n.name)?.[1] === 'KSTREAM-FILTER' &&
    n.successors.length > 0 &&
    n.successors.every(intoRepartition);
  const synthetic = (n: DescribedNode) =>
    /-repartition-(filter|sink|source)$/.test(n.name) ||
    oldRepartitionFilter(n) ||
    (n.type === 'sink' && n.topic !== undefined && internal.has(n.topic)) ||
    (n.type === 'source' && n.topics.some((t) => internal.has(t)));

  /** Sinks into an internal topic continue at the source that reads it. */
  const nextOf = (n: DescribedNode): string[] =>
    n.type === 'sink' && n.topic !== undefined && internal.has(n.topic)
      ? [readers.get(n.topic)!.name]
      : n.successors;
  /** The first non-synthetic nodes after `start`; `through` when a repartition lies between. */
  const targetsOf = (start: DescribedNode): { name: string; through: boolean }[] => {
    const out: { name: string; through: boolean }[] = [];
    const seen = new Set<string>();
    const visit = (name: string, through: boolean) => {
      if (seen.has(name)) return;
      seen.add(name);
      const n = byName.get(name);
      if (!n) return;
      if (!synthetic(n)) {
        out.push({ name, through });
        return;
      }
      for (const s of nextOf(n)) visit(s, true);
    };
    for (const s of nextOf(start)) visit(s, false);
    return out;
  };

  if (described.some(oldRepartitionFilter))
    notes.push(
      "this describe() is from an older Kafka Streams, which printed a repartition's filter as KSTREAM-FILTER-…: today it is named <topic>-repartition-filter; the internal topics and stores keep their names",
    );

  // 1. one model node per operation
  const splitBranches = new Map<string, { splitId: string; port: string }>();
  for (const n of described) {
    if (synthetic(n)) continue;
    const { kind: printed, generated, suffix } = kindOf(n);
    const name = generated ? undefined : n.name;
    // selectKey + groupByKey and groupBy print alike (a key selector, then a repartition into
    // an aggregation); groupBy is one node
    const kind =
      printed === 'selectKey' &&
      targetsOf(n).some(
        (t) =>
          t.through &&
          ['count', 'reduce', 'cogroup', 'cogroupInput'].includes(kindOf(byName.get(t.name)!).kind),
      )
        ? 'groupBy'
        : printed;
    if (kind === 'tableSource' || kind === 'cogroupInput') continue; // folded below
    if (kind === 'split' && suffix !== '') {
      continue; // a branch child: folded into its splitter below
    }
    if (n.type === 'source') {
      // a table's source is followed by its KTABLE-SOURCE processor
      const next = n.successors.map((s) => byName.get(s)).find((s) => s !== undefined);
      const isTable = next !== undefined && GENERATED.exec(next.name)?.[1] === 'KTABLE-SOURCE';
      const tableKind = n.global ? 'globalTable' : 'table';
      const config: Record<string, unknown> = { topic: n.topics[0] ?? '' };
      if (n.topics.length > 1)
        notes.push(`${n.name} reads ${n.topics.length} topics; only ${n.topics[0]} was kept`);
      if (isTable) {
        const store = next.stores[0];
        if (store && !isGeneratedStore(store)) config.store = store;
        const id = add(tableKind, config, name);
        modelOf.set(n.name, { id });
        modelOf.set(next.name, { id });
      } else {
        modelOf.set(n.name, { id: add('source', config, name) });
      }
      continue;
    }
    if (n.type === 'sink') {
      const config: Record<string, unknown> = n.topic !== undefined ? { topic: n.topic } : {};
      if (n.extractor)
        notes.push(
          `${n.name} picks its topic per record (${n.extractor}): write its topic extractor`,
        );
      modelOf.set(n.name, { id: add('sink', config, name) });
      continue;
    }
    const config: Record<string, unknown> = {};
    if (kind === 'split') {
      // branch i without a name is the port "i"; named branches fill the other places in the
      // order describe() lists them; the default branch ("0") goes last
      const ports = n.successors.map((child) =>
        child.startsWith(n.name) ? child.slice(n.name.length) : child,
      );
      let defaultBranch: Record<string, unknown> | undefined;
      const numbered = ports.filter((p) => /^[1-9]\d*$/.test(p)).map(Number);
      const named = ports.filter((p) => !/^\d+$/.test(p));
      const count = numbered.length + named.length;
      const branches: Record<string, unknown>[] = Array.from({ length: count }, () => ({}));
      const free = new Set(branches.map((_, i) => i));
      for (const p of numbered) free.delete(p - 1);
      const freeSlots = [...free];
      named.forEach((name, i) => {
        const slot = freeSlots[i];
        if (slot !== undefined) branches[slot] = { name };
      });
      if (ports.includes('0')) defaultBranch = {};
      n.successors.forEach((child, i) =>
        splitBranches.set(child, { splitId: '', port: ports[i]! }),
      );
      config.branches = branches;
      if (defaultBranch) config.defaultBranch = defaultBranch;
    }
    if (kind === 'transformValues') {
      // describe() does not tell the result's own store from the connected ones: all connected.
      config.stores = [...n.stores];
    } else if (kind === 'process' || kind === 'processValues') {
      config.stores = [...n.stores];
      if (!generated)
        notes.push(
          `${n.name}: an operation with a custom name is imported as a custom processor; change its kind if it is not one`,
        );
    } else if (STORE_FIELD_KINDS.has(kind)) {
      const store = n.stores[0];
      if (store && !isGeneratedStore(store)) config.store = store;
    }
    if (kind === 'cogroup') {
      const inputs = n.predecessors.map((_, i) => ({ port: `input${i + 1}` }));
      config.inputs = inputs;
    }
    const id = add(kind, config, name);
    modelOf.set(n.name, { id });
    if (kind === 'split') {
      for (const [child, branch] of splitBranches)
        if (branch.splitId === '') splitBranches.set(child, { splitId: id, port: branch.port });
    }
    if (kind === 'cogroup') {
      n.predecessors.forEach((p, i) => modelOf.set(p, { id, port: `input${i + 1}` }));
    }
  }
  for (const [child, branch] of splitBranches)
    modelOf.set(child, { id: branch.splitId, port: branch.port });

  // 2. edges between model nodes, looking through the nodes folded away
  const edges: Edge[] = [];
  const edgeKeys = new Set<string>();
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  for (const n of described) {
    const from = modelOf.get(n.name);
    if (!from || synthetic(n)) continue;
    const fromNode = nodeById.get(from.id)!;
    for (const target of targetsOf(n)) {
      const to = modelOf.get(target.name);
      if (!to || to.id === from.id) continue;
      const toNode = nodeById.get(to.id)!;
      let source = { id: from.id, port: from.port ?? 'out' };
      // a grouped input with nothing grouping before it: groupByKey has no processor of its own
      const needsGroup =
        (NEEDS_GROUPED.has(toNode.kind) || toNode.kind === 'cogroup') &&
        fromNode.kind !== 'groupBy';
      if (needsGroup) {
        const group = add('groupByKey', {});
        nodeById.set(group, nodes[nodes.length - 1]!);
        pushEdge({ from: source.id, fromPort: source.port, to: group, toPort: 'in' });
        source = { id: group, port: 'out' };
      } else if (
        target.through &&
        !['tableGroupBy', 'toTable', 'groupBy'].includes(fromNode.kind) &&
        !['tableCount', 'tableReduce', 'tableAggregate'].includes(toNode.kind)
      ) {
        // a repartition topic the user asked for (KStream#repartition)
        const rep = add('repartition', {});
        nodeById.set(rep, nodes[nodes.length - 1]!);
        pushEdge({ from: source.id, fromPort: source.port, to: rep, toPort: 'in' });
        source = { id: rep, port: 'out' };
      }
      pushEdge({ from: source.id, fromPort: source.port, to: to.id, toPort: to.port ?? 'in' });
    }
  }
  function pushEdge(e: Edge) {
    const key = `${e.from}:${e.fromPort}->${e.to}:${e.toPort}`;
    if (edgeKeys.has(key)) return;
    edgeKeys.add(key);
    edges.push(e);
  }

  // 3. topics the app reads or writes (describe() shows no partition counts: 1 until changed)
  const topics = new Set<string>();
  for (const n of described) {
    if (n.type === 'source') for (const t of n.topics) if (!internal.has(t)) topics.add(t);
    if (n.type === 'sink' && n.topic && !internal.has(n.topic)) topics.add(n.topic);
  }
  doc.topics = [...topics].map((name) => ({ name, partitions: 1, config: {} }));
  // document stores for custom processors
  const processStores = new Set<string>();
  for (const n of nodes)
    if (n.kind === 'process' || n.kind === 'processValues' || n.kind === 'transformValues')
      for (const s of (n.config.stores as string[] | undefined) ?? []) processStores.add(s);
  doc.stores = [...processStores].map((name) => ({
    name,
    type: 'keyValue',
    keySerde: 'string',
    valueSerde: 'json',
    logging: true,
    caching: false,
    storeType: 'persistent',
  }));
  if (topics.size > 0)
    notes.push('describe() shows no partition counts: topics start with 1 partition');
  // Generated names carry the DSL's build order; the document keeps it, so that the planner
  // numbers the processors as the original program did. Named nodes follow the one before them.
  const order = new Map<string, number>();
  let last = -1;
  for (const n of described) {
    const m = GENERATED.exec(n.name);
    const key = m ? Number(m[2]) : last + 0.5;
    if (m) last = Number(m[2]);
    const model = modelOf.get(n.name);
    if (model && !order.has(model.id)) order.set(model.id, key);
    if (model && m) order.set(model.id, Math.min(order.get(model.id)!, key));
  }
  const position = new Map(nodes.map((n, i) => [n.id, i]));
  doc.nodes = [...nodes].sort(
    (a, b) =>
      (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity) ||
      position.get(a.id)! - position.get(b.id)!,
  );
  doc.edges = edges;
  return { doc, notes };
}
