// The group coordinator: consumer groups, their members and their committed offsets.
// One group with many members shares the partitions (a queue); many groups each read everything
// (pub/sub). Offsets are stored in `__consumer_offsets` (see offsets-store.ts).
import { randomUUID } from 'node:crypto';
import { LogError, LogErrorCode } from '../errors.js';
import type {
  FetchOptions,
  FetchResult,
  ProduceOptions,
  ProducerRecord,
  RecordMetadata,
  TopicDescription,
  TopicPartition,
} from '../types.js';
import { BUILT_IN_ASSIGNORS, type Assignor } from './assignors.js';
import { Group, type GroupState, type Member, type MemberCallbacks } from './group.js';
import {
  groupKey,
  groupValue,
  offsetKey,
  offsetsPartitionFor,
  OffsetsState,
  offsetValue,
  OFFSETS_TOPIC,
  type CommittedOffset,
} from './offsets-store.js';

export interface GroupHost {
  readonly clock: () => number;
  produce(records: readonly ProducerRecord[], opts?: ProduceOptions): Promise<RecordMetadata[]>;
  fetch(
    topic: string,
    partition: number,
    offset: number,
    opts?: FetchOptions,
  ): Promise<FetchResult>;
  describeTopic(name: string): TopicDescription | null;
  earliestOffset(topic: string, partition: number): number;
  latestOffset(
    topic: string,
    partition: number,
    isolation?: 'read_uncommitted' | 'read_committed',
  ): number;
  warn(message: string, err?: unknown): void;
}

export interface JoinOptions extends MemberCallbacks {
  topics: string[];
  /** 'range' (default), 'roundrobin', or a custom assignor (e.g. the engine's co-partitioning one). */
  assignor?: 'range' | 'roundrobin' | Assignor;
  clientId?: string;
  /** Kafka's session.timeout.ms (default 45 s). */
  sessionTimeoutMs?: number;
  /** How long rebalance callbacks may take (Kafka's max.poll.interval.ms role; default 5 min). */
  rebalanceTimeoutMs?: number;
  /**
   * Heartbeat on a timer, as Kafka's background heartbeat thread (default true). Turn it off to
   * heartbeat by hand, so a member that stops calling `heartbeat()` is removed.
   */
  autoHeartbeat?: boolean;
  userData?: unknown;
}

export type OffsetReset = 'earliest' | 'latest' | 'none';

export interface GroupMembership {
  readonly groupId: string;
  readonly memberId: string;
  /** The generation of the current assignment. */
  readonly generation: number;
  assignment(): TopicPartition[];
  /** Called after each rebalance with the new assignment; returns its remover. */
  onAssignment(listener: (assigned: TopicPartition[]) => void): () => void;
  /**
   * Called at the start of each rebalance with the partitions this member loses (all of them:
   * eager protocol); the rebalance waits for the returned promise. Returns its remover.
   */
  onRevocation(listener: (revoked: TopicPartition[]) => Promise<void> | void): () => void;
  /** Throws UNKNOWN_MEMBER_ID once the member has been removed (then join again). */
  heartbeat(): void;
  /** Commits offsets fenced by this member's generation (ILLEGAL_GENERATION when stale). */
  commit(offsets: (TopicPartition & { offset: number; metadata?: string })[]): Promise<void>;
  /** Where to start reading each assigned partition: the committed offset, else the reset policy. */
  startingOffsets(reset?: OffsetReset): (TopicPartition & { offset: number })[];
  leave(): Promise<void>;
}

export interface GroupDescription {
  groupId: string;
  state: GroupState;
  generation: number;
  protocol: string | null;
  members: { memberId: string; clientId: string; topics: string[]; assignment: TopicPartition[] }[];
  /** Per partition with a committed offset or an assignment: lag = high watermark - committed. */
  offsets: {
    topic: string;
    partition: number;
    committed: number | null;
    highWatermark: number;
    lag: number | null;
  }[];
  totalLag: number;
}

