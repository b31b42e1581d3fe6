// Kafka's classic group protocol, server side (the broker's GroupCoordinator): members join,
// the coordinator picks a protocol and a leader, the leader computes the assignment on the client
// and hands it over in SyncGroup, heartbeats keep members alive and tell them when to rejoin.
// Group membership is in memory (as a broker's is until its members rejoin after a restart);
// committed offsets are the log's (`Log.commitOffsets`), so they survive restarts.
import { randomUUID } from 'node:crypto';
import { Errors, NONE } from '../errors.js';

export type GroupStateName =
  'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

export interface JoinRequest {
  groupId: string;
  memberId: string;
  groupInstanceId: string | null;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  protocols: { name: string; metadata: Uint8Array }[];
  clientId: string;
  clientHost: string;
}

export interface JoinResult {
  errorCode: number;
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
  leader: string;
  memberId: string;
  members: { memberId: string; groupInstanceId: string | null; metadata: Uint8Array }[];
}

export interface SyncResult {
  errorCode: number;
  protocolType: string | null;
  protocolName: string | null;
  assignment: Uint8Array;
}

interface Member {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocols: { name: string; metadata: Uint8Array }[];
  assignment: Uint8Array;
  joinWaiter: ((r: JoinResult) => void) | null;
  syncWaiter: ((r: SyncResult) => void) | null;
  sessionTimer: NodeJS.Timeout | null;
}

interface Group {
  groupId: string;
  state: GroupStateName;
  generation: number;
  protocolType: string | null;
  protocolName: string | null;
  leaderId: string | null;
  members: Map<string, Member>;
  rebalanceTimer: NodeJS.Timeout | null;
}

export interface GroupCoordinatorOptions {
  /** Kafka's group.min/max.session.timeout.ms. */
  minSessionTimeoutMs?: number;
  maxSessionTimeoutMs?: number;
  /** Kafka's group.initial.rebalance.delay.ms (Kafka: 3000; here 0 unless set). */
  initialRebalanceDelayMs?: number;
  onEvent?: (event: string, detail: object) => void;
}

const EMPTY = new Uint8Array(0);

export class GroupCoordinator {
  private readonly groups = new Map<string, Group>();
  private readonly minSession: number;
  private readonly maxSession: number;
  private readonly initialDelay: number;
  private closed = false;

  constructor(private readonly opts: GroupCoordinatorOptions = {}) {
    this.minSession = opts.minSessionTimeoutMs ?? 6000;
    this.maxSession = opts.maxSessionTimeoutMs ?? 1_800_000;
    this.initialDelay = opts.initialRebalanceDelayMs ?? 0;
  }

  private group(groupId: string, create: boolean): Group | undefined {
    let g = this.groups.get(groupId);
    if (!g && create) {
      g = {
        groupId,
        state: 'Empty',
        generation: 0,
        protocolType: null,
        protocolName: null,
        leaderId: null,
        members: new Map(),
        rebalanceTimer: null,
      };
      this.groups.set(groupId, g);
    }
    return g;
  }

  private failJoin(req: JoinRequest, errorCode: number): JoinResult {
    return {
      errorCode,
      generationId: -1,
      protocolType: null,
      protocolName: null,
      leader: '',
      memberId: req.memberId,
      members: [],
    };
  }

