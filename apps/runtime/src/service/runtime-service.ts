// The runtime service owns the data dir (its lock, the embedded backend in `<dataDir>/log`), the
// one deployed application (`<dataDir>/state`) and the saved deployment (`<dataDir>/app.json`).
// Deploy, start, stop, reset and close run one at a time; reads (status, metrics, topics, lag)
// never wait for them.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import {
  AppDebugger,
  createStreamsApp,
  type AppStatus,
  type Backend,
  type LastFailure,
  type MetricsSnapshot,
  type StreamsApp,
} from '@streamwright/engine';
import {
  exampleTopology,
  exportTopology,
  importTopology,
  planTopology,
  validateTopology,
  type Topology,
  type TopologyDocument,
  type ValidationIssue,
} from '@streamwright/topology-model';
import { RuntimeError, runtimeCodeOf } from '../errors.js';
import {
  computeLag,
  resetApplication,
  topicsUsedBy,
  type AppLag,
  type ResetReport,
} from './app-operations.js';
import { EMPTY_REGISTRY, registryNames, type CodeRegistry } from './code-module.js';
import { openDataDir, type BackendChoice, type OpenDataDir } from './data-dir.js';
import { createMissingTopics } from './deploy-topics.js';
import { DeploymentStore } from './deployment-store.js';
import { RecordService } from './record-service.js';
import { NodeSampler, type DeployedApp } from './node-sampler.js';
import { Serial } from './serial.js';
import { StateQueries } from './state-queries.js';
import { httpPeerClient } from './peer-client.js';
import { TopicService } from './topic-service.js';
import { WorkspaceService } from './workspace-service.js';
import { WorkspaceStore } from './workspace-store.js';

export interface RuntimeServiceOptions {
  dataDir: string;
  logger: Logger;
  /** The operator's processors and functions (`serve --processors`); none by default. */
  code?: CodeRegistry;
  /** The embedded log in the data dir (default), or a Kafka cluster. */
  backend?: BackendChoice;
}

/**
 * Which topology is deployed: the live view names it, so a designer can tell whether the
 * counters it receives belong to the design on its canvas.
 */
export interface DeploymentIdentity {
  applicationId: string;
  /** A hash of the canonical document without its layout: equal for the same topology. */
  version: string;
  deployedAt: number;
}

export type DeployResult =
  | { ok: true; status: AppStatus; warnings: string[]; deployment: DeploymentIdentity }
  | {
      ok: false;
      errors: ValidationIssue[];
      /**
       * Set when the topology was valid but the engine refused it or it failed to start: what
       * runs now (the previous version, started again from its committed offsets, when it ran).
       */
      failed?: { previousVersionKept: boolean; status: AppStatus | null };
    };

export interface AppView {
  deployed: boolean;
  topology: TopologyDocument | null;
  deployment: DeploymentIdentity | null;
  status: AppStatus | null;
}

export interface LiveView {
  at: number;
  deployment: DeploymentIdentity | null;
  status: AppStatus | null;
  metrics: MetricsSnapshot | null;
}

export type ResetResult = ResetReport & { status: AppStatus | null };

interface Deployment {
  topology: Topology;
  /** The canonical document, as exported: what status shows and app.json keeps. */
  document: TopologyDocument;
  /** Every topic the application reads or writes (internal ones included). */
  topics: Set<string>;
  identity: DeploymentIdentity;
}

export class RuntimeService {
  private deployment: Deployment | null = null;
  private app: StreamsApp | null = null;
  /**
   * The last failed deploy or start, or the fatal error that stopped the app: kept across app
   * instances (a start makes a new one) until the next successful deploy or start.
   */
  private lastFailure: LastFailure | null = null;
  private closed = false;
  private readonly serial = new Serial();
  private readonly store: DeploymentStore;
  readonly backend: Backend;
  private readonly stateDir: string;
  /** Topics of the backend: admin, produce one record from text, read the latest. */
  readonly topics: TopicService;
  /** Records as bytes: produce batches, fetch from offsets, consumer-group offsets. */
  readonly records: RecordService;
  /** Saved topologies and their versions (`<dataDir>/workspace`). */
  readonly workspace: WorkspaceService;

  /** Live sampling of each app's nodes (its record tap). */
  private readonly samplers = new WeakMap<StreamsApp, NodeSampler>();
  /** Each app's debugger (breakpoints). */
  private readonly debuggers = new WeakMap<StreamsApp, AppDebugger>();
  /** Interactive queries on the running app's key-value stores. */
  readonly state: StateQueries;
  /**
   * This instance's application.server (host:port) on Kafka: other instances forward state
   * queries here. Set by the runtime once its HTTP server listens (setQueryEndpoint).
   */
  private applicationServer: string | null = null;
  /** The token forwarded state queries carry (the shared API token, or a configured peer token). */
  private peerToken: string | null = null;
  private readonly peers = httpPeerClient(() => this.peerToken);

