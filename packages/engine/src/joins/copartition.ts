// Kafka Streams' CopartitionedTopicsEnforcer: the source topics of both sides of a join must have
// the same number of partitions. Repartition topics in a group take the group's count (the
// largest of its other topics); user topics that differ fail the application at start.
import { EngineError } from '../errors.js';

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Partition counts for the repartition topics of each co-partition group.
 * @throws EngineError `Invalid topology: Topics not co-partitioned: [{a=2, b=3}]`
 */
export function enforceCopartitioning(
  groups: readonly (readonly string[])[],
  partitionsOf: (topic: string) => number | undefined,
  isRepartitionTopic: (topic: string) => boolean,
): Map<string, number> {
  const forced = new Map<string, number>();
  for (const group of groups) {
    const fixed = group.filter((t) => !isRepartitionTopic(t) && partitionsOf(t) !== undefined);
    const counts = new Set(fixed.map((t) => partitionsOf(t) as number));
    if (counts.size > 1) {
      const listed = [...fixed].sort(compareText).map((t) => `${t}=${String(partitionsOf(t))}`);
      throw new EngineError(
        'INVALID_PLAN',
        `Invalid topology: Topics not co-partitioned: [{${listed.join(', ')}}]`,
      );
    }
    const count =
      fixed.length > 0
        ? (partitionsOf(fixed[0] as string) as number)
        : Math.max(0, ...group.map((t) => forced.get(t) ?? partitionsOf(t) ?? 0));
    if (count === 0) continue;
    for (const t of group) if (isRepartitionTopic(t)) forced.set(t, count);
  }
  return forced;
}
