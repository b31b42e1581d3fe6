import type { MetricsSnapshot } from '@streamwright/engine';
import type { Client } from './harness.js';

type AppView = Awaited<ReturnType<Client['app']['status']['query']>>;
type LiveView = AppView['status'];

export interface MetricsEvent {
  /** Milliseconds since the subscription was opened. */
  after: number;
  data: {
    at: number;
    deployment: AppView['deployment'];
    status: LiveView;
    metrics: MetricsSnapshot | null;
  };
}

/** Subscribes to `metrics` and resolves with the first `count` events. */
export function collectMetrics(
  client: Client,
  count: number,
  timeoutMs = 10_000,
): Promise<MetricsEvent[]> {
  return new Promise((resolve, reject) => {
    const events: MetricsEvent[] = [];
    const started = Date.now();
    const timer = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error(`only ${events.length} of ${count} metrics events in ${timeoutMs} ms`));
    }, timeoutMs);
    const subscription = client.metrics.subscribe(undefined, {
      onData(data) {
        events.push({ after: Date.now() - started, data: data as MetricsEvent['data'] });
        if (events.length === count) {
          clearTimeout(timer);
          subscription.unsubscribe();
          resolve(events);
        }
      },
      onError(error) {
        clearTimeout(timer);
        subscription.unsubscribe();
        reject(error);
      },
    });
  });
}

/** Sums a processor-node metric over all tasks, per model node id. */
export function perModelNode(metrics: MetricsSnapshot, metric: string): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const nodes of Object.values(metrics.nodes)) {
    for (const [name, values] of Object.entries(nodes)) {
      const id = metrics.nodeModelIds[name] ?? name;
      totals[id] = (totals[id] ?? 0) + (values[metric] ?? 0);
    }
  }
  return totals;
}

/** Sums a task metric over all tasks. */
export function taskSum(metrics: MetricsSnapshot, metric: string): number {
  return Object.values(metrics.tasks).reduce((sum, values) => sum + (values[metric] ?? 0), 0);
}
