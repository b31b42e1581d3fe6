import type { AssignorMember, PartitionAssignor, TopicPartition } from '../../api.js';

function emptyAssignment(members: AssignorMember[]): Map<string, TopicPartition[]> {
  return new Map(members.map((m) => [m.memberId, []]));
}

/**
 * Kafka's RangeAssignor: per topic, the sorted members subscribed to it get contiguous ranges of
 * partitions, the first `partitions % members` one extra. Co-partitioned topics therefore land
 * partition-by-partition on the same member.
 */
export const rangeAssignor: PartitionAssignor = {
  name: 'range',
  assign(members, partitionsPerTopic) {
    const result = emptyAssignment(members);
    for (const [topic, count] of [...partitionsPerTopic].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const subscribed = members.filter((m) => m.topics.includes(topic)).map((m) => m.memberId).sort();
      if (subscribed.length === 0) continue;
      const per = Math.floor(count / subscribed.length);
      const extra = count % subscribed.length;
      subscribed.forEach((memberId, i) => {
        const start = per * i + Math.min(i, extra);
        const length = per + (i < extra ? 1 : 0);
        for (let p = start; p < start + length; p++) result.get(memberId)!.push({ topic, partition: p });
      });
    }
    return result;
  },
};

/** Kafka's RoundRobinAssignor: all partitions, sorted, dealt out to the sorted members in turn. */
export const roundRobinAssignor: PartitionAssignor = {
  name: 'roundrobin',
  assign(members, partitionsPerTopic) {
    const result = emptyAssignment(members);
    const sorted = [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : 1));
    let next = 0;
    for (const [topic, count] of [...partitionsPerTopic].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      for (let p = 0; p < count; p++) {
        for (let tries = 0; tries < sorted.length; tries++) {
          const member = sorted[next++ % sorted.length]!;
          if (member.topics.includes(topic)) {
            result.get(member.memberId)!.push({ topic, partition: p });
            break;
          }
        }
      }
    }
    return result;
  },
};
