// The flush policy of one partition: fsync after `flush.messages` unflushed messages or once the
// oldest unflushed write is `flush.ms` old (and at most one such timed flush per `flush.ms`, as
// Kafka's). Acknowledgements (acks=all) wait for the fsync that covers them; concurrent appends
// share one fsync (group commit). The age of the oldest unflushed append is also checked as
// appends arrive, so a burst of appends that keeps the thread busy past the timer still gets its
// fsync on time, running on libuv's pool beside the burst; appends made while a flush runs wait
// for the next one. Nothing runs while idle: a timer exists only while unflushed data does.
import { performance } from 'node:perf_hooks';
import { LogError, LogErrorCode } from '../errors.js';
import { FlushRounds, type TimedFlush } from './flush-rounds.js';

export interface FlushTarget {
  /** The offset after the last appended batch. */
  endOffset(): number;
  /** fsyncs what is appended (data files, and the directory after a roll); returns its end offset. */
  sync(): Promise<number>;
  /** Resolves once every record below `offset + 1` is written to the page cache. */
  written(offset: number): Promise<void>;
  /** Called after a flush made `offset` (exclusive) durable. */
  flushed(offset: number): void;
}

export interface FlushPolicy {
  flushMessages: number;
  flushMs: number;
}

/** With a count policy but no time bound, acks still complete within this time. */
export const COUNT_POLICY_MAX_WAIT_MS = 1000;

/** How long a flush a full disk refused waits before it is tried again. */
const RETRY_AFTER_MS = 500;

