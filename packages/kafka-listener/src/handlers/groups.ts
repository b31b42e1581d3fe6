// FindCoordinator and the classic group protocol's requests, on groups/group-coordinator.ts;
// committed offsets on the log (Log.commitOffsets / committedOffsets).
import { messages } from '@streamwright/kafka-protocol';
import type {
  DeleteGroupsRequest,
  DeleteGroupsResponseInput,
  DescribeGroupsRequest,
  DescribeGroupsResponseInput,
  FindCoordinatorRequest,
  FindCoordinatorResponseInput,
  HeartbeatRequest,
  JoinGroupRequest,
  JoinGroupResponseInput,
  LeaveGroupRequest,
  LeaveGroupResponseInput,
  ListGroupsRequest,
  ListGroupsResponseInput,
  OffsetCommitRequest,
  OffsetCommitResponseInput,
  OffsetDeleteRequest,
  OffsetDeleteResponseInput,
  OffsetFetchRequest,
  OffsetFetchResponseInput,
  SyncGroupRequest,
  SyncGroupResponseInput,
} from '@streamwright/kafka-protocol';
import type { ListenerContext, RequestScope } from '../context.js';
import { Errors, errorOf, NONE } from '../errors.js';
import { isServedTopic } from './topic-lookup.js';

export function handleFindCoordinator(
  ctx: ListenerContext,
  req: FindCoordinatorRequest,
  version: number,
): FindCoordinatorResponseInput {
  const node = {
    nodeId: ctx.identity.identity.nodeId,
    host: ctx.advertised.host,
    port: ctx.advertised.port,
  };
  if (version >= 4)
    return {
      throttleTimeMs: 0,
      coordinators: req.coordinatorKeys.map((key) => ({
        key,
        ...node,
        errorCode: NONE,
        errorMessage: null,
      })),
    };
  return { throttleTimeMs: 0, errorCode: NONE, errorMessage: null, ...node };
}

export async function handleJoinGroup(
  ctx: ListenerContext,
  req: JoinGroupRequest,
  version: number,
  scope: RequestScope,
): Promise<JoinGroupResponseInput> {
  const r = await ctx.groups.join({
    groupId: req.groupId,
    memberId: req.memberId,
    groupInstanceId: req.groupInstanceId,
    sessionTimeoutMs: req.sessionTimeoutMs,
    // v0 has no rebalance timeout: Kafka uses the session timeout.
    rebalanceTimeoutMs: version === 0 ? req.sessionTimeoutMs : req.rebalanceTimeoutMs,
    protocolType: req.protocolType,
    protocols: req.protocols.map((p) => ({ name: p.name, metadata: p.metadata })),
    clientId: scope.clientId ?? '',
    clientHost: scope.clientHost,
  });
  return { throttleTimeMs: 0, ...r, skipAssignment: false };
}

export async function handleSyncGroup(
  ctx: ListenerContext,
  req: SyncGroupRequest,
): Promise<SyncGroupResponseInput> {
  const r = await ctx.groups.sync(req);
  return { throttleTimeMs: 0, ...r };
}

export function handleHeartbeat(ctx: ListenerContext, req: HeartbeatRequest) {
  return { throttleTimeMs: 0, errorCode: ctx.groups.heartbeat(req) };
}

export function handleLeaveGroup(
  ctx: ListenerContext,
  req: LeaveGroupRequest,
  version: number,
): LeaveGroupResponseInput {
  if (version < 3) {
    const [code] = ctx.groups.leave(req.groupId, [
      { memberId: req.memberId, groupInstanceId: null },
    ]);
    return { throttleTimeMs: 0, errorCode: code! };
  }
  const codes = ctx.groups.leave(req.groupId, req.members);
  return {
    throttleTimeMs: 0,
    errorCode: NONE,
    members: req.members.map((m, i) => ({
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      errorCode: codes[i]!,
    })),
  };
}

