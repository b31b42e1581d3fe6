// Partition assignors, pluggable as in Kafka's ConsumerPartitionAssignor. The group picks one per
// rebalance; every member must name the same assignor (else INCONSISTENT_GROUP_PROTOCOL).
import type { TopicPartition } from '../types.js';

export interface MemberSubscription {
  memberId: string;
  topics: string[];
  /** Opaque data a custom assignor may use (Kafka's subscription userData). */
  userData?: unknown;
}

export interface Assignor {
  readonly name: string;
  assign(
    members: readonly MemberSubscription[],
    partitionsPerTopic: ReadonlyMap<string, number>,
  ): Map<string, TopicPartition[]>;
}

const byId = (a: MemberSubscription, b: MemberSubscription): number =>
  a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0;

/**
 * Kafka's RangeAssignor: per topic, the sorted subscribed members get contiguous ranges; the first
 * `partitions % members` of them get one extra. Co-partitioned topics land together.
 */
export const rangeAssignor: Assignor = {
  name: 'range',
  assign(members, partitionsPerTopic) {
    const out = new Map<string, TopicPartition[]>(members.map((m) => [m.memberId, []]));
    const topics = [...new Set(members.flatMap((m) => m.topics))].sort();
    for (const topic of topics) {
      const n = partitionsPerTopic.get(topic);
      if (n === undefined) continue;
      const subs = members.filter((m) => m.topics.includes(topic)).sort(byId);
      const per = Math.floor(n / subs.length);
      const extra = n % subs.length;
      subs.forEach((m, i) => {
        const start = per * i + Math.min(i, extra);
        const len = per + (i < extra ? 1 : 0);
        for (let p = start; p < start + len; p++)
          out.get(m.memberId)!.push({ topic, partition: p });
      });
    }
    return out;
  },
};

/** Kafka's RoundRobinAssignor: all partitions, sorted, dealt in turn to the members subscribing. */
export const roundRobinAssignor: Assignor = {
  name: 'roundrobin',
  assign(members, partitionsPerTopic) {
    const out = new Map<string, TopicPartition[]>(members.map((m) => [m.memberId, []]));
    const sorted = [...members].sort(byId);
    const topics = [...new Set(members.flatMap((m) => m.topics))].sort();
    let next = 0;
    for (const topic of topics) {
      const n = partitionsPerTopic.get(topic) ?? 0;
      for (let p = 0; p < n; p++) {
        for (let tries = 0; tries < sorted.length; tries++) {
          const m = sorted[next % sorted.length]!;
          next++;
          if (m.topics.includes(topic)) {
            out.get(m.memberId)!.push({ topic, partition: p });
            break;
          }
        }
      }
    }
    return out;
  },
};

export const BUILT_IN_ASSIGNORS: Readonly<Record<string, Assignor>> = {
  range: rangeAssignor,
  roundrobin: roundRobinAssignor,
};
