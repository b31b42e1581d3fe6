// One designer node, task by task: how many records each task's instance of the node processed,
// its rate now and its busy share. Kafka Streams runs a copy of every processor in each task of
// its sub-topology; a hot partition or a slow task shows here and nowhere in the node's sums.
import type { NodeMetricsInput } from './counters.js';
import { recentRates, type TotalsSample } from './recent-rate.js';

/** Per (model node, task): keyed `<model node id> <task id>` (a space: ids never contain one). */
export interface NodeTaskTotals {
  /** `process-total`: the largest over the model node's Kafka Streams nodes (counters.ts). */
  totals: Readonly<Record<string, number>>;
  /** `busy-ratio` summed over the model node's Kafka Streams nodes: the share of its thread. */
  busy: Readonly<Record<string, number>>;
}

export const EMPTY_NODE_TASKS: NodeTaskTotals = { totals: {}, busy: {} };

const keyOf = (modelId: string, taskId: string) => `${modelId} ${taskId}`;
const finite = (v: number | undefined): number => (v !== undefined && Number.isFinite(v) ? v : 0);

export function nodeTaskTotals(snapshot: NodeMetricsInput | null): NodeTaskTotals {
  const totals: Record<string, number> = {};
  const busy: Record<string, number> = {};
  for (const [taskId, byNode] of Object.entries(snapshot?.nodes ?? {})) {
    for (const [ksName, values] of Object.entries(byNode)) {
      const modelId = snapshot?.nodeModelIds[ksName];
      if (modelId === undefined) continue;
      const key = keyOf(modelId, taskId);
      totals[key] = Math.max(totals[key] ?? 0, finite(values['process-total']));
      busy[key] = (busy[key] ?? 0) + finite(values['busy-ratio']);
    }
  }
  return { totals, busy };
}

export interface NodeTaskRow {
  taskId: string;
  /**
   * The instance (its application.server) running the task, on Kafka when the app reports its
   * instances; null on the embedded backend.
   */
  instance: string | null;
  /** The stream thread that runs the task (from the app's status), or null when not known. */
  thread: string | null;
  /** Records processed; null for a task another instance runs (its metrics are there). */
  total: number | null;
  /** Records/s over the last 5 s; null until two samples exist. */
  rate: number | null;
  /** Share of its thread's time, 0..1; null for a task another instance runs. */
  busy: number | null;
}

/** An instance of the app and its active tasks (the app status's `instances`). */
export interface InstanceActiveTasks {
  host: string;
  self: boolean;
  activeTasks: readonly string[];
}

/** Task ids as Kafka Streams orders them: by sub-topology, then partition (`0_2` before `0_10`). */
function byTaskId(a: string, b: string): number {
  const [sa, pa] = a.split('_').map(Number);
  const [sb, pb] = b.split('_').map(Number);
  return (sa ?? 0) - (sb ?? 0) || (pa ?? 0) - (pb ?? 0) || a.localeCompare(b);
}

export function nodeTaskRows(
  modelId: string,
  current: NodeTaskTotals,
  history: readonly TotalsSample[],
  threads: Readonly<Record<string, string>>,
): NodeTaskRow[] {
  const prefix = `${modelId} `;
  const rates = recentRates(history);
  return Object.keys(current.totals)
    .filter((key) => key.startsWith(prefix))
    .map((key) => {
      const taskId = key.slice(prefix.length);
      return {
        taskId,
        instance: null,
        thread: threads[taskId] ?? null,
        total: current.totals[key]!,
        rate: rates[key] ?? null,
        busy: Math.min(1, current.busy[key] ?? 0),
      };
    })
    .sort((a, b) => byTaskId(a.taskId, b.taskId));
}

/**
 * The rows with the instance that runs each task: this instance's own rows, and a row (without
 * numbers: they live on that instance) for each task of the node's sub-topologies that another
 * instance runs. Rows are returned unchanged when the app reports no instances (embedded).
 */
export function withInstances(
  rows: readonly NodeTaskRow[],
  instances: readonly InstanceActiveTasks[] | undefined,
  subtopologies: ReadonlySet<number>,
): NodeTaskRow[] {
  if (!instances || instances.length === 0) return [...rows];
  const self = instances.find((i) => i.self)?.host ?? null;
  const own = new Set(rows.map((r) => r.taskId));
  const ofNode = (taskId: string) =>
    subtopologies.has(Number(taskId.split('_')[0])) ||
    rows.some((r) => r.taskId.split('_')[0] === taskId.split('_')[0]);
  const remote: NodeTaskRow[] = instances
    .filter((i) => !i.self)
    .flatMap((i) =>
      i.activeTasks
        .filter((t) => ofNode(t) && !own.has(t))
        .map((taskId) => ({
          taskId,
          instance: i.host,
          thread: null,
          total: null,
          rate: null,
          busy: null,
        })),
    );
  return [...rows.map((r) => ({ ...r, instance: self })), ...remote].sort((a, b) =>
    byTaskId(a.taskId, b.taskId),
  );
}
