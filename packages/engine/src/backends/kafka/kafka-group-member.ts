// A consumer-group member on a Kafka broker, run as Kafka's classic protocol: JoinGroup, the
// leader computes every member's partitions with the engine's assignor (so all instances of an
// application agree on the Kafka Streams task assignment), SyncGroup hands them out, and
// heartbeats keep the membership. Two rebalance protocols, as Java's ConsumerCoordinator:
// - eager: when the coordinator announces a rebalance the member first revokes everything it owns
//   and waits for the revocation listeners (the stream thread commits and closes its tasks:
//   onPartitionsRevoked), and only then rejoins;
// - cooperative (KIP-429, Kafka Streams' default): the member rejoins with the partitions it owns
//   in its subscription and keeps them (its tasks keep processing); the leader's assignor never
//   hands an owned partition to another member; after SyncGroup the member revokes only what it
//   lost (owned - assigned) and then rejoins at once, so that the next assignment can hand those
//   partitions on.
// Either way a partition is never processed by two members at once. A member that lost its
// membership (its generation or member id reset: the session expired) gives everything up as
// lost first, as Java's onPartitionsLost. The requests go to the group's coordinator through the
// member's own client (client/); a coordinator that moved or cannot be reached is looked up again
// and waited for (reconnect backoff) for as long as it takes, as Java's consumer does.
import type {
  AssignorMember,
  GroupMember,
  MemberAssignment,
  PartitionAssignor,
  RebalanceListener,
  TopicPartition,
} from '../../backend-spi.js';
import { sleep } from './client/backoff.js';
import type { KafkaCluster } from './client/cluster.js';
import type { BrokerConnection } from './client/connection.js';
import {
  decodeAssignment,
  decodeSubscription,
  encodeAssignment,
  encodeSubscription,
} from './client/consumer-protocol.js';
import { errorType, isRetriable, KafkaConnectionError } from './client/errors.js';
import { protocolError } from './client/protocol.js';

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
  info?(obj: object, msg?: string): void;
}

const RETRIABLE = new Set([
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'NOT_COORDINATOR',
  'REBALANCE_IN_PROGRESS',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
]);
/** Kafka's MEMBER_ID_REQUIRED (KIP-394). */
const MEMBER_ID_REQUIRED = 79;
/** The coordinator moved or is not there yet: look it up again. */
const COORDINATOR_MOVED = new Set(['COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR']);

/** Throws Kafka's error for a non-zero error code of a group response to `api`. */
function check(
  errorCode: number,
  groupId: string,
  api: 'JoinGroup' | 'SyncGroup' | 'Heartbeat' | 'LeaveGroup',
  principal: string,
): void {
  if (errorCode !== 0) throw protocolError(errorCode, { group: groupId, api, principal });
}