  private constructor(
    private readonly dir: OpenDataDir,
    private readonly logger: Logger,
    /** The operator's processors and functions, which topologies refer to by name. */
    readonly code: CodeRegistry,
  ) {
    this.backend = dir.backend;
    this.stateDir = dir.stateDir;
    this.store = new DeploymentStore(dir.dataDir);
    const guard = {
      assertOpen: () => this.assertOpen(),
      appUsingTopic: (topic: string) =>
        this.app && isActive(this.app) && this.deployment?.topics.has(topic)
          ? this.app.applicationId
          : null,
      activeGroup: () => (this.app && isActive(this.app) ? this.app.applicationId : null),
    };
    this.topics = new TopicService(this.backend, guard);
    this.records = new RecordService(this.backend, guard);
    this.state = new StateQueries(
      () => {
        const deployed = this.deployed();
        return deployed ? { app: deployed.app, plan: planTopology(deployed.topology) } : null;
      },
      () => ({ ownServer: this.routedServer(), peers: this.peers }),
    );
    this.workspace = new WorkspaceService(
      new WorkspaceStore(join(dir.dataDir, 'workspace')),
      (doc) => this.validate(doc),
    );
  }

  /**
   * Takes the data dir's lock and opens the backend (in `<dataDir>/log`, or on Kafka); nothing is deployed
   * until `resume` or `deploy`. A data dir held by another process is DATA_DIR_LOCKED.
   */
  static async open(options: RuntimeServiceOptions): Promise<RuntimeService> {
    const dir = await openDataDir(options.dataDir, 'runtime', options.backend, options.logger);
    return new RuntimeService(dir, options.logger, options.code ?? EMPTY_REGISTRY);
  }

  /**
   * Validates against this runtime's registries too: a reference to a processor or function the
   * operator did not register is an error (unknown_processor / unknown_function).
   */
  validate(input: unknown): ReturnType<typeof validateTopology> {
    return validateTopology(input, registryNames(this.code));
  }

  /**
   * What deploy judges a topology by: this runtime's registries and the partition counts of the
   * topics that exist on its backend (an existing topic keeps its count whatever is declared), so
   * a join that would fail at start as not co-partitioned is refused before anything stops.
   */
  async validateHere(input: unknown): Promise<ReturnType<typeof validateTopology>> {
    return validateTopology(input, {
      ...registryNames(this.code),
      existingTopics: await this.existingTopics(),
    });
  }

  /** Name → partition count of every topic on the backend. */
  async existingTopics(): Promise<Record<string, number>> {
    const topics = await this.backend.listTopics();
    return Object.fromEntries(topics.map((t) => [t.name, t.partitions]));
  }

  /**
   * Where this instance answers state queries of other instances (application.server), and the
   * token its forwarded queries carry. Apps created afterwards get application.server on Kafka.
   */
  setQueryEndpoint(applicationServer: string, peerToken: string | null): void {
    this.applicationServer = applicationServer;
    this.peerToken = peerToken;
  }

  /** application.server of the running app when its queries are routed (Kafka), else null. */
  private routedServer(): string | null {
    return this.backend.kind === 'kafka' ? this.applicationServer : null;
  }

  /** Writes the URL into the data dir's lock, so a refused CLI command can point to it. */
  async announceUrl(url: string): Promise<void> {
    await this.dir.lock.setUrl(url);
  }

  /** Redeploys the saved topology, and starts it if it was running when the runtime stopped. */
  async resume(): Promise<void> {
    await this.serial.run(async () => {
      let saved;
      try {
        saved = await this.store.load();
      } catch (error) {
        const aside = await this.store.quarantine();
        this.logger.error(
          { err: error, movedTo: aside },
          'the saved deployment is unreadable; starting with nothing deployed',
        );
        return;
      }
      if (!saved) return;
      let imported = importTopology(JSON.stringify(saved.topology));
      if (imported.ok) imported = this.validate(imported.topology);
      if (!imported.ok) {
        this.logger.error(
          { errors: imported.errors },
          'the saved topology no longer validates (or refers to processors or functions this runtime was not started with); nothing resumed',
        );
        return;
      }
      this.logger.info(
        { applicationId: imported.topology.application.id, running: saved.running },
        'resuming the saved deployment',
      );
      await this.install(imported.topology, saved.running, 'start');
    });
  }