export class Flusher implements TimedFlush {
  /** Messages appended and not yet durable. */
  private unflushed = 0;
  /** Appends not yet durable, oldest first: the offset after each, its messages, its time. */
  private pendingEnds: number[] = [];
  private pendingMessages: number[] = [];
  private pendingAt: number[] = [];
  /** Index of the oldest entry still pending in the arrays above (they are compacted lazily). */
  private pendingHead = 0;
  /** When the last time-triggered flush started: at most one per flush.ms, as Kafka's. */
  private lastTimedFlushAt = -Infinity;
  private running: Promise<void> | null = null;
  private waiters: { offset: number; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private failure: LogError | null = null;
  /** After a flush a full disk refused: no new attempt before this time (performance.now()). */
  private retryAt = 0;
  durableOffset: number;

  constructor(
    private readonly target: FlushTarget,
    private readonly policy: () => FlushPolicy,
    startOffset: number,
    /** Shared by the partitions of a Log: their timed flushes go out together. */
    private readonly rounds: FlushRounds = new FlushRounds(),
  ) {
    this.durableOffset = startOffset;
  }

  /** No fsync policy at all (Kafka's default): durability is left to the OS. */
  get disabled(): boolean {
    const p = this.policy();
    return p.flushMessages === Infinity && p.flushMs === Infinity;
  }

  noteAppend(messages: number): void {
    if (this.failure) throw this.failure;
    if (this.disabled) {
      // No fsync: durable, for readers and acks, once in the page cache.
      const end = this.target.endOffset();
      void this.target.written(end - 1).then(
        () => this.advance(end),
        (err: unknown) => this.fail(storageError('write', err)),
      );
      return;
    }
    this.pendingEnds.push(this.target.endOffset());
    this.pendingMessages.push(messages);
    this.pendingAt.push(performance.now());
    this.unflushed += messages;
    if (this.running === null) this.schedule();
  }

  /** Its timed flush interval: flush.ms, or the count policy's time bound. */
  interval(): number {
    const { flushMs } = this.policy();
    return flushMs === Infinity ? COUNT_POLICY_MAX_WAIT_MS : flushMs;
  }

  /** Flushes now if the policy says so, else tells the Log's flush rounds when it will. */
  private schedule(): void {
    if (this.pendingHead === this.pendingEnds.length || this.failure) return;
    if (performance.now() < this.retryAt) {
      this.rounds.at(this, this.retryAt); // after a refused flush, not in a tight loop
      return;
    }
    const due =
      Math.max(this.pendingAt[this.pendingHead]!, this.lastTimedFlushAt) +
      this.interval() -
      performance.now();
    if (this.unflushed >= this.policy().flushMessages) {
      void this.request();
    } else if (due <= 0) {
      this.flushTimed();
      // The other partitions due soon flush now too (see FlushRounds).
      this.rounds.run(this);
    } else this.rounds.at(this, performance.now() + due);
  }

  /** A timed flush, now (the policy's time has come, or a round of the Log's partitions). */
  flushTimed(): void {
    if (this.running !== null || this.pendingHead === this.pendingEnds.length || this.failure)
      return; // a running flush schedules what it leaves
    this.lastTimedFlushAt = performance.now();
    // At once, not after the current task: in a burst of produce calls a microtask can wait for
    // tens of milliseconds, and what is appended is already in the files.
    void this.request(true);
  }

  /** Resolves once every offset below `offset + 1` is durable under the policy. */
  waitDurable(offset: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (offset < this.durableOffset) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ offset, resolve, reject }));
  }

  /**
   * Starts a flush (or returns the one running: what it does not cover is flushed next): after
   * the current task's synchronous appends, so one fsync covers them all, or `now`.
   */
  request(now = false): Promise<void> {
    if (this.running) return this.running;
    this.rounds.cancel(this);
    this.running = (async () => {
      if (!now) await Promise.resolve();
      let end: number;
      try {
        end = await this.target.sync();
      } catch (err) {
        // A full disk refused the index writes before any fsync: this flush fails, the next may
        // succeed. A failed fsync is never retried (the page cache may have dropped the data).
        if (err instanceof LogError && err.retriable) {
          this.retryAt = performance.now() + RETRY_AFTER_MS;
          this.rejectWaiters(err);
        } else this.fail(storageError('fsync', err));
        return;
      }
      this.advance(end);
    })().finally(() => {
      this.running = null;
      this.schedule();
    });
    return this.running;
  }

  private advance(end: number): void {
    if (end <= this.durableOffset) return;
    this.durableOffset = end;
    let head = this.pendingHead;
    while (head < this.pendingEnds.length && this.pendingEnds[head]! <= end)
      this.unflushed -= this.pendingMessages[head++]!;
    if (head === this.pendingEnds.length) {
      this.pendingEnds = [];
      this.pendingMessages = [];
      this.pendingAt = [];
      this.pendingHead = 0;
      this.unflushed = 0;
    } else if (head > 1024) {
      this.pendingEnds = this.pendingEnds.slice(head);
      this.pendingMessages = this.pendingMessages.slice(head);
      this.pendingAt = this.pendingAt.slice(head);
      this.pendingHead = 0;
    } else this.pendingHead = head;
    this.target.flushed(end);
    const done = this.waiters.filter((w) => w.offset < end);
    this.waiters = this.waiters.filter((w) => w.offset >= end);
    for (const w of done) w.resolve();
  }

  private fail(err: LogError): void {
    this.failure = err;
    this.rejectWaiters(err);
  }

  private rejectWaiters(err: LogError): void {
    for (const w of this.waiters) w.reject(err);
    this.waiters = [];
  }

  /** Flushes whatever is pending (used by close). */
  async flushAll(): Promise<void> {
    if (this.disabled) return;
    for (;;) {
      while (this.running) await this.running;
      // A failed flush has rejected its waiters already; close goes on.
      if (this.failure || this.target.endOffset() <= this.durableOffset) return;
      await this.request();
    }
  }

  /** Forgets durability beyond `offset` (after a truncation). */
  reset(offset: number): void {
    this.durableOffset = Math.min(this.durableOffset, offset);
  }

  stop(): void {
    this.rounds.cancel(this);
    this.fail(
      new LogError(LogErrorCode.LOG_CLOSED, 'the log was closed before the write became durable'),
    );
    this.failure = new LogError(LogErrorCode.LOG_CLOSED, 'the log is closed');
  }
}

function storageError(what: string, err: unknown): LogError {
  if (err instanceof LogError) return err;
  return new LogError(
    LogErrorCode.KAFKA_STORAGE_ERROR,
    `${what} failed: ${(err as Error).message}`,
    {
      cause: err,
    },
  );
}
