// The flush policy of one partition: fsync after `flush.messages` unflushed messages or once the
// oldest unflushed write is `flush.ms` old. Acknowledgements (acks=all) wait for the fsync that
// covers them; concurrent appends share one fsync (group commit). Nothing runs while idle: a timer
// exists only while unflushed data does.
import { LogError, LogErrorCode } from '../errors.js';

export interface FlushTarget {
  /** The offset after the last appended batch. */
  endOffset(): number;
  /** fsyncs everything written so far (data files, and the directory after a roll). */
  sync(): Promise<void>;
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

export class Flusher {
  private unflushed = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private waiters: { offset: number; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private failure: LogError | null = null;
  durableOffset: number;

  constructor(
    private readonly target: FlushTarget,
    private readonly policy: () => FlushPolicy,
    startOffset: number,
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
    const { flushMessages, flushMs } = this.policy();
    this.unflushed += messages;
    if (this.unflushed >= flushMessages) {
      this.request();
    } else if (this.timer === null) {
      const wait = flushMs === Infinity ? COUNT_POLICY_MAX_WAIT_MS : flushMs;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.request();
      }, wait);
    }
  }

  /** Resolves once every offset below `offset + 1` is durable under the policy. */
  waitDurable(offset: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (offset < this.durableOffset) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ offset, resolve, reject }));
  }

  /** Starts a flush now (coalescing with one already running). */
  request(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      // Let the current task finish its synchronous appends so one fsync covers them all.
      await Promise.resolve();
      do {
        this.again = false;
        if (this.timer) {
          clearTimeout(this.timer);
          this.timer = null;
        }
        const end = this.target.endOffset();
        this.unflushed = 0;
        try {
          await this.target.sync();
        } catch (err) {
          this.fail(storageError('fsync', err));
          return;
        }
        this.advance(end);
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private advance(end: number): void {
    if (end <= this.durableOffset) return;
    this.durableOffset = end;
    this.target.flushed(end);
    const done = this.waiters.filter((w) => w.offset < end);
    this.waiters = this.waiters.filter((w) => w.offset >= end);
    for (const w of done) w.resolve();
  }

  private fail(err: LogError): void {
    this.failure = err;
    for (const w of this.waiters) w.reject(err);
    this.waiters = [];
  }

  /** Flushes whatever is pending (used by close). */
  async flushAll(): Promise<void> {
    if (this.disabled) return;
    while (this.running) await this.running;
    if (this.target.endOffset() > this.durableOffset) await this.request();
  }

  /** Forgets durability beyond `offset` (after a truncation). */
  reset(offset: number): void {
    this.durableOffset = Math.min(this.durableOffset, offset);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
