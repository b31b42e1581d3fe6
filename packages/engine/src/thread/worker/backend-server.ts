// The main thread's side of a worker's backend: it runs each call against the process's backend
// (the embedded log lives here, once per process) and forwards group events to the worker. What
// the backend can do beyond the basics it says on its Backend interface (encodedBatches,
// readPlans, EncodingTransactionalProducer), never by its name.
import type { MessagePort } from 'node:worker_threads';
import type {
  Backend,
  EncodedBatchAppender,
  EncodingTransactionalProducer,
  GroupMember,
  PartitionAssignor,
  TopicPartition,
  TransactionalProducer,
  TransientFailure,
} from '../../backend-spi.js';
import {
  BackendUnavailableError,
  EngineError,
  UnknownTopicError,
  errorMessage,
} from '../../errors.js';
import type {
  BackendCall,
  BackendResults,
  ClientMessage,
  ServerMessage,
  WireError,
} from './protocol.js';
import { packFetch, unpackProduce } from './wire.js';
import type { JoinGate } from './join-gate.js';

/**
 * The batches of produceBatches / txnSendBatches come from the worker's BackendClient, which
 * encodes with the log's own BatchEncoder (the code Log.produce appends unchecked) and moves the
 * buffers here, where nothing else can touch them: the log checks their headers, not their CRC
 * and every record again (docs/LOG.md, Producer-encoded batches).
 */
const ENCODED_HERE = 'headers';

export interface BackendServerOptions {
  /** What a worker's `assignor: 'app'` means: the application's task assignor. */
  assignor: PartitionAssignor;
  /** Holds the worker's first join until the app's other workers join too (join-gate.ts). */
  joinGate?: JoinGate;
  /** The application backend's Backend#transientFailure: such errors cross as BACKEND_UNAVAILABLE. */
  transientFailure?: (error: unknown) => TransientFailure | null;
}

export class BackendServer {
  readonly #members = new Map<number, GroupMember>();
  readonly #fetches = new Map<number, AbortController>();
  readonly #revocations = new Map<number, () => void>();
  readonly #producers = new Map<number, TransactionalProducer>();
  #nextRevoke = 1;
  #closed = false;
  #joinedOnce = false;

