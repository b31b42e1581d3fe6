// The entry of a stream thread running in a worker_thread. It compiles the plan itself (CEL is
// compiled per thread), takes TypeScript code from the worker module, reaches the main thread's
// backend through a port, keeps its metrics in shared memory owned by the main thread's registry,
// and reports state changes, errors and logs to the main thread (worker-stream-thread.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { EngineLogger, ProcessingError } from '../../api.js';
import { GlobalStateUpdater } from '../../app/global-state.js';
import { answerStoreQuery } from '../../app/store-query.js';
import { errorMessage } from '../../errors.js';
import { MetricsRegistry } from '../../metrics/metrics-registry.js';
import { compilePlan } from '../../processor/compile.js';
import { FailedProcessingError } from '../../processor/processing-failure.js';
import type { CodeRegistries } from '../../processor/registries.js';
import { StreamThread } from '../stream-thread.js';
import { toWire } from './backend-server.js';
import { BackendClient } from './backend-client.js';
import { loadCodeModule } from './code-module.js';
import { remoteSlots, remoteTopicMetadata } from './slot-channel.js';
import type { ThreadCommand, ThreadEvent, WorkerInit } from './worker-messages.js';

const init = workerData as WorkerInit;
const port = parentPort!;

function post(event: ThreadEvent): void {
  try {
    port.postMessage(event);
  } catch {
    // A value that cannot be cloned (a decoded record holding a function, say): send it as JSON.
    port.postMessage(
      JSON.parse(
        JSON.stringify(event, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      ) as ThreadEvent,
    );
  }
}

const logger: EngineLogger = {
  info: (obj, msg) =>
    post({ type: 'log', level: 'info', obj: loggable(obj), ...(msg !== undefined ? { msg } : {}) }),
  warn: (obj, msg) =>
    post({ type: 'log', level: 'warn', obj: loggable(obj), ...(msg !== undefined ? { msg } : {}) }),
  error: (obj, msg) =>
    post({
      type: 'log',
      level: 'error',
      obj: loggable(obj),
      ...(msg !== undefined ? { msg } : {}),
    }),
};

// A stop may arrive while the worker is still loading: it is remembered, and the thread then never
// starts (or stops right after its start, which StreamThread handles).
let stopRequested = false;
let stopThread: (() => void) | null = null;
// The thread joins its group when the main thread says so: after every worker of the app loaded.
let joinNow!: () => void;
const joinSignal = new Promise<void>((resolve) => (joinNow = resolve));
// The thread whose tasks' stores answer interactive queries (none before it exists: no stores).
let queried: StreamThread | null = null;
port.on('message', (m: ThreadCommand) => {
  if (m.type === 'join') return joinNow();
  if (m.type === 'query') {
    try {
      const stores = [];
      for (const task of queried?.tasks.values() ?? []) stores.push(...task.stores);
      post({ type: 'query-result', id: m.id, ok: true, answer: answerStoreQuery(m.query, stores) });
    } catch (error) {
      post({ type: 'query-result', id: m.id, ok: false, error: toWire(error) });
    }
    return;
  }
  stopRequested = true;
  joinNow();
  stopThread?.();
});

async function main(): Promise<void> {
  const registries: CodeRegistries =
    init.workerModule === null ? {} : await loadCodeModule(init.workerModule);
  const compiled = compilePlan(init.plan, registries);
  const backend = new BackendClient(init.backendPort);
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

  // Global tables: each worker keeps its own replica, loaded before its thread processes anything
  // (counted in a registry of its own: the main thread reports the global task's metrics).
  const globals = compiled.filter((s) => s.global);
  let global: GlobalStateUpdater | null = null;
  if (globals.length > 0) {
    global = new GlobalStateUpdater(backend, globals, {
      config: init.config,
      metrics: new MetricsRegistry(init.config.applicationId, {}),
      logger,
      onError,
      onFatal: (error) => post({ type: 'fatal', error: toWire(error), detail: null }),
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
    onFatal: (_thread, error) =>
      post({
        type: 'fatal',
        error: toWire(error),
        detail: error instanceof FailedProcessingError ? error.detail : null,
      }),
  });
  thread.lifecycle.onChange((state) => post({ type: 'state', state }));
  queried = thread;

  // Closing every port lets the worker exit on its own.
  const release = async (): Promise<void> => {
    await global?.stop();
    post({ type: 'stopped' });
    await backend.close();
    init.slots.requests.close();
    init.slots.replies.close();
    port.close();
  };
  const shutdown = async (): Promise<void> => {
    await thread.stopped();
    await release();
  };
  if (stopRequested) return release();
  post({ type: 'ready' });
  await joinSignal;
  if (stopRequested) return release();
  await thread.start();
  post({ type: 'started' });
  stopThread = () => {
    thread.requestStop();
    void shutdown();
  };
  if (stopRequested) stopThread();
}

main().catch((error: unknown) => {
  post({ type: 'start-failed', error: toWire(error) });
});

function loggable(obj: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = v instanceof Error ? errorMessage(v) : v;
  return out;
}
