// The other end of serveLog: a worker thread's handle on the process's Log. The same operations
// as Log, asynchronous throughout (offset queries included), with errors rebuilt as LogErrors.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import {
  BatchEncoder,
  recordMetadataOf,
  type EncodedProduce,
  type EncodeOptions,
  type ProducerTopicMetadata,
} from '../batch-encoder.js';
import { isLogError, LogError, LogErrorCode } from '../errors.js';
import type { GroupDescription, OffsetReset } from '../groups/coordinator.js';
import type { CommittedOffset } from '../groups/offsets-store.js';
import type { Log } from '../log.js';
import type {
  ConsumerRecord,
  FetchOptions,
  FetchResult,
  IsolationLevel,
  ProduceOptions,
  ProducerRecord,
  RecordMetadata,
  TopicDescription,
  TopicPartition,
  TopicSpec,
} from '../types.js';
import { eachMessage } from './batching.js';
import { unpack } from './pack.js';
import { serveLog, type PackedFetch, type WireError } from './server.js';

/** Creates a port served by `log`; pass it to a worker (transferList) and `connectLog` it there. */
export function createLogPort(log: Log): MessagePort {
  const { port1, port2 } = new MessageChannel();
  serveLog(log, port1);
  port1.unref();
  return port2;
}

function fromWire(w: WireError): Error {
  if (w.code) {
    const details: { file?: string; offset?: number; position?: number } = {};
    if (w.file !== undefined) details.file = w.file;
    if (w.offset !== undefined) details.offset = w.offset;
    if (w.position !== undefined) details.position = w.position;
    return new LogError(w.code as LogErrorCode, w.message, details);
  }
  return new Error(w.message);
}

function unpackFetch(p: PackedFetch): FetchResult {
  const data = unpack(p.records);
  const { records: _packed, meta, ...rest } = p;
  const records: ConsumerRecord[] = meta.map((m, i) => ({
    topic: p.topic,
    partition: p.partition,
    offset: m.offset,
    timestamp: m.timestamp,
    timestampType: m.timestampType,
    key: data[i]!.key,
    value: data[i]!.value,
    headers: data[i]!.headers ?? {},
  }));
  return { ...rest, records };
}

export interface RemoteMembership {
  readonly groupId: string;
  readonly memberId: string;
  readonly generation: number;
  assignment(): TopicPartition[];
  onAssignment(listener: (assigned: TopicPartition[]) => void): () => void;
  onRevocation(listener: (revoked: TopicPartition[]) => Promise<void> | void): () => void;
  commit(offsets: (TopicPartition & { offset: number; metadata?: string })[]): Promise<void>;
  startingOffsets(reset?: OffsetReset): Promise<(TopicPartition & { offset: number })[]>;
  leave(): Promise<void>;
}

export interface RemoteTransactionalProducer {
  readonly producerId: number;
  readonly epoch: number;
  beginTransaction(): Promise<void>;
  send(
    records: readonly ProducerRecord[],
    opts?: Omit<ProduceOptions, 'acks'>,
  ): Promise<RecordMetadata[]>;
  sendOffsetsToTransaction(
    offsets: (TopicPartition & { offset: number; metadata?: string })[],
    groupId: string,
    member?: { memberId: string; generation: number },
  ): Promise<void>;
  commitTransaction(): Promise<void>;
  abortTransaction(): Promise<void>;
  close(): Promise<void>;
}

export interface RemoteJoinOptions {
  topics: string[];
  assignor?: 'range' | 'roundrobin';
  clientId?: string;
  sessionTimeoutMs?: number;
  rebalanceTimeoutMs?: number;
  userData?: unknown;
  onRevoked?: (partitions: TopicPartition[]) => Promise<void> | void;
  onAssigned?: (partitions: TopicPartition[]) => Promise<void> | void;
}

export interface RemoteLogOptions {
  /** Where background failures go (a heartbeat, a rebalance listener): WARN, with the job's name. */
  logger?: { warn(obj: object, msg?: string): void };
}

