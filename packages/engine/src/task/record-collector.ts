import type { Backend, ProduceRecord } from '../api.js';

/** Where sinks and changelogging stores send their output (Kafka Streams' RecordCollector). */
export interface RecordCollector {
  /**
   * Synchronous: buffers the record; it is written at the next flush. `onAck` (rarely given: the
   * dead-letter copies) learns where it was written.
   */
  send(record: ProduceRecord, onAck?: AckCallback): void;
}

const NO_POSITIONS = { positions: false } as const;

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
 * Buffers output between flushes. A stream thread flushes it after every processed batch (so
 * output appears quickly, as with Kafka's producer linger) and always before committing offsets
 * (so a committed input offset never points past output that was not written).
 */
export class BufferedRecordCollector implements RecordCollector {
  #pending: ProduceRecord[] = [];
  readonly #acks = new PendingAcks();
  producedTotal = 0;

  constructor(private readonly backend: Backend) {}

  send(record: ProduceRecord, onAck?: AckCallback): void {
    if (onAck) this.#acks.add(this.#pending.length, onAck);
    this.#pending.push(record);
  }

  get pendingCount(): number {
    return this.#pending.length;
  }

  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    const acks = this.#acks.take();
    // Positions are only needed for the records that have a callback.
    const written = await this.backend.produce(batch, acks === null ? NO_POSITIONS : undefined);
    PendingAcks.deliver(acks, written);
    this.producedTotal += batch.length;
  }
}
