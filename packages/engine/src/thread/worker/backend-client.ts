// A worker thread's Backend: calls go to the main thread's backend through a MessagePort
// (backend-server.ts), once per poll, flush and commit, never per record. Fetches do not carry
// records at all when the backend is the embedded log: this thread reads the segment files itself
// and only asks the main thread where they are (direct-reads.ts).
import type { MessagePort } from 'node:worker_threads';
import {
  BatchEncoder,
  recordMetadataOf,
  type ProducerTopicMetadata,
} from '@streamwright/log/encoder';
import type {
  Backend,
  FetchRequest,
  FetchResponse,
  GroupMember,
  IsolationLevel,
  JoinGroupOptions,
  ProduceCallOptions,
  ProduceRecord,
  RebalanceListener,
  StoredRecord,
  TopicDescription,
  TopicPartition,
  TransactionalProducer,
} from '../../api.js';
import {
  BackendClosedError,
  EngineError,
  OffsetOutOfRangeError,
  ProducerFencedError,
  type EngineErrorCode,
} from '../../errors.js';
import type {
  BackendCall,
  BackendResults,
  ClientMessage,
  ServerMessage,
  WireError,
} from './protocol.js';
import { fromLeftovers } from '../../backends/embedded/fetch-leftovers.js';
import { checkProducedRecord } from '../../backends/embedded/record-check.js';
import { DirectReads } from './direct-reads.js';
import { packProduce, unpackFetch } from './wire.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface RemoteMember {
  listener: RebalanceListener | undefined;
  assignmentListeners: ((assigned: TopicPartition[]) => void)[];
  revocationListeners: ((revoked: TopicPartition[]) => Promise<void> | void)[];
  assignment: TopicPartition[];
  generation: number;
}

export class BackendClient implements Backend {
  readonly kind = 'embedded' as const;
  readonly #pending = new Map<number, Pending>();
  readonly #members = new Map<number, RemoteMember>();
  /** Reads of the partitions' segment files in this thread (unless the backend has none). */
  #direct: DirectReads | null = new DirectReads();
  #nextId = 1;
  #nextMember = 1;
  #nextProducer = 1;
  #closed = false;
  readonly #encoder = new BatchEncoder();
  readonly #metadata = new Map<string, ProducerTopicMetadata>();
  /**
   * The main thread's metadata of a topic not cached here yet, synchronously (null: no such
   * topic; undefined: cannot say). Set by the worker; without it records are not checked.
   */
  lookupMetadata: ((topic: string) => ProducerTopicMetadata | null | undefined) | null = null;

  constructor(private readonly port: MessagePort) {
    port.on('message', (m: ServerMessage) => this.#onMessage(m));
  }

  createTopics(
    topics: {
      name: string;
      partitions: number;
      config?: Record<string, string | number>;
      internal?: boolean;
    }[],
  ): Promise<void> {
    return this.#call({ op: 'createTopics', topics }) as Promise<void>;
  }

  deleteTopics(names: string[]): Promise<void> {
    return this.#call({ op: 'deleteTopics', names }) as Promise<void>;
  }

  listTopics(): Promise<TopicDescription[]> {
    return this.#call({ op: 'listTopics' }) as Promise<TopicDescription[]>;
  }

  describeTopic(name: string): Promise<TopicDescription | null> {
    return this.#call({ op: 'describeTopic', name }) as Promise<TopicDescription | null>;
  }

  /**
   * Backend#checkRecord in the worker: what the main thread's log would refuse, judged from the
   * topic's producer metadata (cached, as the batch encoder's), so the production exception
   * handler sees the record as on the main thread.
   */
  checkRecord(record: ProduceRecord): Error | null {
    let meta = this.#metadata.get(record.topic);
    if (meta === undefined) {
      const found = this.lookupMetadata?.(record.topic);
      if (found === undefined) return null;
      if (found === null) return checkProducedRecord(record, null);
      this.#metadata.set(record.topic, (meta = found));
    }
    return checkProducedRecord(record, meta);
  }

  /**
   * Encodes the records into Kafka record batches here, on the stream thread (as a Kafka
   * producer does), and hands them over; the main thread only validates and appends them. The
   * topics' metadata is cached; after a refusal it is fetched again, and an unknown partition
   * (partitions added meanwhile) is retried once: a refused request wrote nothing.
   */
  async produce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]> {
    if (records.length === 0) return [];
    const positions = options?.positions !== false;
    try {
      return await this.#produceEncoded(records, positions);
    } catch (error) {
      for (const r of records) this.#metadata.delete(r.topic);
      if ((error as { code?: string }).code !== 'UNKNOWN_TOPIC') throw error;
      return this.#produceEncoded(records, positions);
    }
  }