export class RemoteLog {
  private nextId = 1;
  /** Background failures per job (`heartbeat`, `rebalance-listener`), for the caller's metrics. */
  readonly backgroundFailures = new Map<string, number>();
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  private readonly memberHandlers = new Map<
    number,
    (e: { type: string; partitions: TopicPartition[]; generation?: number }) => Promise<void>
  >();
  private readonly heartbeats = new Set<NodeJS.Timeout>();
  /** Records are encoded here, on this thread; the log's thread only validates and appends. */
  private readonly encoder = new BatchEncoder();
  /** Topic metadata for the encoder, as a Kafka producer caches it; refreshed on a refusal. */
  private readonly metadata = new Map<string, ProducerTopicMetadata>();

  constructor(
    private readonly port: MessagePort,
    private readonly options: RemoteLogOptions = {},
  ) {
    const handle = (msg: {
      id?: number;
      result?: unknown;
      error?: WireError;
      event?: {
        member: number;
        eventId: number;
        type: string;
        partitions: TopicPartition[];
        generation?: number;
      };
    }): void => {
      if (msg.event) {
        const e = msg.event;
        const handler = this.memberHandlers.get(e.member);
        // The rebalance goes on whatever the listener did (as Kafka's consumer does).
        void Promise.resolve(handler?.(e))
          .catch((err: unknown) => this.failed('rebalance-listener', err))
          .then(() => port.postMessage({ ack: e.eventId }));
        return;
      }
      const p = this.pending.get(msg.id!);
      if (!p) return;
      this.pending.delete(msg.id!);
      if (msg.error) p.reject(fromWire(msg.error));
      else p.resolve(msg.result);
    };
    port.on(
      'message',
      (data: Parameters<typeof handle>[0] | { batch: Parameters<typeof handle>[0][] }) =>
        eachMessage(data, handle),
    );
  }

