import type { MetricsSnapshot, MetricValues, TaskState, TaskStatus } from '../api.js';
import type { TopicPartition } from '../backend-spi.js';
import {
  BufferMetrics,
  CacheMetrics,
  NodeMetrics,
  STORE_OPERATIONS,
  StoreMetrics,
  TASK_STATE_CODES,
  TaskMetrics,
  ThreadMetrics,
  newSlots,
} from './metric-groups.js';
import { RateTracker } from './rate-tracker.js';

/** What status() shows of a task besides its counters. */
export interface TaskInfo {
  subtopology: number;
  partitions: TopicPartition[];
}

/**
 * Where a new group's shared memory comes from. On the main thread it is allocated here; in a
 * worker thread it is the main thread's registry that allocates it (see thread/worker/), so that
 * every group exists once per application and a task's counters continue when it moves between
 * threads.
 */
export interface SlotSource {
  thread(name: string): SharedArrayBuffer;
  task(taskId: string, info: TaskInfo | undefined): SharedArrayBuffer;
  node(taskId: string, nodeName: string): SharedArrayBuffer;
  /** A state store's, record cache's or suppression buffer's group (recorded at DEBUG only). */
  state(kind: StateGroupKind, taskId: string, name: string, scope: string): SharedArrayBuffer;
}

export type StateGroupKind = 'store' | 'cache' | 'buffer';

/**
 * One registry per application, holding Kafka Streams' thread-, task- and processor-node-level
 * metrics under their Kafka Streams names (docs/ENGINE.md#metrics lists them all). Task and node
 * metrics survive a task moving between threads of the same app, so counters never jump back.
 */
export class MetricsRegistry {
  readonly threads = new Map<string, ThreadMetrics>();
  readonly tasks = new Map<string, TaskMetrics>();
  readonly taskInfo = new Map<string, TaskInfo>();
  readonly nodes = new Map<string, Map<string, NodeMetrics>>();
  /** State-store metrics (recorded at metrics.recording.level DEBUG, as Kafka Streams). */
  readonly stores = new Map<string, Map<string, { scope: string; metrics: StoreMetrics }>>();
  /** Record caches (Kafka's stream-record-cache-metrics, DEBUG): task id → store name. */
  readonly caches = new Map<string, Map<string, CacheMetrics>>();
  /** Suppression buffers' stream-state-metrics (DEBUG): task id → buffer (store) name. */
  readonly buffers = new Map<string, Map<string, BufferMetrics>>();
  readonly #rates = new RateTracker();
  #timer: NodeJS.Timeout | null = null;

  constructor(
    readonly applicationId: string,
    private readonly nodeModelIds: Record<string, string>,
    private readonly now: () => number = Date.now,
    private readonly source: SlotSource | null = null,
  ) {}

  thread(name: string): ThreadMetrics {
    let m = this.threads.get(name);
    if (!m)
      this.threads.set(
        name,
        (m = new ThreadMetrics(this.source?.thread(name) ?? newSlots(ThreadMetrics.SLOTS))),
      );
    return m;
  }

  task(taskId: string, info?: TaskInfo): TaskMetrics {
    let m = this.tasks.get(taskId);
    if (!m)
      this.tasks.set(
        taskId,
        (m = new TaskMetrics(this.source?.task(taskId, info) ?? newSlots(TaskMetrics.SLOTS))),
      );
    if (info) this.taskInfo.set(taskId, info);
    return m;
  }

  node(taskId: string, nodeName: string): NodeMetrics {
    let byNode = this.nodes.get(taskId);
    if (!byNode) this.nodes.set(taskId, (byNode = new Map()));
    let m = byNode.get(nodeName);
    if (!m)
      byNode.set(
        nodeName,
        (m = new NodeMetrics(this.source?.node(taskId, nodeName) ?? newSlots(NodeMetrics.SLOTS))),
      );
    return m;
  }

