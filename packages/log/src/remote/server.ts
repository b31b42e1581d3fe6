// Serves one Log to other threads of the process over MessagePorts. The engine's stream threads
// are worker threads; the Log (and its data dir lock) lives in one thread and each worker gets a
// port (Log.createPort) through which it reaches the same Log as a RemoteLog.
//
// A worker that dies closes its port: its group members leave (so their partitions move at once,
// not after a session timeout) and its long polls are cancelled.
import type { MessagePort } from 'node:worker_threads';
import { isLogError } from '../errors.js';
import type { GroupMembership, JoinOptions } from '../groups/coordinator.js';
import type { Log } from '../log.js';
import type { TransactionalProducer } from '../transactions/coordinator.js';
import type { FetchResult, TopicPartition } from '../types.js';
import { eachMessage, MessageBatcher } from './batching.js';
import { pack, transferables, type Packed } from './pack.js';

export interface Request {
  id: number;
  method: string;
  args: unknown[];
}

export interface WireError {
  name: string;
  message: string;
  code?: string;
  retriable?: boolean;
  file?: string;
  offset?: number;
  position?: number;
}

export function toWire(err: unknown): WireError {
  if (isLogError(err)) {
    const w: WireError = {
      name: err.name,
      message: err.message,
      code: err.code,
      retriable: err.retriable,
    };
    if (err.file !== undefined) w.file = err.file;
    if (err.offset !== undefined) w.offset = err.offset;
    if (err.position !== undefined) w.position = err.position;
    return w;
  }
  return { name: 'Error', message: err instanceof Error ? err.message : String(err) };
}

export interface PackedFetch extends Omit<FetchResult, 'records'> {
  records: Packed;
  meta: { offset: number; timestamp: number; timestampType: 'CreateTime' | 'LogAppendTime' }[];
}

function packFetch(r: FetchResult): { value: PackedFetch; transfer: ArrayBuffer[] } {
  const packed = pack(r.records);
  const { records, ...rest } = r;
  return {
    value: {
      ...rest,
      records: packed,
      meta: records.map((x) => ({
        offset: x.offset,
        timestamp: x.timestamp,
        timestampType: x.timestampType,
      })),
    },
    transfer: transferables(packed),
  };
}

type Packable = { value: unknown; transfer: ArrayBuffer[] };

/**
 * The answer to an append of producer-encoded batches. Written and acknowledged, the batches are
 * read by nothing here any more, so their memory moves back to the producer's encoder for its next
 * batches instead of being collected on this thread.
 */
function handBack(
  parts: readonly { batches: Uint8Array }[],
  results: readonly { baseOffset: number; logAppendTime: number }[],
): Packable {
  const appended = results.map((r) => ({
    baseOffset: r.baseOffset,
    logAppendTime: r.logAppendTime,
  }));
  const returned = parts.map((p) => p.batches);
  const transfer = new Set<ArrayBuffer>();
  for (const b of returned) if (b.buffer instanceof ArrayBuffer) transfer.add(b.buffer);
  return { value: { appended, returned }, transfer: [...transfer] };
}

/**
 * Serves `log` on `port`. Produce calls arrive as batches a RemoteLog encoded with this package's
 * BatchEncoder and moved here (its buffers are detached on the sending side, so nothing can change
 * them after encoding): they are appended with `checks: 'headers'`, as Log.produce appends its own
 * encoder's batches unchecked (docs/LOG.md, Producer-encoded batches).
 */
