// A stream thread's tasks (Kafka Streams' TaskManager): creating them for an assignment (from the
// committed offsets, restoring their state), committing and closing them on revocation, closing
// them dirty when the producer is fenced, and the record queues the thread's polls fill.
import type { TopicPartition } from '../backend-spi.js';
import { errorMessage, NoValidOffsetError } from '../errors.js';
import { transientFailureOf } from '../app/waiting.js';
import type { ThreadMetrics } from '../metrics/metric-groups.js';
import type { CompiledSubtopology } from '../processor/compile.js';
import type { ThreadCache } from '../state/record-cache.js';
import type { RecordCollector } from '../task/record-collector.js';
import { tpKey, type RecordQueue } from '../task/record-queue.js';
import { StreamTask, taskIdOf } from '../task/stream-task.js';
import { StandbyTask } from '../task/standby-task.js';
import type { FetchResponse } from '../backend-spi.js';
import type { StreamThreadContext } from './thread-context.js';

export interface TaskManagerOptions {
  ctx: StreamThreadContext;
  threadName: string;
  threadIndex: number;
  threadMetrics: ThreadMetrics;
  /** The thread's record cache (`statestore.cache.max.bytes` > 0), shared by its tasks. */
  threadCache: ThreadCache | null;
  /** The thread's current collector (exactly_once_v2 replaces it when the producer is renewed). */
  collector: () => RecordCollector;
  /** The thread's commit: flush output and changelogs, then commit the tasks' input offsets. */
  commit: (tasks: StreamTask[]) => Promise<void>;
  failTask: (task: StreamTask, error: unknown) => void;
}

export class TaskManager {
  /** Every task this thread ran or runs, for status (a revoked task leaves the map). */
  readonly tasks = new Map<string, StreamTask>();
  /** The input partitions of running tasks, by tpKey, with the queue a poll appends to. */
  readonly queues = new Map<string, { task: StreamTask; queue: RecordQueue }>();
  /** Standby replicas this thread keeps (num.standby.replicas, warm-ups), by task id. */
  readonly standbys = new Map<string, StandbyTask>();
  readonly #o: TaskManagerOptions;

  constructor(options: TaskManagerOptions) {
    this.#o = options;
  }

  running(): StreamTask[] {
    const out: StreamTask[] = [];
    for (const t of this.tasks.values()) if (t.state === 'RUNNING') out.push(t);
    return out;
  }

  /** Tasks reading any of these partitions. */
  owning(partitions: TopicPartition[]): StreamTask[] {
    const keys = new Set(partitions.map((tp) => tpKey(tp.topic, tp.partition)));
    return [...this.tasks.values()].filter((t) =>
      t.partitions.some((tp) => keys.has(tpKey(tp.topic, tp.partition))),
    );
  }

