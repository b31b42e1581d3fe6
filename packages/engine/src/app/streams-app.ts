// The application object (Kafka Streams' KafkaStreams): owns the plan, the compiled graph, the
// stream threads, the generators and the metrics registry, and derives the application state
// from its threads' states.
import type { ConfigNote, Plan, StorePlan, Topology } from '@streamwright/topology-model';
import type {
  AppState,
  AppStatus,
  InstanceTasks,
  EngineLogger,
  KeyQueryMetadata,
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
import { getSerde } from '../serdes/index.js';
import type { PartitionAssignor, Recovery } from '../backend-spi.js';
import { EngineError, UnsupportedConfigError, errorMessage } from '../errors.js';
import { StateMachine } from '../lifecycle/state-machine.js';
import { APP_TRANSITIONS } from '../lifecycle/states.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { compilePlan, type CompiledSubtopology } from '../processor/compile.js';
import { FailedProcessingError } from '../processor/processing-failure.js';
import { streamsTaskAssignor } from '../thread/task-assignor.js';
import { StreamsAssignor } from '../assignment/streams-assignor.js';
import { partitionFor } from '../partitioner/default-partitioner.js';
import { processId } from '../eos/transactional-id.js';
import { StreamThread, threadName, type StreamThreadHandle } from '../thread/stream-thread.js';
import { JoinGate } from '../thread/worker/join-gate.js';
import { WorkerStreamThread } from '../thread/worker/worker-stream-thread.js';
import { engineConfig, type EngineConfig } from './config.js';
import { GeneratorRunner } from './generator.js';
import { GlobalStateUpdater } from './global-state.js';
import { planOf } from './plan-topology.js';
import { queryableStore } from './queryable-store.js';
import { forwardQuery, mergeStoreAnswers, type StoreQuery } from './store-query.js';
import { windowedOrdersOf, type WindowedOrders } from './windowed-store-order.js';
import { queryableSessionStore, queryableWindowStore } from './queryable-windowed-stores.js';
import { SegmentedSessionStore } from '../state/session-store.js';
import type { TaskStateStore } from '../state/task-store.js';
import { SegmentedWindowStore } from '../state/window-store.js';
import { tapSubtopologies } from './record-tap.js';
import { observeSubtopologies } from '../processor/observe-processors.js';
import { ensureTopics } from './topics.js';
import { configNotes, noteFields } from './config-report.js';
import { refuseUnsupported, workerModuleOf } from './start-checks.js';
import { isKeyValueStore } from '../state/store-factory.js';
import { RecoveryLog } from './recovery-log.js';
import { WaitRegistry } from './waiting.js';

const MAX_ERRORS = 100;

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
  readonly #errors: ProcessingError[] = [];
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
      const assignor = this.#assignor(streamSubtopologies);
      const onError = (e: ProcessingError): void => this.#recordError(e);
      const onFatal = (failed: StreamThreadHandle, error: unknown): void => {
        // Processing errors are already in status; anything else (a failed produce or commit)
        // is recorded against the thread so the UI can show why the app stopped.
        if (
          !(error instanceof FailedProcessingError) &&
          !this.#errors.some((e) => e.handling === 'fail')
        ) {
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
      const joinGate = new JoinGate(this.#config.numStreamThreads);
      for (let i = 1; i <= this.#config.numStreamThreads; i++) {
        const common = {
          backend: this.#options.backend,
          config: this.#config,
          assignor,
          metrics: this.#metrics,
          logger: this.#logger,
          onError,
          onFatal,
          onRecovery: (r: Recovery) => this.#recoveries.record(r),
        };
        const thread: StreamThreadHandle = inWorkers
          ? new WorkerStreamThread(i, {
              ...common,
              waits: this.#waits,
              plan: this.#plan,
              workerModule,
              joinGate,
              // Only a cleanly closed app's workers go back to the pool, never a failed one's.
              reusable: () => this.#lifecycle.state === 'PENDING_SHUTDOWN',
            })
          : new StreamThread(i, {
              ...common,
              waiter: this.#waits.waiter(threadName(this.applicationId, i)),
              subtopologies: streamSubtopologies,
              ...(this.#options.debugger ? { pauseGate: this.#options.debugger.gate } : {}),
            });
        thread.lifecycle.onChange(() => this.#updateStateFromThreads());
        this.#threads.push(thread);
      }
      // Workers load and compile in parallel, then their threads join the group together; a
      // thread on this event loop joins on its own.
      if (inWorkers) {
        await Promise.all(this.#threads.map((t) => (t as WorkerStreamThread).load()));
        await Promise.all(this.#threads.map((t) => t.start()));
      } else for (const t of this.#threads) await t.start();
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

  /**
   * On Kafka, Kafka Streams' high-availability assignor with standbys (the group protocol carries
   * each instance's process id and task lags); on the embedded log, the plain task assignor.
   */
  #assignor(subtopologies: CompiledSubtopology[]): PartitionAssignor {
    if (this.#options.backend.kind !== 'kafka') return streamsTaskAssignor(subtopologies);
    const config = this.#config;
    const backend = this.#options.backend;
    return (this.#streamsAssignor = new StreamsAssignor({
      applicationId: config.applicationId,
      subtopologies: subtopologies.map((s) => ({
        id: s.id,
        sourceTopics: s.sourceTopics,
        changelogTopics: [
          ...new Set(
            s.stores.flatMap((st) => (st.changelogTopic === null ? [] : [st.changelogTopic])),
          ),
        ],
      })),
      processId: processId(config.stateDir, config.applicationId),
      userEndPoint: config.applicationServer,
      stateDir: config.stateDir,
      configs: {
        numStandbyReplicas: config.numStandbyReplicas,
        maxWarmupReplicas: config.maxWarmupReplicas,
        acceptableRecoveryLag: config.acceptableRecoveryLag,
        probingRebalanceIntervalMs: config.probingRebalanceIntervalMs,
      },
      endOffsets: async (topic) => {
        const desc = await backend.describeTopic(topic);
        return new Map((desc?.offsets ?? []).map((o) => [o.partition, o.latest]));
      },
      logger: this.#logger,
    }));
  }

  /**
   * KafkaStreams#queryMetadataForKey: which instance (application.server) holds `key` of store
   * `name` as an active task, which hold standbys, and the key's partition (the default
   * partitioner over the store's key serde, as the store's sub-topology's source topics are
   * partitioned). activeHost is null while the task has no active instance (its assignment is
   * migrating during a rebalance, or no instance has an application.server). A global store is
   * on every instance: this one's, partition -1. Null for an unknown store.
   */
  async queryMetadataForKey(name: string, key: unknown): Promise<KeyQueryMetadata | null> {
    const planned = this.#plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    const own = this.#config.applicationServer;
    if (planned.global) return { activeHost: own, standbyHosts: [], partition: -1 };
    const sub = this.#compiled.find((s) => s.id === planned.subtopology);
    let partitions = 0;
    for (const topic of sub?.sourceTopics ?? [])
      partitions = Math.max(
        partitions,
        (await this.#options.backend.describeTopic(topic))?.partitions ?? 0,
      );
    if (partitions === 0) return { activeHost: null, standbyHosts: [], partition: -1 };
    const keyBytes = getSerde(planned.keySerde).serialize(key);
    if (keyBytes === null)
      throw new EngineError(
        'INVALID_STATE_STORE',
        `queryMetadataForKey: a null key of store ${name}`,
      );
    const partition = partitionFor(keyBytes, partitions);
    const taskId = `${planned.subtopology}_${partition}`;
    if (this.#streamsAssignor === null) return { activeHost: own, standbyHosts: [], partition };
    const hosts = Object.entries(this.#streamsAssignor.tasksByHost());
    return {
      activeHost: hosts.find(([, t]) => t.active.includes(taskId))?.[0] ?? null,
      standbyHosts: hosts.filter(([, t]) => t.standby.includes(taskId)).map(([h]) => h),
      partition,
    };
  }

  /**
   * KafkaStreams#streamsMetadataForStore: every instance (application.server) holding tasks of
   * store `name`, with those active and standby task ids. Null for an unknown store.
   */
  streamsMetadataForStore(name: string): StoreHostMetadata[] | null {
    const planned = this.#plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    const own = this.#config.applicationServer;
    if (this.#streamsAssignor === null)
      return own === null ? [] : [{ host: own, activeTasks: [], standbyTasks: [] }];
    const ofStore = (ids: string[]) =>
      ids.filter((id) => planned.global || id.startsWith(`${planned.subtopology}_`));
    return Object.entries(this.#streamsAssignor.tasksByHost())
      .map(([host, t]) => ({
        host,
        activeTasks: ofStore(t.active),
        standbyTasks: ofStore(t.standby),
      }))
      .filter((h) => planned.global || h.activeTasks.length + h.standbyTasks.length > 0);
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
      errors: [...this.#errors],
      waitingFor: this.#waits.current(),
      lastFailure: this.#lastFailure,
      ...this.#recoveries.view(this.#options.backend.recoveries?.() ?? []),
      ...(this.#streamsAssignor === null ? {} : { instances: this.#instances() }),
    };
  }

  #instances(): InstanceTasks[] {
    const own = this.#config.applicationServer;
    return Object.entries(this.#streamsAssignor?.tasksByHost() ?? {})
      .map(([host, t]) => ({
        host,
        self: host === own,
        activeTasks: [...t.active],
        standbyTasks: [...t.standby],
      }))
      .sort((a, b) => a.host.localeCompare(b.host));
  }

  metrics(): MetricsSnapshot {
    return this.#metrics.snapshot();
  }

  store(name: string): QueryableKeyValueStore | null {
    const planned = this.#plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    const globalStores = this.#compiled[0]?.globalStores;
    if (!globalStores?.has(name)) this.#requireLocalStores(name);
    return queryableStore(
      name,
      () => {
        const global = globalStores?.get(name);
        if (global) return [global];
        const instances = [];
        for (const thread of this.#threads) {
          if (!(thread instanceof StreamThread)) continue;
          for (const task of thread.tasks.values())
            for (const s of task.stores)
              if (s.name === name && isKeyValueStore(s)) instances.push(s);
        }
        return instances;
      },
      planned.versioned !== undefined,
    );
  }

  windowStore(name: string): QueryableWindowStore | null {
    const planned = this.#queryablePlan(name, 'window', 'windowStore');
    if (planned === null) return null;
    const size = planned.windowSizeMs ?? planned.windowStore?.sizeMs ?? 0;
    return queryableWindowStore(
      name,
      size,
      () =>
        this.#localStores(
          name,
          (s): s is SegmentedWindowStore => s instanceof SegmentedWindowStore,
        ),
      this.#windowedOrders(planned),
    );
  }

  sessionStore(name: string): QueryableSessionStore | null {
    const planned = this.#queryablePlan(name, 'session', 'sessionStore');
    if (planned === null) return null;
    return queryableSessionStore(
      name,
      () =>
        this.#localStores(
          name,
          (s): s is SegmentedSessionStore => s instanceof SegmentedSessionStore,
        ),
      this.#windowedOrders(planned).keyRange,
    );
  }

  /** Kafka's iteration orders of the store's range reads (persistent: RocksDB's segments). */
  #windowedOrders(planned: StorePlan): WindowedOrders {
    let owner: Parameters<typeof windowedOrdersOf>[1] = null;
    for (const st of this.#plan.subtopologies)
      for (const n of st.nodes)
        if (n.windowing !== undefined && n.stores.includes(planned.name))
          owner = { emitStrategy: n.windowing.emitStrategy, windowType: n.windowing.window.type };
    return windowedOrdersOf(planned, owner);
  }

  async queryStore(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
  ): Promise<unknown> {
    const planned = this.#plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    const global = this.#compiled[0]?.globalStores?.has(name) === true;
    if (this.#config.numStreamThreads === 1 || global) {
      const view =
        type === 'keyValue'
          ? this.store(name)
          : type === 'window'
            ? this.windowStore(name)
            : this.sessionStore(name);
      const call = (view as unknown as Record<string, unknown> | null)?.[method];
      if (typeof call !== 'function')
        throw new TypeError(`queryStore: ${type} stores have no method ${method}`);
      return (call as (...a: unknown[]) => unknown).apply(view, args);
    }
    if (type !== 'keyValue') this.#queryablePlan(name, type, `${type}Store`, false);
    else if (planned.type !== 'keyValue')
      throw new EngineError(
        'INVALID_STATE_STORE',
        `Cannot get state store ${name} because the queryable store type [keyValueStore] does not accept the state store: it is a ${planned.type} store`,
      );
    const asked: StoreQuery = {
      store: name,
      type,
      method,
      args,
      versioned: planned.versioned !== undefined,
      windowSizeMs: planned.windowSizeMs ?? planned.windowStore?.sizeMs ?? 0,
      ...(type === 'keyValue' ? {} : { orders: this.#windowedOrders(planned) }),
    };
    const { query, reverse } = forwardQuery(asked);
    const answers = await Promise.all(
      this.#threads.map((t) => (t instanceof WorkerStreamThread ? t.query(query) : null)),
    );
    return mergeStoreAnswers(
      query,
      answers.filter((a) => a !== null),
      reverse,
    );
  }

  /** The planned store `name` of `type`; null when there is none; throws for another type. */
  #queryablePlan(
    name: string,
    type: 'window' | 'session',
    queryType: string,
    local = true,
  ): StorePlan | null {
    const planned = this.#plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    if (planned.type !== type)
      throw new EngineError(
        'INVALID_STATE_STORE',
        `Cannot get state store ${name} because the queryable store type [${queryType}] does not accept the state store: it is a ${planned.type} store`,
      );
    if (local) this.#requireLocalStores(name);
    return planned;
  }

  #requireLocalStores(name: string): void {
    if (this.#config.numStreamThreads > 1)
      throw new UnsupportedConfigError(
        `interactive queries on ${name}: with num.stream.threads=${this.#config.numStreamThreads} the stores live in worker threads, which answer queryStore only`,
      );
  }

  /** Every instance of store `name` in this instance's tasks. */
  #localStores<S extends TaskStateStore>(name: string, kind: (s: TaskStateStore) => s is S): S[] {
    const instances: S[] = [];
    for (const thread of this.#threads) {
      if (!(thread instanceof StreamThread)) continue;
      for (const task of thread.tasks.values())
        for (const s of task.stores) if (s.name === name && kind(s)) instances.push(s);
    }
    return instances;
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
    this.#errors.unshift(error);
    if (this.#errors.length > MAX_ERRORS) this.#errors.length = MAX_ERRORS;
    const log = error.handling === 'fail' ? this.#logger.error : this.#logger.warn;
    log.call(
      this.#logger,
      { ...error },
      `processing error in ${error.processor} (task ${error.taskId}): ${error.message}`,
    );
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
