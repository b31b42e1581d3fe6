// A consumer-group member on a Kafka broker, run as Kafka's classic (eager) protocol: JoinGroup,
// the leader computes every member's partitions with the engine's assignor (so all instances of
// an application agree on the Kafka Streams task assignment), SyncGroup hands them out, and
// heartbeats keep the membership. When the coordinator announces a rebalance the member first
// revokes everything it owns and waits for the revocation listeners (the stream thread commits
// and closes its tasks: Kafka's onPartitionsRevoked), and only then rejoins — so a partition is
// never processed by two instances at once.
import kafkajs from 'kafkajs';
import type {
  AssignorMember,
  GroupMember,
  PartitionAssignor,
  RebalanceListener,
  TopicPartition,
} from '../../api.js';
import type { Broker, Cluster } from './kafkajs-internals.js';
import { kafkaErrorType } from './kafkajs-internals.js';

const { MemberMetadata, MemberAssignment } = kafkajs.AssignerProtocol;

export interface GroupTimings {
  /** session.timeout.ms (Kafka's default 45 s): how long a silent member keeps its partitions. */
  sessionTimeoutMs: number;
  /** heartbeat.interval.ms (3 s): how soon a member learns of a rebalance. */
  heartbeatIntervalMs: number;
  /** max.poll.interval.ms as the rebalance timeout: how long the coordinator waits for rejoins. */
  rebalanceTimeoutMs: number;
}

export interface GroupLogger {
  warn(obj: object, msg?: string): void;
}

const RETRIABLE = new Set([
  'GROUP_COORDINATOR_NOT_AVAILABLE',
  'GROUP_LOAD_IN_PROGRESS',
  'NOT_COORDINATOR_FOR_GROUP',
  'REBALANCE_IN_PROGRESS',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
]);

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

export class KafkaGroupMember implements GroupMember {
  memberId = '';
  #generation = -1;
  #assignment: TopicPartition[] = [];
  readonly #assignedListeners: ((assigned: TopicPartition[]) => void)[] = [];
  readonly #revokedListeners: ((revoked: TopicPartition[]) => Promise<void> | void)[] = [];
  readonly #stop = new AbortController();
  #loop: Promise<void> | null = null;
  #left: Promise<void> | null = null;

  constructor(
    /**
     * The member's own connections: a broker answers one connection's requests in order, so a
     * JoinGroup parked at the coordinator until every member rejoined would hold back any other
     * member's heartbeat or JoinGroup sharing the connection (each Java consumer has its own).
     */
    private readonly cluster: Cluster,
    readonly groupId: string,
    private readonly topics: string[],
    private readonly assignor: PartitionAssignor,
    private readonly timings: GroupTimings,
    private readonly logger: GroupLogger,
    listener: RebalanceListener | undefined,
    /** Called whenever this member's generation or partitions change (the backend's commit routing). */
    private readonly onChange: (member: KafkaGroupMember) => void,
  ) {
    if (listener?.onPartitionsRevoked) this.#revokedListeners.push(listener.onPartitionsRevoked);
    if (listener?.onPartitionsAssigned) this.#assignedListeners.push(listener.onPartitionsAssigned);
  }

  generation(): number {
    return this.#generation;
  }

  assignment(): TopicPartition[] {
    return [...this.#assignment];
  }

  onAssignment(listener: (assigned: TopicPartition[]) => void): void {
    this.#assignedListeners.push(listener);
  }

  onRevocation(listener: (revoked: TopicPartition[]) => Promise<void> | void): void {
    this.#revokedListeners.push(listener);
  }

  /** Joins (resolving with the first assignment), then heartbeats until leave(). */
  async start(): Promise<void> {
    await this.#joinAndSync();
    this.#loop = this.#heartbeats();
  }

  async #coordinator(): Promise<Broker> {
    return this.cluster.findGroupCoordinator({ groupId: this.groupId });
  }

