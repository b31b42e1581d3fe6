// A stream thread (Kafka Streams' StreamThread): one consumer-group member running
// poll → process → punctuate → flush → maybe commit in a loop over its tasks. The same class runs
// on the main thread (num.stream.threads = 1, sharing Node's event loop: each iteration yields with
// setImmediate so the runtime's HTTP server stays responsive) and inside a worker thread, where its
// backend is the main thread's, reached through a MessagePort (thread/worker/).
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type {
  Backend,
  FetchRequest,
  GroupMember,
  PartitionAssignor,
  ProcessingError,
  TopicPartition,
} from '../api.js';
import { PrefetchingFetcher, type PartitionFetch } from '../backends/prefetching-fetcher.js';
import type { EngineConfig } from '../app/config.js';
import { TransactionalRecordCollector } from '../eos/transactional-collector.js';
import { errorMessage, ProducerFencedError } from '../errors.js';
import { StateMachine } from '../lifecycle/state-machine.js';
import { THREAD_TRANSITIONS, type ThreadState } from '../lifecycle/states.js';
import type { ThreadMetrics } from '../metrics/metric-groups.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import { FailedProcessingError } from '../processor/processing-failure.js';
import type { CompiledSubtopology } from '../processor/compile.js';
import { BufferedRecordCollector } from '../task/record-collector.js';
import { tpKey, type RecordQueue } from '../task/record-queue.js';
import { StreamTask, taskIdOf } from '../task/stream-task.js';
import type { EngineLogger } from '../api.js';

export interface StreamThreadContext {
  backend: Backend;
  config: EngineConfig;
  subtopologies: CompiledSubtopology[];
  assignor: PartitionAssignor;
  metrics: MetricsRegistry;
  logger: EngineLogger;
  onError: (error: ProcessingError) => void;
  /** A task failed under log-and-fail, or the thread hit an unexpected error. */
  onFatal: (thread: StreamThreadHandle, error: unknown) => void;
}

/** What the application needs of a stream thread, on this thread or in a worker. */
export interface StreamThreadHandle {
  readonly name: string;
  readonly index: number;
  readonly lifecycle: StateMachine<ThreadState>;
  readonly state: ThreadState;
  /** Resolves once the thread has joined the group. */
  start(): Promise<void>;
  /** Asks the loop to finish its batch, commit, close its tasks and leave the group. */
  requestStop(): void;
  stopped(): Promise<void>;
}

/** Records processed per task before moving to the next task, and the time budget of a batch. */
const RECORDS_PER_TASK_TURN = 500;
const BATCH_BUDGET_MS = 50;
/** How many polls' worth of records (max.poll.records per partition) one fetch asks for. */
const FETCH_POLLS = 4;
/** How long a poll waits when records are buffered but no task could process them. */
const IDLE_WAIT_MS = 10;

export class StreamThread implements StreamThreadHandle {
  readonly name: string;
  /** `<n>` of `<application.id>-StreamThread-<n>`, written into the slots of the tasks it owns. */
  readonly index: number;
  readonly lifecycle: StateMachine<ThreadState>;
  readonly metrics: ThreadMetrics;
  readonly #ctx: StreamThreadContext;
  /** exactly_once_v2: the thread's transactional collector (created at start), else a buffered one. */
  #collector: BufferedRecordCollector | TransactionalRecordCollector;
  /** Every task this thread ran or runs, for status (a revoked task leaves the map). */
  readonly tasks = new Map<string, StreamTask>();
  readonly #queues = new Map<string, { task: StreamTask; queue: RecordQueue }>();
  readonly #fetcher: PrefetchingFetcher;
  #member: GroupMember | null = null;
  #pendingAssignment: TopicPartition[] | null = null;
  #pendingRevocations: { partitions: TopicPartition[]; done: () => void }[] = [];
  #stopRequested = false;
  #wakeup = new AbortController();
  #loop: Promise<void> | null = null;
  #lastCommit = Date.now();
  #processedLastBatch = false;

