// What a stream thread is given (StreamThreadContext) and what the application needs of one
// (StreamThreadHandle), whether it runs on the main thread (stream-thread.ts) or in a worker
// (worker/worker-stream-thread.ts).
import type { EngineLogger, ProcessingError } from '../api.js';
import type { Backend, PartitionAssignor, Recovery } from '../backend-spi.js';
import type { Waiter } from '../app/waiting.js';
import type { EngineConfig } from '../app/config.js';
import type { StateMachine } from '../lifecycle/state-machine.js';
import type { ThreadState } from '../lifecycle/states.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import type { CompiledSubtopology } from '../processor/compile.js';
import type { PauseGate } from '../debug/pause-gate.js';

export interface StreamThreadContext {
  backend: Backend;
  config: EngineConfig;
  subtopologies: CompiledSubtopology[];
  assignor: PartitionAssignor;
  metrics: MetricsRegistry;
  logger: EngineLogger;
  onError: (error: ProcessingError) => void;
  /** An error's dead-letter copy was written: `error.deadLetter` now has its partition and offset. */
  onDeadLetterWritten?: (error: ProcessingError) => void;
  /** A task failed under log-and-fail, or the thread hit an unexpected error. */
  onFatal: (thread: StreamThreadHandle, error: unknown) => void;
  /**
   * The thread's part in waiting out a backend outage (app/waiting.ts): told of each transient
   * failure (it answers the backoff) and of the next successful backend call.
   */
  waiter: Waiter;
  /** A loud recovery (a position reset past the log end) for the application's status. */
  onRecovery: (recovery: Recovery) => void;
  /** Where the thread stops between records while a debugger holds the app (src/debug/). */
  pauseGate?: PauseGate;
}

/** What the application needs of a stream thread, on this thread or in a worker. */
export interface StreamThreadHandle {
  readonly name: string;
  readonly index: number;
  readonly lifecycle: StateMachine<ThreadState>;
  readonly state: ThreadState;
  /** Resolves once the thread has joined the group. */
  start(): Promise<void>;
  /** Asks the loop to finish its batch, commit, close its tasks and leave the group. */
  requestStop(): void;
  stopped(): Promise<void>;
}