  join(req: JoinRequest): Promise<JoinResult> {
    if (this.closed) return Promise.resolve(this.failJoin(req, Errors.COORDINATOR_NOT_AVAILABLE));
    if (req.groupId === '') return Promise.resolve(this.failJoin(req, Errors.INVALID_GROUP_ID));
    if (req.sessionTimeoutMs < this.minSession || req.sessionTimeoutMs > this.maxSession)
      return Promise.resolve(this.failJoin(req, Errors.INVALID_SESSION_TIMEOUT));
    const g = this.group(req.groupId, true)!;
    let member = req.memberId === '' ? undefined : g.members.get(req.memberId);
    if (req.memberId !== '' && !member) {
      // A static member rejoining under a new member id keeps its place (KIP-345).
      const stat =
        req.groupInstanceId === null
          ? undefined
          : [...g.members.values()].find((m) => m.groupInstanceId === req.groupInstanceId);
      if (!stat) return Promise.resolve(this.failJoin(req, Errors.UNKNOWN_MEMBER_ID));
      member = stat;
    }
    if (g.members.size > 0 && g.protocolType !== null && g.protocolType !== req.protocolType)
      return Promise.resolve(this.failJoin(req, Errors.INCONSISTENT_GROUP_PROTOCOL));
    const others = [...g.members.values()].filter((m) => m !== member);
    const names = new Set(req.protocols.map((p) => p.name));
    if (
      req.protocols.length === 0 ||
      others.some((m) => !m.protocols.some((p) => names.has(p.name)))
    )
      return Promise.resolve(this.failJoin(req, Errors.INCONSISTENT_GROUP_PROTOCOL));
    if (!member) {
      const existingStatic =
        req.groupInstanceId === null
          ? undefined
          : others.find((m) => m.groupInstanceId === req.groupInstanceId);
      if (existingStatic) this.removeMember(g, existingStatic, 'replaced by a new static member');
      member = {
        memberId: `${req.clientId || 'member'}-${randomUUID()}`,
        groupInstanceId: req.groupInstanceId,
        clientId: req.clientId,
        clientHost: req.clientHost,
        sessionTimeoutMs: req.sessionTimeoutMs,
        rebalanceTimeoutMs: req.rebalanceTimeoutMs,
        protocols: req.protocols,
        assignment: EMPTY,
        joinWaiter: null,
        syncWaiter: null,
        sessionTimer: null,
      };
      g.members.set(member.memberId, member);
    } else {
      member.protocols = req.protocols;
      member.sessionTimeoutMs = req.sessionTimeoutMs;
      member.rebalanceTimeoutMs = req.rebalanceTimeoutMs;
      member.clientId = req.clientId;
      member.clientHost = req.clientHost;
    }
    g.protocolType = req.protocolType;
    const m = member;
    // A member waiting in an earlier join of its own (a retry) gets superseded.
    m.joinWaiter?.(this.failJoinOf(m, Errors.UNKNOWN_MEMBER_ID));
    const result = new Promise<JoinResult>((resolve) => (m.joinWaiter = resolve));
    this.clearSession(m);
    if (g.state !== 'PreparingRebalance') this.prepareRebalance(g, `${m.memberId} joined`);
    else this.tryCompleteJoin(g);
    return result;
  }

  private failJoinOf(m: Member, errorCode: number): JoinResult {
    return {
      errorCode,
      generationId: -1,
      protocolType: null,
      protocolName: null,
      leader: '',
      memberId: m.memberId,
      members: [],
    };
  }

  private prepareRebalance(g: Group, reason: string): void {
    // Members waiting for an assignment of the old generation must rejoin.
    for (const m of g.members.values()) {
      if (m.syncWaiter) {
        m.syncWaiter({
          errorCode: Errors.REBALANCE_IN_PROGRESS,
          protocolType: null,
          protocolName: null,
          assignment: EMPTY,
        });
        m.syncWaiter = null;
      }
    }
    const wasEmpty = g.state === 'Empty';
    g.state = 'PreparingRebalance';
    this.opts.onEvent?.('rebalance', { groupId: g.groupId, reason });
    if (g.rebalanceTimer) clearTimeout(g.rebalanceTimer);
    const timeout = Math.max(0, ...[...g.members.values()].map((m) => m.rebalanceTimeoutMs));
    const delay = wasEmpty ? Math.min(this.initialDelay, timeout) : timeout;
    g.rebalanceTimer = setTimeout(() => {
      g.rebalanceTimer = null;
      this.completeJoin(g, true);
    }, delay);
    g.rebalanceTimer.unref();
    if (!wasEmpty || this.initialDelay === 0) this.tryCompleteJoin(g);
  }

  private tryCompleteJoin(g: Group): void {
    if (g.state !== 'PreparingRebalance') return;
    if ([...g.members.values()].every((m) => m.joinWaiter !== null)) this.completeJoin(g, false);
  }

