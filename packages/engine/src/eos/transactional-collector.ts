// exactly_once_v2's record collector (Kafka Streams' RecordCollector over a transactional
// StreamsProducer): output and changelog records go into the thread's open transaction as they
// are flushed, and a commit sends the consumed offsets into the same transaction before
// committing it, so output, state and input progress become visible together or not at all.
import type { ClientConfig } from '@streamwright/topology-model';
import type {
  Backend,
  CompressionType,
  ProduceRecord,
  TransactionalProducer,
} from '../backend-spi.js';
import { UnsupportedConfigError } from '../errors.js';
import { PendingAcks, type AckCallback, type RecordCollector } from '../task/record-collector.js';

export class TransactionalRecordCollector implements RecordCollector {
  #pending: ProduceRecord[] = [];
  readonly #acks = new PendingAcks();
  #open = false;
  producedTotal = 0;
  /** Transactions committed and aborted, for tests and metrics. */
  committedTransactions = 0;

  private constructor(
    readonly producer: TransactionalProducer,
    private readonly compression: CompressionType,
  ) {}

  /** Kafka's initTransactions: an older producer with this id is fenced, its open transaction aborted. */
  static async create(
    backend: Backend,
    transactionalId: string,
    compression: CompressionType = 'none',
    /** The application's producer settings (transaction.timeout.ms…). */
    clientConfig?: ClientConfig,
  ): Promise<TransactionalRecordCollector> {
    if (!backend.transactionalProducer) {
      throw new UnsupportedConfigError(
        `processing.guarantee=exactly_once_v2 needs a backend with transactions; the ${backend.kind} backend has none`,
      );
    }
    return new TransactionalRecordCollector(
      await backend.transactionalProducer(
        transactionalId,
        clientConfig === undefined ? undefined : { clientConfig },
      ),
      compression,
    );
  }

  send(record: ProduceRecord, onAck?: AckCallback): void {
    if (onAck) this.#acks.add(this.#pending.length, onAck);
    this.#pending.push(record);
  }

  get pendingCount(): number {
    return this.#pending.length;
  }

  get inTransaction(): boolean {
    return this.#open;
  }

  #begin(): void {
    if (this.#open) return;
    this.producer.beginTransaction();
    this.#open = true;
  }

  /** Writes the buffered records into the open transaction (opening one if needed). */
  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    this.#begin();
    const acks = this.#acks.take();
    const written = await this.producer.send(batch, { compression: this.compression });
    PendingAcks.deliver(acks, written);
    this.producedTotal += batch.length;
  }

  /**
   * Flushes, sends `offsets` into the transaction and commits it. Nothing to commit (no output,
   * no offsets) opens no transaction.
   */
  async commit(
    offsets: { topic: string; partition: number; offset: number }[],
    groupId: string,
    member?: { memberId: string; generation: number },
  ): Promise<void> {
    await this.flush();
    if (offsets.length === 0 && !this.#open) return;
    this.#begin();
    if (offsets.length > 0) await this.producer.sendOffsetsToTransaction(offsets, groupId, member);
    this.#open = false;
    await this.producer.commitTransaction();
    this.committedTransactions++;
  }

  /** Drops buffered records and aborts the open transaction (a dirty close). Never throws. */
  async abort(): Promise<void> {
    this.#pending = [];
    this.#acks.take();
    if (!this.#open) return;
    this.#open = false;
    // A dirty close: an abort that fails (the broker unreachable, the producer fenced) leaves the
    // transaction to its timeout or to the next producer with this id, which aborts it.
    await this.producer.abortTransaction().catch(() => undefined);
  }
}
