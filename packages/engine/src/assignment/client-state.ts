// One instance of the application as the assignor sees it (Kafka Streams' ClientState): its
// stream threads (capacity), each task's lag there, and the tasks the assignment gives it.
import {
  JavaPriorityQueue,
  compareProcessIds,
  javaHashSetOrder,
  sortedTasks,
} from './java-order.js';

/** Task.LATEST_OFFSET: the instance runs the task as an active, caught up by definition. */
export const LATEST_OFFSET = -2;
/** SubscriptionInfo.UNKNOWN_OFFSET_SUM: an instance that could not tell its offsets. */
export const UNKNOWN_OFFSET_SUM = -3;

export class ClientState {
  readonly active = new Set<string>();
  readonly standby = new Set<string>();

  constructor(
    readonly processId: string,
    /** Stream threads (group members) of the instance. */
    readonly capacity: number,
    /** Per stateful task: end offset sum − the instance's offset sum, or LATEST_OFFSET. */
    readonly lags: ReadonlyMap<string, number>,
  ) {
    if (capacity < 1) throw new Error(`instance ${processId} has no stream thread`);
  }

  lagFor(task: string): number {
    const lag = this.lags.get(task);
    if (lag === undefined) throw new Error(`no lag of task ${task} on instance ${this.processId}`);
    return lag;
  }

  get assignedTaskCount(): number {
    return this.active.size + this.standby.size;
  }
  /** Tasks (active and standby) per stream thread. */
  get assignedTaskLoad(): number {
    return this.assignedTaskCount / this.capacity;
  }
  get activeTaskLoad(): number {
    return this.active.size / this.capacity;
  }
  hasAssignedTask(task: string): boolean {
    return this.active.has(task) || this.standby.has(task);
  }
  sortedActive(): string[] {
    return sortedTasks(this.active);
  }
  sortedStandby(): string[] {
    return sortedTasks(this.standby);
  }
}

/**
 * Kafka Streams' ConstrainedPrioritySet: the least loaded instance (ties: the smaller process id)
 * that satisfies a constraint. The load is read when the heap compares, as in Java.
 */
export class ConstrainedPrioritySet {
  readonly #queue: JavaPriorityQueue<string>;
  readonly #present = new Set<string>();

  constructor(
    private readonly constraint: (client: string, task: string) => boolean,
    weight: (client: string) => number,
  ) {
    this.#queue = new JavaPriorityQueue<string>((a, b) => {
      const wa = weight(a);
      const wb = weight(b);
      return wa < wb ? -1 : wa > wb ? 1 : compareProcessIds(a, b);
    });
  }

  poll(task: string, extra: (client: string) => boolean = () => true): string | null {
    const invalid: string[] = [];
    while (this.#queue.size > 0) {
      const candidate = this.#queue.poll()!;
      this.#present.delete(candidate);
      if (this.constraint(candidate, task) && extra(candidate)) {
        this.offerAll(javaHashSetOrder(invalid));
        return candidate;
      }
      if (!invalid.includes(candidate)) invalid.push(candidate);
    }
    this.offerAll(javaHashSetOrder(invalid));
    return null;
  }

  offerAll(clients: Iterable<string>): void {
    for (const c of clients) this.offer(c);
  }

  offer(client: string): void {
    if (this.#present.has(client)) this.#queue.remove(client);
    else this.#present.add(client);
    this.#queue.offer(client);
  }
}
