import type { ClientConfig } from '@streamwright/topology-model';
import type {
  Backend,
  CompressionType,
  ProduceCallOptions,
  ProduceRecord,
} from '../backend-spi.js';
import { transientFailureOf } from '../app/waiting.js';

/** Where sinks and changelogging stores send their output (Kafka Streams' RecordCollector). */
export interface RecordCollector {
  /**
   * Synchronous: buffers the record; it is written at the next flush. `onAck` (rarely given: the
   * dead-letter copies) learns where it was written.
   */
  send(record: ProduceRecord, onAck?: AckCallback): void;
}

/** The producer's compression.type from the application config (Kafka's default: none). */
export function producerCompression(producer: ClientConfig | undefined): CompressionType {
  const value = producer?.['compression.type']?.value;
  // resolveStreamsConfig has refused any other value already.
  return value === undefined ? 'none' : (String(value).trim().toLowerCase() as CompressionType);
}
/** The fewest and most slots a new pending batch is given up front (BufferedRecordCollector#take). */
const MIN_PRESIZE = 16;
const MAX_PRESIZE = 8192;

export type AckCallback = (partition: number, offset: number) => void;

/** Callbacks of buffered records, by their index in the pending batch. */
export class PendingAcks {
  #acks: { index: number; onAck: AckCallback }[] = [];

  add(index: number, onAck: AckCallback): void {
    this.#acks.push({ index, onAck });
  }

