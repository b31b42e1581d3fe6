// A stream thread (Kafka Streams' StreamThread): one consumer-group member running
// poll → process → punctuate → flush → maybe commit in a loop over its tasks. The same class runs
// on the main thread (num.stream.threads = 1, sharing Node's event loop: each iteration yields with
// setImmediate so the runtime's HTTP server stays responsive) and inside a worker thread, where its
// backend is the main thread's, reached through a MessagePort (thread/worker/).
import type { StandbyTask } from '../task/standby-task.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { GroupMember, ProduceRecord, TopicPartition } from '../backend-spi.js';
import { PrefetchingFetcher } from '../backends/prefetching-fetcher.js';
import { transactionalId } from '../eos/transactional-id.js';
import { TransactionalRecordCollector } from '../eos/transactional-collector.js';
import { errorMessage, NoValidOffsetError, ProducerFencedError } from '../errors.js';
import { transientFailureOf } from '../app/waiting.js';
import { StateMachine } from '../lifecycle/state-machine.js';
import { THREAD_TRANSITIONS, type ThreadState } from '../lifecycle/states.js';
import type { ThreadMetrics } from '../metrics/metric-groups.js';
import { FailedProcessingError } from '../processor/processing-failure.js';
import { ThreadCache } from '../state/record-cache.js';
import { BufferedRecordCollector, producerCompression } from '../task/record-collector.js';
import { tpKey } from '../task/record-queue.js';
import type { StreamTask } from '../task/stream-task.js';
import { fetchForPoll, sleep } from './poll-fetch.js';
import { TaskManager } from './task-manager.js';
import { decodeAssignmentInfo } from '../assignment/streams-user-data.js';
import type { StreamThreadContext, StreamThreadHandle } from './thread-context.js';
import { OPEN_GATE, type PauseGate } from '../debug/pause-gate.js';

export type { StreamThreadContext, StreamThreadHandle } from './thread-context.js';

