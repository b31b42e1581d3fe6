// A Kafka producer's identity, as the Java producer's TransactionManager keeps it: the producer id
// and epoch the broker gave it (InitProducerId) and the next sequence number of every partition it
// wrote to. Brokers keep the last five batches of each producer id per partition and answer a
// batch sent again (a retry after a lost answer) with the first write's offset instead of writing
// it twice: this is the idempotent producer (enable.idempotence, Kafka's default since 3.0).
//
// With a transactional id the session also holds what the transaction coordinator needs: it asks
// the coordinator of its transactional id (FindCoordinator TRANSACTION) for the id, which fences
// every older producer with that transactional id (its epoch is bumped; its open transaction is
// aborted). Whether the coordinator speaks transaction version 2 (KIP-890: partitions join a
// transaction with the Produce request itself, and every EndTxn bumps the epoch) is read from the
// finalized feature `transaction.version` it advertises in ApiVersions.
import type { KafkaCluster } from './client/cluster.js';
import type { BrokerConnection } from './client/connection.js';
import { errorType, KafkaConnectionError } from './client/errors.js';
import { protocolError } from './client/protocol.js';

/** Errors after which a request to the transaction coordinator is made again (Java's Sender). */
export const COORDINATOR_RETRIABLE = new Set([
  'NOT_COORDINATOR',
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'CONCURRENT_TRANSACTIONS',
  'REQUEST_TIMED_OUT',
  'UNKNOWN_TOPIC_OR_PARTITION',
]);
const COORDINATOR_MOVED = new Set(['NOT_COORDINATOR', 'COORDINATOR_NOT_AVAILABLE']);

/** Kafka's sequence numbers are int32 and wrap to 0 after Integer.MAX_VALUE. */
const SEQUENCE_WRAP = 2_147_483_648;
/** Producer epochs are int16: past Short.MAX_VALUE a producer needs a new id. */
const MAX_EPOCH = 32_767;

export interface SessionOptions {
  /** null: an idempotent producer without transactions. */
  transactionalId: string | null;
  /** transaction.timeout.ms: the coordinator aborts a transaction left open longer. */
  transactionTimeoutMs: number;
  logger?: { warn(obj: object, msg?: string): void };
}

export class ProducerSession {
  producerId = -1;
  epoch = -1;
  /** The coordinator speaks transaction version 2 (KIP-890). */
  transactionV2 = false;
  readonly #sequences = new Map<string, number>();
  #initializing: Promise<void> | null = null;
  /** Batches failed after their sequence numbers were taken: the next send starts a new epoch. */
  #bumpRequired = false;

  constructor(
    readonly cluster: KafkaCluster,
    readonly options: SessionOptions,
  ) {}

  get transactionalId(): string | null {
    return this.options.transactionalId;
  }

  get initialized(): boolean {
    return this.producerId >= 0;
  }

