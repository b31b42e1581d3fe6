// The running app's vital signs over time, for the dashboard (what a Flink UI user looks at
// first): records in and out per second, consumer lag, end-to-end latency and restore progress,
// one sample per metrics tick, the last 10 minutes kept.
import type { TopologyDocument } from '@streamwright/topology-model';
import type { CounterMap, TaskCounterMap } from '../live/counters.js';

export const HISTORY_MS = 10 * 60_000;

export interface AppSample {
  /** Epoch ms of the metrics tick. */
  at: number;
  /** Records/s read by the sources, tables and global tables (their current rates summed). */
  inRate: number;
  /** Records/s written by the sinks. */
  outRate: number;
  /** Records waiting in the input topics (app.lag), null before the first answer. */
  lag: number | null;
  /** The largest end-to-end latency of the tasks, ms; null before a sample. */
  e2eLatencyMs: number | null;
  /** Changelog records still to restore, summed over tasks. */
  restoreRemaining: number;
}

const INPUT_KINDS = new Set(['source', 'table', 'globalTable']);

/** One sample from what the designer already holds (counters, task counters, lag). */
export function sampleOf(input: {
  at: number;
  doc: Pick<TopologyDocument, 'nodes'> | null;
  counters: CounterMap;
  taskCounters: TaskCounterMap;
  lagByPartition: Readonly<Record<string, number | null>>;
}): AppSample {
  let inRate = 0;
  let outRate = 0;
  for (const node of input.doc?.nodes ?? []) {
    const rate = input.counters[node.id]?.rate ?? 0;
    if (INPUT_KINDS.has(node.kind)) inRate += rate;
    else if (node.kind === 'sink') outRate += rate;
  }
  let lag: number | null = null;
  for (const v of Object.values(input.lagByPartition)) if (v !== null) lag = (lag ?? 0) + v;
  let e2e: number | null = null;
  let restore = 0;
  for (const t of Object.values(input.taskCounters)) {
    if (t.e2eLatency !== null) e2e = Math.max(e2e ?? 0, t.e2eLatency);
    restore += t.restoreRemaining;
  }
  return { at: input.at, inRate, outRate, lag, e2eLatencyMs: e2e, restoreRemaining: restore };
}

/** Appends a sample (once per tick) and drops what is older than HISTORY_MS. */
export function appendSample(history: readonly AppSample[], sample: AppSample): AppSample[] {
  const last = history.at(-1);
  if (last && last.at >= sample.at) return history as AppSample[];
  const edge = sample.at - HISTORY_MS;
  const kept = history.filter((s) => s.at > edge);
  kept.push(sample);
  return kept;
}
