// exactly_once_v2's producer on Kafka: one per stream thread, as Kafka Streams' StreamsProducer
// over the Java producer's TransactionManager. A transaction, in requests:
//
//   InitProducerId (once, at the coordinator of the transactional id: fences older producers
//   with this id — their epoch is bumped, their open transaction aborted)
//   → Produce with the transactional attribute, producer id, epoch and sequence numbers (after
//     AddPartitionsToTxn for partitions new to the transaction; transaction version 2: the
//     Produce request itself adds them, KIP-890)
//   → AddOffsetsToTxn (version 1 only) and TxnOffsetCommit v3+ at the group coordinator, with the
//     group member's generation and member id (KIP-447: a zombie whose generation is stale is
//     refused there, so it cannot commit the offsets of partitions that moved)
//   → EndTxn commit or abort (transaction version 2: the answer carries a new epoch, KIP-890).
//
// Errors that mean the producer, or the member whose offsets it commits, is no longer the owner —
// PRODUCER_FENCED, INVALID_PRODUCER_EPOCH, a broken sequence, ILLEGAL_GENERATION… — surface as the
// engine's ProducerFencedError: the stream thread aborts, closes its tasks dirty (state from the
// changelogs, input from the committed offsets), makes a new producer (a new InitProducerId) and
// carries on: Kafka Streams' TaskMigratedException. Coordinator moves, loading coordinators and
// CONCURRENT_TRANSACTIONS are retried (kafka-producer-session.ts).
import type {
  ProduceCallOptions,
  ProduceRecord,
  TransactionalProducer,
} from '../../backend-spi.js';
import { EngineError, ProducerFencedError } from '../../errors.js';
import type { KafkaCluster } from './client/cluster.js';
import {
  errorType,
  KafkaApiError,
  KafkaAuthorizationError,
  KafkaConnectionError,
} from './client/errors.js';
import { protocolError } from './client/protocol.js';
import { EOS_TRANSACTION_TIMEOUT_MS } from './client-configs.js';
import { KafkaProducer } from './kafka-produce.js';
import { ProducerSession } from './kafka-producer-session.js';

/** Errors that end the transaction and the thread's ownership of its tasks (TaskMigrated). */
const MIGRATED = new Set([
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
  'TRANSACTIONAL_ID_NOT_FOUND',
  'UNKNOWN_PRODUCER_ID',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'INVALID_TXN_STATE',
  'TRANSACTION_ABORTABLE',
  // The group coordinator's fencing of a zombie's offsets (KIP-447), or a rebalance under way.
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'FENCED_INSTANCE_ID',
  'REBALANCE_IN_PROGRESS',
]);

/**
 * Of those, the ones that end only the transaction, not the producer (KIP-360): a partition's
 * sequence broke, or a batch failed. The transaction is aborted and the producer goes on with
 * a bumped epoch (abortTransaction), as Java's producer in its abortable-error state.
 */
const ABORTABLE = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'TRANSACTION_ABORTABLE',
]);

/** Retried at the group coordinator (Java's TxnOffsetCommitHandler). */
const GROUP_RETRIABLE = new Set([
  'NOT_COORDINATOR',
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'REQUEST_TIMED_OUT',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'CONCURRENT_TRANSACTIONS',
]);

export type TransactionState =
  | 'READY'
  | 'IN_TRANSACTION'
  | 'COMMITTING'
  /** The transaction cannot complete (a batch or a partition's sequence failed): abort it. */
  | 'ABORTABLE'
  | 'ABORTING'
  | 'FENCED';

/** The state machine of one transactional producer (Java's TransactionManager.State, reduced). */
export class TransactionStates {
  state: TransactionState = 'READY';

  to(next: TransactionState): void {
    const allowed: Record<TransactionState, TransactionState[]> = {
      READY: ['IN_TRANSACTION', 'FENCED'],
      IN_TRANSACTION: ['COMMITTING', 'ABORTABLE', 'ABORTING', 'FENCED'],
      COMMITTING: ['READY', 'ABORTABLE', 'ABORTING', 'FENCED'],
      ABORTABLE: ['ABORTING', 'FENCED'],
      ABORTING: ['READY', 'FENCED'],
      FENCED: [],
    };
    if (!allowed[this.state].includes(next))
      throw new EngineError(
        'ILLEGAL_STATE_TRANSITION',
        `a transactional producer cannot go from ${this.state} to ${next}`,
      );
    this.state = next;
  }
}

