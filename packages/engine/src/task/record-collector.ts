import type { Backend, ProduceRecord } from '../api.js';

/** Where sinks and changelogging stores send their output (Kafka Streams' RecordCollector). */
export interface RecordCollector {
  /** Synchronous: buffers the record; it is written at the next flush. */
  send(record: ProduceRecord): void;
}

/**
 * Buffers output between flushes. A stream thread flushes it after every processed batch (so
 * output appears quickly, as with Kafka's producer linger) and always before committing offsets
 * (so a committed input offset never points past output that was not written).
 */
export class BufferedRecordCollector implements RecordCollector {
  #pending: ProduceRecord[] = [];
  producedTotal = 0;

  constructor(private readonly backend: Backend) {}

  send(record: ProduceRecord): void {
    this.#pending.push(record);
  }

  get pendingCount(): number {
    return this.#pending.length;
  }

  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    await this.backend.produce(batch);
    this.producedTotal += batch.length;
  }
}
