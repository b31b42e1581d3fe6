// One application's stream thread in a worker: everything the app gives the worker (plan, config,
// ports, metric slots, the worker module's registries) and everything it makes (the compiled plan,
// the thread, its tasks and stores, the global replica) belongs to one session, which lets go of
// all of it when the thread stops. A pooled worker (worker-pool.ts) then runs the next app's
// session on the same isolate; nothing of this one is reachable from it.
import type { EngineLogger, ProcessingError } from '../../api.js';
import { GlobalStateUpdater } from '../../app/global-state.js';
import { waiterOf, type Waiter } from '../../app/waiting.js';
import { answerStoreQuery, scopedStores } from '../../app/store-query.js';
import { MetricsRegistry } from '../../metrics/metrics-registry.js';
import { compilePlan } from '../../processor/compile.js';
import { FailedProcessingError } from '../../processor/processing-failure.js';
import type { CodeRegistries } from '../../processor/registries.js';
import { StreamThread } from '../stream-thread.js';
import { toWire } from './backend-server.js';
import { BackendClient } from './backend-client.js';
import { importCodeModule, registriesOf } from './code-module.js';
import { remoteSlots, remoteTopicMetadata } from './slot-channel.js';
import type { ThreadCommand, ThreadEvent, WorkerInit } from './worker-messages.js';

export interface SessionHost {
  post(event: ThreadEvent): void;
  logger: EngineLogger;
  /** Called once the worker module (if any) is imported, before the session opens anything. */
  onCodeLoaded(): void;
}

export class WorkerSession {
  readonly #init: WorkerInit;
  readonly #host: SessionHost;
  // A stop may arrive while the worker is still loading: it is remembered, and the thread then
  // never starts (or stops right after its start, which StreamThread handles).
  #stopRequested = false;
  #stopThread: (() => void) | null = null;
  // The thread joins its group when the main thread says so: after every worker of the app loaded.
  #joinNow!: () => void;
  readonly #joinSignal = new Promise<void>((resolve) => (this.#joinNow = resolve));
  // The thread whose tasks' stores answer interactive queries (none before it exists: no stores).
  #queried: StreamThread | null = null;

  constructor(init: WorkerInit, host: SessionHost) {
    this.#init = init;
    this.#host = host;
  }

  command(m: ThreadCommand): void {
    const post = this.#host.post;
    if (m.type === 'join') return this.#joinNow();
    if (m.type === 'query') {
      try {
        const thread = this.#queried;
        if (m.query.scope !== undefined) {
          const scoped = scopedStores(
            m.query.scope,
            thread?.tasks.values() ?? [],
            thread?.standbys.values() ?? [],
          );
          const answer = answerStoreQuery(m.query, scoped.stores);
          post({
            type: 'query-result',
            id: m.id,
            ok: true,
            answer: { ...answer, tasks: scoped.tasks },
          });
          return;
        }
        const stores = [];
        for (const task of thread?.tasks.values() ?? []) stores.push(...task.stores);
        post({
          type: 'query-result',
          id: m.id,
          ok: true,
          answer: answerStoreQuery(m.query, stores),
        });
      } catch (error) {
        post({ type: 'query-result', id: m.id, ok: false, error: toWire(error) });
      }
      return;
    }
    if (m.type !== 'stop') return;
    this.#stopRequested = true;
    this.#joinNow();
    this.#stopThread?.();
  }

  /**
   * Runs the session to its end: resolves once everything of it is released (the thread stopped,
   * ports closed). A failure to start rejects (the worker is then not reused).
   */
  async run(): Promise<void> {
    const init = this.#init;
    const { post, logger } = this.#host;
    // The handles the module's top level made are the worker's own (it runs once per worker);
    // whatever its default export makes for an app is the app's.
    const ns = init.workerModule === null ? null : await importCodeModule(init.workerModule);
    this.#host.onCodeLoaded();
    const registries: CodeRegistries =
      ns === null ? {} : await registriesOf(init.workerModule!, ns);
    const compiled = compilePlan(init.plan, registries);
    const backend = new BackendClient(init.backendPort, {
      kind: init.backendKind,
      capabilities: init.backendCapabilities,
      ...(init.clients !== undefined ? { clients: init.clients } : {}),
      logger,
    });
    backend.lookupMetadata = remoteTopicMetadata(init.slots);
    const metrics = new MetricsRegistry(
      init.config.applicationId,
      {},
      Date.now,
      remoteSlots(init.slots),
    );
    // The main thread gets a copy of each error; a dead-letter copy's offset, known only after the
    // next flush, follows under the error's id.
    const errorIds = new WeakMap<ProcessingError, number>();
    let nextErrorId = 1;
    const onError = (error: ProcessingError): void => {
      const id = nextErrorId++;
      if (error.deadLetter !== undefined) errorIds.set(error, id);
      post({ type: 'error', error, id });
    };
    const onDeadLetterWritten = (error: ProcessingError): void => {
      const id = errorIds.get(error);
      const where = error.deadLetter;
      if (id === undefined || where?.offset === undefined) return;
      errorIds.delete(error);
      post({ type: 'dead-letter', id, partition: where.partition ?? 0, offset: where.offset });
    };

    // Waiting out an outage: the backoff is counted here, what is waited for is the app's.
    const waiter = (who: 'thread' | 'global'): Waiter =>
      waiterOf(
        (failure) => post({ type: 'wait', who, failure }),
        () => post({ type: 'wait-over', who, stopped: false }),
        () => post({ type: 'wait-over', who, stopped: true }),
      );

    // Closing every port of the session; the worker then exits, or goes idle when pooled.
    let global: GlobalStateUpdater | null = null;
    const release = async (): Promise<void> => {
      await global?.stop();
      post({ type: 'stopped' });
      await backend.close();
      init.slots.requests.close();
      init.slots.replies.close();
    };

    // Global tables: each worker keeps its own replica, loaded before its thread processes
    // anything (counted in a registry of its own: the main thread reports the global task's
    // metrics).
    const globals = compiled.filter((s) => s.global);
    if (globals.length > 0) {
      global = new GlobalStateUpdater(backend, globals, {
        config: init.config,
        metrics: new MetricsRegistry(init.config.applicationId, {}),
        logger,
        onError,
        onFatal: (error) => post({ type: 'fatal', error: toWire(error), detail: null }),
        waiter: waiter('global'),
      });
      await global.start();
    }

    const thread = new StreamThread(init.index, {
      backend,
      config: init.config,
      subtopologies: compiled.filter((s) => !s.global),
      // Never called here: the client sends 'app' and the main thread applies the app's assignor.
      assignor: { name: 'streams', assign: () => new Map() },
      metrics,
      logger,
      onError,
      onDeadLetterWritten,
      waiter: waiter('thread'),
      onRecovery: (recovery) => post({ type: 'recovery', recovery }),
      onFatal: (_thread, error) =>
        post({
          type: 'fatal',
          error: toWire(error),
          detail: error instanceof FailedProcessingError ? error.detail : null,
        }),
    });
    thread.lifecycle.onChange((state) => post({ type: 'state', state }));
    this.#queried = thread;

    if (this.#stopRequested) return release();
    post({ type: 'ready' });
    await this.#joinSignal;
    if (this.#stopRequested) return release();
    await thread.start();
    post({ type: 'started' });
    const stopped = new Promise<void>((resolve) => {
      this.#stopThread = () => {
        this.#stopThread = null;
        thread.requestStop();
        resolve();
      };
    });
    if (this.#stopRequested) this.#stopThread?.();
    await stopped;
    await thread.stopped();
    this.#queried = null;
    await release();
  }
}
