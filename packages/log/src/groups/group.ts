// One consumer group's membership and rebalances (Kafka's eager protocol, in-process): a change
// of members or of subscribed partitions revokes every assignment, assigns anew with the group's
// assignor and bumps the generation. Members that stop heartbeating for session.timeout.ms are
// removed; commits from an old generation are refused.
import { LogError, LogErrorCode } from '../errors.js';
import type { TopicPartition } from '../types.js';
import type { Assignor } from './assignors.js';

export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

export interface MemberCallbacks {
  onRevoked?: (partitions: TopicPartition[]) => Promise<void> | void;
  /** Called with the new assignment and the generation it belongs to. */
  onAssigned?: (partitions: TopicPartition[], generation: number) => Promise<void> | void;
}

export interface Member {
  readonly id: string;
  readonly clientId: string;
  readonly topics: string[];
  readonly userData: unknown;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  lastHeartbeat: number;
  assignment: TopicPartition[];
  readonly callbacks: MemberCallbacks;
  readonly listeners: Set<(assigned: TopicPartition[]) => void>;
  /** Registered after joining (Kafka Streams adds its revocation handling this way). */
  readonly revokeListeners: Set<(revoked: TopicPartition[]) => Promise<void> | void>;
}

export interface GroupEnv {
  partitionsOf(topic: string): number | undefined;
  /** Persists generation and protocol (to the offsets topic). */
  persist(group: Group): Promise<void>;
  warn(message: string, err?: unknown): void;
}

function withTimeout(p: Promise<void> | void, ms: number): Promise<boolean> {
  if (!(p instanceof Promise)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    p.then(
      () => {
        clearTimeout(t);
        resolve(true);
      },
      () => {
        clearTimeout(t);
        resolve(true); // a failing callback is logged by the caller's wrapper, not fatal to the group
      },
    );
  });
}

