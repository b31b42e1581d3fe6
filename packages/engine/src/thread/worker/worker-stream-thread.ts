// The main thread's handle on a stream thread that runs in a worker_thread: it starts the worker,
// serves it the backend and the metric slots, mirrors its lifecycle (so the application derives its
// state exactly as for a thread on the main thread) and relays its errors and logs.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type { Plan } from '@streamwright/topology-model';
import type { EngineLogger, ProcessingError } from '../../api.js';
import type { Backend, PartitionAssignor, Recovery } from '../../backend-spi.js';
import { transientFailureOf, type WaitRegistry } from '../../app/waiting.js';
import type { EngineConfig } from '../../app/config.js';
import type { StoreQuery, StoreQueryAnswer } from '../../app/store-query.js';
import { EngineError, type EngineErrorCode } from '../../errors.js';
import { StateMachine } from '../../lifecycle/state-machine.js';
import { THREAD_TRANSITIONS, type ThreadState } from '../../lifecycle/states.js';
import { TASK_STATE_CODES } from '../../metrics/metric-groups.js';
import type { MetricsRegistry } from '../../metrics/metrics-registry.js';
import { FailedProcessingError } from '../../processor/processing-failure.js';
import { threadName, type StreamThreadHandle } from '../stream-thread.js';
import { capabilitiesOf } from './backend-capabilities.js';
import { BackendServer } from './backend-server.js';
import type { JoinGate } from './join-gate.js';
import type { WireError } from './protocol.js';
import { serveSlots } from './slot-channel.js';
import { workerPool } from './worker-pool.js';
import type { ThreadCommand, ThreadEvent, WorkerInit } from './worker-messages.js';

export interface WorkerStreamThreadContext {
  backend: Backend;
  config: EngineConfig;
  plan: Plan;
  assignor: PartitionAssignor;
  metrics: MetricsRegistry;
  logger: EngineLogger;
  /** URL of the module with the topology's TypeScript code (StreamsAppOptions.workerModule). */
  workerModule: string | null;
  /** Shared by the app's workers: their first joins go to the group together. */
  joinGate?: JoinGate;
  onError: (error: ProcessingError) => void;
  onFatal: (thread: StreamThreadHandle, error: unknown) => void;
  /** What the app waits for: the worker's thread reports its outages here (app/waiting.ts). */
  waits: WaitRegistry;
  onRecovery: (recovery: Recovery) => void;
  /**
   * Asked when the worker's thread has stopped: may the worker go back to the process's pool
   * (worker-pool.ts)? The app says no when it failed (its workers are never reused).
   */
  reusable?: () => boolean;
}

/** How long a stopping worker may take to exit after its thread stopped before it is terminated. */
const EXIT_GRACE_MS = 5_000;

export class WorkerStreamThread implements StreamThreadHandle {
  readonly name: string;
  readonly index: number;
  readonly lifecycle: StateMachine<ThreadState>;
  readonly #ctx: WorkerStreamThreadContext;
  #worker: Worker | null = null;
  #server: BackendServer | null = null;
  /** The backend's view for this thread (Backend#forThread), closed after the worker's server. */
  #view: Backend | null = null;
  #closeSlots: (() => void) | null = null;
  /** Errors whose dead-letter copy the worker has not reported written yet, by error id. */
  readonly #awaitingDeadLetter = new Map<number, ProcessingError>();
  #stoppedSignal: Promise<void> | null = null;
  #loading: Promise<void> | null = null;
  #started: Promise<void> = Promise.resolve();
  #stopRequested = false;
  #finished = false;
  /** The worker crashed, failed to start or reported a fatal error: never reused. */
  #failed = false;
  /** The worker came from the pool (it ran an earlier app's thread). */
  #reused = false;
  /** Interactive queries sent to the worker and not answered yet, by id. */
  readonly #queries = new Map<
    number,
    { resolve: (a: StoreQueryAnswer) => void; reject: (e: Error) => void }
  >();
  #nextQueryId = 1;

  constructor(index: number, ctx: WorkerStreamThreadContext) {
    this.index = index;
    this.name = threadName(ctx.config.applicationId, index);
    this.#ctx = ctx;
    this.lifecycle = new StateMachine<ThreadState>(this.name, 'CREATED', THREAD_TRANSITIONS);
  }

  get state(): ThreadState {
    return this.lifecycle.state;
  }

