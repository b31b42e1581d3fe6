// KTableImpl#enableSendingOldValues, computed over a sub-topology's planned nodes: which table
// processors forward old values. A KTable#groupBy (KTableRepartitionMap) needs them from its
// parent; a materialized filter / mapValues reads them from its own store, an unmaterialized one
// asks its own parent; sources and aggregations always can.
import type { PlannedNode } from '@streamwright/topology-model';

export function nodesSendingOldValues(nodes: readonly PlannedNode[], materialized: (node: PlannedNode) => boolean): Set<string> {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const sending = new Set<string>();
  const enable = (name: string | undefined, force: boolean): boolean => {
    const node = name === undefined ? undefined : byName.get(name);
    if (!node) return false;
    switch (node.op) {
      case 'table':
      case 'toTable':
      case 'globalTable':
        if (!force && !materialized(node)) return false;
        sending.add(node.name);
        return true;
      case 'tableFilter':
      case 'tableFilterNot':
      case 'tableMapValues':
        if (materialized(node) || enable(node.predecessors[0], force)) sending.add(node.name);
        return sending.has(node.name);
      case 'count':
      case 'reduce':
      case 'aggregate':
      case 'cogroup-aggregate':
      case 'tableCount':
      case 'tableReduce':
      case 'tableAggregate':
        sending.add(node.name);
        return true;
      case 'cogroup':
        // KTablePassThrough: every cogrouped aggregator sends old values.
        for (const p of node.predecessors) enable(p, force);
        sending.add(node.name);
        return true;
      default:
        return false;
    }
  };
  for (const node of nodes) if (node.op === 'tableGroupBy') enable(node.predecessors[0], true);
  return sending;
}