  constructor(index: number, ctx: StreamThreadContext) {
    this.name = threadName(ctx.config.applicationId, index);
    this.index = index;
    this.#ctx = ctx;
    this.lifecycle = new StateMachine<ThreadState>(this.name, 'CREATED', THREAD_TRANSITIONS);
    this.metrics = ctx.metrics.thread(this.name);
    this.metrics.startTime = Date.now();
    this.#collector = new BufferedRecordCollector(ctx.backend);
    this.#fetcher = new PrefetchingFetcher((requests, maxWaitMs, signal) =>
      this.#send(requests, maxWaitMs, signal),
    );
  }

  get state(): ThreadState {
    return this.lifecycle.state;
  }

  get #eos(): boolean {
    return this.#ctx.config.processingGuarantee === 'exactly_once_v2';
  }

  /** Kafka Streams' transactional id per thread: a restarted instance fences its predecessor. */
  async #initTransactions(): Promise<void> {
    this.#collector = await TransactionalRecordCollector.create(this.#ctx.backend, this.name);
  }

  async start(): Promise<void> {
    this.lifecycle.transition('STARTING');
    if (this.#eos) await this.#initTransactions();
    const topics = [...new Set(this.#ctx.subtopologies.flatMap((s) => s.sourceTopics))];
    // The listener goes in with the join, so a rebalance right after it is never missed.
    const member = await this.#ctx.backend.joinGroup(this.#ctx.config.applicationId, topics, {
      assignor: this.#ctx.assignor,
      clientId: `${this.name}-consumer`,
      listener: {
        onPartitionsRevoked: (partitions) => this.#requestRevocation(partitions),
        onPartitionsAssigned: (assigned) => {
          this.#pendingAssignment = assigned;
          this.#wake();
        },
      },
    });
    this.#member = member;
    this.#pendingAssignment ??= member.assignment();
    this.#loop = this.#run();
  }

  /** Asks the loop to finish its batch, commit, close its tasks and leave the group. */
  requestStop(): void {
    this.#stopRequested = true;
    this.#wake();
  }

  async stopped(): Promise<void> {
    await this.#loop;
  }

  async #run(): Promise<void> {
    try {
      while (!this.#stopRequested) {
        await this.#handleRebalanceEvents();
        if (this.#stopRequested) break;
        try {
          await this.#runOnce();
        } catch (error) {
          if (!(error instanceof ProducerFencedError)) throw error;
          await this.#onTaskMigrated(error);
        }
        await yieldToEventLoop();
      }
    } catch (error) {
      this.#ctx.logger.error({ thread: this.name, err: error }, 'stream thread failed');
      this.#ctx.onFatal(this, error);
    } finally {
      await this.#shutdown();
    }
  }

  async #runOnce(): Promise<void> {
    await this.#poll();
    this.#processBatch();
    this.#punctuate();
    await this.#collector.flush();
    const tasks = [...this.#runningTasks()];
    if (Date.now() - this.#lastCommit >= this.#ctx.config.commitIntervalMs)
      await this.#commit(tasks);
    else if (tasks.some((t) => t.commitRequested))
      await this.#commit(tasks.filter((t) => t.commitRequested));
  }

  /**
   * One fetch to the backend. The thread's PrefetchingFetcher sends the next one as soon as this
   * one is answered, so it travels while the thread processes (see prefetching-fetcher.ts).
   */
  #send(
    requests: FetchRequest[],
    maxWaitMs: number,
    signal: AbortSignal,
  ): Promise<PartitionFetch[]> {
    const from = new Map(requests.map((r) => [tpKey(r.topic, r.partition), r.offset]));
    return this.#ctx.backend
      .fetchMany(requests, {
        // Like Kafka's consumer, fetch more than one poll's worth (its fetches are sized in bytes,
        // max.partition.fetch.bytes, not by max.poll.records): the fetcher keeps the rest, so a
        // round trip covers several polls.
        maxRecords: this.#ctx.config.maxPollRecords * FETCH_POLLS,
        maxWaitMs,
        signal,
        ...(this.#eos ? { isolationLevel: 'read_committed' as const } : {}),
      })
      .then((responses) =>
        responses.map((r) => {
          const fetched: PartitionFetch = {
            topic: r.topic,
            partition: r.partition,
            from: from.get(tpKey(r.topic, r.partition)) ?? -1,
            records: r.records,
            highWatermark: r.highWatermark,
          };
          if (r.error !== undefined) fetched.error = r.error;
          return fetched;
        }),
      );
  }

  async #poll(): Promise<void> {
    const { config } = this.#ctx;
    const requests: { topic: string; partition: number; offset: number }[] = [];
    let buffered = 0;
    for (const { task, queue } of this.#queues.values()) {
      if (task.state !== 'RUNNING') continue;
      buffered += queue.size;
      if (queue.size < config.bufferedRecordsPerPartition)
        requests.push({ ...queue.tp, offset: queue.position });
    }
    // Buffered records that could not be processed (a task idling for another partition) must not
    // turn the loop into a busy wait: then wait briefly for more data instead.
    const maxWaitMs =
      buffered === 0
        ? config.pollMs
        : this.#processedLastBatch
          ? 0
          : Math.min(config.pollMs, IDLE_WAIT_MS);
    const started = performance.now();
    if (requests.length === 0) {
      if (maxWaitMs > 0) await sleep(maxWaitMs, this.#wakeup.signal);
      const ms = performance.now() - started;
      this.metrics.recordPoll(0, ms, ms);
      return;
    }
    let responses;
    try {
      responses = await this.#fetcher.fetch(requests, {
        maxRecords: config.maxPollRecords,
        maxWaitMs,
        signal: this.#wakeup.signal,
      });
    } catch (error) {
      this.#ctx.logger.warn(
        { thread: this.name, err: errorMessage(error) },
        'poll failed; retrying',
      );
      await sleep(config.pollMs, this.#wakeup.signal);
      return;
    }
    let polled = 0;
    for (const r of responses) polled += r.records.length;
    const ms = performance.now() - started;
    this.metrics.recordPoll(polled, ms, maxWaitMs > 0 ? ms : 0);
    for (const r of responses) {
      const entry = this.#queues.get(tpKey(r.topic, r.partition));
      if (!entry) continue;
      const { queue, task } = entry;
      queue.highWatermark = r.highWatermark;
      if (r.error === 'OFFSET_OUT_OF_RANGE') {
        queue.position = await this.#resetPosition(task, queue.tp);
        continue;
      }
      if (r.records.length > 0) {
        task.addRecords(queue.tp, r.records);
        queue.position = r.records[r.records.length - 1]!.offset + 1;
      }
    }
  }

  /**
   * Processes buffered records round-robin over tasks (RECORDS_PER_TASK_TURN each), within a time
   * budget. Synchronous. The wall clock is read once per round, not per record (Kafka Streams
   * caches it the same way), and time is measured per task turn, not per record.
   */
  #processBatch(): void {
    this.#processedLastBatch = false;
    const tasks = this.#runningTasks();
    const started = performance.now();
    let total = 0;
    let progressed = true;
    while (progressed && performance.now() - started < BATCH_BUDGET_MS) {
      progressed = false;
      const now = Date.now();
      for (const task of tasks) {
        if (task.state !== 'RUNNING') continue;
        const turnStarted = performance.now();
        let n = 0;
        try {
          n = task.processBatch(RECORDS_PER_TASK_TURN, now);
        } catch (error) {
          this.#failTask(task, error);
        }
        task.metrics.recordTurn(n, performance.now() - turnStarted);
        if (n > 0) {
          total += n;
          progressed = true;
        }
      }
    }
    if (total > 0) {
      this.#processedLastBatch = true;
      this.metrics.recordProcess(total, performance.now() - started);
    }
  }

  /** StreamThread: after processing, each task fires its due stream-time and wall-clock punctuations. */
  #punctuate(): void {
    const now = Date.now();
    const started = performance.now();
    let fired = 0;
    for (const task of this.#runningTasks()) {
      try {
        if (task.maybePunctuateStreamTime()) fired++;
        if (task.maybePunctuateSystemTime(now)) fired++;
      } catch (error) {
        this.#failTask(task, error);
      }
    }
    if (fired > 0) this.metrics.recordPunctuate(fired, performance.now() - started);
  }

  #failTask(task: StreamTask, error: unknown): void {
    task.fail();
    if (!(error instanceof FailedProcessingError)) {
      // Not from a processor (a bug or a store error): report it against the task.
      this.#ctx.onError({
        taskId: task.id,
        processor: task.context.currentNode?.name ?? '',
        message: errorMessage(error),
        record: null,
        at: Date.now(),
        handling: 'fail',
      });
    }
    this.#ctx.logger.error(
      { thread: this.name, taskId: task.id, err: errorMessage(error) },
      'task failed',
    );
    this.#ctx.onFatal(this, error);
  }

  /** Flush output, write changelogs, then commit input offsets — in this order (at-least-once). */
  async #commit(tasks: StreamTask[]): Promise<void> {
    const started = performance.now();
    await this.#collector.flush();
    for (const t of tasks) for (const r of t.takeChangelogRecords()) this.#collector.send(r);
    await this.#collector.flush();
    const offsets = tasks.filter((t) => t.commitNeeded).flatMap((t) => t.takeCommittableOffsets());
    const collector = this.#collector;
    if (collector instanceof TransactionalRecordCollector) {
      // exactly_once_v2: output, changelogs and input offsets in one transaction.
      const member = this.#member;
      await collector.commit(
        offsets,
        this.#ctx.config.applicationId,
        member ? { memberId: member.memberId, generation: member.generation() } : undefined,
      );
    } else if (offsets.length > 0)
      await this.#ctx.backend.commitOffsets(this.#ctx.config.applicationId, offsets);
    this.metrics.recordCommit(performance.now() - started);
    this.#lastCommit = Date.now();
  }

  #runningTasks(): StreamTask[] {
    const out: StreamTask[] = [];
    for (const t of this.tasks.values()) if (t.state === 'RUNNING') out.push(t);
    return out;
  }

  #requestRevocation(partitions: TopicPartition[]): Promise<void> {
    if (this.#loop === null || this.lifecycle.state === 'DEAD') return Promise.resolve();
    return new Promise((resolve) => {
      this.#pendingRevocations.push({ partitions, done: resolve });
      this.#wake();
    });
  }

  async #handleRebalanceEvents(): Promise<void> {
    const revocations = this.#pendingRevocations.splice(0);
    if (revocations.length > 0) {
      this.lifecycle.transition('PARTITIONS_REVOKED');
      const revoked = new Set(
        revocations.flatMap((r) => r.partitions).map((tp) => tpKey(tp.topic, tp.partition)),
      );
      const affected = [...this.tasks.values()].filter((t) =>
        t.partitions.some((tp) => revoked.has(tpKey(tp.topic, tp.partition))),
      );
      await this.#closeTasks(affected);
      for (const r of revocations) r.done();
    }
    const assigned = this.#pendingAssignment;
    if (assigned !== null) {
      this.#pendingAssignment = null;
      this.lifecycle.transition('PARTITIONS_ASSIGNED');
      await this.#assign(assigned);
    }
    if (
      this.lifecycle.state === 'PARTITIONS_ASSIGNED' &&
      this.#pendingAssignment === null &&
      this.#pendingRevocations.length === 0
    ) {
      this.lifecycle.transition('RUNNING');
    }
  }

  async #assign(assigned: TopicPartition[]): Promise<void> {
    const { subtopologies, config, metrics, backend } = this.#ctx;
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
    await this.#closeTasks(
      [...this.tasks.values()].filter((t) => !wanted.has(t.id) && t.state !== 'FAILED'),
    );
    const created: StreamTask[] = [];
    for (const [id, w] of wanted) {
      const existing = this.tasks.get(id);
      if (existing && existing.state !== 'CLOSED') continue;
      const task = new StreamTask({
        subtopology: w.sub,
        partition: w.partition,
        partitions: w.tps,
        collector: this.#collector,
        metrics,
        config,
        onError: this.#ctx.onError,
      });
      this.tasks.set(id, task);
      task.metrics.ownerThread = this.index;
      this.metrics.taskCreatedTotal++;
      created.push(task);
    }
    for (const task of created) {
      const committed = await backend.committedOffsets(config.applicationId, task.partitions);
      for (const tp of task.partitions) {
        const queue = task.partitionGroup.queue(tp.topic, tp.partition)!;
        const c = committed.get(`${tp.topic}:${tp.partition}`);
        queue.position = c ?? (await this.#resetPosition(task, tp));
        this.#queues.set(tpKey(tp.topic, tp.partition), { task, queue });
      }
      try {
        await task.restore(backend, this.#eos ? 'read_committed' : 'read_uncommitted');
      } catch (error) {
        this.#failTask(task, error);
      }
    }
  }

  /**
   * The producer was fenced (Kafka Streams' TaskMigratedException): abort the transaction, close
   * every task dirty (in-memory state is dropped and restored from the committed changelog), get a
   * new producer epoch and take the current assignment again, from the committed offsets.
   */
  async #onTaskMigrated(error: ProducerFencedError): Promise<void> {
    this.#ctx.logger.warn(
      { thread: this.name, err: error.message },
      'producer fenced: closing tasks dirty and rejoining',
    );
    if (this.#collector instanceof TransactionalRecordCollector) await this.#collector.abort();
    for (const task of [...this.tasks.values()]) {
      task.close();
      this.metrics.taskClosedTotal++;
      this.tasks.delete(task.id);
      task.metrics.ownerThread = 0;
    }
    this.#queues.clear();
    await this.#initTransactions();
    this.#pendingAssignment = this.#member?.assignment() ?? [];
  }

  async #resetPosition(task: StreamTask, tp: TopicPartition): Promise<number> {
    const desc = await this.#ctx.backend.describeTopic(tp.topic);
    const range = desc?.offsets.find((o) => o.partition === tp.partition);
    const policy = task.graph.sourceByTopic.get(tp.topic)?.source.offsetReset ?? 'earliest';
    return policy === 'latest' ? (range?.latest ?? 0) : (range?.earliest ?? 0);
  }

  /** Commits healthy tasks, then closes them (a FAILED task is closed without committing). */
  async #closeTasks(tasks: StreamTask[]): Promise<void> {
    if (tasks.length === 0) return;
    try {
      const running = tasks.filter((t) => t.state === 'RUNNING');
      await this.#commit(running);
      for (const t of running) await t.writeCheckpoint(this.#ctx.backend);
    } catch (error) {
      this.#ctx.logger.error(
        { thread: this.name, err: errorMessage(error) },
        'commit while closing tasks failed',
      );
    }
    for (const task of tasks) {
      task.close();
      this.metrics.taskClosedTotal++;
      for (const tp of task.partitions) this.#queues.delete(tpKey(tp.topic, tp.partition));
      if (task.state === 'CLOSED') {
        this.tasks.delete(task.id);
        task.metrics.ownerThread = 0;
      }
    }
  }

  async #shutdown(): Promise<void> {
    this.lifecycle.tryTransition('PENDING_SHUTDOWN');
    const tasks = [...this.tasks.values()];
    try {
      const running = tasks.filter((t) => t.state === 'RUNNING');
      await this.#commit(running);
      // Only after a successful commit: the checkpoint says the local stores match the changelog.
      for (const t of running) await t.writeCheckpoint(this.#ctx.backend);
    } catch (error) {
      this.#ctx.logger.error(
        { thread: this.name, err: errorMessage(error) },
        'final commit failed',
      );
    }
    // Closed tasks stay listed (CLOSED / FAILED) in status() after the thread is gone.
    for (const t of tasks) t.close();
    this.metrics.taskClosedTotal += tasks.length;
    this.#queues.clear();
    this.#fetcher.close();
    for (const r of this.#pendingRevocations.splice(0)) r.done();
    this.lifecycle.tryTransition('DEAD');
    try {
      await this.#member?.leave();
    } catch (error) {
      this.#ctx.logger.warn(
        { thread: this.name, err: errorMessage(error) },
        'leaving the group failed',
      );
    }
  }

  #wake(): void {
    this.#wakeup.abort();
    this.#wakeup = new AbortController();
  }
}

export const threadName = (applicationId: string, index: number): string =>
  `${applicationId}-StreamThread-${index}`;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
