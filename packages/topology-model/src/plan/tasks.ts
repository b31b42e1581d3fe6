// Tasks and internal topic sizes, as Kafka Streams' partition assignor derives them.
import type { Plan } from '../plan-types.js';

export interface TaskAssignment {
  subtopology: number;
  partition: number;
  /** `<subtopology>_<partition>`, e.g. `0_2`. */
  taskId: `${number}_${number}`;
}

/**
 * Partition counts of the plan's internal topics. A repartition topic gets the largest partition
 * count among the source topics of the sub-topology writing it (resolved upstream first); a
 * changelog gets one partition per task of its store's sub-topology.
 * @param partitionsByTopic partition counts of the user topics (internal topics may be absent)
 */
export function internalTopicPartitions(
  plan: Plan,
  partitionsByTopic: Readonly<Record<string, number>>,
): Record<string, number> {
  const known = new Map(Object.entries(partitionsByTopic));
  const writer = new Map<string, number>();
  for (const sub of plan.subtopologies) for (const t of sub.sinkTopics) writer.set(t, sub.id);
  const resolving = new Set<number>();

  const partitionsOf = (topic: string): number => {
    const n = known.get(topic);
    if (n !== undefined) return n;
    const internal = plan.internalTopics.find((t) => t.name === topic);
    if (internal?.kind === 'repartition' && internal.partitions !== null) {
      known.set(topic, internal.partitions);
      return internal.partitions;
    }
    if (internal?.kind === 'repartition') {
      const sub = writer.get(topic);
      if (sub === undefined)
        throw new Error(`repartition topic ${topic} has no writer in the plan`);
      const count = taskCount(sub);
      known.set(topic, count);
      return count;
    }
    throw new Error(`partition count of topic "${topic}" is unknown`);
  };
  const taskCount = (subId: number): number => {
    const sub = plan.subtopologies[subId];
    if (!sub) throw new Error(`no sub-topology ${subId}`);
    if (resolving.has(subId))
      throw new Error(`sub-topology ${subId}: repartition topics form a cycle`);
    resolving.add(subId);
    const count = Math.max(0, ...sub.sourceTopics.map(partitionsOf));
    resolving.delete(subId);
    return count;
  };

  const out: Record<string, number> = {};
  for (const t of plan.internalTopics) {
    if (t.kind === 'repartition') out[t.name] = partitionsOf(t.name);
  }
  for (const store of plan.stores) {
    const changelog = store.changelogTopic;
    // A changelog that is a declared topic (reuse.ktable.source.topics) keeps its own size.
    if (changelog && !(changelog in partitionsByTopic))
      out[changelog] = taskCount(store.subtopology);
  }
  return out;
}

/**
 * One task per (sub-topology, partition); a sub-topology has as many tasks as the largest
 * partition count among its source topics (Kafka Streams: topics of 5 and 6 partitions → 6 tasks).
 * Global stores' sub-topologies generate no tasks.
 */
export function taskIdsFor(
  plan: Plan,
  partitionsByTopic: Readonly<Record<string, number>>,
): TaskAssignment[] {
  const all = { ...partitionsByTopic, ...internalTopicPartitions(plan, partitionsByTopic) };
  const tasks: TaskAssignment[] = [];
  for (const sub of plan.subtopologies) {
    if (sub.global) continue;
    const count = Math.max(
      0,
      ...sub.sourceTopics.map((t) => {
        const n = all[t];
        if (n === undefined) throw new Error(`partition count of topic "${t}" is unknown`);
        return n;
      }),
    );
    for (let p = 0; p < count; p++)
      tasks.push({ subtopology: sub.id, partition: p, taskId: `${sub.id}_${p}` });
  }
  return tasks;
}
