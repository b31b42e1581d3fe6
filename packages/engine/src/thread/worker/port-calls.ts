// The worker's side of the backend port (backend-server.ts is the main thread's): numbered calls
// and their answers, long polls the consumer's wakeup can end early, and the server's own messages
// (group assignments and revocations) handed to whoever handles them. Errors come back as
// WireErrors and are rebuilt here with the classes the stream thread tells apart.
import type { MessagePort } from 'node:worker_threads';
import {
  BackendClosedError,
  BackendUnavailableError,
  EngineError,
  ProducerFencedError,
  type EngineErrorCode,
} from '../../errors.js';
import type { BackendCall, ClientMessage, ServerMessage, WireError } from './protocol.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export type GroupMessage = Exclude<ServerMessage, { kind: 'result' }>;

export class PortCalls {
  readonly #port: MessagePort;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;

  constructor(port: MessagePort, onGroupMessage: (m: GroupMessage) => void) {
    this.#port = port;
    port.on('message', (m: ServerMessage) => {
      if (m.kind !== 'result') return onGroupMessage(m);
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(fromWire(m.error));
    });
  }

  call(call: BackendCall, transfer?: ArrayBuffer[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(new BackendClosedError());
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.post({ kind: 'call', id, ...call } as ClientMessage, transfer);
    });
  }

  post(message: ClientMessage, transfer?: ArrayBuffer[]): void {
    if (!this.#closed) this.#port.postMessage(message, transfer);
  }

  /** A call the main thread may park (a long poll); `signal` (the consumer's wakeup) ends it early. */
  async longPoll(
    call: Extract<BackendCall, { op: 'fetchMany' | 'readPlans' }>,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    // call() takes the next id: remember it for the abort message.
    const id = this.#nextId;
    const onAbort = (): void => this.post({ kind: 'abort', id });
    // Already woken: answer with what is there now.
    const pending = this.call(signal?.aborted ? { ...call, maxWaitMs: 0 } : call);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await pending;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Fails every call still waiting and closes the port. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const p of this.#pending.values()) p.reject(new BackendClosedError());
    this.#pending.clear();
    this.#port.close();
  }
}

function fromWire(w: WireError): Error {
  // The thread tells a fenced producer (TaskMigrated) from other failures by its class.
  if (w.code === 'PRODUCER_FENCED') return new ProducerFencedError(w.message);
  // The stream thread waits such a failure out (app/waiting.ts).
  if (w.code === 'BACKEND_UNAVAILABLE')
    return new BackendUnavailableError(w.brokers ?? [], w.reason ?? w.message);
  if (w.code !== undefined) {
    const error = new EngineError(w.code as EngineErrorCode, w.message, {
      retriable: w.retriable ?? false,
    });
    error.name = w.name;
    return error;
  }
  const error = new Error(w.message);
  error.name = w.name;
  return error;
}