  async #joinAndSync(): Promise<void> {
    for (;;) {
      if (this.#stop.signal.aborted) return;
      try {
        const coordinator = await this.#coordinator();
        const joined = await coordinator.joinGroup({
          groupId: this.groupId,
          sessionTimeout: this.timings.sessionTimeoutMs,
          rebalanceTimeout: this.timings.rebalanceTimeoutMs,
          memberId: this.memberId,
          protocolType: 'consumer',
          groupProtocols: [
            {
              name: this.assignor.name,
              metadata: MemberMetadata.encode({
                version: 1,
                topics: this.topics,
                userData: Buffer.alloc(0),
              }),
            },
          ],
        });
        this.memberId = joined.memberId;
        const groupAssignment =
          joined.leaderId === joined.memberId ? await this.#assign(joined.members) : [];
        const synced = await coordinator.syncGroup({
          groupId: this.groupId,
          generationId: joined.generationId,
          memberId: this.memberId,
          groupAssignment,
        });
        const decoded = MemberAssignment.decode(synced.memberAssignment);
        this.#generation = joined.generationId;
        this.#assignment = Object.entries(decoded?.assignment ?? {}).flatMap(
          ([topic, partitions]) => partitions.map((partition) => ({ topic, partition })),
        );
        this.onChange(this);
        for (const l of this.#assignedListeners) l(this.assignment());
        return;
      } catch (error) {
        const type = kafkaErrorType(error);
        if (type === 'UNKNOWN_MEMBER_ID') this.memberId = '';
        else if (type === undefined || (!RETRIABLE.has(type) && type !== 'ILLEGAL_GENERATION'))
          throw error;
        if (type === 'NOT_COORDINATOR_FOR_GROUP' || type === 'GROUP_COORDINATOR_NOT_AVAILABLE')
          await this.cluster.refreshMetadata().catch(() => {});
        await sleep(100, this.#stop.signal);
      }
    }
  }

  /** The leader's part: every member's partitions, by the engine's assignor. */
  async #assign(
    members: { memberId: string; memberMetadata: Buffer }[],
  ): Promise<{ memberId: string; memberAssignment: Buffer }[]> {
    const subscriptions: AssignorMember[] = members.map((m) => ({
      memberId: m.memberId,
      topics: MemberMetadata.decode(m.memberMetadata)?.topics ?? [],
    }));
    const topics = [...new Set(subscriptions.flatMap((m) => m.topics))];
    await this.cluster.addMultipleTargetTopics(topics);
    await this.cluster.refreshMetadata();
    const counts = new Map(
      topics.map((t) => [t, this.cluster.findTopicPartitionMetadata(t).length] as const),
    );
    const assigned = this.assignor.assign(subscriptions, counts);
    return subscriptions.map((m) => {
      const assignment: Record<string, number[]> = {};
      for (const tp of assigned.get(m.memberId) ?? [])
        (assignment[tp.topic] ??= []).push(tp.partition);
      return {
        memberId: m.memberId,
        memberAssignment: MemberAssignment.encode({
          version: 1,
          assignment,
          userData: Buffer.alloc(0),
        }),
      };
    });
  }

  async #heartbeats(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      await sleep(this.timings.heartbeatIntervalMs, this.#stop.signal);
      if (this.#stop.signal.aborted) return;
      try {
        const coordinator = await this.#coordinator();
        await coordinator.heartbeat({
          groupId: this.groupId,
          groupGenerationId: this.#generation,
          memberId: this.memberId,
        });
      } catch (error) {
        const type = kafkaErrorType(error);
        if (type === 'REBALANCE_IN_PROGRESS' || type === 'ILLEGAL_GENERATION') {
          await this.#rebalance();
        } else if (type === 'UNKNOWN_MEMBER_ID' || type === 'FENCED_INSTANCE_ID') {
          // Expelled (the session timed out): the partitions are someone else's already.
          this.memberId = '';
          await this.#rebalance();
        } else {
          this.logger.warn(
            { groupId: this.groupId, err: (error as Error).message },
            'group heartbeat failed; retrying',
          );
          if (type === 'NOT_COORDINATOR_FOR_GROUP' || type === 'GROUP_COORDINATOR_NOT_AVAILABLE')
            await this.cluster.refreshMetadata().catch(() => {});
        }
      }
    }
  }

  /** Eager: revoke everything, wait for the listeners, then rejoin. */
  async #rebalance(): Promise<void> {
    const revoked = this.assignment();
    if (revoked.length > 0) {
      for (const l of this.#revokedListeners) {
        try {
          await l(revoked);
        } catch (error) {
          this.logger.warn(
            { groupId: this.groupId, err: (error as Error).message },
            'a revocation listener failed',
          );
        }
      }
    }
    this.#assignment = [];
    this.onChange(this);
    await this.#joinAndSync();
  }

  /** Leaves the group (LeaveGroup: the others rebalance at once instead of after the session timeout). */
  leave(): Promise<void> {
    this.#left ??= (async () => {
      this.#stop.abort();
      await this.#loop?.catch(() => {});
      if (this.memberId !== '') {
        try {
          const coordinator = await this.#coordinator();
          await coordinator.leaveGroup({ groupId: this.groupId, memberId: this.memberId });
        } catch (error) {
          this.logger.warn(
            { groupId: this.groupId, err: (error as Error).message },
            'leaving the group failed (the session timeout will expire it)',
          );
        }
      }
      this.#assignment = [];
      this.onChange(this);
      await this.cluster.disconnect().catch(() => {});
    })();
    return this.#left;
  }
}
