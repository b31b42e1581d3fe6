import type { PartitionAssignor, TopicPartition } from '../backend-spi.js';

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
export function tasksFor(
  subtopologies: AssignableSubtopology[],
  partitionsPerTopic: ReadonlyMap<string, number>,
): TaskPartitions[] {
  const tasks: TaskPartitions[] = [];
  for (const sub of subtopologies) {
    const count = Math.max(0, ...sub.sourceTopics.map((t) => partitionsPerTopic.get(t) ?? 0));
    for (let p = 0; p < count; p++) {
      tasks.push({
        taskId: `${sub.id}_${p}`,
        subtopology: sub.id,
        partition: p,
        partitions: sub.sourceTopics
          .filter((t) => (partitionsPerTopic.get(t) ?? 0) > p)
          .map((topic) => ({ topic, partition: p })),
      });
    }
  }
  return tasks;
}

/**
 * Kafka Streams assigns tasks, not partitions (StreamsPartitionAssignor): all partitions of a task
 * (its co-partitioned source topics) go to the same member. Beyond that, tasks with the same
 * partition number in different sub-topologies (0_p, 1_p, …) are kept on one member too, and each
 * such group goes to the member with the fewest tasks so far (members sorted by id), which
 * balances the stream threads.
 */
export function streamsTaskAssignor(subtopologies: AssignableSubtopology[]): PartitionAssignor {
  return {
    name: 'streams',
    assign(members, partitionsPerTopic) {
      const sorted = members.map((m) => m.memberId).sort();
      const result = new Map<string, TopicPartition[]>(sorted.map((id) => [id, []]));
      if (sorted.length === 0) return result;
      const load = new Map<string, number>(sorted.map((id) => [id, 0]));
      const byPartition = new Map<number, TaskPartitions[]>();
      for (const task of tasksFor(subtopologies, partitionsPerTopic)) {
        let group = byPartition.get(task.partition);
        if (!group) byPartition.set(task.partition, (group = []));
        group.push(task);
      }
      for (const partition of [...byPartition.keys()].sort((a, b) => a - b)) {
        const group = byPartition.get(partition)!;
        let target = sorted[0]!;
        for (const id of sorted) if (load.get(id)! < load.get(target)!) target = id;
        for (const task of group) result.get(target)!.push(...task.partitions);
        load.set(target, load.get(target)! + group.length);
      }
      return result;
    },
  };
}
