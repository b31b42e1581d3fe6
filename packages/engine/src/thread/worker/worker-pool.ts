// A process-wide pool of idle stream-thread workers. Starting a worker costs 70–85 ms of CPU (Node's
// bootstrap, the bundled worker script, the plan) and its fresh isolate then runs cold JIT code for
// its first ~100k records; in the JVM every KafkaStreams instance of a process shares compiled
// code, in Node each isolate has its own. So when an app closes cleanly its workers, instead of
// exiting, reset (worker-main.ts: everything of the app lives in one session and is let go; a
// worker that still holds handles afterwards is not offered) and wait here, unref'd (an idle
// worker never keeps the process alive), until a later app with the same set-up takes them or the
// idle timeout terminates them. docs/ENGINE.md, "Worker pool".
//
// Settings: STREAMWRIGHT_WORKER_POOL (`off`/`0`, or how many idle workers to keep; default 4),
// STREAMWRIGHT_WORKER_POOL_IDLE_MS (default 60 000) and STREAMWRIGHT_WORKER_MAX_HEAP_MB (each
// worker's heap limit; default V8's), read when the first worker is offered, or
// configureWorkerPool(); drainWorkerPool() terminates every idle worker now.
import type { Worker } from 'node:worker_threads';

export interface WorkerPoolOptions {
  /** How many idle workers the process keeps (0: none; a worker then exits with its app). */
  maxIdle?: number;
  /** How long an idle worker waits for an app before it is terminated. */
  idleTimeoutMs?: number;
  /**
   * Each stream-thread worker's JS heap limit in MB (its old generation; null: V8's default). A
   * worker that reaches it stops, and its app goes to ERROR saying so; the process runs on.
   * Applies to workers spawned from now on.
   */
  maxHeapMb?: number | null;
}

export interface WorkerPoolStats {
  /** Idle workers now. */
  idle: number;
  /** Workers a starting app took from the pool instead of spawning (since the process started). */
  reused: number;
  /** Workers spawned by apps while the pool was on (none idle with their set-up). */
  spawned: number;
}

const DEFAULT_MAX_IDLE = 4;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

interface Idle {
  key: string;
  worker: Worker;
  timer: NodeJS.Timeout;
  forget: () => void;
}

class WorkerPool {
  #maxIdle: number | null = null;
  #idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS;
  #maxHeapMb: number | null = null;
  /** Oldest first. */
  readonly #idle: Idle[] = [];
  #reused = 0;
  #spawned = 0;

  /** Each stream-thread worker's heap limit in MB, or null (V8's default). */
  get maxHeapMb(): number | null {
    this.#limit();
    return this.#maxHeapMb;
  }

  get enabled(): boolean {
    return this.#limit() > 0;
  }

