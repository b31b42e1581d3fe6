// The entry of a stream thread running in a worker_thread. It compiles the plan itself (CEL is
// compiled per thread), takes TypeScript code from the worker module, reaches the main thread's
// backend through a port, keeps its metrics in shared memory owned by the main thread's registry,
// and reports state changes, errors and logs to the main thread (worker-stream-thread.ts).
//
// The app's side of it is a session (worker-session.ts). A worker spawned for the pool
// (WorkerInit.pooled) does not exit when its session ends: once the session has let go of
// everything, it checks that it holds no more handles than before its first app (ports, ref'd
// timers, sockets, file requests: process.getActiveResourcesInfo()), reports itself 'idle' with
// what it still holds, and runs the next app's session when the main thread sends 'assign'.
import { parentPort, workerData } from 'node:worker_threads';
import type { EngineLogger } from '../../api.js';
import { errorMessage } from '../../errors.js';
import { toWire } from './backend-server.js';
import type { ThreadCommand, ThreadEvent, WorkerInit } from './worker-messages.js';
import { WorkerSession } from './worker-session.js';

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

/** The handles this worker held once its first app's code had loaded (the module's own). */
let baseline: Map<string, number> | null = null;
let session: WorkerSession | null = null;

port.on('message', (m: ThreadCommand) => {
  if (m.type === 'assign') begin(m.init);
  else session?.command(m);
});
begin(workerData as WorkerInit);

function begin(init: WorkerInit): void {
  const current = new WorkerSession(init, {
    post,
    logger,
    onCodeLoaded: () => (baseline ??= resourceCounts()),
  });
  session = current;
  current.run().then(
    async () => {
      session = null;
      if (!init.pooled) return port.close(); // nothing holds the worker any more: it exits
      // worker-entry.ts writes V8's code cache then, if this worker is the one to write it.
      (process as NodeJS.EventEmitter).emit('streamwright:worker-idle');
      post({ type: 'idle', leftovers: await leftovers() });
    },
    (error: unknown) => post({ type: 'start-failed', error: toWire(error) }),
  );
}

function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

/**
 * What the worker holds beyond its baseline once the session is over, [] when nothing. A port's
 * close takes effect on a later turn of the event loop: this waits up to ~50 ms for it.
 */
async function leftovers(): Promise<string[]> {
  let extra: string[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    extra = [];
    for (const [kind, n] of resourceCounts()) {
      const over = n - (baseline?.get(kind) ?? 0);
      for (let i = 0; i < over; i++) extra.push(kind);
    }
    if (extra.length === 0) break;
  }
  return extra;
}

function loggable(obj: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = v instanceof Error ? errorMessage(v) : v;
  return out;
}
