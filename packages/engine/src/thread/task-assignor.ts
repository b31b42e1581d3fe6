import type { PartitionAssignor, TopicPartition } from '../api.js';

export interface AssignableSubtopology {
  id: number;
  sourceTopics: string[];
}

export interface TaskPartitions {
  taskId: string;
  subtopology: number;
  partition: number;
  partitions: TopicPartition[];
}

/** Tasks of the topology for the given partition counts: max partitions among a sub-topology's sources. */
export function tasksFor(subtopologies: AssignableSubtopology[], partitionsPerTopic: ReadonlyMap<string, number>): TaskPartitions[] {
  const tasks: TaskPartitions[] = [];
  for (const sub of subtopologies) {
    const count = Math.max(0, ...sub.sourceTopics.map((t) => partitionsPerTopic.get(t) ?? 0));
    for (let p = 0; p < count; p++) {
      tasks.push({
        taskId: `${sub.id}_${p}`,
        subtopology: sub.id,
        partition: p,
        partitions: sub.sourceTopics.filter((t) => (partitionsPerTopic.get(t) ?? 0) > p).map((topic) => ({ topic, partition: p })),
      });
    }
  }
  return tasks;
}

/**
 * Kafka Streams assigns tasks, not partitions (StreamsPartitionAssignor): all partitions of a task
 * go to the same member. Tasks are dealt out round-robin to the members sorted by id, which
 * balances task counts across stream threads.
 */
export function streamsTaskAssignor(subtopologies: AssignableSubtopology[]): PartitionAssignor {
  return {
    name: 'streams',
    assign(members, partitionsPerTopic) {
      const sorted = members.map((m) => m.memberId).sort();
      const result = new Map<string, TopicPartition[]>(sorted.map((id) => [id, []]));
      tasksFor(subtopologies, partitionsPerTopic).forEach((task, i) => {
        result.get(sorted[i % sorted.length]!)!.push(...task.partitions);
      });
      return result;
    },
  };
}
