// Consumer groups for members living in this process. A rebalance runs in two steps, like Kafka's
// protocol: (1) compute the new assignment and ask every member to give up the partitions it is
// losing, waiting until they have (commit, close tasks); (2) hand out the new assignment. Because
// the coordinator sees every member, only partitions that actually move are revoked (in the
// spirit of cooperative rebalancing). Rebalances of one group never overlap.
import { randomUUID } from 'node:crypto';
import type { GroupMember, JoinGroupOptions, PartitionAssignor, TopicPartition } from '../../api.js';
import { rangeAssignor, roundRobinAssignor } from './assignors.js';

type RevocationListener = (revoked: TopicPartition[]) => Promise<void> | void;

const REVOCATION_TIMEOUT_MS = 60_000;

class Member implements GroupMember {
  readonly memberId: string;
  #assigned: TopicPartition[] = [];
  #generation = 0;
  readonly assignListeners: ((assigned: TopicPartition[]) => void)[] = [];
  readonly revokeListeners: RevocationListener[] = [];
  left = false;

  constructor(
    readonly group: Group,
    readonly topics: string[],
    readonly assignor: PartitionAssignor,
    clientId: string,
  ) {
    this.memberId = `${clientId}-${randomUUID()}`;
  }

  generation(): number {
    return this.#generation;
  }
  assignment(): TopicPartition[] {
    return this.#assigned.map((tp) => ({ ...tp }));
  }
  onAssignment(listener: (assigned: TopicPartition[]) => void): void {
    this.assignListeners.push(listener);
  }
  onRevocation(listener: RevocationListener): void {
    this.revokeListeners.push(listener);
  }
  leave(): Promise<void> {
    return this.group.leave(this);
  }

  setAssignment(assigned: TopicPartition[], generation: number): void {
    this.#assigned = assigned;
    this.#generation = generation;
  }
}

const key = (tp: TopicPartition): string => `${tp.topic}\u0000${tp.partition}`;

class Group {
  readonly members: Member[] = [];
  generation = 0;
  #chain: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    private readonly partitionsOf: (topic: string) => number | undefined,
    private readonly onError: (error: unknown) => void,
  ) {}

  async join(topics: string[], options: JoinGroupOptions): Promise<Member> {
    const assignor = resolveAssignor(options.assignor);
    const member = new Member(this, [...topics], assignor, options.clientId ?? 'consumer');
    const { listener } = options;
    if (listener?.onPartitionsRevoked) member.onRevocation((r) => listener.onPartitionsRevoked!(r));
    if (listener?.onPartitionsAssigned) member.onAssignment((a) => listener.onPartitionsAssigned!(a));
    this.members.push(member);
    await this.rebalance();
    return member;
  }

  async leave(member: Member): Promise<void> {
    if (member.left) return;
    member.left = true;
    const i = this.members.indexOf(member);
    if (i >= 0) this.members.splice(i, 1);
    member.setAssignment([], member.generation());
    await this.rebalance();
  }

  subscribesTo(topic: string): boolean {
    return this.members.some((m) => m.topics.includes(topic));
  }

  rebalance(): Promise<void> {
    const run = this.#chain.then(() => this.#rebalanceNow());
    this.#chain = run.catch((error: unknown) => this.onError(error));
    return run;
  }

  async #rebalanceNow(): Promise<void> {
    const members = [...this.members];
    if (members.length === 0) return;
    const partitionsPerTopic = new Map<string, number>();
    for (const m of members) {
      for (const t of m.topics) {
        const n = this.partitionsOf(t);
        if (n !== undefined) partitionsPerTopic.set(t, n);
      }
    }
    // The leader's (first member's) assignor decides, as in Kafka.
    const target = members[0]!.assignor.assign(
      members.map((m) => ({ memberId: m.memberId, topics: [...m.topics] })),
      partitionsPerTopic,
    );
    await Promise.all(
      members.map(async (m) => {
        const keep = new Set((target.get(m.memberId) ?? []).map(key));
        const revoked = m.assignment().filter((tp) => !keep.has(key(tp)));
        if (revoked.length === 0 || m.revokeListeners.length === 0) return;
        await withTimeout(Promise.all(m.revokeListeners.map((l) => l(revoked))), REVOCATION_TIMEOUT_MS);
      }),
    );
    this.generation++;
    for (const m of members) {
      if (m.left) continue;
      const before = m.assignment().map(key).sort().join(',');
      const next = target.get(m.memberId) ?? [];
      m.setAssignment(next, this.generation);
      if (next.map(key).sort().join(',') !== before) for (const l of m.assignListeners) l(m.assignment());
    }
  }
}

function resolveAssignor(assignor: JoinGroupOptions['assignor']): PartitionAssignor {
  if (assignor === undefined || assignor === 'range') return rangeAssignor;
  if (assignor === 'roundrobin') return roundRobinAssignor;
  return assignor;
}

async function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class GroupCoordinator {
  readonly #groups = new Map<string, Group>();

  constructor(
    private readonly partitionsOf: (topic: string) => number | undefined,
    private readonly onError: (error: unknown) => void,
  ) {}

  join(groupId: string, topics: string[], options: JoinGroupOptions = {}): Promise<GroupMember> {
    let group = this.#groups.get(groupId);
    if (!group) {
      group = new Group(groupId, this.partitionsOf, this.onError);
      this.#groups.set(groupId, group);
    }
    return group.join(topics, options);
  }

  /** Topic metadata changed (created/deleted): groups subscribed to it rebalance. */
  async topicChanged(topic: string): Promise<void> {
    await Promise.all([...this.#groups.values()].filter((g) => g.subscribesTo(topic)).map((g) => g.rebalance()));
  }
}
