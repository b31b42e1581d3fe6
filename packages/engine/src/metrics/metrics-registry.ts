import type { MetricsSnapshot, MetricValues } from '../api.js';
import { NodeMetrics, TaskMetrics, ThreadMetrics } from './metric-groups.js';
import { RateTracker } from './rate-tracker.js';

/**
 * One registry per application, holding Kafka Streams' thread-, task- and processor-node-level
 * metrics under their Kafka Streams names. Task and node metrics survive a task moving between
 * threads of the same app, so counters in the UI never jump back.
 */
export class MetricsRegistry {
  readonly threads = new Map<string, ThreadMetrics>();
  readonly tasks = new Map<string, TaskMetrics>();
  readonly nodes = new Map<string, Map<string, NodeMetrics>>();
  readonly #rates = new RateTracker();
  #timer: NodeJS.Timeout | null = null;

  constructor(
    readonly applicationId: string,
    private readonly nodeModelIds: Record<string, string>,
    private readonly now: () => number = Date.now,
  ) {}

  thread(name: string): ThreadMetrics {
    let m = this.threads.get(name);
    if (!m) this.threads.set(name, (m = new ThreadMetrics()));
    return m;
  }

  task(taskId: string): TaskMetrics {
    let m = this.tasks.get(taskId);
    if (!m) this.tasks.set(taskId, (m = new TaskMetrics()));
    return m;
  }

  node(taskId: string, nodeName: string): NodeMetrics {
    let byNode = this.nodes.get(taskId);
    if (!byNode) this.nodes.set(taskId, (byNode = new Map()));
    let m = byNode.get(nodeName);
    if (!m) byNode.set(nodeName, (m = new NodeMetrics()));
    return m;
  }

  /** Samples totals every second so rates stay meaningful however rarely snapshots are taken. */
  startSampling(): void {
    if (this.#timer) return;
    this.#sample(this.now());
    this.#timer = setInterval(() => this.#sample(this.now()), 1000);
    this.#timer.unref();
  }

  stopSampling(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  snapshot(): MetricsSnapshot {
    const at = this.now();
    this.#sample(at);
    const rate = (key: string, total: number) => this.#rates.rate(key, total, at);
    const threads: Record<string, MetricValues> = {};
    for (const [name, m] of this.threads) {
      threads[name] = {
        'process-total': m.processTotal,
        'process-rate': rate(`t:${name}:process`, m.processTotal),
        'commit-total': m.commitTotal,
        'commit-rate': rate(`t:${name}:commit`, m.commitTotal),
        'poll-total': m.pollTotal,
        'poll-rate': rate(`t:${name}:poll`, m.pollTotal),
        'punctuate-total': m.punctuateTotal,
        'punctuate-rate': rate(`t:${name}:punctuate`, m.punctuateTotal),
      };
    }
    const tasks: Record<string, MetricValues> = {};
    for (const [id, m] of this.tasks) {
      tasks[id] = {
        'process-total': m.processTotal,
        'process-rate': rate(`k:${id}:process`, m.processTotal),
        'dropped-records-total': m.droppedRecordsTotal,
        'dropped-records-rate': rate(`k:${id}:dropped`, m.droppedRecordsTotal),
        'record-lateness-max': m.recordLatenessMax,
        'record-lateness-avg': m.recordLatenessCount === 0 ? 0 : m.recordLatenessSum / m.recordLatenessCount,
        'enforced-processing-total': m.enforcedProcessingTotal,
        'restore-total': m.restoreTotal,
        'restore-remaining-records-total': m.restoreRemainingRecordsTotal,
      };
    }
    const nodes: Record<string, Record<string, MetricValues>> = {};
    for (const [taskId, byNode] of this.nodes) {
      const out: Record<string, MetricValues> = {};
      for (const [name, m] of byNode) {
        const values: MetricValues = {
          'process-total': m.processTotal,
          'process-rate': rate(`n:${taskId}:${name}:process`, m.processTotal),
          'records-consumed-total': m.recordsConsumedTotal,
          'records-produced-total': m.recordsProducedTotal,
        };
        // Kafka reports NaN before the first sample; JSON has no NaN, so the keys are absent.
        if (m.e2eCount > 0) {
          values['record-e2e-latency-avg'] = m.e2eSum / m.e2eCount;
          values['record-e2e-latency-min'] = m.e2eMin;
          values['record-e2e-latency-max'] = m.e2eMax;
        }
        out[name] = values;
      }
      nodes[taskId] = out;
    }
    return { at, applicationId: this.applicationId, threads, tasks, nodes, nodeModelIds: { ...this.nodeModelIds } };
  }

  #sample(at: number): void {
    for (const [name, m] of this.threads) {
      this.#rates.record(`t:${name}:process`, m.processTotal, at);
      this.#rates.record(`t:${name}:commit`, m.commitTotal, at);
      this.#rates.record(`t:${name}:poll`, m.pollTotal, at);
      this.#rates.record(`t:${name}:punctuate`, m.punctuateTotal, at);
    }
    for (const [id, m] of this.tasks) {
      this.#rates.record(`k:${id}:process`, m.processTotal, at);
      this.#rates.record(`k:${id}:dropped`, m.droppedRecordsTotal, at);
    }
    for (const [taskId, byNode] of this.nodes) {
      for (const [name, m] of byNode) this.#rates.record(`n:${taskId}:${name}:process`, m.processTotal, at);
    }
  }
}