  /**
   * InitProducerId once (shared by concurrent callers); `reset` asks for a new identity again.
   * An idempotent producer whose batches failed (requireBump) starts its new epoch here.
   */
  ensure(): Promise<void> {
    if (this.#bumpRequired && this.initialized && this.transactionalId === null) this.bumpEpoch();
    if (this.initialized) return Promise.resolve();
    this.#initializing ??= this.#init().finally(() => (this.#initializing = null));
    return this.#initializing;
  }

  /** Forgets the identity: the next `ensure` asks for a new producer id (sequences restart at 0). */
  reset(): void {
    this.#bumpRequired = false;
    this.producerId = -1;
    this.epoch = -1;
    this.#sequences.clear();
  }

  /**
   * Batches whose sequence numbers were taken failed or their fate is unknown (a produce gave
   * up): the partitions' sequences cannot go on from there (a gap is OUT_OF_ORDER_SEQUENCE_NUMBER).
   * As Java's TransactionManager (requestEpochBumpForPartition), the epoch is bumped before the
   * next send (idempotent), or when the transaction is aborted (transactional, bumpAtCoordinator).
   */
  requireBump(): void {
    this.#bumpRequired = true;
  }

  get bumpRequired(): boolean {
    return this.#bumpRequired;
  }

  /**
   * KIP-360 for an idempotent producer, as Java's bumpIdempotentProducerEpoch: the same producer
   * id at the next epoch, every partition's sequence from 0 (a partition leader takes a higher
   * epoch's first batch at sequence 0 and refuses the old epoch from then on). The epoch is the
   * client's own here (the broker hands every InitProducerId without a transactional id a new
   * id); past the last epoch a new producer id is asked for.
   */
  bumpEpoch(): void {
    if (this.transactionalId !== null)
      throw new Error('a transactional producer bumps its epoch at its coordinator');
    this.#bumpRequired = false;
    if (this.epoch >= MAX_EPOCH) return this.reset();
    this.epoch++;
    this.#sequences.clear();
  }

  /**
   * KIP-360 for a transactional producer (after its transaction was aborted): InitProducerId
   * with the current producer id and epoch, so the coordinator bumps the epoch of this very
   * producer — or answers PRODUCER_FENCED when a newer one took the transactional id over —
   * instead of fencing whoever holds the id. Sequences restart at 0.
   */
  async bumpAtCoordinator(): Promise<void> {
    const transactionalId = this.options.transactionalId;
    if (transactionalId === null) return this.bumpEpoch();
    const answer = await this.atCoordinator('InitProducerId (epoch bump)', async (c) => {
      const r = await c.send('InitProducerId', {
        transactionalId,
        transactionTimeoutMs: this.options.transactionTimeoutMs,
        producerId: BigInt(this.producerId),
        producerEpoch: this.epoch,
      });
      if (r.errorCode !== 0)
        throw protocolError(r.errorCode, {
          transactionalId,
          api: 'InitProducerId',
          principal: this.cluster.principal,
        });
      return r;
    });
    this.#bumpRequired = false;
    this.newEpoch(Number(answer.producerId), answer.producerEpoch);
  }

  /** Reserves `count` sequence numbers of a partition; returns the first. */
  sequence(topic: string, partition: number, count: number): number {
    const key = `${topic}:${partition}`;
    const next = this.#sequences.get(key) ?? 0;
    this.#sequences.set(key, (next + count) % SEQUENCE_WRAP);
    return next;
  }

  /** A new epoch (transaction version 2's EndTxn): every partition's sequence restarts at 0. */
  newEpoch(producerId: number, epoch: number): void {
    this.#bumpRequired = false;
    this.producerId = producerId;
    this.epoch = epoch;
    this.#sequences.clear();
  }

  async #init(): Promise<void> {
    const transactionalId = this.options.transactionalId;
    const answer =
      transactionalId === null
        ? await this.cluster.retrying(
            'InitProducerId',
            async () => {
              const r = await (
                await this.cluster.any()
              ).send('InitProducerId', {
                transactionalId: null,
                transactionTimeoutMs: this.options.transactionTimeoutMs,
                producerId: -1n,
                producerEpoch: -1,
              });
              if (r.errorCode !== 0)
                throw protocolError(r.errorCode, {
                  api: 'InitProducerId',
                  principal: this.cluster.principal,
                });
              return r;
            },
            { maxAttempts: 50 },
          )
        : await this.atCoordinator('InitProducerId', async (c) => {
            const r = await c.send('InitProducerId', {
              transactionalId,
              transactionTimeoutMs: this.options.transactionTimeoutMs,
              producerId: -1n,
              producerEpoch: -1,
            });
            if (r.errorCode !== 0)
              throw protocolError(r.errorCode, {
                transactionalId,
                api: 'InitProducerId',
                principal: this.cluster.principal,
              });
            this.transactionV2 =
              c.featureLevel('transaction.version') >= 2 && c.version('EndTxn') >= 5;
            return r;
          });
    this.#sequences.clear();
    this.producerId = Number(answer.producerId);
    this.epoch = answer.producerEpoch;
  }

  /**
   * A request to the transaction coordinator of this session's transactional id, retried while
   * the coordinator moves or loads, while an earlier transaction still completes
   * (CONCURRENT_TRANSACTIONS) and through lost connections (an outage is waited out).
   */
  atCoordinator<T>(
    what: string,
    request: (coordinator: BrokerConnection) => Promise<T>,
  ): Promise<T> {
    const id = this.options.transactionalId;
    if (id === null) throw new Error(`${what} needs a transactional id`);
    return this.cluster.retrying(
      `${what} (transactional id ${id})`,
      async () => {
        try {
          return await request(await this.cluster.coordinator('transaction', id));
        } catch (error) {
          if (
            error instanceof KafkaConnectionError ||
            COORDINATOR_MOVED.has(errorType(error) ?? '')
          )
            this.cluster.forgetCoordinator('transaction', id);
          throw error;
        }
      },
      {
        // CONCURRENT_TRANSACTIONS lasts until the coordinator wrote the markers of the transaction
        // before (or, for a crashed producer's open one, until it timed out): ~transaction.timeout.ms.
        maxAttempts: 200,
        retriable: (e) =>
          e instanceof KafkaConnectionError || COORDINATOR_RETRIABLE.has(errorType(e) ?? ''),
      },
    );
  }
}