export class Group {
  state: GroupState = 'Empty';
  generation: number;
  protocol: string | null = null;
  readonly members = new Map<string, Member>();
  private assignor: Assignor | null = null;
  private loop: Promise<void> | null = null;
  private pending = false;
  private sessionTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly id: string,
    private readonly env: GroupEnv,
    generation = 0,
  ) {
    this.generation = generation;
  }

  add(member: Member, assignor: Assignor): void {
    if (this.members.size > 0 && this.protocol !== assignor.name) {
      throw new LogError(
        LogErrorCode.INCONSISTENT_GROUP_PROTOCOL,
        `group ${this.id} uses assignor ${this.protocol}; member asked for ${assignor.name}`,
      );
    }
    this.assignor = assignor;
    this.protocol = assignor.name;
    this.members.set(member.id, member);
    this.armSessionTimer();
  }

  remove(memberId: string): boolean {
    const had = this.members.delete(memberId);
    if (this.members.size === 0) this.disarmSessionTimer();
    return had;
  }

  subscribes(topic: string): boolean {
    for (const m of this.members.values()) if (m.topics.includes(topic)) return true;
    return false;
  }

  /** Runs a rebalance (coalescing requests that arrive while one runs); resolves when settled. */
  rebalance(): Promise<void> {
    this.pending = true;
    if (!this.loop) {
      this.loop = (async () => {
        // Members that join (or leave) in the same turn of the event loop — an application's
        // stream threads starting together — go into one rebalance, not one each.
        await new Promise<void>((resolve) => setImmediate(resolve));
        while (this.pending) {
          this.pending = false;
          await this.runRebalance();
        }
      })().finally(() => {
        this.loop = null;
      });
    }
    return this.loop;
  }

  get rebalancing(): boolean {
    return this.loop !== null;
  }

  private async runRebalance(): Promise<void> {
    this.state = 'PreparingRebalance';
    // Eager protocol: everyone gives up everything before anything is handed out again.
    const revoking = [...this.members.values()];
    const results = await Promise.all(
      revoking.map(async (m) => {
        const had = m.assignment;
        m.assignment = [];
        const fns = [
          ...(m.callbacks.onRevoked ? [m.callbacks.onRevoked] : []),
          ...m.revokeListeners,
        ];
        if (had.length === 0 || fns.length === 0) return true;
        const all = Promise.all(fns.map((fn) => this.guard(m, () => fn(had)))).then(
          () => undefined,
        );
        return withTimeout(all, m.rebalanceTimeoutMs);
      }),
    );
    revoking.forEach((m, i) => {
      if (!results[i]) {
        this.env.warn(
          `member ${m.id} of group ${this.id} did not finish revoking within ${m.rebalanceTimeoutMs} ms: removed`,
        );
        this.remove(m.id);
      }
    });
    this.generation++;
    if (this.members.size === 0) {
      this.state = 'Empty';
      this.protocol = null;
      await this.env
        .persist(this)
        .catch((e: unknown) => this.env.warn(`could not persist group ${this.id}`, e));
      return;
    }
    this.state = 'CompletingRebalance';
    const partitionsPerTopic = new Map<string, number>();
    for (const m of this.members.values()) {
      for (const t of m.topics) {
        const n = this.env.partitionsOf(t);
        if (n !== undefined) partitionsPerTopic.set(t, n);
      }
    }
    const subs = [...this.members.values()].map((m) => ({
      memberId: m.id,
      topics: m.topics,
      userData: m.userData,
    }));
    const assignment = this.assignor!.assign(subs, partitionsPerTopic);
    for (const m of this.members.values()) m.assignment = assignment.get(m.id) ?? [];
    this.state = 'Stable';
    await this.env
      .persist(this)
      .catch((e: unknown) => this.env.warn(`could not persist group ${this.id}`, e));
    await Promise.all(
      [...this.members.values()].map(async (m) => {
        const assigned = m.assignment;
        // Not awaited (onAssigned below is): guard() reports a listener's failure at WARN.
        for (const l of m.listeners) void this.guard(m, () => l(assigned));
        if (m.callbacks.onAssigned)
          await withTimeout(
            this.guard(m, () => m.callbacks.onAssigned!(assigned, this.generation)),
            m.rebalanceTimeoutMs,
          );
      }),
    );
  }

  private guard(m: Member, fn: () => Promise<void> | void): Promise<void> | void {
    try {
      const r = fn();
      if (r instanceof Promise)
        return r.catch((e: unknown) => this.env.warn(`rebalance listener of ${m.id} failed`, e));
      return r;
    } catch (e) {
      this.env.warn(`rebalance listener of ${m.id} failed`, e);
    }
  }

  /** Checks generation and membership for a fenced commit. */
  validateCommit(memberId: string, generation: number): void {
    if (!this.members.has(memberId)) {
      throw new LogError(
        LogErrorCode.UNKNOWN_MEMBER_ID,
        `member ${memberId} is not in group ${this.id} (removed after its session timed out, or left): rejoin`,
      );
    }
    // As Kafka's group coordinator: while members revoke (PreparingRebalance) the generation is
    // still the current one and its members may commit — that is where an eager member commits
    // what it processed before giving its partitions up (under exactly_once_v2, inside its
    // transaction). Only the hand-out of the new assignment refuses commits.
    if (this.state === 'CompletingRebalance')
      throw new LogError(LogErrorCode.REBALANCE_IN_PROGRESS, `group ${this.id} is rebalancing`);
    if (generation !== this.generation) {
      throw new LogError(
        LogErrorCode.ILLEGAL_GENERATION,
        `generation ${generation} is not the current generation ${this.generation} of group ${this.id}`,
      );
    }
  }

  // ---- sessions: one timer per group, set for the earliest deadline; none while empty ----------

  private armSessionTimer(): void {
    this.disarmSessionTimer();
    let next = Infinity;
    for (const m of this.members.values())
      next = Math.min(next, m.lastHeartbeat + m.sessionTimeoutMs);
    if (next === Infinity) return;
    this.sessionTimer = setTimeout(() => this.expireSessions(), Math.max(0, next - Date.now()) + 1);
    this.sessionTimer.unref();
  }

  private disarmSessionTimer(): void {
    if (this.sessionTimer) clearTimeout(this.sessionTimer);
    this.sessionTimer = null;
  }

  private expireSessions(): void {
    const now = Date.now();
    let expired = false;
    for (const m of [...this.members.values()]) {
      if (now - m.lastHeartbeat > m.sessionTimeoutMs) {
        this.env.warn(
          `member ${m.id} of group ${this.id} missed its session timeout of ${m.sessionTimeoutMs} ms: removed`,
        );
        this.remove(m.id);
        expired = true;
      }
    }
    if (this.members.size > 0) this.armSessionTimer();
    if (expired) void this.rebalance();
  }

  close(): void {
    this.disarmSessionTimer();
    this.state = 'Dead';
  }
}
