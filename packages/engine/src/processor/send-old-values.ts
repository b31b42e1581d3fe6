// KTableImpl#enableSendingOldValues, computed over a sub-topology's planned nodes: which table
// processors forward old values. A KTable#groupBy (KTableRepartitionMap) needs them from its
// parent (forcing a source table to materialize); a KTableFilter asks its parent too, without
// forcing; a materialized filter / mapValues reads them from its own store, an unmaterialized one
// asks its own parent; sources (when materialized) and aggregations always can. Kafka Streams
// decides the filter's request when the filter is built; here the plan's final materialization is
// used, which differs only if a later groupBy forces an unnamed source table that an earlier
// filter already read. Which op plays which part is in table-semantics.ts.
import type { PlannedNode } from '@streamwright/topology-model';
import { tableSemantics } from './table-semantics.js';

export function nodesSendingOldValues(
  nodes: readonly PlannedNode[],
  materialized: (node: PlannedNode) => boolean,
): Set<string> {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const sending = new Set<string>();
  const enable = (name: string | undefined, force: boolean): boolean => {
    const node = name === undefined ? undefined : byName.get(name);
    if (!node) return false;
    switch (tableSemantics[node.op].oldValues) {
      case 'materializedSource':
        if (!force && !materialized(node)) return false;
        sending.add(node.name);
        return true;
      case 'storeOrParent':
        if (materialized(node) || enable(node.predecessors[0], force)) sending.add(node.name);
        return sending.has(node.name);
      case 'transformValues':
        // KTableTransformValues: its own store (not its connected ones) holds old values.
        if (
          (node.modelNode?.config as { store?: string } | undefined)?.store !== undefined ||
          enable(node.predecessors[0], force)
        )
          sending.add(node.name);
        return sending.has(node.name);
      // Aggregations, the windowed ones too (KStreamWindowAggregate / KStreamSlidingWindowAggregate
      // / KStreamSessionWindowAggregate#enableSendingOldValues always succeeds; their processors
      // here always send them).
      case 'always':
        sending.add(node.name);
        return true;
      case 'joinMerger':
        // KTableKTableJoinMerger → both KTableKTableAbstractJoins → both joined tables, forced
        // (table-table joins read their sides through materialized stores).
        for (const p of node.predecessors) {
          sending.add(p);
          enable(byName.get(p)?.predecessors[0], true);
        }
        sending.add(node.name);
        return true;
      case 'suppress':
        // KTableSuppressProcessorSupplier#enableSendingOldValues asks its parent, which
        // KTableImpl#suppress has already forced to send them (below): always true.
        enable(node.predecessors[0], true);
        sending.add(node.name);
        return true;
      case 'cogroupMerge':
        // KTablePassThrough: every cogrouped aggregator sends old values.
        for (const p of node.predecessors) enable(p, force);
        sending.add(node.name);
        return true;
      case 'none':
        return false;
    }
  };
  for (const node of nodes) {
    // KTableFilter asks its parent at construction, without forcing materialization: with old
    // values it can skip the tombstones of records that were filtered out before as well.
    if (
      (node.op === 'tableFilter' || node.op === 'tableFilterNot') &&
      enable(node.predecessors[0], false)
    )
      sending.add(node.name);
  }
  for (const node of nodes) if (node.op === 'tableGroupBy') enable(node.predecessors[0], true);
  // KTableImpl#suppress: the suppressed table sends old values (forcing materialization).
  for (const node of nodes) if (node.op === 'suppress') enable(node.predecessors[0], true);
  // KTableImpl#doJoin: a left join's left side and both sides of an outer join send old values.
  for (const node of nodes) {
    if (node.op !== 'tableTableJoin') continue;
    const type = (node.modelNode?.config as { type?: string } | undefined)?.type;
    if (type === 'outer' || (type === 'left' && node.port === 'left'))
      enable(node.predecessors[0], true);
  }
  // KTableImpl#doJoinOnForeignKey: both tables send old values (an FK change must unsubscribe
  // the old foreign key; the right side's old values save needless fan-outs).
  for (const node of nodes)
    if (node.op === 'fk-subscription-send' || node.op === 'fk-foreign-join')
      enable(node.predecessors[0], true);
  return sending;
}