  private completeJoin(g: Group, timedOut: boolean): void {
    if (g.state !== 'PreparingRebalance') return;
    if (g.rebalanceTimer) clearTimeout(g.rebalanceTimer);
    g.rebalanceTimer = null;
    if (timedOut)
      for (const m of [...g.members.values()])
        if (!m.joinWaiter) this.dropMember(g, m, 'did not rejoin within the rebalance timeout');
    g.generation++;
    if (g.members.size === 0) {
      g.state = 'Empty';
      g.protocolName = null;
      g.leaderId = null;
      return;
    }
    const members = [...g.members.values()];
    if (!g.leaderId || !g.members.has(g.leaderId)) g.leaderId = members[0]!.memberId;
    const leader = g.members.get(g.leaderId)!;
    // The protocol every member supports, by votes of each member's first choice among them
    // (Kafka's GroupMetadata.selectProtocol), ties broken by the leader's order.
    const candidates = leader.protocols
      .map((p) => p.name)
      .filter((n) => members.every((m) => m.protocols.some((p) => p.name === n)));
    const votes = new Map<string, number>();
    for (const m of members) {
      const choice = m.protocols.find((p) => candidates.includes(p.name))!.name;
      votes.set(choice, (votes.get(choice) ?? 0) + 1);
    }
    let chosen = candidates[0]!;
    for (const c of candidates) if ((votes.get(c) ?? 0) > (votes.get(chosen) ?? 0)) chosen = c;
    g.protocolName = chosen;
    g.state = 'CompletingRebalance';
    this.opts.onEvent?.('generation', {
      groupId: g.groupId,
      generation: g.generation,
      members: members.length,
      protocol: chosen,
    });
    for (const m of members) {
      const isLeader = m.memberId === g.leaderId;
      const waiter = m.joinWaiter!;
      m.joinWaiter = null;
      m.assignment = EMPTY;
      waiter({
        errorCode: NONE,
        generationId: g.generation,
        protocolType: g.protocolType,
        protocolName: chosen,
        leader: g.leaderId,
        memberId: m.memberId,
        members: isLeader
          ? members.map((o) => ({
              memberId: o.memberId,
              groupInstanceId: o.groupInstanceId,
              metadata: o.protocols.find((p) => p.name === chosen)!.metadata,
            }))
          : [],
      });
      this.armSession(g, m);
    }
  }

  sync(req: {
    groupId: string;
    generationId: number;
    memberId: string;
    assignments: { memberId: string; assignment: Uint8Array }[];
  }): Promise<SyncResult> {
    const fail = (errorCode: number): Promise<SyncResult> =>
      Promise.resolve({ errorCode, protocolType: null, protocolName: null, assignment: EMPTY });
    const g = this.group(req.groupId, false);
    const m = g?.members.get(req.memberId);
    if (!g || !m) return fail(Errors.UNKNOWN_MEMBER_ID);
    if (req.generationId !== g.generation) return fail(Errors.ILLEGAL_GENERATION);
    this.armSession(g, m);
    const ok = (assignment: Uint8Array): SyncResult => ({
      errorCode: NONE,
      protocolType: g.protocolType,
      protocolName: g.protocolName,
      assignment,
    });
    if (g.state === 'PreparingRebalance') return fail(Errors.REBALANCE_IN_PROGRESS);
    if (g.state === 'Stable') return Promise.resolve(ok(m.assignment));
    if (g.state !== 'CompletingRebalance') return fail(Errors.UNKNOWN_MEMBER_ID);
    if (req.memberId === g.leaderId) {
      const given = new Map(req.assignments.map((a) => [a.memberId, a.assignment]));
      for (const o of g.members.values()) o.assignment = given.get(o.memberId) ?? EMPTY;
      g.state = 'Stable';
      for (const o of g.members.values()) {
        if (o.syncWaiter) {
          o.syncWaiter(ok(o.assignment));
          o.syncWaiter = null;
        }
      }
      return Promise.resolve(ok(m.assignment));
    }
    return new Promise<SyncResult>((resolve) => (m.syncWaiter = resolve));
  }

  heartbeat(req: { groupId: string; generationId: number; memberId: string }): number {
    const g = this.group(req.groupId, false);
    const m = g?.members.get(req.memberId);
    if (!g || !m) return Errors.UNKNOWN_MEMBER_ID;
    if (req.generationId !== g.generation) return Errors.ILLEGAL_GENERATION;
    this.armSession(g, m);
    return g.state === 'PreparingRebalance' ? Errors.REBALANCE_IN_PROGRESS : NONE;
  }

  /** LeaveGroup for each member id (or static instance id): its error code. */
  leave(
    groupId: string,
    members: { memberId: string; groupInstanceId: string | null }[],
  ): number[] {
    const g = this.group(groupId, false);
    return members.map(({ memberId, groupInstanceId }) => {
      const m =
        g?.members.get(memberId) ??
        (groupInstanceId === null
          ? undefined
          : [...(g?.members.values() ?? [])].find((x) => x.groupInstanceId === groupInstanceId));
      if (!g || !m) return Errors.UNKNOWN_MEMBER_ID;
      this.removeMember(g, m, 'left the group');
      return NONE;
    });
  }

  /**
   * Whether an offset commit by (generation, member) is accepted now: the error code, or NONE.
   * generation -1 with no member id is an admin commit, allowed while the group has no members.
   */
  checkCommit(groupId: string, generationId: number, memberId: string): number {
    const g = this.group(groupId, false);
    if (generationId < 0 && memberId === '')
      return !g || g.members.size === 0 ? NONE : Errors.UNKNOWN_MEMBER_ID;
    const m = g?.members.get(memberId);
    if (!g || !m) return Errors.UNKNOWN_MEMBER_ID;
    if (generationId !== g.generation) return Errors.ILLEGAL_GENERATION;
    if (g.state === 'CompletingRebalance') return Errors.REBALANCE_IN_PROGRESS;
    this.armSession(g, m);
    return NONE;
  }