  /**
   * A store's metrics (`scope`: Kafka's store type tag, `in-memory` or `lmdb`). A worker thread's
   * registry gets the main registry's memory, so its tasks' store metrics show there too.
   */
  store(taskId: string, storeName: string, scope: string): StoreMetrics {
    let byStore = this.stores.get(taskId);
    if (!byStore) this.stores.set(taskId, (byStore = new Map()));
    let m = byStore.get(storeName);
    if (!m) {
      const buffer =
        this.source?.state('store', taskId, storeName, scope) ?? newSlots(StoreMetrics.SLOTS);
      byStore.set(storeName, (m = { scope, metrics: new StoreMetrics(buffer) }));
    }
    m.scope = scope;
    return m.metrics;
  }

  /** A record cache's hit ratio (Kafka's record-cache-id is the store's name). */
  cache(taskId: string, storeName: string): CacheMetrics {
    return this.#stateGroup(this.caches, 'cache', taskId, storeName, CacheMetrics);
  }

  /** A suppression buffer's size and count. */
  buffer(taskId: string, storeName: string): BufferMetrics {
    return this.#stateGroup(this.buffers, 'buffer', taskId, storeName, BufferMetrics);
  }

  #stateGroup<G extends CacheMetrics | BufferMetrics>(
    groups: Map<string, Map<string, G>>,
    kind: StateGroupKind,
    taskId: string,
    name: string,
    Group: { new (buffer: SharedArrayBuffer): G; readonly SLOTS: number },
  ): G {
    let byName = groups.get(taskId);
    if (!byName) groups.set(taskId, (byName = new Map()));
    let m = byName.get(name);
    if (!m)
      byName.set(
        name,
        (m = new Group(this.source?.state(kind, taskId, name, '') ?? newSlots(Group.SLOTS))),
      );
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

  /**
   * The tasks some stream thread currently owns (in any thread of the process: a worker writes its
   * tasks' state into their shared slots), sorted by sub-topology and partition.
   */
  taskStatuses(threadName: (index: number) => string): TaskStatus[] {
    const out: TaskStatus[] = [];
    for (const [taskId, m] of this.tasks) {
      const owner = m.ownerThread;
      const info = this.taskInfo.get(taskId);
      if (owner === 0 || !info) continue;
      out.push({
        taskId,
        subtopology: info.subtopology,
        partitions: info.partitions.map((tp) => ({ topic: tp.topic, partition: tp.partition })),
        thread: threadName(owner),
        state: (TASK_STATE_CODES[m.stateCode] ?? 'CREATED') as TaskState,
        // The task writes NaN while it has no stream time yet.
        streamTime: Number.isNaN(m.streamTime) ? null : m.streamTime,
        restoredRecords: m.restoreTotal,
        restoreRemainingRecords: m.restoreRemainingRecordsTotal,
        ...(m.standby === 1 ? { standby: true, standbyLag: m.standbyLag } : {}),
      });
    }
    return out.sort(
      (a, b) => a.subtopology - b.subtopology || partitionOf(a.taskId) - partitionOf(b.taskId),
    );
  }

  snapshot(): MetricsSnapshot {
    const at = this.now();
    this.#sample(at);
    const rate = (key: string, total: number): number => this.#rates.rate(key, total, at);
    const ratio = (key: string, totalMs: number): number => Math.min(1, rate(key, totalMs) / 1000);
    const threads: Record<string, MetricValues> = {};
    for (const [name, m] of this.threads) {
      const k = `t:${name}:`;
      threads[name] = {
        'process-total': m.processTotal,
        'process-rate': rate(`${k}process`, m.processTotal),
        'process-latency-avg': avg(m.processLatencySum, m.processIterations),
        'process-latency-max': m.processLatencyMax,
        'process-records-avg': avg(m.processTotal, m.processIterations),
        'process-records-max': m.processRecordsMax,
        'process-ratio': ratio(`${k}processTime`, m.processTimeMs),
        'poll-total': m.pollTotal,
        'poll-rate': rate(`${k}poll`, m.pollTotal),
        'poll-latency-avg': avg(m.pollLatencySum, m.pollTotal),
        'poll-latency-max': m.pollLatencyMax,
        'poll-records-avg': avg(m.pollRecordsTotal, m.pollTotal),
        'poll-records-max': m.pollRecordsMax,
        'poll-ratio': ratio(`${k}pollTime`, m.pollTimeMs),
        'commit-total': m.commitTotal,
        'commit-rate': rate(`${k}commit`, m.commitTotal),
        'commit-latency-avg': avg(m.commitLatencySum, m.commitTotal),
        'commit-latency-max': m.commitLatencyMax,
        'commit-ratio': ratio(`${k}commitTime`, m.commitTimeMs),
        'punctuate-total': m.punctuateTotal,
        'punctuate-rate': rate(`${k}punctuate`, m.punctuateTotal),
        'punctuate-latency-avg': avg(m.punctuateLatencySum, m.punctuateCalls),
        'punctuate-latency-max': m.punctuateLatencyMax,
        'punctuate-ratio': ratio(`${k}punctuateTime`, m.punctuateTimeMs),
        'task-created-total': m.taskCreatedTotal,
        'task-created-rate': rate(`${k}taskCreated`, m.taskCreatedTotal),
        'task-closed-total': m.taskClosedTotal,
        'task-closed-rate': rate(`${k}taskClosed`, m.taskClosedTotal),
        'blocked-time-ns-total': m.blockedTimeNs,
        'thread-start-time': m.startTime,
      };
    }
    const tasks: Record<string, MetricValues> = {};
    for (const [id, m] of this.tasks) {
      const k = `k:${id}:`;
      tasks[id] = {
        'process-total': m.processTotal,
        'process-rate': rate(`${k}process`, m.processTotal),
        'process-latency-avg': avg(m.processLatencySum, m.processTurns),
        'process-latency-max': m.processLatencyMax,
        'active-process-ratio': ratio(`${k}active`, m.activeTimeMs),
        'dropped-records-total': m.droppedRecordsTotal,
        'dropped-records-rate': rate(`${k}dropped`, m.droppedRecordsTotal),
        'record-lateness-avg': avg(m.recordLatenessSum, m.recordLatenessCount),
        'record-lateness-max': m.recordLatenessMax,
        'enforced-processing-total': m.enforcedProcessingTotal,
        'enforced-processing-rate': rate(`${k}enforced`, m.enforcedProcessingTotal),
        'restore-total': m.restoreTotal,
        'restore-rate': rate(`${k}restore`, m.restoreTotal),
        'restore-remaining-records-total': m.restoreRemainingRecordsTotal,
        'update-total': m.updateTotal,
        'update-rate': rate(`${k}update`, m.updateTotal),
      };
    }
    const nodes: Record<string, Record<string, MetricValues>> = {};
    for (const [taskId, byNode] of this.nodes) {
      const out: Record<string, MetricValues> = {};
      for (const [name, m] of byNode) {
        const k = `n:${taskId}:${name}:`;
        const processRate = rate(`${k}process`, m.processTotal);
        const values: MetricValues = {
          'process-total': m.processTotal,
          'process-rate': processRate,
          // Streamwright's: the share of a thread's time this node spends on its own work
          // (sampled time per record over the rate window, times the rate), as Flink's busy time.
          'busy-ratio': busyRatio(
            rate(`${k}busyTime`, m.busyTimeMs),
            rate(`${k}busySamples`, m.busySamples),
            processRate,
          ),
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
    const snapshot: MetricsSnapshot = {
      at,
      applicationId: this.applicationId,
      threads,
      tasks,
      nodes,
      nodeModelIds: { ...this.nodeModelIds },
    };
    if (this.stores.size > 0 || this.buffers.size > 0) snapshot.stores = this.#storeValues(rate);
    if (this.caches.size > 0) snapshot.caches = this.#cacheValues();
    return snapshot;
  }

  /** Kafka Streams' stream-state-metrics: <op>-latency-avg|max (ns), <op>-rate, restore-rate. */
  #storeValues(
    rate: (key: string, total: number) => number,
  ): NonNullable<MetricsSnapshot['stores']> {
    const out: NonNullable<MetricsSnapshot['stores']> = {};
    for (const [taskId, byStore] of this.stores) {
      const task: Record<string, { scope: string; values: MetricValues }> = {};
      for (const [name, { scope, metrics: m }] of byStore) {
        const values: MetricValues = {};
        for (const op of STORE_OPERATIONS) {
          values[`${op}-latency-avg`] = m.latencyAvgNs(op);
          values[`${op}-latency-max`] = m.latencyMaxNs(op);
          values[`${op}-rate`] = rate(`s:${taskId}:${name}:${op}`, m.total(op));
        }
        // Records restored per second (Kafka's restore-rate counts records, not calls).
        values['restore-rate'] = rate(`s:${taskId}:${name}:restored`, m.restoredRecordsTotal);
        task[name] = { scope, values };
      }
      out[taskId] = task;
    }
    // Kafka reports a suppression buffer's metrics as a store of type in-memory-suppression.
    for (const [taskId, byName] of this.buffers) {
      const task = (out[taskId] ??= {});
      for (const [name, m] of byName)
        task[name] = {
          scope: 'in-memory-suppression',
          values: {
            'suppression-buffer-size-avg': m.sizeAvg(),
            'suppression-buffer-size-max': m.sizeMax(),
            'suppression-buffer-count-avg': m.countAvg(),
            'suppression-buffer-count-max': m.countMax(),
          },
        };
    }
    return out;
  }

  /** Kafka Streams' stream-record-cache-metrics; absent before the first hit (Kafka: NaN). */
  #cacheValues(): NonNullable<MetricsSnapshot['caches']> {
    const out: NonNullable<MetricsSnapshot['caches']> = {};
    for (const [taskId, byName] of this.caches) {
      const task: Record<string, MetricValues> = {};
      for (const [name, m] of byName) {
        const r = m.hitRatio();
        task[name] = Number.isNaN(r.avg)
          ? {}
          : { 'hit-ratio-avg': r.avg, 'hit-ratio-min': r.min, 'hit-ratio-max': r.max };
      }
      out[taskId] = task;
    }
    return out;
  }

  #sample(at: number): void {
    const r = this.#rates;
    for (const [name, m] of this.threads) {
      const k = `t:${name}:`;
      r.record(`${k}process`, m.processTotal, at);
      r.record(`${k}processTime`, m.processTimeMs, at);
      r.record(`${k}poll`, m.pollTotal, at);
      r.record(`${k}pollTime`, m.pollTimeMs, at);
      r.record(`${k}commit`, m.commitTotal, at);
      r.record(`${k}commitTime`, m.commitTimeMs, at);
      r.record(`${k}punctuate`, m.punctuateTotal, at);
      r.record(`${k}punctuateTime`, m.punctuateTimeMs, at);
      r.record(`${k}taskCreated`, m.taskCreatedTotal, at);
      r.record(`${k}taskClosed`, m.taskClosedTotal, at);
    }
    for (const [id, m] of this.tasks) {
      const k = `k:${id}:`;
      r.record(`${k}process`, m.processTotal, at);
      r.record(`${k}active`, m.activeTimeMs, at);
      r.record(`${k}dropped`, m.droppedRecordsTotal, at);
      r.record(`${k}enforced`, m.enforcedProcessingTotal, at);
      r.record(`${k}restore`, m.restoreTotal, at);
    }
    for (const [taskId, byNode] of this.nodes) {
      for (const [name, m] of byNode) {
        const k = `n:${taskId}:${name}:`;
        r.record(`${k}process`, m.processTotal, at);
        r.record(`${k}busyTime`, m.busyTimeMs, at);
        r.record(`${k}busySamples`, m.busySamples, at);
      }
    }
    for (const [taskId, byStore] of this.stores) {
      for (const [name, { metrics: m }] of byStore) {
        for (const op of STORE_OPERATIONS) r.record(`s:${taskId}:${name}:${op}`, m.total(op), at);
        r.record(`s:${taskId}:${name}:restored`, m.restoredRecordsTotal, at);
      }
    }
  }
}

/** Sampled ms per record (both rates over the same window) × records per second, as a share of 1 s. */
function busyRatio(busyMsRate: number, samplesRate: number, processRate: number): number {
  if (samplesRate === 0) return 0;
  return Math.min(1, ((busyMsRate / samplesRate) * processRate) / 1000);
}

function avg(sum: number, count: number): number {
  return count === 0 ? 0 : sum / count;
}

function partitionOf(taskId: string): number {
  return Number(taskId.slice(taskId.indexOf('_') + 1));
}