  async #produceEncoded(
    records: ProduceRecord[],
    positions: boolean,
  ): Promise<{ partition: number; offset: number }[]> {
    const { encoded, parts } = await this.#encode(records);
    // Each buffer is the encoder's own (never a slice of a shared pool): moved, not copied.
    const { offsets, returned } = (await this.#call(
      { op: 'produceBatches', parts },
      parts.map((p) => p.batches.buffer as ArrayBuffer),
    )) as BackendResults['produceBatches'];
    for (const b of returned) this.#encoder.release(b); // moved back once appended: reused
    if (!positions) return [];
    return recordMetadataOf(
      encoded,
      Array.from(offsets, (baseOffset) => ({ baseOffset, logAppendTime: -1 })),
    );
  }

  /** Encodes on this thread with the topics' cached metadata (transactional batches with `txn`). */
  async #encode(records: ProduceRecord[], txn?: { producerId: number; producerEpoch: number }) {
    // Topics without cached metadata, without an array or set per call (a stream thread's output
    // is mostly one topic in a row; this runs once per flush over every record).
    const missing: string[] = [];
    let last: string | null = null;
    for (let i = 0; i < records.length; i++) {
      const topic = records[i]!.topic;
      if (topic === last) continue;
      last = topic;
      if (!this.#metadata.has(topic) && !missing.includes(topic)) missing.push(topic);
    }
    if (missing.length > 0) {
      const found = (await this.#call({
        op: 'producerMetadata',
        topics: missing,
      })) as BackendResults['producerMetadata'];
      for (const [topic, meta] of found) this.#metadata.set(topic, meta);
    }
    const encoded = this.#encoder.encode(
      records,
      (t) => this.#metadata.get(t)!,
      txn ? { transactional: txn } : {},
    );
    const parts = await Promise.all(
      encoded.partitions.map(async (p) => ({
        topic: p.topic,
        partition: p.partition,
        batches: await p.batches,
      })),
    );
    return { encoded, parts };
  }

  /** A transactional send encoded here; the main thread validates the batches and appends them. */
  async #txnSendEncoded(
    producer: number,
    txn: { producerId: number; producerEpoch: number },
    records: ProduceRecord[],
  ): Promise<{ partition: number; offset: number }[]> {
    const { encoded, parts } = await this.#encode(records, txn);
    const { offsets, returned } = (await this.#call(
      { op: 'txnSendBatches', producer, parts },
      parts.map((p) => p.batches.buffer as ArrayBuffer),
    )) as BackendResults['txnSendBatches'];
    for (const b of returned) this.#encoder.release(b);
    return recordMetadataOf(
      encoded,
      Array.from(offsets, (baseOffset) => ({ baseOffset, logAppendTime: -1 })),
    );
  }

  async fetch(
    tp: TopicPartition,
    offset: number,
    maxRecords: number,
    maxWaitMs: number,
    options?: { isolationLevel?: IsolationLevel },
  ): Promise<StoredRecord[]> {
    const [response] = await this.fetchMany(
      [{ topic: tp.topic, partition: tp.partition, offset }],
      { maxRecords, maxWaitMs, ...options },
    );
    if (response!.error === 'OFFSET_OUT_OF_RANGE') {
      throw new OffsetOutOfRangeError(tp.topic, tp.partition, offset, -1, response!.highWatermark);
    }
    return response!.records;
  }

  async fetchMany(
    requests: FetchRequest[],
    options: {
      maxRecords: number;
      maxWaitMs: number;
      signal?: AbortSignal;
      isolationLevel?: IsolationLevel;
    },
  ): Promise<FetchResponse[]> {
    const direct = this.#direct;
    if (direct !== null) {
      const buffered = fromLeftovers(direct.leftovers, requests, options.maxRecords, (r) =>
        direct.highWatermark(r.topic, r.partition),
      );
      if (buffered !== null) return buffered;
      try {
        return await direct.fetch(requests, options, (plans, maxWaitMs) =>
          this.#readPlans(plans, maxWaitMs, options.isolationLevel, options.signal),
        );
      } catch (error) {
        // A backend without files to hand out: fetch through the main thread from now on.
        if (!(error instanceof EngineError && error.code === 'UNSUPPORTED_CONFIG')) throw error;
        direct.close();
        this.#direct = null;
      }
    }
    return unpackFetch(
      (await this.#longPoll(
        {
          op: 'fetchMany',
          requests: requests.map((r) => ({
            topic: r.topic,
            partition: r.partition,
            offset: r.offset,
          })),
          maxRecords: options.maxRecords,
          maxWaitMs: options.maxWaitMs,
          ...(options.isolationLevel !== undefined
            ? { isolationLevel: options.isolationLevel }
            : {}),
        },
        options.signal,
      )) as BackendResults['fetchMany'],
    );
  }

  #readPlans(
    requests: FetchRequest[],
    maxWaitMs: number,
    isolationLevel: IsolationLevel | undefined,
    signal: AbortSignal | undefined,
  ): Promise<BackendResults['readPlans']> {
    return this.#longPoll(
      {
        op: 'readPlans',
        requests,
        maxWaitMs,
        ...(isolationLevel !== undefined ? { isolationLevel } : {}),
      },
      signal,
    ) as Promise<BackendResults['readPlans']>;
  }

  /** A call the main thread may park (a long poll); `signal` (the consumer's wakeup) ends it early. */
  async #longPoll(
    call: Extract<BackendCall, { op: 'fetchMany' | 'readPlans' }>,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    // #call takes the next id: remember it for the abort message.
    const id = this.#nextId;
    const onAbort = (): void => this.#post({ kind: 'abort', id });
    // Already woken: answer with what is there now.
    const pending = this.#call(signal?.aborted ? { ...call, maxWaitMs: 0 } : call);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await pending;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async joinGroup(
    groupId: string,
    topics: string[],
    options?: JoinGroupOptions,
  ): Promise<GroupMember> {
    const assignor = options?.assignor;
    const no = this.#nextMember++;
    const state: RemoteMember = {
      listener: options?.listener,
      assignmentListeners: [],
      revocationListeners: [],
      assignment: [],
      generation: 0,
    };
    this.#members.set(no, state);
    const call: BackendCall = {
      op: 'joinGroup',
      member: no,
      groupId,
      topics,
      // A custom assignor object cannot cross threads: 'app' stands for the application's own.
      assignor: assignor === undefined ? 'range' : typeof assignor === 'string' ? assignor : 'app',
    };
    if (options?.clientId !== undefined) call.clientId = options.clientId;
    let joined: BackendResults['joinGroup'];
    try {
      joined = (await this.#call(call)) as BackendResults['joinGroup'];
    } catch (error) {
      this.#members.delete(no);
      throw error;
    }
    if (state.generation === 0) {
      state.assignment = joined.assignment;
      state.generation = joined.generation;
    }
    return {
      memberId: joined.memberId,
      generation: () => state.generation,
      assignment: () => state.assignment.map((tp) => ({ ...tp })),
      onAssignment: (l) => void state.assignmentListeners.push(l),
      onRevocation: (l) => void state.revocationListeners.push(l),
      leave: async () => {
        this.#members.delete(no);
        await this.#call({ op: 'leaveGroup', member: no });
      },
    };
  }

  /** exactly_once_v2's producer, kept on the main thread; each call goes through the port, in order. */
  async transactionalProducer(transactionalId: string): Promise<TransactionalProducer> {
    const producer = this.#nextProducer++;
    const ids = (await this.#call({
      op: 'txnInit',
      producer,
      transactionalId,
    })) as BackendResults['txnInit'];
    const txn = ids && { producerId: ids.producerId, producerEpoch: ids.epoch };
    let failed: Error | null = null;
    const rethrow = (): void => {
      if (failed === null) return;
      const error = failed;
      failed = null;
      throw error;
    };
    return {
      transactionalId,
      beginTransaction: () => {
        rethrow();
        // Synchronous in Kafka's API: sent without waiting; the port keeps it before the next call,
        // and a refusal surfaces on the next call.
        this.#call({ op: 'txnBegin', producer }).catch((error: Error) => (failed = error));
      },
      send: async (records) => {
        rethrow();
        if (txn) {
          // Encoded here, as a produce; stale metadata is refreshed and the send retried once (a
          // refused send wrote nothing and left the transaction as it was).
          try {
            return await this.#txnSendEncoded(producer, txn, records);
          } catch (error) {
            if ((error as { code?: string }).code !== 'UNKNOWN_TOPIC') throw error;
            for (const r of records) this.#metadata.delete(r.topic);
            return this.#txnSendEncoded(producer, txn, records);
          }
        }
        const packed = packProduce(records);
        return toAcks(
          (await this.#call({ op: 'txnSend', producer, packed }, [
            packed.buffer,
          ])) as BackendResults['txnSend'],
        );
      },
      sendOffsetsToTransaction: async (offsets, groupId, member) => {
        rethrow();
        const call: BackendCall = { op: 'txnSendOffsets', producer, offsets, groupId };
        if (member !== undefined) call.member = member;
        await this.#call(call);
      },
      commitTransaction: async () => {
        rethrow();
        await this.#call({ op: 'txnCommit', producer });
      },
      abortTransaction: async () => {
        failed = null;
        await this.#call({ op: 'txnAbort', producer });
      },
    };
  }

  commitOffsets(
    groupId: string,
    offsets: { topic: string; partition: number; offset: number }[],
  ): Promise<void> {
    return this.#call({ op: 'commitOffsets', groupId, offsets }) as Promise<void>;
  }

  async committedOffsets(groupId: string, tps: TopicPartition[]): Promise<Map<string, number>> {
    const entries = (await this.#call({
      op: 'committedOffsets',
      groupId,
      tps: tps.map((tp) => ({ topic: tp.topic, partition: tp.partition })),
    })) as BackendResults['committedOffsets'];
    return new Map(entries);
  }

  /** Detaches this thread; the backend itself belongs to the main thread and stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#direct?.close();
    for (const p of this.#pending.values()) p.reject(new BackendClosedError());
    this.#pending.clear();
    this.port.close();
  }

  #call(call: BackendCall, transfer?: ArrayBuffer[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(new BackendClosedError());
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#post({ kind: 'call', id, ...call } as ClientMessage, transfer);
    });
  }

  #post(message: ClientMessage, transfer?: ArrayBuffer[]): void {
    if (!this.#closed) this.port.postMessage(message, transfer);
  }

  #onMessage(m: ServerMessage): void {
    switch (m.kind) {
      case 'result': {
        const p = this.#pending.get(m.id);
        if (!p) return;
        this.#pending.delete(m.id);
        if (m.ok) p.resolve(m.value);
        else p.reject(fromWire(m.error));
        return;
      }
      case 'assigned': {
        const member = this.#members.get(m.member);
        if (!member) return;
        member.assignment = m.partitions;
        member.generation = m.generation;
        member.listener?.onPartitionsAssigned?.(m.partitions);
        for (const l of member.assignmentListeners) l(m.partitions);
        return;
      }
      case 'revoke': {
        const member = this.#members.get(m.member);
        const done = (): void => this.#post({ kind: 'revoked', revokeId: m.revokeId });
        if (!member) return done();
        const work: (Promise<void> | void)[] = [];
        try {
          work.push(member.listener?.onPartitionsRevoked?.(m.partitions));
          for (const l of member.revocationListeners) work.push(l(m.partitions));
        } finally {
          void Promise.allSettled(work).then(done);
        }
        return;
      }
    }
  }
}

function toAcks({
  partitions,
  offsets,
}: BackendResults['produce']): { partition: number; offset: number }[] {
  const out: { partition: number; offset: number }[] = new Array(partitions.length);
  for (let i = 0; i < partitions.length; i++)
    out[i] = { partition: partitions[i]!, offset: offsets[i]! };
  return out;
}

function fromWire(w: WireError): Error {
  // The thread tells a fenced producer (TaskMigrated) from other failures by its class.
  if (w.code === 'PRODUCER_FENCED') return new ProducerFencedError(w.message);
  if (w.code !== undefined) {
    const error = new EngineError(w.code as EngineErrorCode, w.message, {
      retriable: w.retriable ?? false,
    });
    error.name = w.name;
    return error;
  }
  const error = new Error(w.message);
  error.name = w.name;
  return error;
}