export class GroupCoordinator {
  private readonly state = new OffsetsState();
  private readonly groups = new Map<string, Group>();
  private readonly pendingTxn = new Map<number, { group: string; offsets: CommittedOffset[] }[]>();
  private readonly heartbeatTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly host: GroupHost,
    private readonly offsetsPartitions: number,
  ) {}

  /** Replays the offsets topic (read_committed: aborted transactional commits are skipped). */
  async load(): Promise<void> {
    for (let p = 0; p < this.offsetsPartitions; p++) {
      let offset = this.host.earliestOffset(OFFSETS_TOPIC, p);
      for (;;) {
        const r = await this.host.fetch(OFFSETS_TOPIC, p, offset, {
          isolationLevel: 'read_committed',
          maxBytes: 4 << 20,
        });
        for (const rec of r.records) this.state.apply(rec.key, rec.value);
        if (r.nextOffset === offset) break;
        offset = r.nextOffset;
      }
    }
  }

  private group(id: string): Group {
    let g = this.groups.get(id);
    if (!g) {
      g = new Group(
        id,
        {
          partitionsOf: (t) => this.host.describeTopic(t)?.partitions,
          persist: async (grp) => {
            await this.write(grp.id, [
              {
                key: groupKey(grp.id),
                value: groupValue({ generation: grp.generation, protocol: grp.protocol }),
              },
            ]);
          },
          warn: (m, e) => this.host.warn(m, e),
        },
        this.state.groups.get(id)?.generation ?? 0,
      );
      this.groups.set(id, g);
    }
    return g;
  }

  private async write(
    group: string,
    records: { key: Buffer; value: Buffer | null }[],
  ): Promise<void> {
    const partition = offsetsPartitionFor(group, this.offsetsPartitions);
    await this.host.produce(
      records.map((r) => ({ topic: OFFSETS_TOPIC, partition, key: r.key, value: r.value })),
    );
    for (const r of records) this.state.apply(r.key, r.value);
  }

  async join(groupId: string, opts: JoinOptions): Promise<GroupMembership> {
    if (!groupId) throw new LogError(LogErrorCode.INVALID_CONFIG, 'group id is empty');
    const assignor =
      typeof opts.assignor === 'object'
        ? opts.assignor
        : BUILT_IN_ASSIGNORS[opts.assignor ?? 'range']!;
    const g = this.group(groupId);
    const clientId = opts.clientId ?? 'consumer';
    const member: Member = {
      id: `${clientId}-${randomUUID()}`,
      clientId,
      topics: [...opts.topics],
      userData: opts.userData,
      sessionTimeoutMs: opts.sessionTimeoutMs ?? 45_000,
      rebalanceTimeoutMs: opts.rebalanceTimeoutMs ?? 300_000,
      lastHeartbeat: Date.now(),
      assignment: [],
      callbacks: {
        ...(opts.onRevoked ? { onRevoked: opts.onRevoked } : {}),
        ...(opts.onAssigned ? { onAssigned: opts.onAssigned } : {}),
      },
      listeners: new Set(),
      revokeListeners: new Set(),
    };
    g.add(member, assignor);
    let timer: NodeJS.Timeout | null = null;
    if (opts.autoHeartbeat !== false) {
      timer = setInterval(
        () => (member.lastHeartbeat = Date.now()),
        Math.max(10, Math.min(3000, member.sessionTimeoutMs / 3)),
      );
      timer.unref();
      this.heartbeatTimers.add(timer);
    }
    const stopHeartbeats = (): void => {
      if (timer) {
        clearInterval(timer);
        this.heartbeatTimers.delete(timer);
        timer = null;
      }
    };
    await g.rebalance();
    const alive = (): void => {
      if (g.members.get(member.id) !== member) {
        stopHeartbeats();
        throw new LogError(
          LogErrorCode.UNKNOWN_MEMBER_ID,
          `member ${member.id} is no longer in group ${groupId}: join again`,
        );
      }
    };
    return {
      groupId,
      memberId: member.id,
      get generation() {
        return g.generation;
      },
      assignment: () => [...member.assignment],
      onAssignment: (l) => {
        member.listeners.add(l);
        return () => member.listeners.delete(l);
      },
      onRevocation: (l) => {
        member.revokeListeners.add(l);
        return () => member.revokeListeners.delete(l);
      },
      heartbeat: () => {
        alive();
        member.lastHeartbeat = Date.now();
      },
      commit: async (offsets) => {
        alive();
        member.lastHeartbeat = Date.now();
        g.validateCommit(member.id, g.generation);
        await this.commit(groupId, offsets);
      },
      startingOffsets: (reset = 'latest') =>
        member.assignment.map((tp) => ({ ...tp, offset: this.startingOffset(groupId, tp, reset) })),
      leave: async () => {
        stopHeartbeats();
        if (g.remove(member.id)) await g.rebalance();
      },
    };
  }

  /**
   * Commits offsets. Unfenced: use GroupMembership.commit for generation checks. Allowed for any
   * group (Kafka accepts these only from "simple" consumers of empty groups; embedded callers such
   * as tools and the engine's backend adapter commit this way).
   */
  async commit(
    groupId: string,
    offsets: (TopicPartition & { offset: number; metadata?: string })[],
  ): Promise<void> {
    if (offsets.length === 0) return;
    const now = this.host.clock();
    await this.write(
      groupId,
      offsets.map((o) => {
        const c: CommittedOffset = {
          topic: o.topic,
          partition: o.partition,
          offset: o.offset,
          metadata: o.metadata ?? '',
          commitTimestamp: now,
        };
        return { key: offsetKey(groupId, o), value: offsetValue(c) };
      }),
    );
  }

  committed(groupId: string, tps?: TopicPartition[]): CommittedOffset[] {
    const all = this.state.all(groupId);
    if (!tps) return all;
    return tps.flatMap((tp) => {
      const c = this.state.get(groupId, tp.topic, tp.partition);
      return c ? [c] : [];
    });
  }

  /** Kafka's position logic: the committed offset when it is in range, else auto.offset.reset. */
  startingOffset(groupId: string, tp: TopicPartition, reset: OffsetReset = 'latest'): number {
    const c = this.state.get(groupId, tp.topic, tp.partition);
    const earliest = this.host.earliestOffset(tp.topic, tp.partition);
    const latest = this.host.latestOffset(tp.topic, tp.partition);
    if (c && c.offset >= earliest && c.offset <= latest) return c.offset;
    if (reset === 'none') {
      throw new LogError(
        LogErrorCode.OFFSET_OUT_OF_RANGE,
        `no valid committed offset for ${tp.topic}-${tp.partition} in group ${groupId} and reset is none`,
      );
    }
    return reset === 'earliest' ? earliest : latest;
  }

  // ---- transactional offsets (sendOffsetsToTransaction) ---------------------------------------

  /** Records for the offsets topic, to be appended inside the producer's transaction. */
  txnOffsetRecords(
    groupId: string,
    offsets: (TopicPartition & { offset: number; metadata?: string })[],
  ): ProducerRecord[] {
    const partition = offsetsPartitionFor(groupId, this.offsetsPartitions);
    const now = this.host.clock();
    return offsets.map((o) => ({
      topic: OFFSETS_TOPIC,
      partition,
      key: offsetKey(groupId, o),
      value: offsetValue({
        topic: o.topic,
        partition: o.partition,
        offset: o.offset,
        metadata: o.metadata ?? '',
        commitTimestamp: now,
      }),
    }));
  }

  addPendingTxnOffsets(
    producerId: number,
    groupId: string,
    offsets: (TopicPartition & { offset: number; metadata?: string })[],
  ): void {
    const list = this.pendingTxn.get(producerId) ?? [];
    const now = this.host.clock();
    list.push({
      group: groupId,
      offsets: offsets.map((o) => ({
        topic: o.topic,
        partition: o.partition,
        offset: o.offset,
        metadata: o.metadata ?? '',
        commitTimestamp: now,
      })),
    });
    this.pendingTxn.set(producerId, list);
  }

  /** Called once the transaction's markers are written: offsets apply on commit, vanish on abort. */
  completeTxnOffsets(producerId: number, committed: boolean): void {
    const list = this.pendingTxn.get(producerId) ?? [];
    this.pendingTxn.delete(producerId);
    if (committed)
      for (const { group, offsets } of list) for (const o of offsets) this.state.set(group, o);
  }

  validateGeneration(groupId: string, memberId: string, generation: number): void {
    const g = this.groups.get(groupId);
    if (!g)
      throw new LogError(
        LogErrorCode.UNKNOWN_MEMBER_ID,
        `group ${groupId} has no member ${memberId}`,
      );
    g.validateCommit(memberId, generation);
  }

  // ---- admin -----------------------------------------------------------------------------------

  /** Re-runs rebalances of groups subscribed to topics whose partitions changed. */
  topicsChanged(topics: string[]): void {
    for (const g of this.groups.values())
      if (g.members.size > 0 && topics.some((t) => g.subscribes(t))) void g.rebalance();
  }

  listGroups(): GroupDescription[] {
    const ids = new Set([
      ...this.groups.keys(),
      ...this.state.offsets.keys(),
      ...this.state.groups.keys(),
    ]);
    return [...ids].sort().map((id) => this.describeGroup(id));
  }

  describeGroup(groupId: string): GroupDescription {
    const g = this.groups.get(groupId);
    const tps = new Map<string, TopicPartition>();
    for (const c of this.state.all(groupId)) tps.set(`${c.topic}\u0000${c.partition}`, c);
    for (const m of g?.members.values() ?? [])
      for (const tp of m.assignment) tps.set(`${tp.topic}\u0000${tp.partition}`, tp);
    const offsets = [...tps.values()]
      .filter((tp) => this.host.describeTopic(tp.topic))
      .map((tp) => {
        const committed = this.state.get(groupId, tp.topic, tp.partition)?.offset ?? null;
        const hw = this.host.latestOffset(tp.topic, tp.partition);
        return {
          topic: tp.topic,
          partition: tp.partition,
          committed,
          highWatermark: hw,
          lag: committed === null ? null : Math.max(0, hw - committed),
        };
      })
      .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
    return {
      groupId,
      state: g && g.members.size > 0 ? g.state : g?.state === 'Dead' ? 'Dead' : 'Empty',
      generation: g?.generation ?? this.state.groups.get(groupId)?.generation ?? 0,
      protocol: g?.protocol ?? null,
      members: [...(g?.members.values() ?? [])].map((m) => ({
        memberId: m.id,
        clientId: m.clientId,
        topics: m.topics,
        assignment: [...m.assignment],
      })),
      offsets,
      totalLag: offsets.reduce((n, o) => n + (o.lag ?? 0), 0),
    };
  }

  /**
   * Kafka's OffsetDelete (Admin#deleteConsumerGroupOffsets): forgets a group's committed offsets
   * for these partitions, durably (tombstones in __consumer_offsets).
   */
  async deleteOffsets(groupId: string, tps: TopicPartition[]): Promise<void> {
    const records = tps
      .map((tp) => this.state.get(groupId, tp.topic, tp.partition))
      .filter((c): c is CommittedOffset => c !== undefined)
      .map((c) => ({ key: offsetKey(groupId, c), value: null }));
    if (records.length > 0) await this.write(groupId, records);
  }

  /** Deletes an empty group's offsets and metadata (NON_EMPTY_GROUP while it has members). */
  async deleteGroup(groupId: string): Promise<void> {
    const g = this.groups.get(groupId);
    if (g && g.members.size > 0)
      throw new LogError(
        LogErrorCode.NON_EMPTY_GROUP,
        `group ${groupId} still has ${g.members.size} members`,
      );
    const records = this.state
      .all(groupId)
      .map((c) => ({ key: offsetKey(groupId, c), value: null }));
    records.push({ key: groupKey(groupId), value: null });
    await this.write(groupId, records);
    this.state.deleteGroup(groupId);
    this.groups.delete(groupId);
  }

  close(): void {
    for (const t of this.heartbeatTimers) clearInterval(t);
    this.heartbeatTimers.clear();
    for (const g of this.groups.values()) g.close();
  }
}
