// The application object (Kafka Streams' KafkaStreams): owns the plan, the compiled graph, the
// stream threads, the generators and the metrics registry, and derives the application state
// from its threads' states. The parts it delegates to: the stream threads (stream-threads.ts),
// the group's assignor (group-assignor.ts), interactive queries (interactive-queries.ts) and the
// processing-error list (processing-errors.ts).
import type { ConfigNote, Plan, Topology } from '@streamwright/topology-model';
import type {
  AppState,
  AppStatus,
  EngineLogger,
  KeyQueryMetadata,
  LocalStoreAnswer,
  QueryScope,
  StoreQueryPart,
  LastFailure,
  MetricsSnapshot,
  ProcessingError,
  QueryableKeyValueStore,
  QueryableSessionStore,
  QueryableWindowStore,
  StoreHostMetadata,
  StreamsApp,
  StreamsAppOptions,
} from '../api.js';
import type { Recovery } from '../backend-spi.js';
import { EngineError, errorMessage } from '../errors.js';
import { StateMachine } from '../lifecycle/state-machine.js';
import { APP_TRANSITIONS } from '../lifecycle/states.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { compilePlan, type CompiledSubtopology } from '../processor/compile.js';
import { FailedProcessingError } from '../processor/processing-failure.js';
import type { StreamsAssignor } from '../assignment/streams-assignor.js';
import { threadName, type StreamThreadHandle } from '../thread/stream-thread.js';
import { engineConfig, type EngineConfig } from './config.js';
import { GeneratorRunner } from './generator.js';
import { GlobalStateUpdater } from './global-state.js';
import { groupAssignorFor } from './group-assignor.js';
import { InteractiveQueries } from './interactive-queries.js';
import { planOf } from './plan-topology.js';
import { ProcessingErrors } from './processing-errors.js';
import { tapSubtopologies } from './record-tap.js';
import { observeSubtopologies } from '../processor/observe-processors.js';
import { ensureTopics } from './topics.js';
import { configNotes, noteFields } from './config-report.js';
import { refuseUnsupported, workerModuleOf } from './start-checks.js';
import { RecoveryLog } from './recovery-log.js';
import { createStreamThreads, startStreamThreads } from './stream-threads.js';
import { WaitRegistry } from './waiting.js';

const silent: EngineLogger = { info() {}, warn() {}, error() {} };

function failureOf(error: unknown, phase: LastFailure['phase']): LastFailure {
  return {
    phase,
    message: errorMessage(error),
    ...(error instanceof EngineError ? { code: error.code } : {}),
    at: Date.now(),
    previousVersionKept: false,
  };
}

export function createStreamsApp(options: StreamsAppOptions): StreamsApp {
  const resolved = resolveOptions(options);
  return new StreamsAppImpl(resolved, planOf(resolved.topology));
}

/** For callers that already hold a plan (tests, tools). */
export function createStreamsAppFromPlan(options: StreamsAppOptions, plan: Plan): StreamsApp {
  return new StreamsAppImpl(resolveOptions(options), plan);
}

type ResolvedOptions = StreamsAppOptions & { topology: Topology };

/** A DSL build() brings its own function and processor registries; explicit ones win. */
function resolveOptions(options: StreamsAppOptions): ResolvedOptions {
  const t = options.topology;
  if (!('kind' in t) || t.kind !== 'streamwright.built-topology') return options as ResolvedOptions;
  return {
    ...options,
    topology: t.topology,
    functions: { ...t.functions, ...options.functions },
    processors: { ...t.processors, ...options.processors },
    valueTransformers: { ...t.valueTransformers, ...options.valueTransformers },
    partitioners: { ...t.partitioners, ...options.partitioners },
  };
}