  /** Deploys the example topology and starts it, unless something is deployed already. */
  async deployExampleIfEmpty(): Promise<boolean> {
    return this.serial.run(async () => {
      if (this.deployment) return false;
      const result = validateTopology(exampleTopology());
      if (!result.ok)
        throw new Error(`the example topology is invalid: ${JSON.stringify(result.errors)}`);
      this.logger.info(
        { applicationId: result.topology.application.id },
        'deploying the example topology',
      );
      await this.install(result.topology, true);
      return true;
    });
  }

  /**
   * Validates first (with the backend's topics): an invalid topology deploys nothing and leaves
   * the running app alone. A valid one that the engine refuses, or that fails before it runs,
   * is not a server error either: the previous version is kept (refused while building) or
   * started again from its committed offsets (failed at start), and the answer — like
   * `app.status`'s lastFailure until the next deploy — says why.
   */
  async deploy(input: unknown, start: boolean): Promise<DeployResult> {
    const result = await this.validateHere(input);
    if (!result.ok) return { ok: false, errors: result.errors };
    return this.serial.run(async () => {
      this.assertOpen();
      const previous = this.deployment;
      const previousApp = this.app;
      const previousRan = previousApp !== null && isActive(previousApp);
      try {
        const { app, warnings } = await this.install(result.topology, start);
        const deployment = this.deployment!.identity;
        return { ok: true as const, status: this.statusOf(app), warnings, deployment };
      } catch (error) {
        if (runtimeCodeOf(error) !== 'APP_FAILED') throw error;
        // Refused while building, the old app was never stopped; otherwise it was.
        const built =
          this.deployment !== previous || (previousRan && !isActive(previousApp as StreamsApp));
        const kept = built
          ? previous && previousRan
            ? await this.restore(previous)
            : false
          : true;
        const failure = this.lastFailure;
        if (failure) this.lastFailure = { ...failure, previousVersionKept: kept && previousRan };
        const reason = error instanceof Error ? error.message : String(error);
        const outcome = !previousRan
          ? built
            ? 'it is deployed but not running'
            : 'nothing was deployed'
          : kept
            ? built
              ? 'the previous version runs again, from its committed offsets'
              : 'the previous version keeps running'
            : 'the previous version could not be started again either (see the log)';
        return {
          ok: false as const,
          errors: [
            {
              path: '',
              code: 'start_failed' as const,
              message: `${reason}; ${outcome}`,
              fix: 'correct the cause and deploy again',
            },
          ],
          failed: {
            previousVersionKept: kept && previousRan,
            status: this.app ? this.statusOf(this.app) : null,
          },
        };
      }
    });
  }

  /**
   * After a new version failed to start: the previous deployment again, saved as running and
   * started from its committed offsets. The failure stays in lastFailure until the next deploy.
   */
  private async restore(previous: Deployment): Promise<boolean> {
    const failure = this.lastFailure;
    await this.closeApp();
    this.deployment = previous;
    await this.store.save({ topology: previous.document, running: true, deployedAt: Date.now() });
    try {
      const app = this.createApp(previous.topology);
      await this.startApp(app, 'deploy');
      this.logger.warn(
        { applicationId: previous.identity.applicationId, failure: failure?.message },
        'the new version failed to start; the previous version runs again',
      );
      return true;
    } catch (error) {
      this.logger.error({ err: error }, 'the previous version could not be started again');
      return false;
    } finally {
      // startApp clears it on success: the new version's failure is what the user must see
      this.lastFailure = failure;
    }
  }

  async start(): Promise<AppStatus> {
    return this.serial.run(async () => {
      this.assertOpen();
      const deployment = this.requireDeployment();
      if (this.app && isActive(this.app)) return this.statusOf(this.app);
      let app = this.app;
      if (!app || app.state() !== 'CREATED') {
        // A closed KafkaStreams instance cannot be restarted; a new one resumes from the
        // committed offsets, as a restarted Kafka Streams application would.
        if (app) await this.closeApp();
        app = this.createApp(deployment.topology);
      }
      await this.store.save({
        topology: deployment.document,
        running: true,
        deployedAt: Date.now(),
      });
      await this.startApp(app, 'start');
      return this.statusOf(app);
    });
  }

  async stop(): Promise<AppStatus> {
    return this.serial.run(async () => {
      this.assertOpen();
      const deployment = this.requireDeployment();
      await this.store.save({
        topology: deployment.document,
        running: false,
        deployedAt: Date.now(),
      });
      if (!this.app) throw new RuntimeError('NOT_DEPLOYED', 'no application exists to stop');
      await this.closeApp();
      return this.statusOf(this.app);
    });
  }