  constructor(
    private readonly backend: Backend,
    private readonly port: MessagePort,
    private readonly options: BackendServerOptions,
  ) {
    port.on('message', (m: ClientMessage) => this.#onMessage(m));
  }

  /**
   * The worker is gone: its group members leave (so the group rebalances instead of waiting for
   * it), pending revocations count as done and parked fetches end.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const c of this.#fetches.values()) c.abort();
    for (const done of this.#revocations.values()) done();
    this.#revocations.clear();
    const members = [...this.#members.values()];
    this.#members.clear();
    // Closing: a member whose leave fails is dropped by the group at its session timeout.
    await Promise.all(members.map((m) => m.leave().catch(() => undefined)));
    // A transaction the worker left open would block read_committed readers until it times out;
    // an abort that fails leaves it to that timeout.
    const producers = [...this.#producers.values()];
    this.#producers.clear();
    await Promise.all(producers.map((p) => p.abortTransaction().catch(() => undefined)));
    this.port.close();
  }

  #onMessage(m: ClientMessage): void {
    if (m.kind === 'abort') {
      this.#fetches.get(m.id)?.abort();
      return;
    }
    if (m.kind === 'revoked') {
      const done = this.#revocations.get(m.revokeId);
      this.#revocations.delete(m.revokeId);
      done?.();
      return;
    }
    void this.#call(m).then(
      ({ value, transfer }) => this.#send({ kind: 'result', id: m.id, ok: true, value }, transfer),
      (error: unknown) =>
        this.#send({
          kind: 'result',
          id: m.id,
          ok: false,
          error: toWire(error, this.options.transientFailure?.(error) ?? null),
        }),
    );
  }

  async #call(
    m: BackendCall & { id: number },
  ): Promise<{ value: BackendResults[keyof BackendResults]; transfer?: ArrayBuffer[] }> {
    const b = this.backend;
    switch (m.op) {
      case 'createTopics':
        await b.createTopics(m.topics);
        return { value: undefined };
      case 'deleteTopics':
        await b.deleteTopics(m.names);
        return { value: undefined };
      case 'listTopics':
        return { value: await b.listTopics() };
      case 'describeTopic':
        return { value: await b.describeTopic(m.name) };
      case 'produce':
        return acks(
          await b.produce(
            unpackProduce(m.packed),
            m.compression === undefined ? undefined : { compression: m.compression },
          ),
        );
      case 'producerMetadata': {
        const appender = encodedBatchesOf(b);
        const found: BackendResults['producerMetadata'] = [];
        for (const t of m.topics) {
          const meta = appender.producerMetadata(t);
          if (meta === null) throw new UnknownTopicError(t);
          found.push([t, meta]);
        }
        return { value: found };
      }
      case 'produceBatches': {
        const offsets = await encodedBatchesOf(b).produceBatches(m.parts, { checks: ENCODED_HERE });
        return handBack(m.parts, offsets);
      }
      case 'txnInit': {
        if (!b.transactionalProducer)
          throw new EngineError('UNSUPPORTED_CONFIG', `the ${b.kind} backend has no transactions`);
        const producer = await b.transactionalProducer(
          m.transactionalId,
          m.clientConfig ? { clientConfig: m.clientConfig } : undefined,
        );
        this.#producers.set(m.producer, producer);
        return {
          value: takesEncodedBatches(producer)
            ? { producerId: producer.producerId, epoch: producer.epoch }
            : undefined,
        };
      }
      case 'txnBegin':
        this.#producer(m.producer).beginTransaction();
        return { value: undefined };
      case 'txnSend':
        return acks(
          await this.#producer(m.producer).send(
            unpackProduce(m.packed),
            m.compression === undefined ? undefined : { compression: m.compression },
          ),
        );
      case 'txnSendBatches': {
        const producer = this.#producer(m.producer);
        if (!takesEncodedBatches(producer))
          throw new EngineError(
            'UNSUPPORTED_CONFIG',
            `the ${b.kind} backend takes no encoded batches`,
          );
        return handBack(m.parts, await producer.sendBatches(m.parts, { checks: ENCODED_HERE }));
      }
      case 'txnSendOffsets':
        await this.#producer(m.producer).sendOffsetsToTransaction(m.offsets, m.groupId, m.member);
        return { value: undefined };
      case 'txnCommit':
        await this.#producer(m.producer).commitTransaction();
        return { value: undefined };
      case 'txnAbort':
        await this.#producer(m.producer).abortTransaction();
        return { value: undefined };
      case 'readPlans': {
        const readPlans = b.readPlans?.bind(b);
        if (readPlans === undefined)
          throw new EngineError('UNSUPPORTED_CONFIG', `the ${b.kind} backend has no files to read`);
        return {
          value: await this.#abortable(m.id, (signal) =>
            readPlans(m.requests, {
              maxWaitMs: m.maxWaitMs,
              signal,
              ...(m.isolationLevel !== undefined ? { isolationLevel: m.isolationLevel } : {}),
              ...(m.belowLogStart !== undefined ? { belowLogStart: m.belowLogStart } : {}),
            }),
          ),
        };
      }
      case 'fetchMany': {
        const responses = await this.#abortable(m.id, (signal) =>
          b.fetchMany(m.requests, {
            maxRecords: m.maxRecords,
            maxWaitMs: m.maxWaitMs,
            signal,
            ...(m.isolationLevel !== undefined ? { isolationLevel: m.isolationLevel } : {}),
            ...(m.belowLogStart !== undefined ? { belowLogStart: m.belowLogStart } : {}),
          }),
        );
        const packed = packFetch(responses);
        return { value: packed, transfer: [packed.buffer] };
      }
      case 'joinGroup':
        return { value: await this.#join(m) };
      case 'leaveGroup': {
        const member = this.#members.get(m.member);
        this.#members.delete(m.member);
        await member?.leave();
        return { value: undefined };
      }
      case 'commitOffsets':
        await b.commitOffsets(m.groupId, m.offsets);
        return { value: undefined };
      case 'committedOffsets':
        return { value: [...(await b.committedOffsets(m.groupId, m.tps)).entries()] };
      case 'health':
        b.reportHealth?.(m.threadName, m.health);
        return { value: undefined };
    }
  }

  /** Runs a long-polling call that the worker's wakeup() may end early ('abort' with its id). */
  async #abortable<T>(id: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    this.#fetches.set(id, abort);
    try {
      return await run(abort.signal);
    } finally {
      this.#fetches.delete(id);
    }
  }

