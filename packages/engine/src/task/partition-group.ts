// A task's input partitions (Kafka Streams' PartitionGroup): the next record is the buffered head
// with the lowest timestamp, so a task merges its partitions in timestamp order. Whether to wait
// for an empty partition follows max.task.idle.ms: -1 never waits; 0 waits only while the
// partition has data on the broker not fetched yet; n > 0 also waits up to n ms for new data,
// after which processing is "enforced" (and counted).
import type { StoredRecord, TopicPartition } from '../api.js';
import { RecordQueue, tpKey } from './record-queue.js';

export class PartitionGroup {
  readonly queues = new Map<string, RecordQueue>();
  #idleSince: number | null = null;

  constructor(
    partitions: TopicPartition[],
    private readonly maxTaskIdleMs: number,
  ) {
    for (const tp of partitions) this.queues.set(tpKey(tp.topic, tp.partition), new RecordQueue(tp));
  }

  queue(topic: string, partition: number): RecordQueue | undefined {
    return this.queues.get(tpKey(topic, partition));
  }

  get bufferedCount(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.size;
    return n;
  }

  /** Whether the task may process now; `enforced` when it does so only because idling expired. */
  readiness(now: number): { ready: boolean; enforced: boolean } {
    let empty = 0;
    let waitingForFetch = false;
    for (const q of this.queues.values()) {
      if (q.size === 0) {
        empty++;
        if (!q.caughtUp) waitingForFetch = true;
      }
    }
    if (empty === 0) {
      this.#idleSince = null;
      return { ready: true, enforced: false };
    }
    if (empty === this.queues.size) return { ready: false, enforced: false };
    if (this.maxTaskIdleMs < 0) return { ready: true, enforced: false };
    if (waitingForFetch) return { ready: false, enforced: false };
    if (this.maxTaskIdleMs === 0) return { ready: true, enforced: false };
    this.#idleSince ??= now;
    if (now - this.#idleSince >= this.maxTaskIdleMs) return { ready: true, enforced: true };
    return { ready: false, enforced: false };
  }

  /** Removes and returns the buffered record with the lowest timestamp (ties: first partition). */
  next(): StoredRecord | undefined {
    let best: RecordQueue | undefined;
    let bestTs = Infinity;
    for (const q of this.queues.values()) {
      const head = q.peek();
      if (head !== undefined && head.timestamp < bestTs) {
        best = q;
        bestTs = head.timestamp;
      }
    }
    return best?.poll();
  }

  clear(): void {
    for (const q of this.queues.values()) q.clear();
    this.#idleSince = null;
  }
}