  async assign(assigned: TopicPartition[]): Promise<void> {
    const { subtopologies, config, metrics, backend } = this.#o.ctx;
    const wanted = new Map<
      string,
      { sub: CompiledSubtopology; partition: number; tps: TopicPartition[] }
    >();
    for (const tp of assigned) {
      const sub = subtopologies.find((s) => s.sourceTopics.includes(tp.topic));
      if (!sub) continue;
      const id = taskIdOf(sub.id, tp.partition);
      let w = wanted.get(id);
      if (!w) wanted.set(id, (w = { sub, partition: tp.partition, tps: [] }));
      w.tps.push(tp);
    }
    // Tasks no longer assigned (normally revoked already) are closed.
    await this.close(
      [...this.tasks.values()].filter((t) => !wanted.has(t.id) && t.state !== 'FAILED'),
    );
    const created: StreamTask[] = [];
    // Partition counts for custom partitioners (Kafka's producer asks partitionsFor per send;
    // topics exist with fixed counts once the application started).
    const counts = new Map<string, number>();
    if (wanted.size > 0)
      for (const t of await backend.listTopics()) counts.set(t.name, t.partitions);
    const partitionsFor = (topic: string): number | undefined => counts.get(topic);
    for (const [id, w] of wanted) {
      const existing = this.tasks.get(id);
      if (existing && existing.state !== 'CLOSED') continue;
      const task = new StreamTask({
        subtopology: w.sub,
        partition: w.partition,
        partitions: w.tps,
        collector: this.#o.collector(),
        threadCache: this.#o.threadCache,
        metrics,
        config,
        onError: this.#o.ctx.onError,
        ...(this.#o.ctx.onDeadLetterWritten
          ? { onDeadLetterWritten: this.#o.ctx.onDeadLetterWritten }
          : {}),
        checkRecord: backend.checkRecord?.bind(backend),
        partitionsFor,
        ...(this.#o.ctx.pauseGate ? { pauseGate: this.#o.ctx.pauseGate } : {}),
        onRecovery: this.#o.ctx.onRecovery,
      });
      this.tasks.set(id, task);
      task.metrics.ownerThread = this.#o.threadIndex;
      this.#o.threadMetrics.taskCreatedTotal++;
      created.push(task);
    }
    for (const task of created) {
      try {
        const committed = await backend.committedOffsets(config.applicationId, task.partitions);
        for (const tp of task.partitions) {
          const queue = task.partitionGroup.queue(tp.topic, tp.partition)!;
          const c = committed.get(`${tp.topic}:${tp.partition}`);
          queue.position = await this.#startPosition(task, tp, c ?? null);
          this.queues.set(tpKey(tp.topic, tp.partition), { task, queue });
        }
        // The restore consumer's isolation.level (read_committed under exactly_once_v2).
        const started = performance.now();
        await task.restore(backend, this.#o.ctx.config.restoreIsolationLevel);
        if (task.stores.length > 0) {
          // Kafka Streams: "Restoration took … ms for all stores", at INFO.
          const durationMs = Math.round(performance.now() - started);
          this.#o.ctx.logger.info(
            {
              thread: this.#o.threadName,
              taskId: task.id,
              records: task.metrics.restoreTotal,
              durationMs,
            },
            `task ${task.id}: restoration took ${durationMs} ms for all stores`,
          );
        }
      } catch (error) {
        if (transientFailureOf(backend, error) === null) {
          this.#o.failTask(task, error);
          continue;
        }
        // The cluster cannot be reached: the tasks not yet restored are dropped (nothing of them
        // ran) and made again, from the committed offsets, when the thread takes the assignment
        // again once the outage is waited out.
        this.#drop(created.filter((t) => t.state !== 'RUNNING'));
        throw error;
      }
    }
  }

  /**
   * The standby tasks of the assignment (AssignmentInfo): those no longer assigned are closed
   * (checkpointed), new ones open their stores from their checkpoints.
   */
  async assignStandbys(taskIds: readonly string[]): Promise<void> {
    const wanted = new Set(taskIds.filter((id) => !this.tasks.has(id)));
    this.closeStandbys([...this.standbys.keys()].filter((id) => !wanted.has(id)));
    const { subtopologies, config, metrics, backend } = this.#o.ctx;
    for (const id of wanted) {
      if (this.standbys.has(id)) continue;
      const [sub, partition] = id.split('_').map(Number) as [number, number];
      const subtopology = subtopologies.find((s) => s.id === sub);
      if (!subtopology) continue;
      const standby = new StandbyTask({
        subtopology,
        partition,
        config,
        metrics,
        threadIndex: this.#o.threadIndex,
        onRecovery: this.#o.ctx.onRecovery,
      });
      try {
        await standby.initialize(backend);
      } catch (error) {
        standby.close();
        throw error;
      }
      this.standbys.set(id, standby);
    }
  }

  /** Where the standbys fetch next, and which standby each changelog partition feeds. */
  standbyRequests(): { requests: { topic: string; partition: number; offset: number }[] } {
    return { requests: [...this.standbys.values()].flatMap((s) => s.requests()) };
  }

  applyStandbyRecords(responses: FetchResponse[]): void {
    for (const r of responses)
      for (const s of this.standbys.values()) if (s.partition === r.partition) s.apply(r);
  }

  checkpointStandbys(): void {
    for (const s of this.standbys.values()) s.checkpoint();
  }

  /** Closes (after a last checkpoint) the given standbys, or all of them. */
  closeStandbys(ids: readonly string[] = [...this.standbys.keys()]): void {
    for (const id of ids) {
      const standby = this.standbys.get(id);
      if (!standby) continue;
      this.standbys.delete(id);
      try {
        standby.close();
      } catch (error) {
        this.#o.ctx.logger.warn(
          { thread: this.#o.threadName, taskId: id, err: errorMessage(error) },
          'closing a standby task failed',
        );
      }
    }
  }

  /** Tasks that never ran: closed without a commit and forgotten. */
  #drop(tasks: StreamTask[]): void {
    for (const task of tasks) {
      task.close();
      this.#o.threadMetrics.taskClosedTotal++;
      for (const tp of task.partitions) this.queues.delete(tpKey(tp.topic, tp.partition));
      this.tasks.delete(task.id);
      task.metrics.ownerThread = 0;
    }
  }

  /**
   * Where a newly assigned partition starts: its committed offset when there is one inside the
   * log; none, or one before the log start (retention, deleteRecords), follows the reset policy
   * (an `offset-reset` recovery when a committed offset is abandoned). One past the log end is
   * left for the poll, which moves it to the log end (outOfRangePosition).
   */
  async #startPosition(
    task: StreamTask,
    tp: TopicPartition,
    committed: number | null,
  ): Promise<number> {
    if (committed === null) return (await this.outOfRangePosition(task, tp, null)).position;
    const range = await this.#range(tp);
    if (!range || committed >= range.earliest) return committed;
    const reset = await this.outOfRangePosition(task, tp, committed);
    const where = `${tp.topic}-${tp.partition}`;
    this.#o.ctx.onRecovery({
      at: Date.now(),
      kind: 'offset-reset',
      topic: tp.topic,
      partition: tp.partition,
      taskId: task.id,
      fromOffset: committed,
      toOffset: reset.position,
      message: `committed offset ${committed} of ${where} is before the log start ${range.earliest}; reset to ${reset.position} (task ${task.id}, auto.offset.reset=${this.policyOf(task, tp.topic)})`,
    });
    return reset.position;
  }

  /** A source's own reset policy, else the main consumer's auto.offset.reset. */
  policyOf(task: StreamTask, topic: string): 'earliest' | 'latest' | 'none' {
    return (
      task.graph.sourceByTopic.get(topic)?.source.offsetReset ?? this.#o.ctx.config.autoOffsetReset
    );
  }

  async #range(tp: TopicPartition): Promise<{ earliest: number; latest: number } | undefined> {
    const desc = await this.#o.ctx.backend.describeTopic(tp.topic);
    return desc?.offsets.find((o) => o.partition === tp.partition);
  }

  /**
   * Where a position outside the log (`from`; null: no committed offset) goes. Past the log end
   * (the log lost its tail: a torn write cut, a file truncated, a repair) it moves to the log end
   * whatever the reset policy: a deliberate deviation from Kafka, whose default `earliest` would
   * re-read the whole partition and count every record twice. Before the log start (retention,
   * deleteRecords), or with no committed offset, it follows the reset policy; `none` throws
   * NoValidOffsetError naming the partition (the task fails, as in Kafka Streams).
   */
  async outOfRangePosition(
    task: StreamTask,
    tp: TopicPartition,
    from: number | null,
    running = false,
  ): Promise<{ position: number; pastEnd: boolean }> {
    const range = await this.#range(tp);
    if (from !== null && range && from > range.latest)
      return { position: range.latest, pastEnd: true };
    const policy = this.policyOf(task, tp.topic);
    if (policy === 'none')
      throw new NoValidOffsetError(tp.topic, tp.partition, from, range?.earliest ?? 0, running);
    return {
      position: policy === 'latest' ? (range?.latest ?? 0) : (range?.earliest ?? 0),
      pastEnd: false,
    };
  }

  /** Commits healthy tasks, then closes them (a FAILED task is closed without committing). */
  async close(tasks: StreamTask[]): Promise<void> {
    if (tasks.length === 0) return;
    await this.#commitAndCheckpoint(tasks, 'commit while closing tasks failed');
    for (const task of tasks) {
      task.close();
      this.#o.threadMetrics.taskClosedTotal++;
      for (const tp of task.partitions) this.queues.delete(tpKey(tp.topic, tp.partition));
      if (task.state === 'CLOSED') {
        this.tasks.delete(task.id);
        task.metrics.ownerThread = 0;
      }
    }
  }

  /**
   * The producer was fenced (TaskMigrated): every task is closed dirty, dropping in-memory state
   * that is then restored from the committed changelog when the assignment is taken again.
   */
  closeAllDirty(): void {
    for (const task of [...this.tasks.values()]) {
      task.close();
      this.#o.threadMetrics.taskClosedTotal++;
      this.tasks.delete(task.id);
      task.metrics.ownerThread = 0;
    }
    this.queues.clear();
  }

  /**
   * The thread is stopping: a last commit, then every task is closed (they stay listed). `dirty`
   * (the thread failed): no commit, as Kafka Streams closes a failed thread's tasks dirty — the
   * output whose write failed is lost from the buffer, so committing the input offsets past it
   * would skip its records for good.
   */
  async shutdown(options?: { dirty?: boolean }): Promise<void> {
    this.closeStandbys();
    const tasks = [...this.tasks.values()];
    if (options?.dirty !== true) await this.#commitAndCheckpoint(tasks, 'final commit failed');
    // Closed tasks stay listed (CLOSED / FAILED) in status() after the thread is gone.
    for (const t of tasks) t.close();
    this.#o.threadMetrics.taskClosedTotal += tasks.length;
    this.queues.clear();
  }

  async #commitAndCheckpoint(tasks: StreamTask[], failure: string): Promise<void> {
    try {
      const running = tasks.filter((t) => t.state === 'RUNNING');
      await this.#o.commit(running);
      // Only after a successful commit: the checkpoint says the local stores match the changelog.
      for (const t of running) await t.writeCheckpoint(this.#o.ctx.backend);
    } catch (error) {
      this.#o.ctx.logger.error({ thread: this.#o.threadName, err: errorMessage(error) }, failure);
    }
  }
}
