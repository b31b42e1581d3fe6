// Lookups over topology-model's node-kind registry, tolerant of unknown kinds (an imported or
// half-edited document may name one; it is shown and reported, never dropped).
import { nodeKinds, type NodeKind, type NodeKindSpec } from '@streamwright/topology-model';

export function kindSpec(kind: string): NodeKindSpec | null {
  return Object.hasOwn(nodeKinds, kind) ? (nodeKinds[kind as NodeKind] as NodeKindSpec) : null;
}

export const categoryLabels: Record<NodeKindSpec['category'], string> = {
  sources: 'Sources',
  stateless: 'Stateless',
  stateful: 'Stateful',
  sinks: 'Sinks',
};

const categoryOrder: NodeKindSpec['category'][] = ['sources', 'stateless', 'stateful', 'sinks'];

/** The palette: every kind, grouped by category in the order a topology reads. */
export function paletteGroups(): {
  category: NodeKindSpec['category'];
  label: string;
  kinds: { kind: NodeKind; spec: NodeKindSpec }[];
}[] {
  const entries = Object.entries(nodeKinds) as [NodeKind, NodeKindSpec][];
  const known = new Set<string>(categoryOrder);
  const extra = [...new Set(entries.map(([, s]) => s.category))].filter((c) => !known.has(c));
  return [...categoryOrder, ...extra]
    .map((category) => ({
      category,
      label: categoryLabels[category] ?? category,
      kinds: entries
        .filter(([, spec]) => spec.category === category)
        .map(([kind, spec]) => ({ kind, spec })),
    }))
    .filter((g) => g.kinds.length > 0);
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
    default:
      // kinds with one logic field show it; stateful ones name their store
      if (str(config.expression)) return str(config.expression);
      return str(config.store) ? `store ${str(config.store)}` : '';
  }
}
