// Lookups over topology-model's node-kind registry, tolerant of unknown kinds (an imported or
// half-edited document may name one; it is shown and reported, never dropped).
import { nodeKinds, type NodeKind, type NodeKindSpec } from '@streamwright/topology-model';

export function kindSpec(kind: string): NodeKindSpec | null {
  return Object.hasOwn(nodeKinds, kind) ? (nodeKinds[kind as NodeKind] as NodeKindSpec) : null;
}

/**
 * The palette's groups. topology-model files kinds under four categories; the designer splits out
 * the families users look for by name, as Kafka Streams' docs do: windowed operations, joins and
 * custom code (Processor API processors, KTable#transformValues' value transformers).
 */
export type PaletteCategory =
  'sources' | 'stateless' | 'stateful' | 'windows' | 'joins' | 'sinks' | 'custom';

export const categoryLabels: Record<PaletteCategory, string> = {
  sources: 'Sources',
  stateless: 'Stateless',
  stateful: 'Stateful',
  windows: 'Windows',
  joins: 'Joins',
  sinks: 'Sinks',
  custom: 'Custom processors',
};

const categoryOrder: PaletteCategory[] = [
  'sources',
  'stateless',
  'stateful',
  'windows',
  'joins',
  'sinks',
  'custom',
];

/**
 * Which palette group each kind belongs to: one entry per kind, so a new kind fails typecheck
 * here until it has a place in the palette (docs/ARCHITECTURE.md, "How to add a node kind"). Its
 * form needs no code: the inspector derives it from the kind's zod config schema.
 */
export const paletteCategories: Record<NodeKind, PaletteCategory> = {
  generator: 'sources',
  source: 'sources',
  table: 'sources',
  globalTable: 'sources',
  filter: 'stateless',
  filterNot: 'stateless',
  map: 'stateless',
  mapValues: 'stateless',
  selectKey: 'stateless',
  flatMap: 'stateless',
  flatMapValues: 'stateless',
  peek: 'stateless',
  split: 'stateless',
  merge: 'stateless',
  repartition: 'stateless',
  tableFilter: 'stateless',
  tableFilterNot: 'stateless',
  tableMapValues: 'stateless',
  transformValues: 'custom',
  toStream: 'stateless',
  groupByKey: 'stateful',
  groupBy: 'stateful',
  count: 'stateful',
  reduce: 'stateful',
  aggregate: 'stateful',
  cogroup: 'stateful',
  toTable: 'stateful',
  tableGroupBy: 'stateful',
  tableCount: 'stateful',
  tableReduce: 'stateful',
  tableAggregate: 'stateful',
  windowedBy: 'windows',
  windowedCount: 'windows',
  windowedReduce: 'windows',
  windowedAggregate: 'windows',
  suppress: 'windows',
  streamStreamJoin: 'joins',
  streamTableJoin: 'joins',
  streamGlobalTableJoin: 'joins',
  tableTableJoin: 'joins',
  foreignKeyJoin: 'joins',
  process: 'custom',
  processValues: 'custom',
  sink: 'sinks',
  foreach: 'sinks',
  print: 'sinks',
};

/** Which palette group a kind belongs to. */
export function paletteCategoryOf(kind: NodeKind): PaletteCategory {
  return paletteCategories[kind];
}

export interface PaletteGroup {
  category: PaletteCategory;
  label: string;
  kinds: { kind: NodeKind; spec: NodeKindSpec }[];
}

/** The palette: every kind, grouped in the order a topology reads (empty groups included). */
export function paletteGroups(): PaletteGroup[] {
  const entries = Object.entries(nodeKinds) as [NodeKind, NodeKindSpec][];
  return categoryOrder.map((category) => ({
    category,
    label: categoryLabels[category],
    kinds: entries
      .filter(([kind]) => paletteCategoryOf(kind) === category)
      .map(([kind, spec]) => ({ kind, spec })),
  }));
}

/** One line under the node's title: what it reads, writes or computes. */
export function nodeSummary(kind: string, config: Record<string, unknown>): string {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (kind) {
    case 'source':
      return str(config.topic) ? `from ${str(config.topic)}` : 'no topic yet';
    case 'generator':
      return str(config.topic)
        ? `into ${str(config.topic)}${typeof config.ratePerSecond === 'number' ? ` · ${config.ratePerSecond}/s` : ''}`
        : 'no topic yet';
    case 'sink':
      return str(config.topic) ? `to ${str(config.topic)}` : 'no topic yet';
    case 'filter':
    case 'mapValues':
      return str(config.expression) || 'no expression yet';
    case 'table':
    case 'globalTable':
      return str(config.topic) ? `from ${str(config.topic)}` : 'no topic yet';
    case 'transformValues':
      return str(config.transformer)
        ? `${str(config.transformer)}${str(config.store) ? ` · store ${str(config.store)}` : ''}`
        : 'no transformer yet';
    case 'windowedBy':
      return windowSummary(config.window);
    case 'cogroup': {
      // A windowed cogroup (CogroupedKStream#windowedBy) says so: describe() cannot tell.
      const window = windowSummary(config.window);
      const store = str(config.store) ? `store ${str(config.store)}` : '';
      return [window, store].filter(Boolean).join(' · ');
    }
    default:
      // kinds with one logic field show it; stateful ones name their store
      if (str(config.expression)) return str(config.expression);
      return str(config.store) ? `store ${str(config.store)}` : '';
  }
}

/** A window spec in a few words: `tumbling 5000 ms`, `session gap 300 ms · grace 100 ms`. */
function windowSummary(window: unknown): string {
  if (typeof window !== 'object' || window === null) return '';
  const w = window as Record<string, unknown>;
  const ms = (v: unknown) => (typeof v === 'number' ? `${v} ms` : '?');
  const grace = typeof w.graceMs === 'number' && w.graceMs > 0 ? ` · grace ${ms(w.graceMs)}` : '';
  switch (w.type) {
    case 'tumbling':
      return `tumbling ${ms(w.sizeMs)}${grace}`;
    case 'hopping':
      return `hopping ${ms(w.sizeMs)} by ${ms(w.advanceMs)}${grace}`;
    case 'sliding':
      return `sliding ${ms(w.timeDifferenceMs)}${grace}`;
    case 'session':
      return `session gap ${ms(w.gapMs)}${grace}`;
    default:
      return '';
  }
}