  private clearSession(m: Member): void {
    if (m.sessionTimer) clearTimeout(m.sessionTimer);
    m.sessionTimer = null;
  }

  private armSession(g: Group, m: Member): void {
    this.clearSession(m);
    if (this.closed) return;
    m.sessionTimer = setTimeout(() => {
      m.sessionTimer = null;
      if (m.joinWaiter) return; // waiting in a join: the rebalance timeout governs it
      this.opts.onEvent?.('session-expired', {
        groupId: g.groupId,
        memberId: m.memberId,
        sessionTimeoutMs: m.sessionTimeoutMs,
      });
      this.removeMember(g, m, 'session timed out');
    }, m.sessionTimeoutMs);
    m.sessionTimer.unref();
  }

  /** Removes a member without starting a rebalance (the caller decides). */
  private dropMember(g: Group, m: Member, reason: string): void {
    this.clearSession(m);
    g.members.delete(m.memberId);
    m.joinWaiter?.(this.failJoinOf(m, Errors.UNKNOWN_MEMBER_ID));
    m.joinWaiter = null;
    m.syncWaiter?.({
      errorCode: Errors.UNKNOWN_MEMBER_ID,
      protocolType: null,
      protocolName: null,
      assignment: EMPTY,
    });
    m.syncWaiter = null;
    this.opts.onEvent?.('member-removed', { groupId: g.groupId, memberId: m.memberId, reason });
  }

  private removeMember(g: Group, m: Member, reason: string): void {
    this.dropMember(g, m, reason);
    if (g.leaderId === m.memberId) g.leaderId = null;
    if (g.state === 'PreparingRebalance') this.tryCompleteJoin(g);
    else if (g.state === 'Stable' || g.state === 'CompletingRebalance') {
      if (g.members.size === 0) {
        g.generation++;
        g.state = 'Empty';
        g.protocolName = null;
      } else this.prepareRebalance(g, `${m.memberId} ${reason}`);
    }
  }

  /** Groups with members (in memory); the caller adds groups that only have committed offsets. */
  list(): { groupId: string; state: GroupStateName; protocolType: string | null }[] {
    return [...this.groups.values()].map((g) => ({
      groupId: g.groupId,
      state: g.state,
      protocolType: g.protocolType,
    }));
  }

  describe(groupId: string):
    | {
        state: GroupStateName;
        protocolType: string;
        protocolName: string;
        generation: number;
        members: {
          memberId: string;
          groupInstanceId: string | null;
          clientId: string;
          clientHost: string;
          metadata: Uint8Array;
          assignment: Uint8Array;
        }[];
      }
    | undefined {
    const g = this.groups.get(groupId);
    if (!g) return undefined;
    return {
      state: g.state,
      protocolType: g.protocolType ?? '',
      protocolName: g.protocolName ?? '',
      generation: g.generation,
      members: [...g.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        metadata:
          g.state === 'Stable'
            ? (m.protocols.find((p) => p.name === g.protocolName)?.metadata ?? EMPTY)
            : EMPTY,
        assignment: g.state === 'Stable' ? m.assignment : EMPTY,
      })),
    };
  }

  /**
   * Each member's subscription metadata under the group's chosen protocol (OffsetDelete reads
   * the subscribed topics from it); null while no protocol is chosen, undefined for no group.
   */
  memberMetadata(groupId: string): Uint8Array[] | null | undefined {
    const g = this.groups.get(groupId);
    if (!g) return undefined;
    if (g.protocolName === null) return null;
    const out: Uint8Array[] = [];
    for (const m of g.members.values()) {
      const p = m.protocols.find((x) => x.name === g.protocolName);
      if (!p) return null;
      out.push(p.metadata);
    }
    return out;
  }

  /** A group without members is forgotten (DeleteGroups); one with members is NON_EMPTY_GROUP. */
  delete(groupId: string): number {
    const g = this.groups.get(groupId);
    if (g && g.members.size > 0) return Errors.NON_EMPTY_GROUP;
    this.groups.delete(groupId);
    return NONE;
  }

  /** Listener shutdown: members are dropped without a rebalance (they rejoin after a restart). */
  close(): void {
    this.closed = true;
    for (const g of this.groups.values()) {
      if (g.rebalanceTimer) clearTimeout(g.rebalanceTimer);
      for (const m of [...g.members.values()]) this.dropMember(g, m, 'the listener closed');
    }
    this.groups.clear();
  }
}