export class KafkaGroupMember implements GroupMember {
  memberId = '';
  #generation = -1;
  #assignment: TopicPartition[] = [];
  /** The assignor asked this member to rejoin then (Kafka Streams' probing rebalance), or 0. */
  #rebalanceAt = 0;
  /** From the JoinGroup until the listeners have the new assignment (rebalanceInProgress). */
  #rebalancing = false;
  readonly #assignedListeners: ((
    assigned: TopicPartition[],
    userData?: Uint8Array | null,
  ) => void)[] = [];
  readonly #revokedListeners: ((revoked: TopicPartition[]) => Promise<void> | void)[] = [];
  readonly #stop = new AbortController();
  #loop: Promise<void> | null = null;
  #left: Promise<void> | null = null;
  #heartbeatWarnedAt = 0;

  constructor(
    /**
     * The member's own connections: a broker answers one connection's requests in order, so a
     * JoinGroup parked at the coordinator until every member rejoined would hold back any other
     * member's heartbeat or JoinGroup sharing the connection (each Java consumer has its own).
     */
    private readonly cluster: KafkaCluster,
    readonly groupId: string,
    private readonly topics: string[],
    private readonly assignor: PartitionAssignor,
    private readonly timings: GroupTimings,
    private readonly logger: GroupLogger,
    listener: RebalanceListener | undefined,
    /** Called whenever this member's generation or partitions change (the backend's commit routing). */
    private readonly onChange: (member: KafkaGroupMember) => void,
    /** Kafka's client.id: what the assignor's subscriptionUserData/onAssignment know a member by. */
    private readonly clientId: string = groupId,
    readonly protocol: 'eager' | 'cooperative' = 'eager',
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

  onAssignment(listener: (assigned: TopicPartition[], userData?: Uint8Array | null) => void): void {
    this.#assignedListeners.push(listener);
  }

  onRevocation(listener: (revoked: TopicPartition[]) => Promise<void> | void): void {
    this.#revokedListeners.push(listener);
  }

  rebalanceInProgress(): boolean {
    return this.#rebalancing;
  }

  /** Joins (resolving with the first assignment), then heartbeats until leave(). */
  async start(): Promise<void> {
    await this.#joinAndSync();
    this.#loop = this.#heartbeats();
  }

  #coordinator(): Promise<BrokerConnection> {
    return this.cluster.coordinator('group', this.groupId);
  }

  /** After a failed request: a coordinator that moved or went away is looked up again. */
  #lost(error: unknown): void {
    const type = errorType(error);
    if (
      error instanceof KafkaConnectionError ||
      (type !== undefined && COORDINATOR_MOVED.has(type))
    )
      this.cluster.forgetCoordinator('group', this.groupId);
  }

  async #joinAndSync(): Promise<void> {
    this.#rebalancing = true;
    try {
      // Cooperative: a member that had to revoke rejoins at once (Java's requestRejoin "need to
      // revoke partitions and re-join").
      while (!(await this.#joinAndSyncOnce()));
    } finally {
      this.#rebalancing = false;
    }
  }

  /** One JoinGroup + SyncGroup (retried); false when the member must rejoin right away. */
  async #joinAndSyncOnce(): Promise<boolean> {
    this.#rebalancing = true;
    // Cooperative: the listeners hear of the rebalance (nothing revoked) before the rejoin, so
    // that the stream threads close their standbys first (stream-thread.ts says why).
    if (this.protocol === 'cooperative') await this.#revoke([]);
    for (let failures = 0; ;) {
      if (this.#stop.signal.aborted) return true;
      try {
        const coordinator = await this.#coordinator();
        const joinVersion = coordinator.version('JoinGroup');
        const joined = await coordinator.send(
          'JoinGroup',
          {
            groupId: this.groupId,
            sessionTimeoutMs: this.timings.sessionTimeoutMs,
            rebalanceTimeoutMs: this.timings.rebalanceTimeoutMs,
            memberId: this.memberId,
            groupInstanceId: null,
            protocolType: 'consumer',
            protocols: [
              {
                name: this.assignor.name,
                metadata: encodeSubscription(
                  this.topics,
                  this.assignor.subscriptionUserData?.(this.clientId) ?? null,
                  this.protocol === 'cooperative' ? this.#assignment : [],
                ),
              },
            ],
            reason: null,
          },
          { timeoutMs: this.timings.rebalanceTimeoutMs + 5_000 },
        );
        // v4+: a new member first gets its member id (MEMBER_ID_REQUIRED), then joins with it.
        if (joined.errorCode === MEMBER_ID_REQUIRED && joinVersion >= 4) {
          this.memberId = joined.memberId;
          continue;
        }
        check(joined.errorCode, this.groupId, 'JoinGroup', this.cluster.principal);
        this.memberId = joined.memberId;
        const assignments =
          joined.leader === joined.memberId ? await this.#assign(joined.members) : [];
        const synced = await coordinator.send('SyncGroup', {
          groupId: this.groupId,
          generationId: joined.generationId,
          memberId: this.memberId,
          groupInstanceId: null,
          protocolType: 'consumer',
          protocolName: joined.protocolName ?? this.assignor.name,
          assignments,
        });
        check(synced.errorCode, this.groupId, 'SyncGroup', this.cluster.principal);
        this.#generation = joined.generationId;
        const assigned: MemberAssignment = decodeAssignment(synced.assignment);
        // Cooperative: what this member owned and was not given again is revoked now, before the
        // assignment changes (the listeners commit those tasks with the new generation).
        const kept = new Set(assigned.partitions.map((tp) => `${tp.topic}:${tp.partition}`));
        const revoked = this.#assignment.filter((tp) => !kept.has(`${tp.topic}:${tp.partition}`));
        if (revoked.length > 0) {
          this.logger.info?.(
            { groupId: this.groupId, revoked: revoked.length, generation: this.#generation },
            'cooperative rebalance: revoking the partitions the assignment moves, then rejoining',
          );
          await this.#revoke(revoked);
        }
        this.#assignment = assigned.partitions;
        const asked = this.assignor.onAssignment?.(this.clientId, assigned);
        this.#rebalanceAt = asked?.rebalanceAtMs ?? 0;
        this.onChange(this);
        this.#rebalancing = false;
        for (const l of this.#assignedListeners) l(this.assignment(), assigned.userData);
        return revoked.length === 0;
      } catch (error) {
        const type = errorType(error);
        this.#lost(error);
        if (
          (type === 'UNKNOWN_MEMBER_ID' || type === 'ILLEGAL_GENERATION') &&
          this.#assignment.length > 0
        ) {
          // Cooperative: no longer a member of that generation, so what it owned is lost
          // (Java's onPartitionsLost) before it joins again.
          await this.#revoke(this.assignment());
          this.#assignment = [];
          this.onChange(this);
        }
        if (type === 'UNKNOWN_MEMBER_ID') this.memberId = '';
        else if (
          !(error instanceof KafkaConnectionError) &&
          (type === undefined || (!RETRIABLE.has(type) && type !== 'ILLEGAL_GENERATION')) &&
          !isRetriable(error)
        )
          throw error;
        failures++;
        if (failures === 1 || failures % 30 === 0)
          this.logger.warn(
            { groupId: this.groupId, err: (error as Error).message },
            'joining the group failed; retrying',
          );
        // A lost connection waits the cluster's reconnect backoff; Kafka's errors 100 ms.
        await sleep(100, this.#stop.signal);
      }
    }
  }

  /** The leader's part: every member's partitions, by the engine's assignor. */
  async #assign(
    members: { memberId: string; metadata: Uint8Array }[],
  ): Promise<{ memberId: string; assignment: Uint8Array }[]> {
    const subscriptions: AssignorMember[] = members.map((m) => ({
      memberId: m.memberId,
      ...decodeSubscription(m.metadata),
    }));
    const topics = [...new Set(subscriptions.flatMap((m) => m.topics))];
    this.cluster.invalidate();
    const counts = new Map<string, number>();
    for (const t of topics) {
      const metadata = await this.cluster.topic(t);
      counts.set(t, metadata?.partitions.length ?? 0);
    }
    if (this.assignor.assignWithUserData) {
      const withData = await this.assignor.assignWithUserData(subscriptions, counts);
      return subscriptions.map((m) => {
        const a = withData.get(m.memberId);
        return {
          memberId: m.memberId,
          assignment: encodeAssignment(a?.partitions ?? [], a?.userData ?? null),
        };
      });
    }
    const assigned = this.assignor.assign(subscriptions, counts);
    return subscriptions.map((m) => ({
      memberId: m.memberId,
      assignment: encodeAssignment(assigned.get(m.memberId) ?? []),
    }));
  }

  async #heartbeats(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      const untilRebalance = this.#rebalanceAt > 0 ? this.#rebalanceAt - Date.now() : Infinity;
      await sleep(
        Math.max(0, Math.min(this.timings.heartbeatIntervalMs, untilRebalance)),
        this.#stop.signal,
      );
      if (this.#stop.signal.aborted) return;
      if (this.#rebalanceAt > 0 && Date.now() >= this.#rebalanceAt) {
        // Kafka Streams' probing rebalance (enforceRebalance): warm-ups may have caught up.
        this.#rebalanceAt = 0;
        this.logger.info?.({ groupId: this.groupId }, 'probing rebalance: rejoining the group');
        await this.#rebalance();
        continue;
      }
      try {
        const coordinator = await this.#coordinator();
        const answer = await coordinator.send('Heartbeat', {
          groupId: this.groupId,
          generationId: this.#generation,
          memberId: this.memberId,
          groupInstanceId: null,
        });
        check(answer.errorCode, this.groupId, 'Heartbeat', this.cluster.principal);
        this.#heartbeatWarnedAt = 0;
      } catch (error) {
        if (this.#stop.signal.aborted) return;
        const type = errorType(error);
        this.#lost(error);
        if (type === 'REBALANCE_IN_PROGRESS') {
          await this.#rebalance();
        } else if (type === 'ILLEGAL_GENERATION') {
          // The group moved on without this member's generation: its partitions are lost.
          await this.#rebalance({ lost: true });
        } else if (type === 'UNKNOWN_MEMBER_ID' || type === 'FENCED_INSTANCE_ID') {
          // Expelled (the session timed out): the partitions are someone else's already.
          this.memberId = '';
          await this.#rebalance({ lost: true });
        } else if (Date.now() - this.#heartbeatWarnedAt > 30_000) {
          // Loud but not flooding through an outage: the first failure, then every 30 s.
          this.#heartbeatWarnedAt = Date.now();
          this.logger.warn(
            { groupId: this.groupId, err: (error as Error).message },
            'group heartbeat failed; retrying',
          );
        }
      }
    }
  }

  /**
   * Eager (or partitions lost): revoke everything, wait for the listeners, then rejoin. The
   * listeners are told even with no partitions: a member with only standby tasks closes them
   * (and checkpoints) too. Cooperative: rejoin owning everything; the sync revokes what moves.
   */
  async #rebalance(options: { lost?: boolean } = {}): Promise<void> {
    if (this.protocol === 'eager' || options.lost === true) {
      await this.#revoke(this.assignment());
      this.#assignment = [];
      this.onChange(this);
    }
    await this.#joinAndSync();
  }

  async #revoke(revoked: TopicPartition[]): Promise<void> {
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

  /** Leaves the group (LeaveGroup: the others rebalance at once instead of after the session timeout). */
  leave(): Promise<void> {
    this.#left ??= (async () => {
      this.#stop.abort();
      // The member loop's failure was reported where it happened (its waiters); leaving goes on.
      await this.#loop?.catch(() => {});
      if (this.memberId !== '') {
        try {
          // One attempt, bounded: a coordinator that cannot be reached lets the session expire.
          const coordinator = await Promise.race([
            this.#coordinator(),
            new Promise<never>((_, reject) =>
              setTimeout(
                () => reject(new Error('the coordinator could not be reached')),
                5_000,
              ).unref(),
            ),
          ]);
          const answer =
            coordinator.version('LeaveGroup') >= 3
              ? await coordinator.send('LeaveGroup', {
                  groupId: this.groupId,
                  memberId: '',
                  members: [{ memberId: this.memberId, groupInstanceId: null, reason: null }],
                })
              : await coordinator.send('LeaveGroup', {
                  groupId: this.groupId,
                  memberId: this.memberId,
                  members: [],
                });
          check(answer.errorCode, this.groupId, 'LeaveGroup', this.cluster.principal);
        } catch (error) {
          this.logger.warn(
            { groupId: this.groupId, err: (error as Error).message },
            'leaving the group failed (the session timeout will expire it)',
          );
        }
      }
      this.#assignment = [];
      this.onChange(this);
      this.cluster.close();
    })();
    return this.#left;
  }
}
