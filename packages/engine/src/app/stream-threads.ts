// The application's stream threads: num.stream.threads of them, on this event loop (one
// thread) or each in a worker thread (several), with the callbacks they report through. Apart
// from streams-app.ts because the two kinds of thread take different contexts and start
// differently; the lifecycle only needs their handles.
import type { Plan } from '@streamwright/topology-model';
import type { EngineLogger, ProcessingError } from '../api.js';
import type { Backend, PartitionAssignor, Recovery } from '../backend-spi.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import type { CompiledSubtopology } from '../processor/compile.js';
import { StreamThread, threadName, type StreamThreadHandle } from '../thread/stream-thread.js';
import type { PauseGate } from '../debug/pause-gate.js';
import { JoinGate } from '../thread/worker/join-gate.js';
import { WorkerStreamThread } from '../thread/worker/worker-stream-thread.js';
import type { EngineConfig } from './config.js';
import type { WaitRegistry } from './waiting.js';

export interface StreamThreadsOptions {
  backend: Backend;
  config: EngineConfig;
  plan: Plan;
  /** The stream sub-topologies (global ones are the global state updater's). */
  subtopologies: CompiledSubtopology[];
  assignor: PartitionAssignor;
  metrics: MetricsRegistry;
  logger: EngineLogger;
  waits: WaitRegistry;
  onError: (error: ProcessingError) => void;
  onFatal: (thread: StreamThreadHandle, error: unknown) => void;
  onRecovery: (recovery: Recovery) => void;
  /** In worker threads (num.stream.threads > 1): the module with the topology's code. */
  workerModule: string | null;
  /** Asked when a worker's thread stopped: may the worker go back to the pool? */
  reusable: () => boolean;
  /** On this event loop only: where a debugger holds the thread between records. */
  pauseGate?: PauseGate;
}

/** The threads, created but not started; workers when num.stream.threads > 1. */
export function createStreamThreads(o: StreamThreadsOptions): StreamThreadHandle[] {
  const inWorkers = o.config.numStreamThreads > 1;
  const joinGate = new JoinGate(o.config.numStreamThreads);
  const threads: StreamThreadHandle[] = [];
  for (let i = 1; i <= o.config.numStreamThreads; i++) {
    const common = {
      backend: o.backend,
      config: o.config,
      assignor: o.assignor,
      metrics: o.metrics,
      logger: o.logger,
      onError: o.onError,
      onFatal: o.onFatal,
      onRecovery: o.onRecovery,
    };
    threads.push(
      inWorkers
        ? new WorkerStreamThread(i, {
            ...common,
            waits: o.waits,
            plan: o.plan,
            workerModule: o.workerModule,
            joinGate,
            reusable: o.reusable,
          })
        : new StreamThread(i, {
            ...common,
            waiter: o.waits.waiter(threadName(o.config.applicationId, i)),
            subtopologies: o.subtopologies,
            ...(o.pauseGate ? { pauseGate: o.pauseGate } : {}),
          }),
    );
  }
  return threads;
}

/**
 * Starts the threads. Workers load and compile in parallel, then their threads join the group
 * together; a thread on this event loop joins on its own.
 */
export async function startStreamThreads(threads: readonly StreamThreadHandle[]): Promise<void> {
  if (threads.some((t) => t instanceof WorkerStreamThread)) {
    await Promise.all(threads.map((t) => (t as WorkerStreamThread).load()));
    await Promise.all(threads.map((t) => t.start()));
  } else for (const t of threads) await t.start();
}