  /** Consumer lag of the application's group on each partition it reads. */
  async lag(): Promise<AppLag> {
    const deployment = this.requireDeployment();
    return computeLag(this.backend, planTopology(deployment.topology));
  }

  /**
   * Kafka's application reset tool, with the stop it requires: close the app (commit, close
   * stores), keep it stopped, reset its input offsets to the earliest, delete its internal
   * topics and its local state. The next start reprocesses the input from the beginning.
   */
  async reset(options: { dryRun?: boolean } = {}): Promise<ResetResult> {
    return this.serial.run(async () => {
      this.assertOpen();
      const deployment = this.requireDeployment();
      const plan = planTopology(deployment.topology);
      if (options.dryRun) {
        const report = await resetApplication(this.backend, plan, this.stateDir, true);
        return { ...report, status: this.app ? this.statusOf(this.app) : null };
      }
      await this.store.save({
        topology: deployment.document,
        running: false,
        deployedAt: Date.now(),
      });
      if (this.app) await this.closeApp();
      const report = await resetApplication(this.backend, plan, this.stateDir);
      this.logger.info({ ...report }, 'application reset');
      return { ...report, status: this.app ? this.statusOf(this.app) : null };
    });
  }

  /** The deployed app with its topology and its record sampler, or null with nothing deployed. */
  deployed(): DeployedApp | null {
    const sampler = this.app ? this.samplers.get(this.app) : undefined;
    const debug = this.app ? this.debuggers.get(this.app) : undefined;
    if (!this.app || !this.deployment || !sampler || !debug) return null;
    return { app: this.app, topology: this.deployment.topology, sampler, debugger: debug };
  }

  view(): AppView {
    return {
      deployed: this.deployment !== null,
      topology: this.deployment?.document ?? null,
      deployment: this.deployment?.identity ?? null,
      status: this.app ? this.statusOf(this.app) : null,
    };
  }

  live(): LiveView {
    return {
      at: Date.now(),
      deployment: this.deployment?.identity ?? null,
      status: this.app ? this.statusOf(this.app) : null,
      metrics: this.app?.metrics() ?? null,
    };
  }

  /** The app's status, with the runtime's last failure (it outlives app instances). */
  private statusOf(app: StreamsApp): AppStatus {
    const status = app.status();
    return { ...status, lastFailure: this.lastFailure ?? status.lastFailure };
  }

  /** The application state for /healthz, or null with nothing deployed. */
  appState(): string | null {
    return this.app?.state() ?? null;
  }

  /** The current metrics snapshot, or null with no application. */
  metrics(): MetricsSnapshot | null {
    return this.app?.metrics() ?? null;
  }

  /** Graceful: closes the app (commit, close stores), then the backend. Idempotent. */
  async close(): Promise<void> {
    await this.serial.run(async () => {
      if (this.closed) return;
      this.closed = true;
      try {
        if (this.app) await this.closeApp();
      } finally {
        await this.dir.close();
      }
      this.logger.info('runtime service closed');
    });
  }

  // ---- internals (callers hold the serial lock) ------------------------------------------------

  /** Replaces the deployment: close the old app, create topics, save, and start if asked. */
  private async install(
    topology: Topology,
    start: boolean,
    phase: 'deploy' | 'start' = 'deploy',
  ): Promise<{ app: StreamsApp; warnings: string[] }> {
    const document = canonicalDocument(topology);
    // Built before the old app is closed, so a topology the engine refuses leaves it running.
    let app: StreamsApp;
    try {
      app = this.createApp(topology);
    } catch (error) {
      this.noteFailure(phase, error, this.app !== null && isActive(this.app));
      throw error;
    }
    if (this.app) await this.closeApp();
    // What of the application config is not honoured here (also logged at WARN by start()).
    let warnings: string[];
    try {
      warnings = [
        ...app.configNotes().map((n) => `${n.path}: ${n.message}`),
        ...(await createMissingTopics(this.backend, topology, this.logger)),
      ];
    } catch (error) {
      this.noteFailure(phase, error, false);
      throw error;
    }
    const identity: DeploymentIdentity = {
      applicationId: topology.application.id,
      version: versionOf(document),
      deployedAt: Date.now(),
    };
    this.deployment = {
      topology,
      document,
      topics: topicsUsedBy(planTopology(topology)),
      identity,
    };
    this.app = app;
    await this.store.save({ topology: document, running: start, deployedAt: Date.now() });
    this.logger.info({ applicationId: topology.application.id, start }, 'deployed');
    if (start) await this.startApp(app, phase);
    else this.lastFailure = null;
    return { app, warnings };
  }