export class KafkaTransactionalProducer implements TransactionalProducer {
  readonly #session: ProducerSession;
  readonly #producer: KafkaProducer;
  readonly #states = new TransactionStates();
  /** Partitions added to the open transaction (`topic:partition`). */
  readonly #partitions = new Set<string>();
  /** The open transaction wrote something or committed offsets (EndTxn is needed). */
  #started = false;
  /** Groups whose offsets were added to the open transaction (AddOffsetsToTxn). */
  readonly #groups = new Set<string>();

  private constructor(
    readonly transactionalId: string,
    private readonly cluster: KafkaCluster,
    partitionsOf: (topic: string) => Promise<number>,
    logger?: { warn(obj: object, msg?: string): void },
    settings: { transactionTimeoutMs: number } = {
      transactionTimeoutMs: EOS_TRANSACTION_TIMEOUT_MS,
    },
  ) {
    this.#session = new ProducerSession(cluster, {
      transactionalId,
      transactionTimeoutMs: settings.transactionTimeoutMs,
      ...(logger ? { logger } : {}),
    });
    this.#producer = new KafkaProducer(
      cluster,
      partitionsOf,
      this.#session,
      {
        beforeSend: (partitions) => this.#addPartitions(partitions),
        // Transaction version 1 must not speak Produce 12 (it would add partitions implicitly).
        maxProduceVersion: () => (this.#session.transactionV2 ? undefined : 11),
      },
      logger,
    );
  }

  /** Kafka's initTransactions: a new producer id or epoch for the id; older producers are fenced. */
  static async create(
    cluster: KafkaCluster,
    transactionalId: string,
    partitionsOf: (topic: string) => Promise<number>,
    logger?: { warn(obj: object, msg?: string): void },
    /** transaction.timeout.ms (Kafka Streams' 10 s unless the application's config says). */
    settings?: { transactionTimeoutMs: number },
  ): Promise<KafkaTransactionalProducer> {
    const producer = new KafkaTransactionalProducer(
      transactionalId,
      cluster,
      partitionsOf,
      logger,
      settings,
    );
    await producer.#call(() => producer.#session.ensure());
    return producer;
  }

  get producerId(): number {
    return this.#session.producerId;
  }

  get epoch(): number {
    return this.#session.epoch;
  }

  get transactionVersion(): 1 | 2 {
    return this.#session.transactionV2 ? 2 : 1;
  }

  get state(): TransactionState {
    return this.#states.state;
  }

  beginTransaction(): void {
    this.#states.to('IN_TRANSACTION');
    this.#partitions.clear();
    this.#groups.clear();
    this.#started = false;
  }

  async send(
    records: ProduceRecord[],
    options?: Pick<ProduceCallOptions, 'compression'>,
  ): Promise<{ partition: number; offset: number }[]> {
    this.#expect('IN_TRANSACTION', 'send');
    if (records.length === 0) return [];
    this.#started = true;
    return this.#call(async () => {
      try {
        return await this.#producer.produce(records, options);
      } catch (error) {
        // A batch the broker refused for good leaves the transaction incomplete: it must be
        // aborted and the tasks re-initialised (Kafka Streams' TaskCorrupted/TaskMigrated), not
        // the thread stopped. An authorisation failure is fatal, as in Kafka Streams
        // (RecordCollectorImpl#isFatalException): no re-initialisation gives the principal an ACL.
        if (
          error instanceof KafkaApiError &&
          !(error instanceof KafkaAuthorizationError) &&
          !MIGRATED.has(error.type)
        )
          throw new KafkaApiError(
            'TRANSACTION_ABORTABLE',
            error.code,
            false,
            error.message,
            error.where,
          );
        throw error;
      }
    });
  }

  async sendOffsetsToTransaction(
    offsets: { topic: string; partition: number; offset: number }[],
    groupId: string,
    member?: { memberId: string; generation: number },
  ): Promise<void> {
    this.#expect('IN_TRANSACTION', 'sendOffsetsToTransaction');
    if (offsets.length === 0) return;
    this.#started = true;
    await this.#call(async () => {
      const s = this.#session;
      if (!s.transactionV2 && !this.#groups.has(groupId)) {
        // The group's offsets partition joins the transaction (its markers commit the offsets).
        await s.atCoordinator('AddOffsetsToTxn', async (c) => {
          const r = await c.send('AddOffsetsToTxn', {
            transactionalId: this.transactionalId,
            producerId: BigInt(s.producerId),
            producerEpoch: s.epoch,
            groupId,
          });
          if (r.errorCode !== 0)
            throw protocolError(r.errorCode, {
              group: groupId,
              transactionalId: this.transactionalId,
              api: 'AddOffsetsToTxn',
              principal: this.cluster.principal,
            });
        });
        this.#groups.add(groupId);
      }
      const topics = new Map<string, { partitionIndex: number; committedOffset: bigint }[]>();
      for (const o of offsets) {
        let list = topics.get(o.topic);
        if (!list) topics.set(o.topic, (list = []));
        list.push({ partitionIndex: o.partition, committedOffset: BigInt(o.offset) });
      }
      await this.cluster.retrying(
        `TxnOffsetCommit of group ${groupId}`,
        async () => {
          try {
            const c = await this.cluster.coordinator('group', groupId);
            const r = await c.send(
              'TxnOffsetCommit',
              {
                transactionalId: this.transactionalId,
                groupId,
                producerId: BigInt(s.producerId),
                producerEpoch: s.epoch,
                generationId: member?.generation ?? -1,
                memberId: member?.memberId ?? '',
                groupInstanceId: null,
                topics: [...topics].map(([name, partitions]) => ({
                  name,
                  partitions: partitions.map((p) => ({
                    ...p,
                    committedLeaderEpoch: -1,
                    committedMetadata: '',
                  })),
                })),
              },
              // Version 5 adds the group to the transaction itself (transaction version 2 only).
              { version: Math.min(c.version('TxnOffsetCommit'), s.transactionV2 ? 5 : 4) },
            );
            for (const t of r.topics)
              for (const p of t.partitions)
                if (p.errorCode !== 0)
                  throw protocolError(p.errorCode, {
                    group: groupId,
                    topic: t.name,
                    partition: p.partitionIndex,
                    transactionalId: this.transactionalId,
                    api: 'TxnOffsetCommit',
                    principal: this.cluster.principal,
                  });
          } catch (error) {
            if (
              error instanceof KafkaConnectionError ||
              GROUP_RETRIABLE.has(errorType(error) ?? '')
            )
              this.cluster.forgetCoordinator('group', groupId);
            throw error;
          }
        },
        {
          maxAttempts: 100,
          retriable: (e) =>
            e instanceof KafkaConnectionError || GROUP_RETRIABLE.has(errorType(e) ?? ''),
        },
      );
    });
  }

  async commitTransaction(): Promise<void> {
    this.#expect('IN_TRANSACTION', 'commitTransaction');
    this.#states.to('COMMITTING');
    await this.#call(() => this.#endTxn(true));
    this.#states.to('READY');
  }

  async abortTransaction(): Promise<void> {
    if (this.#states.state === 'READY') return;
    if (this.#states.state === 'FENCED')
      throw new ProducerFencedError(`the producer of ${this.transactionalId} was fenced`);
    this.#states.to('ABORTING');
    await this.#call(async () => {
      await this.#endTxn(false);
      // KIP-360: after a failed batch or a broken sequence the producer goes on at a new epoch of
      // its own id (transaction version 2's EndTxn gave it one already).
      if (this.#session.bumpRequired) await this.#session.bumpAtCoordinator();
    });
    this.#states.to('READY');
  }

  async #endTxn(committed: boolean): Promise<void> {
    const s = this.#session;
    // A transaction that wrote nothing and committed no offsets is not known to the coordinator.
    if (!this.#started) return;
    const answer = await s.atCoordinator(
      committed ? 'EndTxn commit' : 'EndTxn abort',
      async (c) => {
        const r = await c.send(
          'EndTxn',
          {
            transactionalId: this.transactionalId,
            producerId: BigInt(s.producerId),
            producerEpoch: s.epoch,
            committed,
          },
          { version: Math.min(c.version('EndTxn'), s.transactionV2 ? 5 : 4) },
        );
        if (r.errorCode !== 0)
          throw protocolError(r.errorCode, {
            transactionalId: this.transactionalId,
            api: 'EndTxn',
            principal: this.cluster.principal,
          });
        return r;
      },
    );
    this.#started = false;
    this.#partitions.clear();
    this.#groups.clear();
    // Transaction version 2: every transaction ends with a new epoch, sequences start again.
    if (s.transactionV2 && answer.producerEpoch !== undefined && answer.producerEpoch >= 0)
      s.newEpoch(Number(answer.producerId ?? BigInt(s.producerId)), answer.producerEpoch);
  }

  /** AddPartitionsToTxn for the partitions new to the transaction (transaction version 1). */
  async #addPartitions(partitions: { topic: string; partition: number }[]): Promise<void> {
    const s = this.#session;
    if (s.transactionV2) return;
    const fresh = partitions.filter((p) => !this.#partitions.has(`${p.topic}:${p.partition}`));
    if (fresh.length === 0) return;
    const topics = new Map<string, number[]>();
    for (const p of fresh) {
      let list = topics.get(p.topic);
      if (!list) topics.set(p.topic, (list = []));
      if (!list.includes(p.partition)) list.push(p.partition);
    }
    await s.atCoordinator('AddPartitionsToTxn', async (c) => {
      const r = await c.send('AddPartitionsToTxn', {
        v3AndBelowTransactionalId: this.transactionalId,
        v3AndBelowProducerId: BigInt(s.producerId),
        v3AndBelowProducerEpoch: s.epoch,
        v3AndBelowTopics: [...topics].map(([name, ps]) => ({ name, partitions: ps })),
      });
      if ((r.errorCode ?? 0) !== 0)
        throw protocolError(r.errorCode!, {
          transactionalId: this.transactionalId,
          api: 'AddPartitionsToTxn',
          principal: this.cluster.principal,
        });
      // One partition's real error makes the others OPERATION_NOT_ATTEMPTED: report the real one.
      let worst: KafkaApiError | null = null;
      for (const t of r.resultsByTopicV3AndBelow ?? [])
        for (const p of t.resultsByPartition)
          if (p.partitionErrorCode !== 0) {
            const e = protocolError(p.partitionErrorCode, {
              topic: t.name,
              partition: p.partitionIndex,
              transactionalId: this.transactionalId,
              api: 'AddPartitionsToTxn',
              principal: this.cluster.principal,
            });
            if (worst === null || worst.type === 'OPERATION_NOT_ATTEMPTED') worst = e;
          }
      if (worst !== null) throw worst;
    });
    for (const p of fresh) this.#partitions.add(`${p.topic}:${p.partition}`);
  }

  #expect(state: TransactionState, what: string): void {
    if (this.#states.state === 'FENCED')
      throw new ProducerFencedError(`the producer of ${this.transactionalId} was fenced (${what})`);
    if (this.#states.state !== state)
      throw new EngineError(
        'ILLEGAL_STATE_TRANSITION',
        `${what} needs a transactional producer in state ${state}; it is ${this.#states.state}`,
      );
  }

  /** Runs a step; errors that end the ownership become ProducerFencedError (TaskMigrated). */
  async #call<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      const type = errorType(error);
      const state = this.#states.state;
      if (
        type !== undefined &&
        ABORTABLE.has(type) &&
        (state === 'IN_TRANSACTION' || state === 'COMMITTING')
      ) {
        // Still the task's owner, but this transaction is lost: the thread aborts it (a bumped
        // epoch) and re-initialises its tasks, as Kafka Streams on OutOfOrderSequenceException.
        this.#states.to('ABORTABLE');
        throw new ProducerFencedError(
          `the transaction of ${this.transactionalId} (producer id ${this.#session.producerId}, epoch ${this.#session.epoch}) must be aborted: ${(error as Error).message}`,
          error,
        );
      }
      if (type !== undefined && MIGRATED.has(type)) {
        this.#states.state = 'FENCED';
        throw new ProducerFencedError(
          `the transactional producer ${this.transactionalId} (producer id ${this.#session.producerId}, epoch ${this.#session.epoch}) cannot go on: ${(error as Error).message}`,
          error,
        );
      }
      throw error;
    }
  }
}