class StreamsAppImpl implements StreamsApp {
  readonly applicationId: string;
  readonly #options: ResolvedOptions;
  readonly #plan: Plan;
  readonly #config: EngineConfig;
  readonly #compiled: CompiledSubtopology[];
  /** On Kafka: the group's assignor, which knows every instance's tasks by application.server. */
  #streamsAssignor: StreamsAssignor | null = null;
  readonly #metrics: MetricsRegistry;
  readonly #logger: EngineLogger;
  readonly #lifecycle: StateMachine<AppState>;
  readonly #threads: StreamThreadHandle[] = [];
  readonly #generators: GeneratorRunner[] = [];
  #global: GlobalStateUpdater | null = null;
  readonly #errors: ProcessingErrors;
  readonly #queries: InteractiveQueries;
  /** Who waits for unreachable brokers (app.status' waitingFor). */
  readonly #waits: WaitRegistry;
  readonly #recoveries: RecoveryLog;
  /** The failed start or the fatal error that stopped this instance (app.status' lastFailure). */
  #lastFailure: LastFailure | null = null;
  #starting = false;
  /** Ends the watch of the backend's health (Backend#health) at stop. */
  #unwatch: () => void = () => {};
  #closing: Promise<void> | null = null;
  #failing: Promise<void> | null = null;
  readonly #configNotes: readonly ConfigNote[];