  /**
   * On Kafka, application.server is this instance's own endpoint (every instance deploys the same
   * topology document, so a value in it could only name one of them): it overrides the document's.
   */
  private withApplicationServer(topology: Topology): Topology {
    const own = this.routedServer();
    if (own === null) return topology;
    const given = topology.application.config?.['application.server'];
    if (given !== undefined && given !== own)
      this.logger.warn(
        { given, used: own },
        `application.server ${String(given)} of the topology is replaced by this instance's own endpoint ${own} (serve --application-server sets it)`,
      );
    return {
      ...topology,
      application: {
        ...topology.application,
        config: { ...topology.application.config, 'application.server': own },
      },
    };
  }

  private createApp(topology: Topology): StreamsApp {
    let app: StreamsApp;
    const plan = planTopology(topology);
    const sampler = new NodeSampler(plan);
    const debug = new AppDebugger(plan);
    try {
      app = createStreamsApp({
        topology: this.withApplicationServer(topology),
        processors: this.code.processors,
        valueTransformers: this.code.valueTransformers,
        functions: this.code.functions,
        partitioners: this.code.partitioners,
        // Stream threads in worker threads import the operator's module themselves.
        ...(this.code.module ? { workerModule: pathToFileURL(this.code.module).href } : {}),
        recordTap: sampler.tap,
        debugger: debug,
        backend: this.backend,
        stateDir: this.stateDir,
        logger: this.logger.child({ component: 'engine' }),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new RuntimeError('APP_FAILED', `the engine refused the topology: ${reason}`, {
        cause: error,
      });
    }
    this.samplers.set(app, sampler);
    this.debuggers.set(app, debug);
    app.onStateChange((next, previous) => {
      if (next === 'NOT_RUNNING' || next === 'ERROR') {
        sampler.close();
        debug.release();
      }
      // A fatal error (or a failed start) of the current app: kept for status until a success.
      if (next === 'ERROR' && app === this.app) this.lastFailure = app.status().lastFailure;
      const log =
        next === 'ERROR' ? this.logger.error.bind(this.logger) : this.logger.info.bind(this.logger);
      log(
        { applicationId: app.applicationId, from: previous, to: next },
        'application state changed',
      );
    });
    return app;
  }

  /** Starts `app`; `phase` names what failed, should it fail (app.status' lastFailure). */
  private async startApp(app: StreamsApp, phase: 'deploy' | 'start'): Promise<void> {
    this.app = app;
    try {
      await app.start();
      this.lastFailure = null;
    } catch (error) {
      const engine = app.status().lastFailure;
      this.lastFailure = {
        ...(engine ?? failureOf(phase, error, false)),
        phase,
        previousVersionKept: false,
      };
      const reason = error instanceof Error ? error.message : String(error);
      throw new RuntimeError('APP_FAILED', `the application failed to start: ${reason}`, {
        cause: error,
      });
    }
  }

  private async closeApp(): Promise<void> {
    const app = this.app;
    if (!app) return;
    try {
      await app.close();
    } catch (error) {
      // A failed close must not block a redeploy or shutdown; the error is kept in the logs.
      this.logger.error(
        { err: error, applicationId: app.applicationId },
        'the application did not close cleanly',
      );
    }
  }

  private noteFailure(phase: LastFailure['phase'], error: unknown, kept: boolean): void {
    this.lastFailure = failureOf(phase, error, kept);
    this.logger.error({ err: error, phase }, `${phase} failed`);
  }

  private requireDeployment(): Deployment {
    if (!this.deployment)
      throw new RuntimeError('NOT_DEPLOYED', 'nothing is deployed: deploy a topology first');
    return this.deployment;
  }

  private assertOpen(): void {
    if (this.closed) throw new RuntimeError('SHUTTING_DOWN', 'the runtime is shutting down');
  }
}

function failureOf(phase: LastFailure['phase'], error: unknown, kept: boolean): LastFailure {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    phase,
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
    at: Date.now(),
    previousVersionKept: kept,
  };
}

function isActive(app: StreamsApp): boolean {
  const state = app.state();
  return state === 'RUNNING' || state === 'REBALANCING';
}

/** The layout says where nodes are drawn, not what runs: moving one is the same topology. */
function versionOf(document: TopologyDocument): string {
  const { layout: _layout, ...running } = document;
  return createHash('sha256').update(JSON.stringify(running)).digest('hex').slice(0, 16);
}

function canonicalDocument(topology: Topology): TopologyDocument {
  return JSON.parse(exportTopology(topology)) as TopologyDocument;
}