  configure(options: WorkerPoolOptions): void {
    this.#limit(); // the environment's settings first, so that these override them
    if (options.maxIdle !== undefined) {
      if (!Number.isInteger(options.maxIdle) || options.maxIdle < 0)
        throw new RangeError(
          `worker pool maxIdle must be a whole number ≥ 0, got ${options.maxIdle}`,
        );
      this.#maxIdle = options.maxIdle;
    }
    if (options.idleTimeoutMs !== undefined) {
      if (!(options.idleTimeoutMs >= 0))
        throw new RangeError(`worker pool idleTimeoutMs must be ≥ 0, got ${options.idleTimeoutMs}`);
      this.#idleTimeoutMs = options.idleTimeoutMs;
    }
    if (options.maxHeapMb !== undefined)
      this.#maxHeapMb = heapLimit(options.maxHeapMb, 'maxHeapMb');
    const limit = this.#limit();
    while (this.#idle.length > limit) this.#evict(this.#idle[0]!);
  }

  /** An idle worker set up as `key` (most recently idle first), or null: spawn one. */
  take(key: string): Worker | null {
    for (let i = this.#idle.length - 1; i >= 0; i--) {
      const idle = this.#idle[i]!;
      if (idle.key !== key) continue;
      this.#idle.splice(i, 1);
      idle.forget();
      idle.worker.ref();
      this.#reused++;
      return idle.worker;
    }
    if (this.enabled) this.#spawned++;
    return null;
  }

  /**
   * Keeps a worker whose app is done with it (it has reported itself idle, no listener of the app
   * left on it). False: the pool is off; the caller terminates it.
   */
  offer(key: string, worker: Worker): boolean {
    const limit = this.#limit();
    if (limit === 0) return false;
    while (this.#idle.length >= limit) this.#evict(this.#idle[0]!);
    worker.unref();
    const idle: Idle = {
      key,
      worker,
      timer: setTimeout(() => this.#evict(idle), this.#idleTimeoutMs),
      forget: () => {
        clearTimeout(idle.timer);
        worker.off('exit', gone);
        worker.off('error', gone);
      },
    };
    idle.timer.unref();
    // An idle worker that dies (nothing runs in it, but the process may be low on memory) leaves.
    const gone = (): void => {
      const at = this.#idle.indexOf(idle);
      if (at >= 0) this.#idle.splice(at, 1);
      idle.forget();
    };
    worker.on('exit', gone);
    worker.on('error', gone);
    this.#idle.push(idle);
    return true;
  }

  async drain(): Promise<void> {
    const all = this.#idle.splice(0);
    for (const idle of all) idle.forget();
    await Promise.all(all.map((idle) => idle.worker.terminate()));
  }

  stats(): WorkerPoolStats {
    return { idle: this.#idle.length, reused: this.#reused, spawned: this.#spawned };
  }

  #evict(idle: Idle): void {
    const at = this.#idle.indexOf(idle);
    if (at >= 0) this.#idle.splice(at, 1);
    idle.forget();
    void idle.worker.terminate();
  }

  #limit(): number {
    if (this.#maxIdle === null) {
      const env = fromEnvironment();
      this.#maxIdle = env.maxIdle;
      if (env.idleTimeoutMs !== null) this.#idleTimeoutMs = env.idleTimeoutMs;
      this.#maxHeapMb = env.maxHeapMb;
    }
    return this.#maxIdle;
  }
}

/** The environment's settings; a value that is neither is an error naming the variable. */
function fromEnvironment(): {
  maxIdle: number;
  idleTimeoutMs: number | null;
  maxHeapMb: number | null;
} {
  const setting = process.env['STREAMWRIGHT_WORKER_POOL'] ?? '';
  const maxIdle = setting === '' ? DEFAULT_MAX_IDLE : setting === 'off' ? 0 : Number(setting);
  if (!Number.isInteger(maxIdle) || maxIdle < 0)
    throw new RangeError(
      `STREAMWRIGHT_WORKER_POOL must be 'off' or a whole number of idle workers ≥ 0, got '${setting}'`,
    );
  const idle = process.env['STREAMWRIGHT_WORKER_POOL_IDLE_MS'] ?? '';
  const idleTimeoutMs = idle === '' ? null : Number(idle);
  if (idleTimeoutMs !== null && !(idleTimeoutMs >= 0))
    throw new RangeError(
      `STREAMWRIGHT_WORKER_POOL_IDLE_MS must be a number of milliseconds ≥ 0, got '${idle}'`,
    );
  const heap = process.env['STREAMWRIGHT_WORKER_MAX_HEAP_MB'] ?? '';
  const maxHeapMb =
    heap === '' ? null : heapLimit(Number(heap), 'STREAMWRIGHT_WORKER_MAX_HEAP_MB', heap);
  return { maxIdle, idleTimeoutMs, maxHeapMb };
}

/** A heap limit in MB: a whole number of at least 16 (a worker needs about that to start), or null. */
function heapLimit(mb: number | null, name: string, text: string = String(mb)): number | null {
  if (mb === null) return null;
  if (!Number.isInteger(mb) || mb < 16)
    throw new RangeError(`${name} must be a whole number of MB ≥ 16, got '${text}'`);
  return mb;
}

export const workerPool = new WorkerPool();

/** Sizes the process's pool of idle stream-thread workers, or turns it off (`maxIdle: 0`). */
export function configureWorkerPool(options: WorkerPoolOptions): void {
  workerPool.configure(options);
}

/** Terminates every idle stream-thread worker now (running apps keep theirs). */
export function drainWorkerPool(): Promise<void> {
  return workerPool.drain();
}

/** How many workers are idle, and how many apps took from the pool or spawned. */
export function workerPoolStats(): WorkerPoolStats {
  return workerPool.stats();
}
