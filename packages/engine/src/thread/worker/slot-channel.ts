// Metric groups (metrics/metric-groups.ts) live in shared memory that the main thread's registry
// owns, so a task's counters continue when it moves between threads and metrics()/status() read
// workers' counters directly. A worker creates tasks synchronously (StreamTask's constructor asks
// the registry for its groups), so it fetches a group's memory synchronously too: it posts the
// request, blocks on Atomics.wait until the main thread has answered, and takes the answer with
// receiveMessageOnPort. This happens when tasks are created (rebalances), never per record; the
// main thread answers from its event loop and never blocks on a worker, so it cannot deadlock.
// The same channel answers the worker's first look at a topic's producer metadata (once per
// topic), which the production exception handler's per-record check needs synchronously.
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type {
  MetricsRegistry,
  SlotSource,
  StateGroupKind,
  TaskInfo,
} from '../../metrics/metrics-registry.js';
import type { ProducerTopicMetadata } from '@streamwright/log/encoder';
import type { SlotRequest } from './protocol.js';

/** What the worker gets: two ports and the flag both sides use. */
export interface SlotChannelEnd {
  requests: MessagePort;
  replies: MessagePort;
  flag: SharedArrayBuffer;
}

const WAIT_MS = 30_000;

/** Main thread: answers slot requests from `registry`. Returns the worker's end and a closer. */
export function serveSlots(
  registry: MetricsRegistry,
  /** null: no such topic; undefined: the backend cannot say (the worker does not check). */
  topicMetadata: (topic: string) => ProducerTopicMetadata | null | undefined = () => undefined,
): { end: SlotChannelEnd; close: () => void } {
  const requests = new MessageChannel();
  const replies = new MessageChannel();
  const flag = new SharedArrayBuffer(4);
  const signal = new Int32Array(flag);
  requests.port1.on('message', (req: SlotRequest) => {
    let buffer: SharedArrayBuffer | ProducerTopicMetadata | null | undefined;
    switch (req.group) {
      case 'topic':
        buffer = topicMetadata(req.topic);
        break;
      case 'thread':
        buffer = registry.thread(req.name).values.buffer as SharedArrayBuffer;
        break;
      case 'task':
        buffer = registry.task(req.taskId, req.info).values.buffer as SharedArrayBuffer;
        break;
      case 'node':
        buffer = registry.node(req.taskId, req.nodeName).values.buffer as SharedArrayBuffer;
        break;
      case 'state':
        buffer = stateGroup(registry, req.kind, req.taskId, req.name, req.scope).values
          .buffer as SharedArrayBuffer;
        break;
    }
    replies.port1.postMessage(buffer);
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  });
  requests.port1.unref();
  return {
    end: { requests: requests.port2, replies: replies.port2, flag },
    close: () => {
      requests.port1.close();
      replies.port1.close();
    },
  };
}

/** Worker: a SlotSource that asks the main thread's registry, synchronously. */
export function remoteSlots(end: SlotChannelEnd): SlotSource {
  const request = syncRequester(end) as (req: SlotRequest) => SharedArrayBuffer;
  return {
    thread: (name) => request({ group: 'thread', name }),
    task: (taskId: string, info: TaskInfo | undefined) => request({ group: 'task', taskId, info }),
    node: (taskId, nodeName) => request({ group: 'node', taskId, nodeName }),
    state: (kind, taskId, name, scope) => request({ group: 'state', kind, taskId, name, scope }),
  };
}

/**
 * Worker: a topic's producer metadata from the main thread's log (null: no such topic;
 * undefined: the backend cannot say).
 */
export function remoteTopicMetadata(
  end: SlotChannelEnd,
): (topic: string) => ProducerTopicMetadata | null | undefined {
  const request = syncRequester(end);
  return (topic) => request({ group: 'topic', topic }) as ProducerTopicMetadata | null | undefined;
}

function syncRequester(end: SlotChannelEnd): (req: SlotRequest) => unknown {
  const signal = new Int32Array(end.flag);
  return (req: SlotRequest): unknown => {
    Atomics.store(signal, 0, 0);
    end.requests.postMessage(req);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const reply = receiveMessageOnPort(end.replies);
      if (reply !== undefined) return reply.message;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `the main thread did not answer a ${req.group} request within ${WAIT_MS} ms`,
        );
      // Woken by the main thread's notify (or re-check after a short wait: the reply may already
      // be queued when the flag was set before we started waiting).
      Atomics.wait(signal, 0, 0, Math.min(left, 50));
      Atomics.store(signal, 0, 0);
    }
  };
}

function stateGroup(
  registry: MetricsRegistry,
  kind: StateGroupKind,
  taskId: string,
  name: string,
  scope: string,
): { values: Float64Array } {
  switch (kind) {
    case 'store':
      return registry.store(taskId, name, scope);
    case 'cache':
      return registry.cache(taskId, name);
    case 'buffer':
      return registry.buffer(taskId, name);
  }
}