  /** The callbacks of the batch being written (the next batch starts with none). */
  take(): { index: number; onAck: AckCallback }[] | null {
    if (this.#acks.length === 0) return null;
    const out = this.#acks;
    this.#acks = [];
    return out;
  }

  /** A batch of `size` records whose write failed goes back in front of the buffered ones. */
  putBack(taken: { index: number; onAck: AckCallback }[] | null, size: number): void {
    for (const a of this.#acks) a.index += size;
    if (taken !== null) this.#acks = taken.concat(this.#acks);
  }

  static deliver(
    taken: { index: number; onAck: AckCallback }[] | null,
    acks: { partition: number; offset: number }[],
  ): void {
    if (taken === null) return;
    for (const { index, onAck } of taken) {
      const ack = acks[index];
      if (ack) onAck(ack.partition, ack.offset);
    }
  }
}

/**
 * Buffers output between flushes, as Kafka's producer buffers sends. After every processed batch a
 * stream thread hands what it buffered to the backend without waiting for it (`sendPending`, as
 * Kafka's producer sends in the background while the thread goes on processing), and before it
 * commits offsets it waits until everything is written (`flush`), so a committed input offset
 * never points past output that was not written. One write is in flight at a time: the next one
 * starts after it (so the output keeps its order and at most two polls' output is held), and a
 * failed one fails the next `sendPending` or `flush`, as a send error of Kafka's producer surfaces
 * at the next send, flush or commit of Kafka Streams' RecordCollector. A batch whose write failed
 * transiently (the cluster could not be reached: Backend#transientFailure) goes back in front of
 * the buffered records, so that a thread waiting out the outage (app/waiting.ts) writes it again,
 * in order, instead of losing it; after any other failure the application fails.
 */
export class BufferedRecordCollector implements RecordCollector {
  /**
   * Records [0, #count) are buffered; the array may have more (empty) slots. Always made with
   * `new Array(n)`, so every batch has the same elements kind and the optimized send() never meets
   * another array map (a first `[]` per collector deoptimized it whenever a new app started).
   */
  #pending: ProduceRecord[] = new Array<ProduceRecord>(MIN_PRESIZE);
  #count = 0;
  readonly #acks = new PendingAcks();
  /** The write in flight (it never rejects: a failure is kept in #failed). */
  #inFlight: Promise<void> | null = null;
  #failed: { error: unknown; batch: ProduceRecord[] } | null = null;
  producedTotal = 0;

  /** Options of writes that need no positions, and of those that do. */
  readonly #noPositions: ProduceCallOptions;
  readonly #withPositions: ProduceCallOptions;

  constructor(
    private readonly backend: Backend,
    compression: CompressionType = 'none',
  ) {
    this.#noPositions = { positions: false, compression };
    this.#withPositions = { compression };
  }

  send(record: ProduceRecord, onAck?: AckCallback): void {
    if (onAck) this.#acks.add(this.#count, onAck);
    this.#pending[this.#count++] = record;
  }

  get pendingCount(): number {
    return this.#count;
  }

  /**
   * The buffered records, as an array of exactly them. The next batch gets as many slots up front
   * as this one had records (a thread's polls produce alike): filled by index, it is not grown
   * and copied over and over as a pushed array is (≈ 30 bytes of garbage per record).
   */
  #take(): ProduceRecord[] {
    const batch = this.#pending;
    const count = this.#count;
    if (batch.length !== count) batch.length = count;
    this.#pending = new Array<ProduceRecord>(Math.min(Math.max(count, MIN_PRESIZE), MAX_PRESIZE));
    this.#count = 0;
    return batch;
  }

  /**
   * Starts writing what is buffered and returns once it is under way (after the previous write
   * finished); it is waited for by the next call or the next flush. Output with a callback (the
   * dead-letter copies) is written before this returns, so the callback has run.
   * @throws what the previous write failed with
   */
  async sendPending(): Promise<void> {
    await this.#settle();
    if (this.#count === 0) return;
    const batch = this.#take();
    const acks = this.#acks.take();
    if (acks !== null) {
      PendingAcks.deliver(acks, await this.#write(batch, acks));
      this.producedTotal += batch.length;
      return;
    }
    const count = batch.length;
    this.#inFlight = this.backend.produce(batch, this.#noPositions).then(
      () => {
        this.producedTotal += count;
      },
      (error: unknown) => {
        this.#failed = { error, batch };
      },
    );
  }

  /** Writes everything buffered and waits until it is written. @throws what a write failed with */
  async flush(): Promise<void> {
    await this.#settle();
    if (this.#count === 0) return;
    const batch = this.#take();
    const acks = this.#acks.take();
    PendingAcks.deliver(acks, await this.#write(batch, acks));
    this.producedTotal += batch.length;
  }

  /** Writes `batch` now; on failure it goes back in front of the buffer. */
  async #write(
    batch: ProduceRecord[],
    acks: { index: number; onAck: AckCallback }[] | null,
  ): Promise<{ partition: number; offset: number }[]> {
    try {
      // Positions are only needed for the records that have a callback.
      return await this.backend.produce(
        batch,
        acks === null ? this.#noPositions : this.#withPositions,
      );
    } catch (error) {
      this.#putBack(error, batch, acks);
      throw error;
    }
  }

  /** Waits for the write in flight; rethrows its failure once (its batch is buffered again). */
  async #settle(): Promise<void> {
    if (this.#inFlight !== null) {
      await this.#inFlight;
      this.#inFlight = null;
    }
    const failed = this.#failed;
    if (failed !== null) {
      this.#failed = null;
      this.#putBack(failed.error, failed.batch, null);
      throw failed.error;
    }
  }

  /** After a transient failure, the write's records go in front of those buffered since. */
  #putBack(
    error: unknown,
    batch: ProduceRecord[],
    acks: { index: number; onAck: AckCallback }[] | null,
  ): void {
    if (transientFailureOf(this.backend, error) === null) return;
    const pending = this.#pending;
    const count = this.#count;
    const merged = new Array<ProduceRecord>(Math.max(batch.length + count, MIN_PRESIZE));
    for (let i = 0; i < batch.length; i++) merged[i] = batch[i]!;
    for (let i = 0; i < count; i++) merged[batch.length + i] = pending[i]!;
    this.#pending = merged;
    this.#count = batch.length + count;
    this.#acks.putBack(acks, batch.length);
  }
}