export async function handleOffsetCommit(
  ctx: ListenerContext,
  req: OffsetCommitRequest,
): Promise<OffsetCommitResponseInput> {
  const fenced = ctx.groups.checkCommit(req.groupId, req.generationIdOrMemberEpoch, req.memberId);
  const codes = new Map<string, number>();
  const offsets: { topic: string; partition: number; offset: number; metadata?: string }[] = [];
  for (const t of req.topics)
    for (const p of t.partitions) {
      const key = `${t.name}\u0000${p.partitionIndex}`;
      const d = isServedTopic(t.name) ? ctx.log.describeTopic(t.name) : null;
      if (fenced !== NONE) codes.set(key, fenced);
      else if (!d || p.partitionIndex < 0 || p.partitionIndex >= d.partitions)
        codes.set(key, Errors.UNKNOWN_TOPIC_OR_PARTITION);
      else {
        codes.set(key, NONE);
        offsets.push({
          topic: t.name,
          partition: p.partitionIndex,
          offset: Number(p.committedOffset),
          ...(p.committedMetadata ? { metadata: p.committedMetadata } : {}),
        });
      }
    }
  if (offsets.length > 0) {
    try {
      await ctx.log.commitOffsets(req.groupId, offsets);
    } catch (err) {
      const e = errorOf(err);
      ctx.logger.warn({ err, groupId: req.groupId }, 'kafka listener: offset commit failed');
      for (const o of offsets) codes.set(`${o.topic}\u0000${o.partition}`, e.code);
    }
  }
  return {
    throttleTimeMs: 0,
    topics: req.topics.map((t) => ({
      name: t.name,
      partitions: t.partitions.map((p) => ({
        partitionIndex: p.partitionIndex,
        errorCode: codes.get(`${t.name}\u0000${p.partitionIndex}`)!,
      })),
    })),
  };
}

function fetchGroupOffsets(
  ctx: ListenerContext,
  groupId: string,
  topics: { name: string; partitionIndexes: number[] }[] | null,
) {
  const committed = ctx.log.committedOffsets(groupId);
  const byKey = new Map(committed.map((c) => [`${c.topic}\u0000${c.partition}`, c]));
  const wanted =
    topics ??
    [...new Set(committed.map((c) => c.topic))].map((name) => ({
      name,
      partitionIndexes: committed.filter((c) => c.topic === name).map((c) => c.partition),
    }));
  return wanted.map((t) => ({
    name: t.name,
    partitions: t.partitionIndexes.map((i) => {
      const c = byKey.get(`${t.name}\u0000${i}`);
      return {
        partitionIndex: i,
        committedOffset: BigInt(c?.offset ?? -1),
        committedLeaderEpoch: -1,
        metadata: c ? c.metadata : '',
        errorCode: NONE,
      };
    }),
  }));
}

export function handleOffsetFetch(
  ctx: ListenerContext,
  req: OffsetFetchRequest,
  version: number,
): OffsetFetchResponseInput {
  if (version >= 8)
    return {
      throttleTimeMs: 0,
      groups: req.groups.map((g) => ({
        groupId: g.groupId,
        topics: fetchGroupOffsets(ctx, g.groupId, g.topics),
        errorCode: NONE,
      })),
    };
  return {
    throttleTimeMs: 0,
    topics: fetchGroupOffsets(ctx, req.groupId, req.topics),
    errorCode: NONE,
  };
}

/** Groups with members here, and groups that only have committed offsets (Empty). */
function allGroups(ctx: ListenerContext) {
  const live = ctx.groups.list();
  const known = new Set(live.map((g) => g.groupId));
  const offsetsOnly = ctx.log
    .listGroups()
    .filter((g) => !known.has(g.groupId))
    .map((g) => ({ groupId: g.groupId, state: 'Empty' as const, protocolType: 'consumer' }));
  return [...live, ...offsetsOnly];
}

export function handleListGroups(
  ctx: ListenerContext,
  req: ListGroupsRequest,
): ListGroupsResponseInput {
  const states = new Set(req.statesFilter.map((s) => s.toLowerCase()));
  const types = new Set(req.typesFilter.map((s) => s.toLowerCase()));
  return {
    throttleTimeMs: 0,
    errorCode: NONE,
    groups: allGroups(ctx)
      .filter((g) => states.size === 0 || states.has(g.state.toLowerCase()))
      .filter(() => types.size === 0 || types.has('classic'))
      .map((g) => ({
        groupId: g.groupId,
        protocolType: g.protocolType ?? '',
        groupState: g.state,
        groupType: 'classic',
      })),
  };
}