/** Records processed per task before moving to the next task, and the time budget of a batch. */
const RECORDS_PER_TASK_TURN = 500;
const BATCH_BUDGET_MS = 50;
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
  readonly #tasks: TaskManager;
  readonly #fetcher: PrefetchingFetcher;
  #member: GroupMember | null = null;
  #pendingAssignment: TopicPartition[] | null = null;
  /** The standby tasks of the pending assignment (its AssignmentInfo). */
  #pendingStandbys: string[] = [];
  /** When the pending assignment arrived, against the revocations' (handled in arrival order). */
  #pendingAssignmentSeq = 0;
  #pendingRevocations: { partitions: TopicPartition[]; done: () => void; seq: number }[] = [];
  #eventSeq = 0;
  #stopRequested = false;
  #wakeup = new AbortController();
  #loop: Promise<void> | null = null;
  #lastCommit = Date.now();
  #processedLastBatch = false;
  /**
   * exactly_once_v2: a transient failure cost the transaction (aborted, tasks closed dirty); the
   * next turn gets a new producer epoch and takes the assignment again.
   */
  #producerLost = false;
  readonly #gate: Readonly<PauseGate>;

  /** Sends a store's changelog record through the current collector (made once, not per turn). */
  readonly #sendLogged = (record: ProduceRecord): void => this.#collector.send(record);

  constructor(index: number, ctx: StreamThreadContext) {
    this.name = threadName(ctx.config.applicationId, index);
    this.index = index;
    this.#ctx = ctx;
    this.#gate = ctx.pauseGate ?? OPEN_GATE;
    this.lifecycle = new StateMachine<ThreadState>(
      this.name,
      'CREATED',
      THREAD_TRANSITIONS,
      ctx.logger,
    );
    this.metrics = ctx.metrics.thread(this.name);
    this.metrics.startTime = Date.now();
    this.#collector = new BufferedRecordCollector(
      ctx.backend,
      producerCompression(ctx.config.streams.clients.producer),
    );
    this.#fetcher = new PrefetchingFetcher((requests, maxWaitMs, signal) =>
      fetchForPoll(ctx.backend, ctx.config, requests, maxWaitMs, signal),
    );
    this.#tasks = new TaskManager({
      ctx,
      threadName: this.name,
      threadIndex: index,
      threadMetrics: this.metrics,
      collector: () => this.#collector,
      // Kafka Streams splits statestore.cache.max.bytes evenly between the stream threads.
      threadCache:
        ctx.config.cacheMaxBytes > 0
          ? new ThreadCache(Math.floor(ctx.config.cacheMaxBytes / ctx.config.numStreamThreads))
          : null,
      commit: (tasks) => this.#commit(tasks),
      failTask: (task, error) => this.#failTask(task, error),
    });
  }

  /** Every task this thread ran or runs, for status (a revoked task leaves the map). */
  get tasks(): Map<string, StreamTask> {
    return this.#tasks.tasks;
  }

  /** The standby replicas this thread keeps, by task id. */
  get standbys(): ReadonlyMap<string, StandbyTask> {
    return this.#tasks.standbys;
  }

  get state(): ThreadState {
    return this.lifecycle.state;
  }

  get #eos(): boolean {
    return this.#ctx.config.processingGuarantee === 'exactly_once_v2';
  }

  /** Kafka Streams' transactional id per thread: a restarted instance fences its predecessor. */
  async #initTransactions(): Promise<void> {
    const { applicationId, stateDir } = this.#ctx.config;
    this.#collector = await TransactionalRecordCollector.create(
      this.#ctx.backend,
      transactionalId(applicationId, stateDir, this.index),
      producerCompression(this.#ctx.config.streams.clients.producer),
      this.#ctx.config.streams.clients.producer,
    );
  }

  async start(): Promise<void> {
    this.lifecycle.transition('STARTING');
    if (this.#eos) await this.#initTransactions();
    const topics = [...new Set(this.#ctx.subtopologies.flatMap((s) => s.sourceTopics))];
    // The listener goes in with the join, so a rebalance right after it is never missed.
    const member = await this.#ctx.backend.joinGroup(this.#ctx.config.applicationId, topics, {
      assignor: this.#ctx.assignor,
      clientId: `${this.name}-consumer`,
      clientConfig: this.#ctx.config.streams.clients.mainConsumer,
      rebalanceProtocol: this.#ctx.config.rebalanceProtocol,
      listener: {
        onPartitionsRevoked: (partitions) => this.#requestRevocation(partitions),
        onPartitionsAssigned: (assigned, userData) => {
          this.#pendingAssignment = assigned;
          this.#pendingStandbys = standbyTasksOf(userData);
          this.#pendingAssignmentSeq = ++this.#eventSeq;
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

  /** The loop ended on a fatal error: the shutdown commits nothing. */
  #failed = false;

  async #run(): Promise<void> {
    try {
      while (!this.#stopRequested) {
        try {
          if (this.#producerLost) await this.#renewProducer();
          await this.#handleRebalanceEvents();
          if (this.#stopRequested) break;
          await this.#runOnce();
        } catch (error) {
          if (error instanceof ProducerFencedError) await this.#onTaskMigrated(error);
          else await this.#waitOut(error);
        }
        await yieldToEventLoop();
      }
    } catch (error) {
      this.#ctx.logger.error({ thread: this.name, err: error }, 'stream thread failed');
      this.#failed = true;
      this.#ctx.onFatal(this, error);
    } finally {
      await this.#shutdown();
    }
  }

  /**
   * A transient backend failure (the cluster cannot be reached: Backend#transientFailure) is
   * waited out, as Kafka's clients keep reconnecting: the thread keeps its state (RUNNING or
   * REBALANCING), reports what it waits for (app.status' waitingFor), backs off (50 ms doubling
   * to 1 s) and tries its turn again — nothing is lost: output that failed to be written is
   * still in the collector, offsets are committed only after it, and under exactly_once_v2 the
   * open transaction is aborted and the tasks start again from the committed offsets. Anything
   * else is rethrown (the thread fails the application).
   */
  async #waitOut(error: unknown): Promise<void> {
    const failure = transientFailureOf(this.#ctx.backend, error);
    if (failure === null) throw error;
    if (this.#eos && !this.#producerLost) await this.#loseTransaction();
    const delay = this.#ctx.waiter.failed(failure);
    await sleep(delay, this.#wakeup.signal);
  }

  /** exactly_once_v2 after a transient failure: abort what is open, close the tasks dirty. */
  async #loseTransaction(): Promise<void> {
    this.#producerLost = true;
    if (this.#collector instanceof TransactionalRecordCollector)
      await this.#collector.abort().catch((error: unknown) =>
        // Left to transaction.timeout.ms, or to the next producer with this id, which aborts it.
        this.#ctx.logger.warn(
          { thread: this.name, err: errorMessage(error) },
          'could not abort the lost transaction',
        ),
      );
    this.#tasks.closeAllDirty();
  }

  /** exactly_once_v2: a new producer epoch, then the current assignment from the committed offsets. */
  async #renewProducer(): Promise<void> {
    await this.#initTransactions();
    this.#producerLost = false;
    this.#pendingAssignment = this.#member?.assignment() ?? [];
    this.#ctx.waiter.reachable();
  }

  async #runOnce(): Promise<void> {
    await this.#poll();
    if (this.#tasks.standbys.size > 0) await this.#updateStandbys();
    this.#processBatch();
    if (this.#gate.paused) await this.#waitAtGate();
    this.#punctuate();
    if (this.#gate.paused) await this.#waitAtGate();
    // Window stores' changelog writes go out with the batch's output, not all at the commit.
    const collector = this.#collector;
    const send = this.#sendLogged;
    for (const task of this.#tasks.running()) task.drainLoggedWrites(send);
    // At least once: the batch's output is written while the next poll is processed (waited for
    // before any commit); exactly once: it goes into the open transaction now.
    if (collector instanceof BufferedRecordCollector) await collector.sendPending();
    else await collector.flush();
    const tasks = [...this.#tasks.running()];
    // Cooperative: while the member rejoins its tasks keep processing, but nothing is committed
    // (the coordinator refuses commits then; TaskManager#commit returns -1 while rebalancing).
    if (this.#member?.rebalanceInProgress?.() === true) return;
    if (Date.now() - this.#lastCommit >= this.#ctx.config.commitIntervalMs)
      await this.#commit(tasks);
    else if (tasks.some((t) => t.commitRequested))
      await this.#commit(tasks.filter((t) => t.commitRequested));
  }

  async #poll(): Promise<void> {
    const { config } = this.#ctx;
    const requests: { topic: string; partition: number; offset: number }[] = [];
    let buffered = 0;
    for (const { task, queue } of this.#tasks.queues.values()) {
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
      // The cluster cannot be reached: waited out by the loop (#waitOut).
      if (transientFailureOf(this.#ctx.backend, error) !== null) throw error;
      // A damaged partition (refused by the embedded log, or a batch failing its CRC as a worker
      // reads the files) stays damaged until repaired: retrying would only repeat the WARN; the
      // thread fails with the log's error, which names the repair command.
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'LOG_CORRUPT' || code === 'CORRUPT_MESSAGE') throw error;
      this.#ctx.logger.warn(
        { thread: this.name, err: errorMessage(error) },
        'poll failed; retrying',
      );
      await sleep(config.pollMs, this.#wakeup.signal);
      return;
    }
    this.#ctx.waiter.reachable();
    let polled = 0;
    for (const r of responses) polled += r.records.length;
    const ms = performance.now() - started;
    this.metrics.recordPoll(polled, ms, maxWaitMs > 0 ? ms : 0);
    for (const r of responses) {
      const entry = this.#tasks.queues.get(tpKey(r.topic, r.partition));
      if (!entry) continue;
      const { queue, task } = entry;
      queue.highWatermark = r.highWatermark;
      if (r.error === 'OFFSET_OUT_OF_RANGE') {
        const from = queue.position;
        let reset: { position: number; pastEnd: boolean };
        try {
          reset = await this.#tasks.outOfRangePosition(task, queue.tp, from, true);
        } catch (error) {
          // auto.offset.reset=none: the task fails, naming the partition.
          if (!(error instanceof NoValidOffsetError)) throw error;
          this.#failTask(task, error);
          continue;
        }
        queue.position = reset.position;
        const where = `${queue.tp.topic}-${queue.tp.partition}`;
        this.#ctx.onRecovery({
          at: Date.now(),
          kind: 'offset-reset',
          topic: queue.tp.topic,
          partition: queue.tp.partition,
          taskId: task.id,
          fromOffset: from,
          toOffset: queue.position,
          message: reset.pastEnd
            ? `position ${from} of ${where} is past the log end ${queue.position} (the log lost its tail): moved to the log end, not re-read (task ${task.id}; a deliberate deviation from Kafka's auto.offset.reset)`
            : `position ${from} of ${where} was overtaken by the log start (retention or deleteRecords passed it while the task ran): reset to ${queue.position} (task ${task.id}, auto.offset.reset=${this.#tasks.policyOf(task, queue.tp.topic)})`,
        });
        continue;
      }
      if (r.records.length > 0) {
        task.addRecords(queue.tp, r.records);
        queue.position = r.records[r.records.length - 1]!.offset + 1;
      }
    }
  }

  /**
   * The standbys' changelog records since the last turn (Kafka Streams reads them with the restore
   * consumer between processing), applied to their stores. Never waits: the poll did.
   */
  async #updateStandbys(): Promise<void> {
    const { requests } = this.#tasks.standbyRequests();
    if (requests.length === 0) return;
    const responses = await this.#ctx.backend.fetchMany(requests, {
      maxRecords: 10_000,
      maxWaitMs: 0,
      isolationLevel: this.#ctx.config.restoreIsolationLevel,
    });
    this.#tasks.applyStandbyRecords(responses);
  }

  /** Held by a debugger: wait (without flushing the paused record's output) until resumed or stopped. */
  async #waitAtGate(): Promise<void> {
    (this.#gate as PauseGate).held();
    while (this.#gate.paused && !this.#stopRequested)
      await (this.#gate as PauseGate).wait(this.#wakeup.signal);
  }

  /**
   * Processes buffered records round-robin over tasks (RECORDS_PER_TASK_TURN each), within a time
   * budget. Synchronous. The wall clock is read once per round, not per record (Kafka Streams
   * caches it the same way), and time is measured per task turn, not per record.
   */
  #processBatch(): void {
    this.#processedLastBatch = false;
    const tasks = this.#tasks.running();
    const started = performance.now();
    let total = 0;
    let progressed = true;
    while (progressed && !this.#gate.paused && performance.now() - started < BATCH_BUDGET_MS) {
      progressed = false;
      const now = Date.now();
      for (const task of tasks) {
        if (this.#gate.paused) break;
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
    for (const task of this.#tasks.running()) {
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
  async #commit(committing: StreamTask[]): Promise<void> {
    const started = performance.now();
    // The record caches forward what they collapsed since the last commit (Kafka's prepareCommit).
    const tasks: StreamTask[] = [];
    for (const t of committing) {
      try {
        t.flushCaches();
        tasks.push(t);
      } catch (error) {
        this.#failTask(t, error);
      }
    }
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
    } else {
      if (offsets.length > 0) {
        try {
          await this.#ctx.backend.commitOffsets(this.#ctx.config.applicationId, offsets);
        } catch (error) {
          // Not committed: the next commit takes these offsets again (or later ones).
          for (const t of tasks) t.markCommitNeeded();
          // A commit that crossed the start of a rebalance (or a worker's, which cannot see its
          // member's rebalanceInProgress) is refused; the tasks go on and commit afterwards. A
          // member that really lost its generation learns it from its heartbeat.
          if (!refusedByRebalance(error)) throw error;
          this.#ctx.logger.info(
            { thread: this.name, err: errorMessage(error) },
            'commit refused while the group rebalances; committing after the rebalance',
          );
          return;
        }
      }
      // Kafka's postCommit: a checkpoint once the changelogs moved far enough (at_least_once only).
      for (const t of tasks) await t.maybeCheckpoint(this.#ctx.backend, false);
    }
    // Standbys checkpoint how far they applied their changelogs at every commit.
    this.#tasks.checkpointStandbys();
    this.metrics.recordCommit(performance.now() - started);
    this.#lastCommit = Date.now();
    this.#ctx.waiter.reachable();
  }

  #requestRevocation(partitions: TopicPartition[]): Promise<void> {
    if (this.#loop === null || this.lifecycle.state === 'DEAD') return Promise.resolve();
    return new Promise((resolve) => {
      this.#pendingRevocations.push({ partitions, done: resolve, seq: ++this.#eventSeq });
      this.#wake();
    });
  }

  async #handleRebalanceEvents(): Promise<void> {
    // In arrival order: under the cooperative protocol an assignment may be followed by the
    // revocation that starts the next rebalance before this loop got to either.
    const firstRevocation = this.#pendingRevocations[0]?.seq ?? Infinity;
    if (this.#pendingAssignment !== null && this.#pendingAssignmentSeq < firstRevocation)
      await this.#handleAssignment();
    await this.#handleRevocations();
    if (this.#pendingAssignment !== null) await this.#handleAssignment();
    if (
      this.lifecycle.state === 'PARTITIONS_ASSIGNED' &&
      this.#pendingAssignment === null &&
      this.#pendingRevocations.length === 0
    ) {
      this.lifecycle.transition('RUNNING');
    }
  }

  async #handleRevocations(): Promise<void> {
    const revocations = this.#pendingRevocations.splice(0);
    if (revocations.length === 0) return;
    const revoked = revocations.flatMap((r) => r.partitions);
    // Cooperative: a rebalance starting (nothing revoked) leaves the thread RUNNING, as Kafka
    // Streams' does; its standbys close all the same (below).
    if (revoked.length > 0 || this.#ctx.config.rebalanceProtocol === 'eager') {
      this.#ctx.logger.info(
        { thread: this.name, revoked: revoked.length },
        'rebalance: partitions revoked',
      );
      this.lifecycle.transition('PARTITIONS_REVOKED');
    }
    // Every standby closes (checkpointed) before the member rejoins, so that an active of the
    // same task given to another thread of this instance can open its stores after the
    // rebalance (the threads may be workers: Kafka Streams' task-directory locks have no
    // equivalent across them). The standbys of the next assignment open again from their
    // checkpoints. Cooperative: only the revoked tasks close; the others keep processing.
    this.#tasks.closeStandbys();
    // exactly_once_v2: the open transaction holds the output of every task of the thread, so
    // revoking some commits all of them with their offsets (TaskManager#handleRevocation), never
    // one task's output without the others' input offsets.
    if (this.#eos && revoked.length > 0 && this.#ctx.config.rebalanceProtocol === 'cooperative')
      try {
        await this.#commit(this.#tasks.running());
      } catch (error) {
        // The revoked tasks close all the same (their commit is tried again and logged); the
        // others meet the failure at their next commit (a fenced producer: TaskMigrated).
        this.#ctx.logger.warn(
          { thread: this.name, err: errorMessage(error) },
          'commit of every task before a cooperative revocation failed',
        );
      }
    await this.#tasks.close(this.#tasks.owning(revoked));
    for (const r of revocations) r.done();
  }

  async #handleAssignment(): Promise<void> {
    const assigned = this.#pendingAssignment;
    if (assigned === null) return;
    this.#pendingAssignment = null;
    this.#ctx.logger.info(
      {
        thread: this.name,
        assigned: assigned.length,
        standbyTasks: this.#pendingStandbys.length,
      },
      'rebalance: partitions assigned',
    );
    this.lifecycle.transition('PARTITIONS_ASSIGNED');
    try {
      // Standbys no longer assigned close first: one of them may be this thread's active now.
      this.#tasks.closeStandbys(
        [...this.#tasks.standbys.keys()].filter((id) => !this.#pendingStandbys.includes(id)),
      );
      await this.#tasks.assign(assigned);
      await this.#tasks.assignStandbys(this.#pendingStandbys);
    } catch (error) {
      // Taken again on the next turn (a transient failure is waited out first).
      this.#pendingAssignment ??= assigned;
      throw error;
    }
    this.#ctx.waiter.reachable();
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
    this.#tasks.closeAllDirty();
    await this.#initTransactions();
    this.#pendingAssignment = this.#member?.assignment() ?? [];
  }

  async #shutdown(): Promise<void> {
    this.lifecycle.tryTransition('PENDING_SHUTDOWN');
    this.#ctx.waiter.stopped();
    // A failed thread commits nothing (Kafka Streams closes its tasks dirty): its open
    // transaction is aborted, and its input is processed again from the last commit.
    if (this.#failed && this.#collector instanceof TransactionalRecordCollector)
      await this.#collector.abort();
    await this.#tasks.shutdown({ dirty: this.#failed });
    try {
      // The last commit waited for the output in flight; without running tasks there was none.
      if (!this.#failed && this.#collector instanceof BufferedRecordCollector)
        await this.#collector.flush();
    } catch (error) {
      this.#ctx.logger.warn(
        { thread: this.name, err: errorMessage(error) },
        'writing the last output failed',
      );
    }
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

/** Kafka's refusal of a commit because the group is rebalancing or moved to a new generation. */
function refusedByRebalance(error: unknown): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'REBALANCE_IN_PROGRESS' || type === 'ILLEGAL_GENERATION') return true;
  return /\b(REBALANCE_IN_PROGRESS|ILLEGAL_GENERATION)\b/.test(errorMessage(error));
}

/** The standby tasks in an assignment's user data (none without Kafka Streams' AssignmentInfo). */
function standbyTasksOf(userData: Uint8Array | null | undefined): string[] {
  return decodeAssignmentInfo(userData ?? null)?.standbyTasks ?? [];
}

export const threadName = (applicationId: string, index: number): string =>
  `${applicationId}-StreamThread-${index}`;
