import type { StoredRecord, TopicPartition } from '../backend-spi.js';
import type { CompiledSource } from '../processor/compile.js';
import type { ProcessorNode } from '../processor/processor-node.js';

export const tpKey = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/** The source node (and its serdes) that records of a queue's topic enter the graph through. */
export interface SourceBinding {
  node: ProcessorNode;
  source: CompiledSource;
}

/**
 * Buffered, not yet processed records of one input partition (Kafka Streams' RecordQueue). Fetched
 * batches are kept as they arrive (a queue of arrays, never copied record by record); a record is
 * read in place and the batch released once consumed.
 */
export class RecordQueue {
  #chunks: (readonly StoredRecord[] | undefined)[] = [];
  #chunk = 0;
  #index = 0;
  #size = 0;
  /** End offset of the partition at the last fetch, and the next offset to fetch. */
  highWatermark = -1;
  position = -1;
  /** Next offset to commit: the last processed record's offset + 1 (-1: nothing processed yet). */
  consumed = -1;
  /** When set, the wall-clock deadline until which the task idles for this empty partition. */
  idleDeadline = -1;
  /** Set by the task that owns the queue. */
  binding: SourceBinding | null = null;

  constructor(readonly tp: TopicPartition) {}

  get size(): number {
    return this.#size;
  }

  push(records: readonly StoredRecord[]): void {
    if (records.length === 0) return;
    this.#chunks.push(records);
    this.#size += records.length;
  }

  peek(): StoredRecord | undefined {
    return this.#size === 0 ? undefined : this.#chunks[this.#chunk]![this.#index];
  }

  /** Timestamp of the head record; only meaningful when size > 0. */
  headTimestamp(): number {
    return this.#chunks[this.#chunk]![this.#index]!.timestamp;
  }

  poll(): StoredRecord | undefined {
    if (this.#size === 0) return undefined;
    const chunk = this.#chunks[this.#chunk]!;
    const record = chunk[this.#index++]!;
    this.#size--;
    if (this.#index === chunk.length) this.#nextChunk();
    return record;
  }

  /** True when the partition is known to hold nothing beyond what was fetched. */
  get caughtUp(): boolean {
    return this.highWatermark >= 0 && this.position >= this.highWatermark;
  }

  clear(): void {
    this.#chunks = [];
    this.#chunk = 0;
    this.#index = 0;
    this.#size = 0;
  }

  #nextChunk(): void {
    this.#chunks[this.#chunk++] = undefined;
    this.#index = 0;
    if (this.#chunk === this.#chunks.length) {
      this.#chunks.length = 0;
      this.#chunk = 0;
    } else if (this.#chunk >= 64) {
      this.#chunks = this.#chunks.slice(this.#chunk);
      this.#chunk = 0;
    }
  }
}