  constructor(options: ResolvedOptions, plan: Plan) {
    this.#options = options;
    this.#plan = plan;
    this.applicationId = options.topology.application.id;
    this.#config = {
      ...engineConfig(this.applicationId, options.topology.application.config),
      stateDir: options.stateDir,
    };
    this.#logger = options.logger ?? silent;
    this.#errors = new ProcessingErrors(this.#logger);
    this.#recoveries = new RecoveryLog(this.#logger);
    this.#waits = new WaitRegistry(this.applicationId, this.#logger, (r) =>
      this.#recoveries.record(r, false),
    );
    // Compiling here surfaces a bad expression or plan at creation, before anything starts.
    const registries = {
      ...(options.functions ? { functions: options.functions } : {}),
      ...(options.processors ? { processors: options.processors } : {}),
      ...(options.valueTransformers ? { valueTransformers: options.valueTransformers } : {}),
      ...(options.partitioners ? { partitioners: options.partitioners } : {}),
    };
    const compiled = compilePlan(plan, registries);
    this.#configNotes = configNotes(this.#config.streams, options.backend);
    const tapped = options.recordTap ? tapSubtopologies(compiled, options.recordTap) : compiled;
    this.#compiled = options.debugger ? observeSubtopologies(tapped, options.debugger) : tapped;
    const nodeModelIds: Record<string, string> = {};
    for (const [modelId, names] of Object.entries(plan.nodeNames))
      for (const n of names) nodeModelIds[n] = modelId;
    this.#metrics = new MetricsRegistry(this.applicationId, nodeModelIds);
    this.#lifecycle = new StateMachine<AppState>(
      `application ${this.applicationId}`,
      'CREATED',
      APP_TRANSITIONS,
      this.#logger,
    );
    this.#queries = new InteractiveQueries({
      plan,
      compiled: this.#compiled,
      config: this.#config,
      backend: options.backend,
      threads: this.#threads,
      streamsAssignor: () => this.#streamsAssignor,
    });
  }

  state(): AppState {
    return this.#lifecycle.state;
  }

  configNotes(): readonly ConfigNote[] {
    return this.#configNotes;
  }

  onStateChange(listener: (next: AppState, previous: AppState) => void): () => void {
    return this.#lifecycle.onChange(listener);
  }

  async start(): Promise<void> {
    if (this.#lifecycle.state !== 'CREATED') {
      throw new EngineError(
        'APP_STATE',
        `application ${this.applicationId} cannot start in state ${this.#lifecycle.state}`,
      );
    }
    // Checked before anything starts, so a refused app stays CREATED.
    const inWorkers = this.#config.numStreamThreads > 1;
    let workerModule: string | null;
    try {
      refuseUnsupported(this.#config, this.#options.backend);
      workerModule = inWorkers
        ? workerModuleOf(this.#plan, this.#config, this.#options.workerModule)
        : null;
    } catch (error) {
      this.#lastFailure = failureOf(error, 'start');
      throw error;
    }
    if (inWorkers) {
      this.#options.debugger?.disable(
        `breakpoints pause stream threads on the runtime's event loop only; with num.stream.threads=${this.#config.numStreamThreads} they run in worker threads`,
      );
    }
    // As Kafka's clients log a key they do not know, once per start.
    for (const note of this.#configNotes) this.#logger.warn(noteFields(note), note.message);
    this.#lifecycle.transition('REBALANCING');
    this.#starting = true;
    this.#unwatch = this.#waits.watch(this.#options.backend);
    try {
      await ensureTopics(
        this.#options.backend,
        this.#options.topology,
        this.#plan,
        this.#logger,
        this.#config.streams,
      );
      this.#metrics.startSampling();
      await this.#startGenerators(this.#options.topology);
      const streamSubtopologies = this.#compiled.filter((s) => !s.global);
      // Global tables are loaded completely before any stream thread processes a record.
      this.#global = new GlobalStateUpdater(
        this.#options.backend,
        this.#compiled.filter((s) => s.global),
        {
          config: this.#config,
          metrics: this.#metrics,
          logger: this.#logger,
          onError: (e) => this.#recordError(e),
          onFatal: (error) => void this.#fail(error),
          waiter: this.#waits.waiter('global-state-updater'),
        },
      );
      await this.#global.start();
      const { assignor, streams } = groupAssignorFor(
        this.#options.backend,
        this.#config,
        streamSubtopologies,
        this.#logger,
      );
      this.#streamsAssignor = streams;
      const onFatal = (failed: StreamThreadHandle, error: unknown): void => {
        // Processing errors are already in status; anything else (a failed produce or commit)
        // is recorded against the thread so the UI can show why the app stopped.
        if (!(error instanceof FailedProcessingError) && !this.#errors.hasFatal()) {
          this.#recordError({
            taskId: '',
            processor: failed.name,
            message: errorMessage(error),
            record: null,
            at: Date.now(),
            handling: 'fail',
          });
        }
        void this.#fail(error);
      };
      const threads = createStreamThreads({
        backend: this.#options.backend,
        config: this.#config,
        plan: this.#plan,
        subtopologies: streamSubtopologies,
        assignor,
        metrics: this.#metrics,
        logger: this.#logger,
        waits: this.#waits,
        onError: (e) => this.#recordError(e),
        onFatal,
        onRecovery: (r: Recovery) => this.#recoveries.record(r),
        workerModule,
        // Only a cleanly closed app's workers go back to the pool, never a failed one's.
        reusable: () => this.#lifecycle.state === 'PENDING_SHUTDOWN',
        ...(this.#options.debugger ? { pauseGate: this.#options.debugger.gate } : {}),
      });
      for (const thread of threads) {
        thread.lifecycle.onChange(() => this.#updateStateFromThreads());
        this.#threads.push(thread);
      }
      await startStreamThreads(this.#threads);
    } catch (error) {
      this.#logger.error({ err: errorMessage(error) }, 'application failed to start');
      await this.#fail(error);
      throw error;
    } finally {
      this.#starting = false;
    }
    this.#logger.info(
      { applicationId: this.applicationId, threads: this.#threads.length },
      'application started',
    );
  }

  queryMetadataForKey(name: string, key: unknown): Promise<KeyQueryMetadata | null> {
    return this.#queries.queryMetadataForKey(name, key);
  }

  streamsMetadataForStore(name: string): StoreHostMetadata[] | null {
    return this.#queries.streamsMetadataForStore(name);
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const state = this.#lifecycle.state;
    if (state === 'PENDING_ERROR' || state === 'ERROR') {
      await this.#failing;
      return; // Kafka Streams stays in ERROR after close()
    }
    this.#lifecycle.tryTransition('PENDING_SHUTDOWN');
    await this.#stopEverything();
    this.#lifecycle.tryTransition('NOT_RUNNING');
    this.#logger.info({ applicationId: this.applicationId }, 'application closed');
  }

  status(): AppStatus {
    // From the tasks' shared metric slots, which every stream thread (on this thread or a worker)
    // keeps current: task state, stream time and owning thread.
    const tasks = this.#metrics.taskStatuses((index) => threadName(this.applicationId, index));
    return {
      applicationId: this.applicationId,
      state: this.#lifecycle.state,
      tasks,
      errors: this.#errors.list(),
      waitingFor: this.#waits.current(),
      lastFailure: this.#lastFailure,
      ...this.#recoveries.view(this.#options.backend.recoveries?.() ?? []),
      ...(this.#streamsAssignor === null ? {} : { instances: this.#queries.instances() }),
    };
  }

  metrics(): MetricsSnapshot {
    return this.#metrics.snapshot();
  }

  store(name: string): QueryableKeyValueStore | null {
    return this.#queries.store(name);
  }

  windowStore(name: string): QueryableWindowStore | null {
    return this.#queries.windowStore(name);
  }

  sessionStore(name: string): QueryableSessionStore | null {
    return this.#queries.sessionStore(name);
  }

  queryStore(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
  ): Promise<unknown> {
    return this.#queries.queryStore(name, type, method, args);
  }

  queryLocalStore(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
    scope: QueryScope,
  ): Promise<LocalStoreAnswer> {
    return this.#queries.queryLocalStore(name, type, method, args, scope);
  }

  mergeStoreParts(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
    parts: StoreQueryPart[],
  ): unknown {
    return this.#queries.mergeStoreParts(name, type, method, args, parts);
  }

  storeTaskIds(name: string): Promise<string[] | null> {
    return this.#queries.storeTaskIds(name);
  }

  async #startGenerators(topology: Topology): Promise<void> {
    for (const node of topology.nodes) {
      if (node.kind !== 'generator') continue;
      const nodeName = this.#plan.nodeNames[node.id]?.[0] ?? node.id;
      const runner = new GeneratorRunner({
        nodeName,
        modelNodeId: node.id,
        config: node.config,
        backend: this.#options.backend,
        logger: this.#logger,
        onError: (error, seq) => {
          const skip = this.#config.processingExceptionHandler === 'log-and-continue';
          this.#recordError({
            taskId: 'generator',
            processor: nodeName,
            modelNodeId: node.id,
            message: `generator record seq=${seq}: ${errorMessage(error)}`,
            record: null,
            at: Date.now(),
            handling: skip ? 'continue' : 'fail',
          });
          if (!skip) void this.#fail(error);
          return { skip };
        },
      });
      await runner.start();
      this.#generators.push(runner);
    }
  }

  #recordError(error: ProcessingError): void {
    this.#errors.record(error);
  }

  /** Kafka Streams' SHUTDOWN_CLIENT: PENDING_ERROR, stop every thread, then ERROR. */
  #fail(error: unknown): Promise<void> {
    this.#lastFailure ??= failureOf(error, this.#starting ? 'start' : 'run');
    this.#failing ??= (async () => {
      if (!this.#lifecycle.tryTransition('PENDING_ERROR')) {
        if (this.#lifecycle.state === 'CREATED') {
          this.#lifecycle.transition('PENDING_SHUTDOWN');
          this.#lifecycle.transition('NOT_RUNNING');
        }
        return;
      }
      this.#logger.error(
        { applicationId: this.applicationId, err: errorMessage(error) },
        'application is shutting down after a fatal error',
      );
      await this.#stopEverything();
      this.#lifecycle.transition('ERROR');
    })();
    return this.#failing;
  }

  async #stopEverything(): Promise<void> {
    await Promise.all(this.#generators.map((g) => g.stop()));
    // A thread held at a breakpoint must not keep the app from stopping.
    this.#options.debugger?.release();
    for (const t of this.#threads) t.requestStop();
    await Promise.all(this.#threads.map((t) => t.stopped()));
    await this.#global?.stop();
    this.#unwatch();
    this.#metrics.stopSampling();
  }

  /** RUNNING when every thread runs; REBALANCING while any thread is (re)assigning. */
  #updateStateFromThreads(): void {
    const app = this.#lifecycle;
    if (app.state !== 'RUNNING' && app.state !== 'REBALANCING') return;
    const states = this.#threads.map((t) => t.state);
    if (states.some((s) => s === 'PENDING_SHUTDOWN' || s === 'DEAD')) return;
    const allRunning =
      states.length === this.#config.numStreamThreads && states.every((s) => s === 'RUNNING');
    if (allRunning && app.state === 'REBALANCING') app.transition('RUNNING');
    else if (!allRunning && app.state === 'RUNNING') app.transition('REBALANCING');
  }
}
