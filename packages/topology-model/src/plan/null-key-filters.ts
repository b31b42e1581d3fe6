// Whether the filter Kafka Streams puts in front of each repartition sink drops null keys.
// KStreamImpl#createRepartitionedSource adds it as `(k, v) -> true`; at build time
// InternalStreamsBuilder#rewriteRepartitionNodes (KIP-962, always, whatever
// topology.optimization says) replaces it with `(k, v) -> k != null` in every repartition node
// that has no join relaxing the null-key requirement anywhere downstream in the DSL graph
// (NodesWithRelaxedNullKeyJoinDownstream): stream–stream left and outer joins, stream–table and
// stream–globalTable left joins, which join a null-key record with null. Checked against Kafka
// Streams 4.1: a re-keyed stream's null-key record reaches a left join downstream (joined, or
// dropped and counted when its value is null too), and never reaches an aggregation.
import type { Topology } from '../schema.js';
import type { PlanBuilder } from './builder.js';

function relaxesNullKeys(kind: string, config: Record<string, unknown>): boolean {
  const type = config['type'];
  switch (kind) {
    case 'streamStreamJoin':
      return type === 'left' || type === 'outer';
    case 'streamTableJoin':
    case 'streamGlobalTableJoin':
      return type === 'left';
    default:
      return false;
  }
}

/**
 * Marks the repartition filters that pass null keys. Kafka's DSL graph follows the document's
 * edges, except that a stream–table or stream–globalTable join is a child of its stream only
 * (the table is read through a value getter), so the table side's edge is not followed.
 */
export function markNullKeyFilters(topology: Topology, b: PlanBuilder): void {
  const kinds = new Map(topology.nodes.map((n) => [n.id, n]));
  const children = new Map<string, string[]>();
  for (const e of topology.edges) {
    const to = kinds.get(e.to);
    const tableSide =
      (to?.kind === 'streamTableJoin' || to?.kind === 'streamGlobalTableJoin') &&
      e.toPort === 'right';
    if (tableSide) continue;
    const list = children.get(e.from) ?? [];
    list.push(e.to);
    children.set(e.from, list);
  }
  const reaches = new Map<string, boolean>();
  const reachesRelaxedJoin = (id: string): boolean => {
    const known = reaches.get(id);
    if (known !== undefined) return known;
    reaches.set(id, false); // a document's graph has no cycles; this only guards a bad one
    const node = kinds.get(id);
    const found =
      (node !== undefined &&
        relaxesNullKeys(node.kind, node.config as unknown as Record<string, unknown>)) ||
      (children.get(id) ?? []).some(reachesRelaxedJoin);
    reaches.set(id, found);
    return found;
  };
  for (const { filter, readers } of b.repartitionFilters.values()) {
    const node = b.nodes.get(filter);
    if (node !== undefined && readers.some(reachesRelaxedJoin)) node.passesNullKeys = true;
  }
}