export function handleDescribeGroups(
  ctx: ListenerContext,
  req: DescribeGroupsRequest,
  version: number,
): DescribeGroupsResponseInput {
  return {
    throttleTimeMs: 0,
    groups: req.groups.map((groupId) => {
      const d = ctx.groups.describe(groupId);
      if (d)
        return {
          errorCode: NONE,
          errorMessage: null,
          groupId,
          groupState: d.state,
          protocolType: d.protocolType,
          protocolData: d.protocolName,
          members: d.members.map((m) => ({
            memberId: m.memberId,
            groupInstanceId: m.groupInstanceId,
            clientId: m.clientId,
            clientHost: m.clientHost,
            memberMetadata: m.metadata,
            memberAssignment: m.assignment,
          })),
          authorizedOperations: -2147483648,
        };
      const hasOffsets = ctx.log.committedOffsets(groupId).length > 0;
      const unknown = !hasOffsets;
      return {
        errorCode: unknown && version >= 6 ? Errors.GROUP_ID_NOT_FOUND : NONE,
        errorMessage: null,
        groupId,
        groupState: unknown ? 'Dead' : 'Empty',
        protocolType: unknown ? '' : 'consumer',
        protocolData: '',
        members: [],
        authorizedOperations: -2147483648,
      };
    }),
  };
}

export async function handleDeleteGroups(
  ctx: ListenerContext,
  req: DeleteGroupsRequest,
): Promise<DeleteGroupsResponseInput> {
  const results = [];
  for (const groupId of req.groupsNames) {
    const known =
      ctx.groups.describe(groupId) !== undefined || ctx.log.committedOffsets(groupId).length > 0;
    let code = known ? ctx.groups.delete(groupId) : Errors.GROUP_ID_NOT_FOUND;
    if (code === NONE) {
      try {
        // The log's group too (its offsets and its record), so ListGroups forgets it.
        await ctx.log.deleteGroup(groupId);
      } catch (err) {
        code = errorOf(err).code;
      }
    }
    results.push({ groupId, errorCode: code });
  }
  return { throttleTimeMs: 0, results };
}

/**
 * OffsetDelete as Kafka's group coordinator answers it for a classic group: an unknown group is
 * GROUP_ID_NOT_FOUND; a group with members is NON_EMPTY_GROUP unless it runs the consumer
 * protocol, whose subscribed topics answer GROUP_SUBSCRIBED_TO_TOPIC and whose other topics'
 * offsets are deleted; an empty group's offsets are deleted. A partition without a committed
 * offset is answered NONE, as Kafka does.
 */
export async function handleOffsetDelete(
  ctx: ListenerContext,
  req: OffsetDeleteRequest,
): Promise<OffsetDeleteResponseInput> {
  const fail = (errorCode: number): OffsetDeleteResponseInput => ({
    errorCode,
    throttleTimeMs: 0,
    topics: [],
  });
  const d = ctx.groups.describe(req.groupId);
  const committed = ctx.log.committedOffsets(req.groupId);
  if (!d && committed.length === 0) return fail(Errors.GROUP_ID_NOT_FOUND);
  const hasMembers = d !== undefined && d.members.length > 0;
  if (hasMembers && d.protocolType !== 'consumer') return fail(Errors.NON_EMPTY_GROUP);
  const subscribed = hasMembers ? subscribedTopics(ctx.groups.memberMetadata(req.groupId)) : null;
  const isSubscribed = (topic: string) =>
    hasMembers && (subscribed === null || subscribed.has(topic));
  const toDelete: { topic: string; partition: number }[] = [];
  const topics = req.topics.map((t) => ({
    name: t.name,
    partitions: t.partitions.map((p) => {
      if (isSubscribed(t.name))
        return { partitionIndex: p.partitionIndex, errorCode: Errors.GROUP_SUBSCRIBED_TO_TOPIC };
      if (committed.some((c) => c.topic === t.name && c.partition === p.partitionIndex))
        toDelete.push({ topic: t.name, partition: p.partitionIndex });
      return { partitionIndex: p.partitionIndex, errorCode: NONE };
    }),
  }));
  try {
    if (toDelete.length > 0) await ctx.log.deleteOffsets(req.groupId, toDelete);
  } catch (err) {
    return fail(errorOf(err).code);
  }
  return { errorCode: NONE, throttleTimeMs: 0, topics };
}

/** The topics the members subscribe to; null when unknown (no protocol yet, or unreadable). */
function subscribedTopics(metadata: Uint8Array[] | null | undefined): Set<string> | null {
  if (!metadata) return null;
  const m = messages.ConsumerProtocolSubscription;
  const topics = new Set<string>();
  for (const bytes of metadata) {
    try {
      if (bytes.length < 2) return null;
      const version = Math.min((bytes[0]! << 8) | bytes[1]!, m.maxVersion);
      for (const t of m.decode(bytes.subarray(2), version).topics) topics.add(t);
    } catch {
      return null;
    }
  }
  return topics;
}
