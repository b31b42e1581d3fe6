import { murmur2, toPositive } from './murmur2.js';

/** The partition Java's default partitioner picks for a non-null key. */
export function partitionFor(keyBytes: Uint8Array, numPartitions: number): number {
  if (!(numPartitions > 0))
    throw new RangeError(`numPartitions must be positive, got ${numPartitions}`);
  return toPositive(murmur2(keyBytes)) % numPartitions;
}

/**
 * Keyed records go by murmur2; records with a null key stick to one partition per topic for a
 * whole batch (one produce call) and move on round-robin for the next batch — the spirit of
 * Kafka's sticky partitioner (KIP-480), which switches partitions when a batch is full.
 */
export class DefaultPartitioner {
  readonly #sticky = new Map<string, number>();
  #batch = 0;
  readonly #batchOfTopic = new Map<string, number>();

  /** Starts a new batch: the next null-key record of each topic moves to the next partition. */
  newBatch(): void {
    this.#batch++;
  }

  partition(topic: string, keyBytes: Uint8Array | null, numPartitions: number): number {
    if (keyBytes !== null) return partitionFor(keyBytes, numPartitions);
    const current = this.#sticky.get(topic);
    if (current !== undefined && this.#batchOfTopic.get(topic) === this.#batch)
      return current % numPartitions;
    const next =
      current === undefined
        ? Math.floor(Math.random() * numPartitions)
        : (current + 1) % numPartitions;
    this.#sticky.set(topic, next);
    this.#batchOfTopic.set(topic, this.#batch);
    return next;
  }
}
