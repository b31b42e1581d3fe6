// A task's input partitions (Kafka Streams' PartitionGroup): the next record is the buffered head
// with the lowest timestamp, so a task merges its partitions in timestamp order. Whether the task
// may go on while some partition is empty follows PartitionGroup#readyToProcess and
// `max.task.idle.ms`:
// - -1: never wait;
// - an empty partition whose lag is unknown or positive (data on the broker not fetched yet):
//   wait for the fetch;
// - an empty partition known to be caught up: wait until `max.task.idle.ms` after it was first
//   seen so (per partition); past that deadline processing goes on and is "enforced" — counted in
//   enforced-processing-total for every record processed that way (with the default 0 the
//   deadline has always passed, so a task processing one partition while another is caught up and
//   empty counts every record as enforced, as Kafka Streams does).
import type { StoredRecord, TopicPartition } from '../backend-spi.js';
import { RecordQueue, tpKey } from './record-queue.js';

export class PartitionGroup {
  readonly queues = new Map<string, RecordQueue>();
  /** The same queues, in partition order: the hot path scans an array, not a Map. */
  readonly #list: RecordQueue[];
  /** Records processed only because idling expired (read and reset by the task). */
  enforced = 0;

  constructor(
    partitions: TopicPartition[],
    private readonly maxTaskIdleMs: number,
  ) {
    for (const tp of partitions)
      this.queues.set(tpKey(tp.topic, tp.partition), new RecordQueue(tp));
    this.#list = [...this.queues.values()];
  }

  queue(topic: string, partition: number): RecordQueue | undefined {
    return this.queues.get(tpKey(topic, partition));
  }

  get bufferedCount(): number {
    let n = 0;
    for (const q of this.#list) n += q.size;
    return n;
  }

  /**
   * The queue to take the next record from, or null when the task must not (or cannot) process
   * now. `now` is the thread's wall clock for this batch. Counts enforced processing.
   */
  nextQueue(now: number): RecordQueue | null {
    const list = this.#list;
    let best: RecordQueue | null = null;
    let bestTs = Infinity;
    let enforced = false;
    for (let i = 0; i < list.length; i++) {
      const q = list[i]!;
      if (q.size > 0) {
        q.idleDeadline = -1;
        const ts = q.headTimestamp();
        if (best === null || ts < bestTs) {
          best = q;
          bestTs = ts;
        }
      } else if (this.maxTaskIdleMs >= 0) {
        if (!q.caughtUp) {
          q.idleDeadline = -1;
          return null; // lag unknown or data known to be on the broker: wait for the fetch
        }
        if (q.idleDeadline < 0) q.idleDeadline = now + this.maxTaskIdleMs;
        if (now < q.idleDeadline) return null;
        enforced = true;
      }
    }
    if (best !== null && enforced) this.enforced++;
    return best;
  }

  /** Whether the task may process now (the readiness half of nextQueue, without counting). */
  readiness(now: number): { ready: boolean; enforced: boolean } {
    const before = this.enforced;
    const q = this.nextQueue(now);
    const enforced = this.enforced !== before;
    this.enforced = before;
    return { ready: q !== null, enforced };
  }

  /** Removes and returns the buffered record with the lowest timestamp (ties: first partition). */
  next(now = Date.now()): StoredRecord | undefined {
    const q = this.nextQueue(now);
    return q === null ? undefined : q.poll();
  }

  clear(): void {
    for (const q of this.#list) {
      q.clear();
      q.idleDeadline = -1;
    }
  }
}
