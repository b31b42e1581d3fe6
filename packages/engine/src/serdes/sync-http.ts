// Blocking HTTP for the schema registry serdes. Serdes are synchronous (as Kafka's are: Confluent's
// Java serializer blocks on its registry calls too), so a cache miss waits for the registry here:
// one helper thread does the fetch, and the calling thread sleeps on a shared flag
// (Atomics.wait) until the answer is posted, then reads it with receiveMessageOnPort. Only cache
// misses come here (a schema's first use), never the per-record path.
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

export interface SyncHttpRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
}

export interface SyncHttpResponse {
  status: number;
  body: string;
}

// The helper's code, evaluated as CommonJS in its own thread (no file: the engine is also bundled
// into its worker script, where a path next to this module would not exist).
const HELPER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ request, port, flag }) => {
  let answer;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    answer = { status: response.status, body: await response.text() };
  } catch (error) {
    answer = { error: String(error && error.cause ? error.message + ': ' + error.cause.message : error && error.message || error) };
  }
  port.postMessage(answer);
  port.close();
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

let helper: Worker | null = null;

function helperThread(): Worker {
  if (helper === null) {
    helper = new Worker(HELPER, { eval: true });
    // Never keeps the process alive on its own.
    helper.unref();
    helper.on('error', () => (helper = null));
    helper.on('exit', () => (helper = null));
  }
  return helper;
}

/**
 * Sends `request` and blocks until its answer (or `timeoutMs` plus a second, then throws).
 * @throws Error naming the URL when the server cannot be reached or does not answer in time.
 */
export function syncHttp(request: SyncHttpRequest): SyncHttpResponse {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  try {
    helperThread().postMessage({ request, port: port2, flag }, [port2]);
    // The helper's fetch has its own timeout; the extra second covers a helper that died.
    const waited = Atomics.wait(flag, 0, 0, request.timeoutMs + 1000);
    const message = receiveMessageOnPort(port1)?.message as
      (SyncHttpResponse & { error?: undefined }) | { error: string } | undefined;
    if (message === undefined) {
      throw new Error(
        `${request.method} ${request.url}: no answer within ${request.timeoutMs} ms (${waited})`,
      );
    }
    if (message.error !== undefined)
      throw new Error(`${request.method} ${request.url}: ${message.error}`);
    return message as SyncHttpResponse;
  } finally {
    port1.close();
  }
}