export function serveLog(log: Log, port: MessagePort): void {
  const members = new Map<number, GroupMembership>();
  const producers = new Map<number, TransactionalProducer>();
  const polls = new Map<number, AbortController>();
  const acks = new Map<number, () => void>();
  let nextKey = 1;

  const out = new MessageBatcher(port);
  const reply = (id: number, result: unknown, transfer: ArrayBuffer[] = []): void =>
    out.send({ id, result }, transfer);

  /** Sends an event to the client and waits for its acknowledgement (rebalance callbacks). */
  const event = (payload: object): Promise<void> =>
    new Promise((resolve) => {
      const eventId = nextKey++;
      acks.set(eventId, resolve);
      out.send({ event: { ...payload, eventId } });
    });

  const methods: Record<string, (...args: never[]) => unknown> = {
    createTopics: (
      specs: Parameters<Log['createTopics']>[0],
      opts: Parameters<Log['createTopics']>[1],
    ) => log.createTopics(specs, opts),
    deleteTopics: (names: string[]) => log.deleteTopics(names),
    createPartitions: (name: string, n: number) => log.createPartitions(name, n),
    alterTopicConfig: (name: string, set: Record<string, string>, remove: string[]) =>
      log.alterTopicConfig(name, set, remove),
    listTopics: (opts: Parameters<Log['listTopics']>[0]) => log.listTopics(opts),
    describeTopic: (name: string) => log.describeTopic(name),
    producerMetadata: (topics: string[]) =>
      topics.map((t) => [t, log.producerMetadata(t)] as const),
    produceBatches: async (
      parts: { topic: string; partition: number; batches: Uint8Array }[],
      opts: Parameters<Log['produceBatches']>[1],
    ): Promise<Packable> =>
      handBack(parts, await log.produceBatches(parts, { ...opts, checks: 'headers' })),
    fetch: async (
      pollId: number,
      topic: string,
      partition: number,
      offset: number,
      opts: Parameters<Log['fetch']>[3],
    ): Promise<Packable> => {
      const ac = new AbortController();
      polls.set(pollId, ac);
      try {
        return packFetch(await log.fetch(topic, partition, offset, { ...opts, signal: ac.signal }));
      } finally {
        polls.delete(pollId);
      }
    },
    poll: async (
      pollId: number,
      positions: Parameters<Log['poll']>[0],
      opts: Parameters<Log['poll']>[1],
    ): Promise<Packable> => {
      const ac = new AbortController();
      polls.set(pollId, ac);
      try {
        const results = (await log.poll(positions, { ...opts, signal: ac.signal })).map(packFetch);
        return { value: results.map((r) => r.value), transfer: results.flatMap((r) => r.transfer) };
      } finally {
        polls.delete(pollId);
      }
    },
    cancelPoll: (pollId: number) => polls.get(pollId)?.abort(),
    earliestOffset: (topic: string, partition: number) => log.earliestOffset(topic, partition),
    latestOffset: (
      topic: string,
      partition: number,
      isolation: 'read_uncommitted' | 'read_committed',
    ) => log.latestOffset(topic, partition, isolation),
    offsetForTimestamp: (topic: string, partition: number, ts: number) =>
      log.offsetForTimestamp(topic, partition, ts),
    deleteRecords: (topic: string, partition: number, before: number) =>
      log.deleteRecords(topic, partition, before),
    joinGroup: async (
      key: number,
      groupId: string,
      opts: Omit<JoinOptions, 'onRevoked' | 'onAssigned' | 'assignor'> & {
        assignor?: 'range' | 'roundrobin';
      },
    ) => {
      const m = await log.joinGroup(groupId, {
        ...opts,
        autoHeartbeat: false, // the worker heartbeats: a stuck worker is then removed
        onRevoked: (partitions) => event({ type: 'revoked', member: key, partitions }),
        onAssigned: (partitions, generation) =>
          event({ type: 'assigned', member: key, partitions, generation }),
      });
      members.set(key, m);
      return { memberId: m.memberId, generation: m.generation, assignment: m.assignment() };
    },
    heartbeat: (key: number) => members.get(key)?.heartbeat(),
    memberCommit: (key: number, offsets: Parameters<GroupMembership['commit']>[0]) =>
      members.get(key)!.commit(offsets),
    startingOffsets: (key: number, reset: 'earliest' | 'latest' | 'none') =>
      members.get(key)!.startingOffsets(reset),
    leave: async (key: number) => {
      const m = members.get(key);
      members.delete(key);
      await m?.leave();
    },
    commitOffsets: (groupId: string, offsets: Parameters<Log['commitOffsets']>[1]) =>
      log.commitOffsets(groupId, offsets),
    committedOffsets: (groupId: string, tps?: TopicPartition[]) =>
      log.committedOffsets(groupId, tps),
    listGroups: () => log.listGroups(),
    describeGroup: (groupId: string) => log.describeGroup(groupId),
    deleteGroup: (groupId: string) => log.deleteGroup(groupId),
    initTransactions: async (id: string, opts: Parameters<Log['transactionalProducer']>[1]) => {
      const p = await log.transactionalProducer(id, opts);
      const key = nextKey++;
      producers.set(key, p);
      return { key, producerId: p.producerId, epoch: p.epoch };
    },
    beginTransaction: (key: number) => producers.get(key)!.beginTransaction(),
    txnSendBatches: async (
      key: number,
      parts: { topic: string; partition: number; batches: Uint8Array }[],
    ): Promise<Packable> =>
      handBack(parts, await producers.get(key)!.sendBatches(parts, { checks: 'headers' })),
    sendOffsetsToTransaction: (
      key: number,
      offsets: Parameters<TransactionalProducer['sendOffsetsToTransaction']>[0],
      groupId: string,
      member?: { memberId: string; generation: number },
    ) => producers.get(key)!.sendOffsetsToTransaction(offsets, groupId, member),
    commitTransaction: (key: number) => producers.get(key)!.commitTransaction(),
    abortTransaction: (key: number) => producers.get(key)!.abortTransaction(),
    closeProducer: (key: number) => void producers.delete(key),
  };

  const handle = (msg: Request | { ack: number }): void => {
    if ('ack' in msg) {
      acks.get(msg.ack)?.();
      acks.delete(msg.ack);
      return;
    }
    const fn = methods[msg.method];
    if (!fn)
      return out.send({
        id: msg.id,
        error: { name: 'Error', message: `unknown method ${msg.method}` },
      });
    Promise.resolve()
      .then(() => (fn as (...a: unknown[]) => unknown)(...msg.args))
      .then(
        (result) => {
          const r = result as Packable | undefined;
          if (r && typeof r === 'object' && 'transfer' in r && 'value' in r)
            reply(msg.id, r.value, r.transfer);
          else reply(msg.id, result);
        },
        (err: unknown) => out.send({ id: msg.id, error: toWire(err) }),
      );
  };
  port.on(
    'message',
    (data: Parameters<typeof handle>[0] | { batch: Parameters<typeof handle>[0][] }) =>
      eachMessage(data, handle),
  );

  port.on('close', () => {
    for (const ac of polls.values()) ac.abort();
    for (const resolve of acks.values()) resolve();
    acks.clear();
    // The client is gone: a member whose leave fails (the log closing) expires with its session.
    // eslint-disable-next-line no-restricted-syntax -- see above
    for (const m of members.values()) void m.leave().catch(() => undefined);
    members.clear();
    producers.clear();
  });
}
