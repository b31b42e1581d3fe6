// Per-model-node counters from the runtime's metrics snapshot. Kafka Streams reports processor
// metrics per task and per Kafka Streams node; a designer node is one model node, so its count is
// the sum over tasks. When one model node plans into several Kafka Streams nodes (e.g. a
// repartition sink/source pair), the first of them sees every record entering the model node and
// the later ones see no more, so the largest per-node sum is what entered the model node.

export interface NodeCounter {
  /** `process-total` summed over tasks. */
  total: number;
  /** `process-rate` (records/s) summed over tasks. */
  rate: number;
}

/** A model node's counters with its busy share. */
export interface ModelNodeCounter extends NodeCounter {
  /**
   * `busy-ratio` (sampled processing time, exclusive of the nodes it forwards to) summed over
   * its Kafka Streams nodes and tasks, divided by the stream threads: the share of the app's
   * processing time this node takes (Flink's busy time, shown like NiFi's bars).
   */
  busy: number;
}

/** A task's counters and health (Kafka Streams' task-level metrics). */
export interface TaskCounter extends NodeCounter {
  /** `dropped-records-total`: records the task dropped (deserialization, skipped, expired). */
  dropped: number;
  /** `record-lateness-max`, ms: how far behind stream time the latest-arriving record was. */
  latenessMax: number;
  /** `restore-remaining-records-total`: changelog records still to restore. */
  restoreRemaining: number;
  /** The largest `record-e2e-latency-avg` of the task's nodes (terminal nodes), ms; null before a sample. */
  e2eLatency: number | null;
}
export type TaskCounterMap = Readonly<Record<string, TaskCounter>>;

export interface NodeMetricsInput {
  tasks?: Record<string, Record<string, number>>;
  threads?: Record<string, unknown>;
  nodes: Record<string, Record<string, Record<string, number>>>;
  nodeModelIds: Record<string, string>;
}

export type CounterMap = Readonly<Record<string, ModelNodeCounter>>;

const finite = (v: number | undefined): number => (v !== undefined && Number.isFinite(v) ? v : 0);

/**
 * Aggregates a snapshot into per-model-node counters. Entries equal to `previous` keep their
 * identity (and the whole map does when nothing changed), so node components subscribed to
 * their own counter re-render only when it moved.
 */
export function aggregateCounters(
  snapshot: NodeMetricsInput | null,
  previous: CounterMap = {},
  /** Given each model node's total, the rates to show instead of process-rate (recent-rate.ts). */
  recent?: (totals: Record<string, number>) => Readonly<Record<string, number>>,
): CounterMap {
  const perKsNode = new Map<string, NodeCounter & { busy: number }>();
  if (snapshot) {
    for (const byNode of Object.values(snapshot.nodes)) {
      for (const [ksName, values] of Object.entries(byNode)) {
        const acc = perKsNode.get(ksName) ?? { total: 0, rate: 0, busy: 0 };
        acc.total += finite(values['process-total']);
        acc.rate += finite(values['process-rate']);
        acc.busy += finite(values['busy-ratio']);
        perKsNode.set(ksName, acc);
      }
    }
  }
  const threads = Math.max(1, Object.keys(snapshot?.threads ?? {}).length);
  const next: Record<string, ModelNodeCounter> = {};
  for (const [ksName, counter] of perKsNode) {
    const modelId = snapshot?.nodeModelIds[ksName];
    if (modelId === undefined) continue;
    const current = next[modelId];
    // Busy time is exclusive per Kafka Streams node, so a model node's is the sum of its nodes'.
    const busy = (current?.busy ?? 0) + counter.busy / threads;
    if (!current || counter.total > current.total)
      next[modelId] = { total: counter.total, rate: counter.rate, busy };
    else current.busy = busy;
  }
  if (recent) {
    const rates = recent(Object.fromEntries(Object.entries(next).map(([id, c]) => [id, c.total])));
    for (const [id, counter] of Object.entries(next)) {
      const rate = rates[id];
      if (rate !== undefined) counter.rate = rate;
    }
  }
  let changed = Object.keys(previous).length !== Object.keys(next).length;
  for (const [id, counter] of Object.entries(next)) {
    counter.busy = Math.min(1, Math.round(counter.busy * 1000) / 1000);
    const before = previous[id];
    if (
      before &&
      before.total === counter.total &&
      before.rate === counter.rate &&
      before.busy === counter.busy
    )
      next[id] = before;
    else changed = true;
  }
  return changed ? next : previous;
}

/** Task-level counters and health per task id, with the same reuse. */
export function taskCounters(
  tasks: Record<string, Record<string, number>> | null,
  previous: TaskCounterMap = {},
  nodes: Record<string, Record<string, Record<string, number>>> = {},
): TaskCounterMap {
  const next: Record<string, TaskCounter> = {};
  let changed = false;
  for (const [taskId, values] of Object.entries(tasks ?? {})) {
    let e2e: number | null = null;
    for (const v of Object.values(nodes[taskId] ?? {})) {
      const avg = v['record-e2e-latency-avg'];
      if (avg !== undefined && Number.isFinite(avg)) e2e = Math.max(e2e ?? 0, avg);
    }
    const counter: TaskCounter = {
      total: finite(values['process-total']),
      rate: finite(values['process-rate']),
      dropped: finite(values['dropped-records-total']),
      latenessMax: finite(values['record-lateness-max']),
      restoreRemaining: finite(values['restore-remaining-records-total']),
      e2eLatency: e2e,
    };
    const before = previous[taskId];
    if (
      before &&
      (Object.keys(counter) as (keyof TaskCounter)[]).every((k) => before[k] === counter[k])
    )
      next[taskId] = before;
    else {
      next[taskId] = counter;
      changed = true;
    }
  }
  if (Object.keys(previous).length !== Object.keys(next).length) changed = true;
  return changed ? next : previous;
}

const compact = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** "1,234" for totals; rates with one decimal ("12.5/s"). */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en');
}
export function formatRate(n: number): string {
  return `${compact.format(n)}/s`;
}
