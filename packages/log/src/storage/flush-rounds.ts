// The timed flushes of all the partitions of one Log go out in rounds: one timer for the Log
// instead of one per partition, and when one partition's flush is due, every other partition
// whose flush falls due within half its own interval flushes with it (early: more durable, never
// later). Their fdatasync calls are then issued together, once per flush interval, instead of
// each partition waking the thread and the disk at its own moment; the partitions' flush times
// stay aligned from then on.
import { performance } from 'node:perf_hooks';

export interface TimedFlush {
  /** Its flush interval in milliseconds (flush.ms, or the count policy's time bound). */
  interval(): number;
  /** Starts its timed flush now. */
  flushTimed(): void;
}

export class FlushRounds {
  private readonly due = new Map<TimedFlush, number>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;

  /** `flush` is due at `at` (a performance.now() time). */
  at(flush: TimedFlush, at: number): void {
    this.due.set(flush, at);
    if (at < this.timerAt) this.arm(at);
  }

  /** `flush` flushed on its own (or stopped): no longer due. */
  cancel(flush: TimedFlush): void {
    if (this.due.delete(flush) && this.due.size === 0) this.disarm();
  }

  /**
   * A round now: every flush due within half its interval runs. `starter`, which is flushing
   * already, is left out.
   */
  run(starter?: TimedFlush): void {
    const now = performance.now();
    const ready: TimedFlush[] = [];
    for (const [f, at] of this.due) if (at - f.interval() / 2 <= now) ready.push(f);
    for (const f of ready) this.due.delete(f);
    this.disarm();
    let next = Infinity;
    for (const at of this.due.values()) next = Math.min(next, at);
    if (next < Infinity) this.arm(next);
    for (const f of ready) if (f !== starter) f.flushTimed();
  }

  private arm(at: number): void {
    this.disarm();
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Infinity;
        this.run();
      },
      Math.max(0, Math.ceil(at - performance.now())),
    );
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }
}
