import type { StoredRecord, TopicPartition } from '../api.js';

export const tpKey = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/** Buffered, not yet processed records of one input partition (Kafka Streams' RecordQueue). */
export class RecordQueue {
  #records: StoredRecord[] = [];
  #head = 0;
  /** End offset of the partition at the last fetch, and the next offset to fetch. */
  highWatermark = -1;
  position = -1;

  constructor(readonly tp: TopicPartition) {}

  get size(): number {
    return this.#records.length - this.#head;
  }

  push(records: readonly StoredRecord[]): void {
    for (const r of records) this.#records.push(r);
  }

  peek(): StoredRecord | undefined {
    return this.#records[this.#head];
  }

  poll(): StoredRecord | undefined {
    const r = this.#records[this.#head];
    if (r === undefined) return undefined;
    this.#records[this.#head++] = undefined as unknown as StoredRecord;
    // Reclaim the consumed prefix now and then instead of shifting per record.
    if (this.#head > 1024 && this.#head * 2 > this.#records.length) {
      this.#records = this.#records.slice(this.#head);
      this.#head = 0;
    }
    return r;
  }

  /** True when the partition is known to hold nothing beyond what was fetched. */
  get caughtUp(): boolean {
    return this.highWatermark >= 0 && this.position >= this.highWatermark;
  }

  clear(): void {
    this.#records = [];
    this.#head = 0;
  }
}