  /** Whether this thread runs on a worker an earlier app left in the pool. */
  get reusedWorker(): boolean {
    return this.#reused;
  }

  /**
   * Spawns the worker; resolves once it has loaded its code, compiled the plan and loaded its
   * global tables. It joins the group only at start(): the app loads all its workers first, so
   * their threads join together instead of the first one taking every task and giving them up
   * again (a rebalance with commits) when the others arrive.
   */
  load(): Promise<void> {
    this.#loading ??= this.#spawn();
    return this.#loading;
  }

  /** Resolves once the worker's thread has joined the group (as StreamThread#start does). */
  async start(): Promise<void> {
    await this.load();
    this.#worker!.postMessage({ type: 'join' } satisfies ThreadCommand);
    await this.#started;
  }

  #spawn(): Promise<void> {
    const { port1, port2 } = new MessageChannel();
    // Kafka gives each thread its own producer and fetch connections: opened in the worker itself
    // (Backend#workerClients, backends/worker-clients.ts), or else made by the main thread
    // for it (Backend#forThread, kafka-thread-view.ts).
    const clients = this.#ctx.backend.workerClients?.(this.name);
    const served = clients ? null : (this.#ctx.backend.forThread?.(this.name) ?? null);
    this.#view = served;
    this.#server = new BackendServer(served ?? this.#ctx.backend, port1, {
      assignor: this.#ctx.assignor,
      ...(this.#ctx.joinGate !== undefined ? { joinGate: this.#ctx.joinGate } : {}),
      transientFailure: (error) => transientFailureOf(this.#ctx.backend, error),
    });
    const backend = this.#ctx.backend;
    const slots = serveSlots(this.#ctx.metrics, (topic) =>
      backend.encodedBatches?.producerMetadata(topic),
    );
    this.#closeSlots = slots.close;
    const init: WorkerInit = {
      index: this.index,
      plan: this.#ctx.plan,
      config: this.#ctx.config,
      workerModule: this.#ctx.workerModule,
      backendPort: port2,
      backendKind: backend.kind,
      backendCapabilities: capabilitiesOf(served ?? backend),
      ...(clients ? { clients } : {}),
      slots: slots.end,
      pooled: workerPool.enabled,
    };
    const transfer = [port2, slots.end.requests, slots.end.replies];
    const key = workerKey(this.#ctx.workerModule);
    const idle = workerPool.take(key);
    const worker = idle ?? spawnStreamWorker(init, transfer);
    if (idle !== null) {
      this.#reused = true;
      idle.postMessage({ type: 'assign', init } satisfies ThreadCommand, transfer);
    }
    this.#worker = worker;
    let exited!: () => void;
    this.#stoppedSignal = new Promise<void>((resolve) => (exited = resolve));
    let loaded!: () => void;
    let failed!: (error: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => {
      loaded = resolve;
      failed = reject;
    });
    this.#started = new Promise<void>((resolve, reject) => {
      let started = false;
      const fail = (error: unknown): void => {
        failed(error);
        reject(error);
      };
      worker.on('message', (event: ThreadEvent) => {
        if (event.type === 'ready') {
          loaded();
        } else if (event.type === 'started') {
          started = true;
          resolve();
        } else if (event.type === 'start-failed') {
          const error = fromWire(event.error);
          this.#failed = true;
          this.#finish();
          if (!started) fail(error);
        } else if (event.type === 'stopped') {
          this.#finished = true;
          void this.#exitSoon(worker);
        } else if (event.type === 'idle') {
          if (this.#toPool(worker, key, event.leftovers)) exited();
          else void worker.terminate(); // its 'exit' follows
        } else {
          this.#onEvent(event);
        }
      });
      worker.on('error', (thrown) => {
        // An uncaught exception in the worker, or its heap full: the thread is gone (the process
        // and the other apps run on).
        const error = outOfMemory(thrown, this.name);
        this.#failed = true;
        this.#ctx.logger.error(
          { thread: this.name, err: error.message },
          'stream thread worker crashed',
        );
        if (!started) fail(error);
        else if (!this.#finished) this.#ctx.onFatal(this, error);
      });
      worker.on('exit', (code) => {
        if (!this.#finished && started && !this.#stopRequested) {
          this.#ctx.onFatal(
            this,
            new EngineError(
              'APP_STATE',
              `stream thread ${this.name} exited unexpectedly (code ${code})`,
            ),
          );
        }
        if (!started)
          fail(
            new EngineError(
              'APP_STATE',
              `stream thread ${this.name} exited before it started (code ${code})`,
            ),
          );
        this.#finish();
        exited();
      });
    });
    // Whoever awaits start() sees a failure; one that comes while nobody waits must not go unhandled.
    // eslint-disable-next-line no-restricted-syntax -- start() awaits #started and sees its error
    this.#started.catch(() => undefined);
    return ready;
  }

  /** Runs an interactive query on the stores of the worker's tasks; null: no worker (no tasks). */
  query(query: StoreQuery): Promise<StoreQueryAnswer | null> {
    const worker = this.#worker;
    if (worker === null || this.#server === null) return Promise.resolve(null);
    const id = this.#nextQueryId++;
    return new Promise<StoreQueryAnswer>((resolve, reject) => {
      this.#queries.set(id, { resolve, reject });
      worker.postMessage({ type: 'query', id, query } satisfies ThreadCommand);
    });
  }

  requestStop(): void {
    this.#stopRequested = true;
    const worker = this.#worker;
    if (worker === null) {
      this.lifecycle.tryTransition('PENDING_SHUTDOWN');
      this.lifecycle.tryTransition('DEAD');
      return;
    }
    worker.postMessage({ type: 'stop' } satisfies ThreadCommand);
  }

  async stopped(): Promise<void> {
    await this.#stoppedSignal;
  }

  #onEvent(event: ThreadEvent): void {
    switch (event.type) {
      case 'state':
        // The worker's own state machine already checked the transition.
        this.lifecycle.tryTransition(event.state);
        return;
      case 'error':
        // Kept until the worker says where its dead-letter copy went (the app lists this object).
        if (event.error.deadLetter !== undefined && event.error.deadLetter.offset === undefined)
          this.#awaitingDeadLetter.set(event.id, event.error);
        this.#ctx.onError(event.error);
        return;
      case 'dead-letter': {
        const error = this.#awaitingDeadLetter.get(event.id);
        this.#awaitingDeadLetter.delete(event.id);
        if (error?.deadLetter !== undefined) {
          error.deadLetter.partition = event.partition;
          error.deadLetter.offset = event.offset;
        }
        return;
      }
      case 'fatal':
        this.#failed = true;
        this.#ctx.onFatal(
          this,
          event.detail !== null
            ? new FailedProcessingError(event.detail, fromWire(event.error))
            : fromWire(event.error),
        );
        return;
      case 'query-result': {
        const pending = this.#queries.get(event.id);
        this.#queries.delete(event.id);
        if (event.ok) pending?.resolve(event.answer);
        else pending?.reject(fromWire(event.error));
        return;
      }
      case 'log': {
        const log = this.#ctx.logger[event.level];
        log.call(this.#ctx.logger, event.obj, event.msg);
        return;
      }
      case 'wait':
        this.#ctx.waits.enter(this.#waiterName(event.who), event.failure);
        return;
      case 'wait-over':
        if (event.stopped) this.#ctx.waits.forget(this.#waiterName(event.who));
        else this.#ctx.waits.leave(this.#waiterName(event.who));
        return;
      case 'recovery':
        this.#ctx.onRecovery(event.recovery);
        return;
      default:
        return;
    }
  }

  #waiterName(who: 'thread' | 'global'): string {
    return who === 'thread' ? this.name : `${this.name}-global-state-updater`;
  }

  /**
   * A pooled worker whose session ended cleanly goes back to the pool, unless it failed, its app
   * failed, it still holds handles of the app, or the pool is full of newer ones or off.
   */
  #toPool(worker: Worker, key: string, leftovers: string[]): boolean {
    if (this.#failed || this.#ctx.reusable?.() === false || !workerPool.enabled) return false;
    if (leftovers.length > 0) {
      this.#ctx.logger.info(
        { thread: this.name, leftovers },
        'stream thread worker not reused: it still holds handles after its thread stopped',
      );
      return false;
    }
    // Only this thread's listeners: the Worker's own (which ref its port) stay.
    for (const event of ['message', 'error', 'exit']) worker.removeAllListeners(event);
    this.#finish(false);
    this.#worker = null;
    return workerPool.offer(key, worker);
  }

  async #exitSoon(worker: Worker): Promise<void> {
    const timer = setTimeout(() => void worker.terminate(), EXIT_GRACE_MS);
    timer.unref();
    await this.#stoppedSignal;
    clearTimeout(timer);
  }

  /**
   * The worker is done (stopped, failed to start, or crashed) or back in the pool: release its
   * side of things.
   */
  #finish(terminate = true): void {
    if (this.#server === null) return;
    const view = this.#view;
    this.#view = null;
    void this.#server.close().then(() => view?.close());
    this.#server = null;
    this.#closeSlots?.();
    this.lifecycle.tryTransition('PENDING_SHUTDOWN');
    this.lifecycle.tryTransition('DEAD');
    for (const pending of this.#queries.values())
      pending.reject(new EngineError('APP_STATE', `stream thread ${this.name} stopped`));
    this.#queries.clear();
    // Tasks a crashed worker still owned would otherwise look alive forever.
    for (const m of this.#ctx.metrics.tasks.values()) {
      const state = TASK_STATE_CODES[m.stateCode];
      if (
        m.ownerThread === this.index &&
        (state === 'RUNNING' || state === 'RESTORING' || state === 'CREATED')
      ) {
        m.stateCode = TASK_STATE_CODES.indexOf('FAILED');
      }
    }
    if (terminate) void this.#worker?.terminate();
  }
}

