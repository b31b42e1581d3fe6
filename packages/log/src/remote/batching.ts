// The log's thread answers RemoteLog calls in batches: what it sends within one turn of its event
// loop (typically the answers to all the produce calls one fsync acknowledged) travels as one
// message, so the worker pays one wake-up and one deserialisation per burst instead of per call.
// A single message goes out as it is. (Calls are not batched: each is posted at once, so the log's
// thread appends one produce call's batches while the worker encodes the next.)
import type { MessagePort } from 'node:worker_threads';

export class MessageBatcher {
  private queue: unknown[] = [];
  private transfer: ArrayBuffer[] = [];
  private scheduled = false;

  constructor(private readonly port: MessagePort) {}

  /** Queues `message` (with the buffers it moves) for the end of this turn of the event loop. */
  send(message: unknown, transfer: readonly ArrayBuffer[] = []): void {
    this.queue.push(message);
    for (const t of transfer) this.transfer.push(t);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Posts what is queued now (also before the port closes). */
  flush(): void {
    this.scheduled = false;
    const queue = this.queue;
    if (queue.length === 0) return;
    // A buffer may appear once in a transfer list.
    const transfer = queue.length === 1 ? this.transfer : [...new Set(this.transfer)];
    this.queue = [];
    this.transfer = [];
    this.port.postMessage(queue.length === 1 ? queue[0] : { batch: queue }, transfer);
  }
}

/** Calls `handle` for each message a MessageBatcher posted in `data`. */
export function eachMessage<T>(data: T | { batch: T[] }, handle: (message: T) => void): void {
  if (data !== null && typeof data === 'object' && 'batch' in data && Array.isArray(data.batch))
    for (const m of data.batch as T[]) handle(m);
  else handle(data as T);
}
