// Consumer-group offsets on the Kafka backend: OffsetCommit and OffsetFetch at the group's
// coordinator, and the registry of this process's group members whose generations the commits
// carry. Apart from kafka-backend.ts because a commit depends on which member owns a partition,
// and the coordinator's retry rules (moves, loads, pending transactional offsets) are their own.
import type { TopicPartition } from '../../backend-spi.js';
import type { KafkaCluster } from './client/cluster.js';
import type { BrokerConnection } from './client/connection.js';
import { errorType, KafkaConnectionError } from './client/errors.js';
import { protocolError } from './client/protocol.js';
import type { KafkaGroupMember } from './kafka-group-member.js';

const COORDINATOR_MOVED = new Set([
  'NOT_COORDINATOR',
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
]);
/** Retried at the group coordinator besides its moves: a transaction's offsets still pending. */
const COORDINATOR_WAIT = new Set([...COORDINATOR_MOVED, 'UNSTABLE_OFFSET_COMMIT']);

export function tpKey(topic: string, partition: number): string {
  return `${topic}:${partition}`;
}

export class KafkaGroupOffsets {
  /** groupId → its members in this process; commits go out with the owning member's generation. */
  readonly #members = new Map<string, Set<KafkaGroupMember>>();

  /** `admin`: the client of commits and committed offsets (never behind a long-polled fetch). */
  constructor(private readonly admin: KafkaCluster) {}

  /** Registers a member of `groupId`; the returned function unregisters it. */
  register(groupId: string, member: KafkaGroupMember): () => void {
    let members = this.#members.get(groupId);
    if (!members) this.#members.set(groupId, (members = new Set()));
    members.add(member);
    return () => members.delete(member);
  }

  /** Every registered member, for the backend's close. */
  allMembers(): KafkaGroupMember[] {
    return [...this.#members.values()].flatMap((members) => [...members]);
  }

  async commitOffsets(
    groupId: string,
    offsets: { topic: string; partition: number; offset: number }[],
  ): Promise<void> {
    if (offsets.length === 0) return;
    // Each offset goes out with the generation of the member owning its partition (Kafka refuses
    // a commit of a live group from outside it); offsets of partitions no member owns any more
    // go with the first member's generation and are refused by the coordinator if stale.
    const members = [...(this.#members.get(groupId) ?? [])];
    const owner = new Map<string, KafkaGroupMember>();
    for (const m of members)
      for (const tp of m.assignment()) owner.set(tpKey(tp.topic, tp.partition), m);
    const byMember = new Map<KafkaGroupMember | null, typeof offsets>();
    for (const o of offsets) {
      const m = owner.get(tpKey(o.topic, o.partition)) ?? members[0] ?? null;
      let list = byMember.get(m);
      if (!list) byMember.set(m, (list = []));
      list.push(o);
    }
    for (const [m, list] of byMember) {
      const topics = new Map<string, { partitionIndex: number; committedOffset: bigint }[]>();
      for (const o of list) {
        let ps = topics.get(o.topic);
        if (!ps) topics.set(o.topic, (ps = []));
        ps.push({ partitionIndex: o.partition, committedOffset: BigInt(o.offset) });
      }
      await this.#atCoordinator(groupId, async (coordinator) => {
        const answer = await coordinator.send('OffsetCommit', {
          groupId,
          generationIdOrMemberEpoch: m?.generation() ?? -1,
          memberId: m?.memberId ?? '',
          groupInstanceId: null,
          retentionTimeMs: -1n,
          topics: [...topics].map(([name, partitions]) => ({
            name,
            partitions: partitions.map((p) => ({
              ...p,
              committedLeaderEpoch: -1,
              committedMetadata: null,
            })),
          })),
        });
        for (const t of answer.topics)
          for (const p of t.partitions)
            if (p.errorCode !== 0)
              throw protocolError(p.errorCode, {
                group: groupId,
                topic: t.name,
                partition: p.partitionIndex,
                api: 'OffsetCommit',
                principal: this.admin.principal,
              });
      });
    }
  }

  async committedOffsets(groupId: string, tps: TopicPartition[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (tps.length === 0) return out;
    const topics = new Map<string, number[]>();
    for (const tp of tps) {
      let ps = topics.get(tp.topic);
      if (!ps) topics.set(tp.topic, (ps = []));
      ps.push(tp.partition);
    }
    const fetched = await this.#atCoordinator(groupId, async (coordinator) => {
      const answer = await coordinator.send('OffsetFetch', {
        groupId,
        topics: [...topics].map(([name, partitionIndexes]) => ({ name, partitionIndexes })),
        groups: [],
        // KIP-447: offsets a transaction has sent but not committed yet are waited for
        // (UNSTABLE_OFFSET_COMMIT, retried), so a new owner never starts from the offsets
        // before a commit that is about to complete.
        requireStable: true,
      });
      const context = {
        group: groupId,
        api: 'OffsetFetch',
        principal: this.admin.principal,
      } as const;
      if ((answer.errorCode ?? 0) !== 0) throw protocolError(answer.errorCode!, context);
      for (const t of answer.topics)
        for (const p of t.partitions)
          if (p.errorCode !== 0)
            throw protocolError(p.errorCode, {
              ...context,
              topic: t.name,
              partition: p.partitionIndex,
            });
      return answer.topics;
    });
    for (const t of fetched)
      for (const p of t.partitions) {
        const offset = Number(p.committedOffset);
        if (offset >= 0) out.set(tpKey(t.name, p.partitionIndex), offset);
      }
    return out;
  }

  /**
   * A request to the group's coordinator, retried while the coordinator moves or loads (the
   * offsets topic is created on a cluster's first group request, 20 attempts as before) and
   * through lost connections (an outage is waited out).
   */
  #atCoordinator<T>(
    groupId: string,
    request: (coordinator: BrokerConnection) => Promise<T>,
  ): Promise<T> {
    return this.admin.retrying(
      `a request to group ${groupId}'s coordinator`,
      async () => {
        try {
          return await request(await this.admin.coordinator('group', groupId));
        } catch (error) {
          if (
            error instanceof KafkaConnectionError ||
            COORDINATOR_MOVED.has(errorType(error) ?? '')
          )
            this.admin.forgetCoordinator('group', groupId);
          throw error;
        }
      },
      {
        // UNSTABLE_OFFSET_COMMIT lasts until a transaction completes (≤ transaction.timeout.ms).
        maxAttempts: 60,
        retriable: (e) =>
          e instanceof KafkaConnectionError || COORDINATOR_WAIT.has(errorType(e) ?? ''),
      },
    );
  }
}
