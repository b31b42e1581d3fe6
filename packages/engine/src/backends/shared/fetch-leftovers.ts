// Decoded records a fetch read beyond its maxRecords, kept for the next poll as Kafka's consumer
// keeps the rest of a fetch response, so a batch is never decoded twice. Used by the in-process
// batch fetch (batch-fetch.ts), by worker threads reading segment files themselves, and by the
// Kafka backend's fetches (kafka/kafka-fetch.ts).
import type { FetchRequest, FetchResponse, StoredRecord } from '../../backend-spi.js';

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/**
 * Decoded records a fetch read but could not return (beyond maxRecords), per partition, served to
 * the next fetch that continues at their offset — what Kafka's consumer does with the rest of a
 * fetch response, so a batch is never decoded twice.
 */
export class FetchLeftovers {
  readonly #left = new Map<string, { records: StoredRecord[]; index: number }>();

  /** Whether records are waiting for a fetch of this partition at `offset`. */
  has(topic: string, partition: number, offset: number): boolean {
    const left = this.#left.get(key(topic, partition));
    return left !== undefined && left.records[left.index]?.offset === offset;
  }

  /** Up to `max` waiting records from `offset` (none when the fetch does not continue them). */
  take(topic: string, partition: number, offset: number, max: number): StoredRecord[] {
    const k = key(topic, partition);
    const left = this.#left.get(k);
    if (!left || left.records[left.index]?.offset !== offset) {
      this.#left.delete(k);
      return [];
    }
    const taken = left.records.slice(left.index, left.index + max);
    left.index += taken.length;
    if (left.index >= left.records.length) this.#left.delete(k);
    return taken;
  }

  /** Drops what is kept of these topics. */
  forget(topics: readonly string[]): void {
    const names = new Set(topics);
    for (const k of [...this.#left.keys()])
      if (names.has(k.slice(0, k.lastIndexOf('\u0000')))) this.#left.delete(k);
  }

  /** Returns at most `max` of `records`, keeping the rest. */
  limit(topic: string, partition: number, records: StoredRecord[], max: number): StoredRecord[] {
    const k = key(topic, partition);
    if (records.length <= max) {
      this.#left.delete(k);
      return records;
    }
    this.#left.set(k, { records, index: max });
    return records.slice(0, max);
  }
}

/**
 * Answers a fetch from leftovers when any requested partition has some (at once, as a consumer's
 * buffered records); null when the fetch must go to the log.
 */
export function fromLeftovers(
  leftovers: FetchLeftovers,
  requests: readonly FetchRequest[],
  maxRecords: number,
  highWatermark: (r: FetchRequest) => number,
): FetchResponse[] | null {
  if (!requests.some((r) => leftovers.has(r.topic, r.partition, r.offset))) return null;
  return requests.map((r) => ({
    topic: r.topic,
    partition: r.partition,
    records: leftovers.take(r.topic, r.partition, r.offset, maxRecords),
    highWatermark: highWatermark(r),
  }));
}
