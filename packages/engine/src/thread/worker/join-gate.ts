// An app's stream threads in workers join their group together. Each worker loads on its own
// clock, and the log runs a rebalance as soon as a member joins an empty group: the first thread
// would take every task, start processing, and give them all up again (commit, close) when the
// next thread's join triggers the next rebalance. So the main thread holds each worker's first
// join until every worker of the app has asked, then lets them through in one tick, where the log
// coalesces them into one rebalance (Kafka's coordinator collects joining members the same way,
// with group.initial.rebalance.delay.ms).

/** How long the first joins wait for a worker that never asks (it failed to start: the app fails). */
const GATE_TIMEOUT_MS = 5_000;

export class JoinGate {
  #expected: number;
  #waiting: (() => void)[] = [];

  constructor(members: number) {
    this.#expected = members;
  }

  /** Resolves when every expected member has arrived (at once once the gate is open). */
  arrive(): Promise<void> {
    if (this.#expected === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      if (this.#waiting.length >= this.#expected) this.#open();
      else if (this.#waiting.length === 1) setTimeout(() => this.#open(), GATE_TIMEOUT_MS).unref();
    });
  }

  #open(): void {
    this.#expected = 0;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
