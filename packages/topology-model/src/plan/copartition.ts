// Kafka Streams' CopartitionedTopicsEnforcer, shared by validation (before deploy) and the engine
// (at start): the source topics of both sides of a join must have the same number of partitions.
// Repartition topics in a group whose count is not fixed take the group's count; user topics (and
// repartition topics with a fixed count) that differ make the application fail at start.

export interface CopartitionMismatch {
  /** Index of the group in the plan's copartitionGroups. */
  group: number;
  /** The topics whose counts differ, sorted by name, with their counts. */
  counts: { topic: string; partitions: number }[];
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Partition counts of the flexible repartition topics of each group, and every group whose fixed
 * topics disagree (such a group forces nothing).
 */
export function resolveCopartitioning(
  groups: readonly (readonly string[])[],
  partitionsOf: (topic: string) => number | undefined,
  isRepartitionTopic: (topic: string) => boolean,
): { forced: Map<string, number>; mismatches: CopartitionMismatch[] } {
  const forced = new Map<string, number>();
  const mismatches: CopartitionMismatch[] = [];
  groups.forEach((group, index) => {
    const fixed = group.filter((t) => !isRepartitionTopic(t) && partitionsOf(t) !== undefined);
    const counts = new Set(fixed.map((t) => partitionsOf(t) as number));
    if (counts.size > 1) {
      mismatches.push({
        group: index,
        counts: [...fixed]
          .sort(compareText)
          .map((topic) => ({ topic, partitions: partitionsOf(topic) as number })),
      });
      return;
    }
    const count =
      fixed.length > 0
        ? (partitionsOf(fixed[0] as string) as number)
        : Math.max(0, ...group.map((t) => forced.get(t) ?? partitionsOf(t) ?? 0));
    if (count === 0) return;
    for (const t of group) if (isRepartitionTopic(t)) forced.set(t, count);
  });
  return { forced, mismatches };
}

/** Kafka Streams' words: `Invalid topology: Topics not co-partitioned: [{a=2, b=3}]`. */
export function copartitionMessage(mismatch: CopartitionMismatch): string {
  const listed = mismatch.counts.map((c) => `${c.topic}=${c.partitions}`);
  return `Invalid topology: Topics not co-partitioned: [{${listed.join(', ')}}]`;
}