/**
 * Workers are interchangeable when they run the same code: the same entry (built bundle, tsc
 * output, or the sources through tsx) and the same worker module (its module-level state, as
 * static fields in the JVM, stays with the worker; a module's exported function is called again
 * for every app).
 */
function workerKey(workerModule: string | null): string {
  const here = import.meta.url;
  const entry = here.endsWith('.ts') ? `tsx:${here}` : builtEntry(here).href;
  return `${entry}\n${workerModule ?? ''}\n${workerPool.maxHeapMb ?? ''}`;
}

/**
 * Built, the worker runs dist/thread/worker/worker-entry.js, which runs worker-main.bundle.cjs (the
 * entry and the engine's modules in one script, scripts/bundle-worker.mjs: it starts faster than ~90
 * separate modules, and from V8's code cache once a worker left one), or
 * worker-main.js where only tsc built the package. From the TypeScript sources (tests, which need
 * no build) it loads worker-main.ts through tsx's ESM loader (a dev dependency), with the `source`
 * condition so workspace packages resolve to their sources as they do in vitest.
 */
function spawnStreamWorker(init: WorkerInit, transferList: WorkerInit['backendPort'][]): Worker {
  const here = import.meta.url;
  const maxHeapMb = workerPool.maxHeapMb;
  const options = {
    workerData: init,
    transferList,
    name: threadName(init.config.applicationId, init.index),
    ...(maxHeapMb !== null ? { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } } : {}),
  };
  if (!here.endsWith('.ts')) return new Worker(builtEntry(here), options);
  const tsx = createRequire(here)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const entry = new URL('./worker-main.ts', here).href;
  const code = `import(${JSON.stringify(pathToFileURL(tsx).href)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { ...options, eval: true, execArgv: ['--conditions=source'] });
}

let entry: URL | null = null;
function builtEntry(here: string): URL {
  if (entry === null) {
    const bundled = existsSync(new URL('./worker-main.bundle.cjs', here));
    entry = new URL(bundled ? './worker-entry.js' : './worker-main.js', here);
  }
  return entry;
}

function fromWire(w: WireError): Error {
  const error =
    w.code !== undefined
      ? new EngineError(w.code as EngineErrorCode, w.message, { retriable: w.retriable ?? false })
      : new Error(w.message);
  error.name = w.name;
  return error;
}

/**
 * A worker stopped by Node for reaching its heap limit (ERR_WORKER_OUT_OF_MEMORY) as an error that
 * says what happened and what to do; any other error as it is.
 */
function outOfMemory(error: Error, thread: string): Error {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') return error;
  const limit = workerPool.maxHeapMb;
  return new EngineError(
    'OUT_OF_MEMORY',
    `stream thread ${thread} ran out of memory: its worker reached its heap limit (${limit === null ? "V8's default" : `${limit} MB, STREAMWRIGHT_WORKER_MAX_HEAP_MB`}) and was stopped; the application stops, the runtime runs on. Keep less state in memory (in-memory stores, statestore.cache.max.bytes) or raise STREAMWRIGHT_WORKER_MAX_HEAP_MB (${error.message})`,
    { cause: error },
  );
}
