// What the main thread gives a worker at start, and what the worker reports back.
import type { MessagePort } from 'node:worker_threads';
import type { Plan } from '@streamwright/topology-model';
import type { ProcessingError } from '../../api.js';
import type { Backend, Recovery, TransientFailure, WorkerClientsInit } from '../../backend-spi.js';
import type { EngineConfig } from '../../app/config.js';
import type { StoreQuery, StoreQueryAnswer } from '../../app/store-query.js';
import type { ThreadState } from '../../lifecycle/states.js';
import type { BackendCapabilities } from './backend-capabilities.js';
import type { WireError } from './protocol.js';
import type { SlotChannelEnd } from './slot-channel.js';

export interface WorkerInit {
  /** `<n>` of `<application.id>-StreamThread-<n>`. */
  index: number;
  plan: Plan;
  config: EngineConfig;
  /** URL of the module holding the TypeScript code the topology refers to, or null. */
  workerModule: string | null;
  backendPort: MessagePort;
  /** The main thread's backend's kind (Backend#kind), for the worker's BackendClient to report. */
  backendKind: Backend['kind'];
  /**
   * What the main thread's backend can do for the worker: take batches encoded here, hand out
   * segment files to read here; otherwise records cross packed in one buffer (wire.ts).
   */
  backendCapabilities: BackendCapabilities;
  /** The thread's own produce and fetch clients (Backend#workerClients), when the backend has them. */
  clients?: WorkerClientsInit;
  slots: SlotChannelEnd;
  /**
   * The worker goes idle after this app instead of exiting ('idle'), for the process's worker
   * pool (worker-pool.ts) to give to a later app ('assign').
   */
  pooled: boolean;
}

/** Worker → main, on the worker's parentPort. */
export type ThreadEvent =
  /** Code loaded, plan compiled, global tables loaded: waiting for 'join'. */
  | { type: 'ready' }
  | { type: 'started' }
  | { type: 'start-failed'; error: WireError }
  | { type: 'state'; state: ThreadState }
  /** `id`: for a dead-letter copy's later 'dead-letter' event. */
  | { type: 'error'; error: ProcessingError; id: number }
  /** Where the dead-letter copy of error `id` was written (known once its flush is acknowledged). */
  | { type: 'dead-letter'; id: number; partition: number; offset: number }
  /** The thread stops the app: a task failed under log-and-fail (detail) or something unexpected. */
  | { type: 'fatal'; error: WireError; detail: ProcessingError | null }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; obj: Record<string, unknown>; msg?: string }
  /**
   * The worker's thread (`who`: or its global-table replica) cannot reach the cluster (a
   * transient failure: app/waiting.ts), reaches it again, or stopped while waiting.
   */
  | { type: 'wait'; who: 'thread' | 'global'; failure: TransientFailure }
  | { type: 'wait-over'; who: 'thread' | 'global'; stopped: boolean }
  /** A loud recovery for the application's status (a position reset). */
  | { type: 'recovery'; recovery: Recovery }
  | { type: 'stopped' }
  /**
   * A pooled worker's session is over and released. `leftovers`: handles it holds beyond those of
   * its first app's code once loaded (a port, a ref'd timer…); any makes it ineligible for reuse.
   */
  | { type: 'idle'; leftovers: string[] }
  /** The answer to interactive query `id` (store-query.ts), run on this worker's stores. */
  | { type: 'query-result'; id: number; ok: true; answer: StoreQueryAnswer }
  | { type: 'query-result'; id: number; ok: false; error: WireError };

/**
 * Main → worker: 'join' once every worker of the app is ready (its thread then starts); 'query'
 * runs an interactive query on the worker's stores; 'assign' gives an idle pooled worker its next
 * app (its ports in the message's transfer list).
 */
export type ThreadCommand =
  | { type: 'join' }
  | { type: 'stop' }
  | { type: 'query'; id: number; query: StoreQuery }
  | { type: 'assign'; init: WorkerInit };