  private call<T>(method: string, args: unknown[], transfer: ArrayBuffer[] = []): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      // Posted at once, not batched: the log's thread validates and appends this produce call's
      // batches while this thread encodes the next ones.
      this.port.postMessage({ id, method, args }, transfer);
    });
  }

  createTopics(specs: TopicSpec[], opts: { ifNotExists?: boolean } = {}): Promise<void> {
    return this.call('createTopics', [specs, opts]);
  }
  deleteTopics(names: string[]): Promise<void> {
    return this.call('deleteTopics', [names]);
  }
  createPartitions(name: string, total: number): Promise<void> {
    return this.call('createPartitions', [name, total]);
  }
  alterTopicConfig(
    name: string,
    set: Record<string, string | number>,
    remove: string[] = [],
  ): Promise<void> {
    return this.call('alterTopicConfig', [name, set, remove]);
  }
  listTopics(opts: { includeSystem?: boolean } = {}): Promise<TopicDescription[]> {
    return this.call('listTopics', [opts]);
  }
  describeTopic(name: string): Promise<TopicDescription | null> {
    return this.call('describeTopic', [name]);
  }

  /**
   * Encodes the records into batches on this thread and hands them to the log, which validates
   * and appends them. Stale metadata (partitions added, limits changed) is refreshed and the
   * produce retried once: a refused request wrote nothing.
   */
  produce(
    records: readonly ProducerRecord[],
    opts: Omit<ProduceOptions, 'partitioner'> = {},
  ): Promise<RecordMetadata[]> {
    return this.withFreshMetadata(records, () =>
      this.sendEncoded('produceBatches', [], records, opts, { acks: opts.acks ?? 'all' }),
    );
  }

  /** Runs `send`, and once more after refreshing the topics' metadata when it was stale. */
  private async withFreshMetadata<T>(
    records: readonly ProducerRecord[],
    send: () => Promise<T>,
  ): Promise<T> {
    try {
      return await send();
    } catch (err) {
      const stale =
        isLogError(err, LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION) ||
        isLogError(err, LogErrorCode.RECORD_TOO_LARGE);
      if (!stale) throw err;
      for (const r of records) this.metadata.delete(r.topic);
      return send();
    }
  }

  /**
   * Encodes here and calls `method` (produceBatches, txnSendBatches) on the log's thread with
   * `[...lead, parts, ...tail]`; the log's thread moves the buffers back once it is done with them.
   */
  private async sendEncoded(
    method: string,
    lead: unknown[],
    records: readonly ProducerRecord[],
    opts: EncodeOptions,
    ...tail: unknown[]
  ): Promise<RecordMetadata[]> {
    // Topics without cached metadata (no array or set per call: records of one topic in a row
    // are the common case).
    const missing: string[] = [];
    let last: string | null = null;
    for (const r of records) {
      if (r.topic === last) continue;
      last = r.topic;
      if (!this.metadata.has(last) && !missing.includes(last)) missing.push(last);
    }
    if (missing.length > 0) {
      const found = await this.call<[string, ProducerTopicMetadata][]>('producerMetadata', [
        missing,
      ]);
      for (const [t, m] of found) this.metadata.set(t, m);
    }
    const encoded: EncodedProduce = this.encoder.encode(
      records,
      (t) => this.metadata.get(t)!,
      opts,
    );
    const parts = await Promise.all(
      encoded.partitions.map(async (p) => ({
        topic: p.topic,
        partition: p.partition,
        batches: await p.batches,
      })),
    );
    const { appended, returned } = await this.call<{
      appended: { baseOffset: number; logAppendTime: number }[];
      returned: Uint8Array[];
    }>(
      method,
      [...lead, parts, ...tail],
      // Each buffer is the encoder's own (never a slice of a shared pool): moved, not copied.
      parts.map((p) => p.batches.buffer as ArrayBuffer),
    );
    // The log's thread moved the buffers back once it was done with them: reused for the next.
    for (const b of returned) this.encoder.release(b);
    return recordMetadataOf(encoded, appended);
  }

  private cancellable<T>(
    method: string,
    args: unknown[],
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const pollId = this.nextId++;
    const onAbort = (): void => void this.call('cancelPoll', [pollId]);
    signal?.addEventListener('abort', onAbort, { once: true });
    return this.call<T>(method, [pollId, ...args]).finally(() =>
      signal?.removeEventListener('abort', onAbort),
    );
  }

  async fetch(
    topic: string,
    partition: number,
    offset: number,
    opts: FetchOptions = {},
  ): Promise<FetchResult> {
    const { signal, ...rest } = opts;
    return unpackFetch(
      await this.cancellable<PackedFetch>('fetch', [topic, partition, offset, rest], signal),
    );
  }

  async poll(
    positions: (TopicPartition & { offset: number })[],
    opts: FetchOptions = {},
  ): Promise<FetchResult[]> {
    const { signal, ...rest } = opts;
    return (await this.cancellable<PackedFetch[]>('poll', [positions, rest], signal)).map(
      unpackFetch,
    );
  }

  earliestOffset(topic: string, partition: number): Promise<number> {
    return this.call('earliestOffset', [topic, partition]);
  }
  latestOffset(
    topic: string,
    partition: number,
    isolation: IsolationLevel = 'read_uncommitted',
  ): Promise<number> {
    return this.call('latestOffset', [topic, partition, isolation]);
  }
  offsetForTimestamp(
    topic: string,
    partition: number,
    timestamp: number,
  ): Promise<{ offset: number; timestamp: number } | null> {
    return this.call('offsetForTimestamp', [topic, partition, timestamp]);
  }
  deleteRecords(topic: string, partition: number, beforeOffset: number): Promise<number> {
    return this.call('deleteRecords', [topic, partition, beforeOffset]);
  }

  /** Joins a group; this thread heartbeats for the member, so a stuck thread loses its partitions. */
  async joinGroup(groupId: string, opts: RemoteJoinOptions): Promise<RemoteMembership> {
    const { onRevoked, onAssigned, ...wire } = opts;
    const listeners = new Set<(assigned: TopicPartition[]) => void>();
    const revokeListeners = new Set<(revoked: TopicPartition[]) => Promise<void> | void>();
    let assignment: TopicPartition[] = [];
    let generation = 0;
    // The key is chosen here, so rebalance events that arrive before the join returns find us.
    const key = this.nextId++;
    this.memberHandlers.set(key, async (e) => {
      if (e.type === 'revoked') {
        assignment = [];
        await Promise.all([
          onRevoked?.(e.partitions),
          ...[...revokeListeners].map((l) => l(e.partitions)),
        ]);
      } else {
        assignment = e.partitions;
        if (e.generation !== undefined) generation = e.generation;
        for (const l of listeners) l(e.partitions);
        await onAssigned?.(e.partitions);
      }
    });
    let r: { memberId: string; generation: number; assignment: TopicPartition[] };
    try {
      r = await this.call('joinGroup', [key, groupId, wire]);
    } catch (err) {
      this.memberHandlers.delete(key);
      throw err;
    }
    assignment = r.assignment;
    generation = r.generation;
    const interval = Math.max(10, Math.min(3000, (opts.sessionTimeoutMs ?? 45_000) / 3));
    const timer = setInterval(
      // A missed heartbeat is retried on the next tick; too many and the session expires.
      () =>
        void this.call('heartbeat', [key]).catch((err: unknown) => this.failed('heartbeat', err)),
      interval,
    );
    timer.unref();
    this.heartbeats.add(timer);
    return {
      groupId,
      memberId: r.memberId,
      get generation() {
        return generation;
      },
      assignment: () => [...assignment],
      onAssignment: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      onRevocation: (l) => {
        revokeListeners.add(l);
        return () => revokeListeners.delete(l);
      },
      commit: (offsets) => this.call('memberCommit', [key, offsets]),
      startingOffsets: (reset = 'latest') => this.call('startingOffsets', [key, reset]),
      leave: async () => {
        clearInterval(timer);
        this.heartbeats.delete(timer);
        await this.call('leave', [key]);
        this.memberHandlers.delete(key);
      },
    };
  }

  commitOffsets(
    groupId: string,
    offsets: (TopicPartition & { offset: number; metadata?: string })[],
  ): Promise<void> {
    return this.call('commitOffsets', [groupId, offsets]);
  }
  committedOffsets(groupId: string, tps?: TopicPartition[]): Promise<CommittedOffset[]> {
    return this.call('committedOffsets', [groupId, tps]);
  }
  listGroups(): Promise<GroupDescription[]> {
    return this.call('listGroups', []);
  }
  describeGroup(groupId: string): Promise<GroupDescription> {
    return this.call('describeGroup', [groupId]);
  }
  deleteGroup(groupId: string): Promise<void> {
    return this.call('deleteGroup', [groupId]);
  }

  async transactionalProducer(
    transactionalId: string,
    opts: { transactionTimeoutMs?: number } = {},
  ): Promise<RemoteTransactionalProducer> {
    const { key, producerId, epoch } = await this.call<{
      key: number;
      producerId: number;
      epoch: number;
    }>('initTransactions', [transactionalId, opts]);
    return {
      producerId,
      epoch,
      beginTransaction: () => this.call('beginTransaction', [key]),
      // Encoded here as transactional batches of this producer id and epoch, like produce().
      send: (records, sendOpts = {}) =>
        this.withFreshMetadata(records, () =>
          this.sendEncoded('txnSendBatches', [key], records, {
            ...sendOpts,
            transactional: { producerId, producerEpoch: epoch },
          }),
        ),
      sendOffsetsToTransaction: (offsets, groupId, member) =>
        this.call('sendOffsetsToTransaction', [key, offsets, groupId, member]),
      commitTransaction: () => this.call('commitTransaction', [key]),
      abortTransaction: () => this.call('abortTransaction', [key]),
      close: () => this.call('closeProducer', [key]),
    };
  }

  private failed(job: string, err: unknown): void {
    this.backgroundFailures.set(job, (this.backgroundFailures.get(job) ?? 0) + 1);
    this.options.logger?.warn({ job, err }, `remote log ${job} failed`);
  }

  /** Closes this thread's connection (its members leave; the Log itself stays open). */
  close(): void {
    for (const t of this.heartbeats) clearInterval(t);
    this.heartbeats.clear();
    this.port.close();
  }
}

export function connectLog(port: MessagePort, options?: RemoteLogOptions): RemoteLog {
  return new RemoteLog(port, options);
}
