// InternalStreamsBuilder#enableVersionedSemantics, over a sub-topology's planned nodes: which
// KTable filters read a versioned table (directly or through unmaterialized filters / mapValues /
// groupBy). A node's output is versioned when its own store is (a table source, toTable, a
// materialized filter / mapValues, a join's merger, a foreign-key join's result, an
// aggregation); nodes without a store of their own pass their parent's on; any other node, a
// non-materialized table–table join's merger included, is not versioned (Kafka sets its
// outputVersioned to false). Out-of-order updates themselves travel as Change#isLatest; what
// needs this plan-time flag is KTableFilter, which with versioned semantics forwards an update
// even when both its old and new values are filtered out. Which op plays which part is in
// table-semantics.ts.
import type { PlannedNode, StorePlan } from '@streamwright/topology-model';
import { tableSemantics } from './table-semantics.js';

export function filtersWithVersionedSemantics(
  nodes: readonly PlannedNode[],
  stores: readonly StorePlan[],
  planned: ReadonlySet<string>,
): Set<string> {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const versionedStores = new Set(
    stores.filter((s) => s.versioned !== undefined).map((s) => s.name),
  );
  const outputVersioned = (node: PlannedNode | undefined): boolean => {
    if (node === undefined) return false;
    const own = node.stores.filter((s) => planned.has(s));
    const parent = () => outputVersioned(byName.get(node.predecessors[0] ?? ''));
    switch (tableSemantics[node.op].versioned) {
      case 'ownStoreOrParent':
        if (own.length === 0) return parent();
        return own.some((s) => versionedStores.has(s));
      case 'parent':
        // A cogroup's merge (KTablePassThrough) is the table of the aggregators' shared store.
        return parent();
      case 'ownStore':
        return own.some((s) => versionedStores.has(s));
      case 'never':
        return false;
    }
  };
  const out = new Set<string>();
  for (const n of nodes)
    if (
      (n.op === 'tableFilter' || n.op === 'tableFilterNot') &&
      outputVersioned(byName.get(n.predecessors[0] ?? ''))
    )
      out.add(n.name);
  return out;
}