  #producer(no: number): TransactionalProducer {
    const producer = this.#producers.get(no);
    if (!producer)
      throw new EngineError('APP_STATE', `no transactional producer ${no} for this thread`);
    return producer;
  }

  async #join(m: Extract<BackendCall, { op: 'joinGroup' }>): Promise<BackendResults['joinGroup']> {
    const no = m.member;
    const assignor = m.assignor === 'app' ? this.options.assignor : m.assignor;
    const gate = this.options.joinGate;
    if (gate !== undefined && !this.#joinedOnce) {
      this.#joinedOnce = true;
      await gate.arrive();
    }
    const member = await this.backend.joinGroup(m.groupId, m.topics, {
      assignor,
      ...(m.clientId !== undefined ? { clientId: m.clientId } : {}),
      ...(m.clientConfig !== undefined ? { clientConfig: m.clientConfig } : {}),
      ...(m.rebalanceProtocol !== undefined ? { rebalanceProtocol: m.rebalanceProtocol } : {}),
      listener: {
        onPartitionsRevoked: (partitions) => this.#revoke(no, partitions),
        onPartitionsAssigned: (partitions, userData) => {
          this.#send({
            kind: 'assigned',
            member: no,
            partitions: plain(partitions),
            generation: this.#members.get(no)?.generation() ?? 0,
            userData: userData ?? null,
          });
        },
      },
    });
    this.#members.set(no, member);
    return {
      memberId: member.memberId,
      generation: member.generation(),
      assignment: plain(member.assignment()),
    };
  }

  /** Kafka's onPartitionsRevoked across the thread boundary: the rebalance waits for the worker. */
  #revoke(member: number, partitions: TopicPartition[]): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const revokeId = this.#nextRevoke++;
    return new Promise((resolve) => {
      this.#revocations.set(revokeId, resolve);
      this.#send({ kind: 'revoke', member, revokeId, partitions: plain(partitions) });
    });
  }

  #send(message: ServerMessage, transfer?: ArrayBuffer[]): void {
    if (this.#closed) return;
    this.port.postMessage(message, transfer);
  }
}

function acks(results: { partition: number; offset: number }[]): {
  value: BackendResults['produce'];
  transfer: ArrayBuffer[];
} {
  const partitions = new Int32Array(results.length);
  const offsets = new Float64Array(results.length);
  for (let i = 0; i < results.length; i++) {
    partitions[i] = results[i]!.partition;
    offsets[i] = results[i]!.offset;
  }
  return { value: { partitions, offsets }, transfer: [partitions.buffer, offsets.buffer] };
}

/**
 * The answer to appended batches: each part's base offset, and the batches themselves moved back
 * (nothing here reads them any more), so the worker's encoder reuses their memory instead of this
 * thread collecting it and the worker allocating (and the kernel zero-filling) fresh pages.
 */
function handBack(
  parts: readonly { batches: Uint8Array }[],
  baseOffsets: readonly number[],
): { value: BackendResults['produceBatches']; transfer: ArrayBuffer[] } {
  const offsets = Float64Array.from(baseOffsets);
  const returned = parts.map((p) => p.batches);
  const transfer = new Set<ArrayBuffer>([offsets.buffer]);
  for (const r of returned) if (r.buffer instanceof ArrayBuffer) transfer.add(r.buffer);
  return { value: { offsets, returned }, transfer: [...transfer] };
}

/** The backend's Backend#encodedBatches, which a worker's produceBatches needs. */
function encodedBatchesOf(b: Backend): EncodedBatchAppender {
  if (b.encodedBatches === undefined)
    throw new EngineError('UNSUPPORTED_CONFIG', `the ${b.kind} backend takes no encoded batches`);
  return b.encodedBatches;
}

function takesEncodedBatches(p: TransactionalProducer): p is EncodingTransactionalProducer {
  return typeof (p as Partial<EncodingTransactionalProducer>).sendBatches === 'function';
}

function plain(tps: readonly TopicPartition[]): TopicPartition[] {
  return tps.map((tp) => ({ topic: tp.topic, partition: tp.partition }));
}

/** An error as it crosses a port; a transient one (`transient`) as a BackendUnavailableError. */
export function toWire(error: unknown, transient: TransientFailure | null = null): WireError {
  if (error instanceof BackendUnavailableError) transient = error;
  if (transient !== null)
    return {
      name: 'BackendUnavailableError',
      message: errorMessage(error),
      code: 'BACKEND_UNAVAILABLE',
      retriable: true,
      brokers: transient.brokers,
      reason: transient.reason,
    };
  if (error instanceof EngineError)
    return {
      name: error.name,
      message: error.message,
      code: error.code,
      retriable: error.retriable,
    };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}
