// One task = one sub-topology × one partition (Kafka Streams' StreamTask). It owns the processor
// graph instance, its stores and its input queues. Everything here is synchronous except
// restoring stores from their changelogs, which happens once, before the task runs.
import { OPEN_GATE, type PauseGate } from '../debug/pause-gate.js';
import type { ProcessingError, TaskState } from '../api.js';
import type {
  Backend,
  IsolationLevel,
  ProduceRecord,
  Recovery,
  StoredRecord,
  TopicPartition,
} from '../backend-spi.js';
import type { EngineConfig } from '../app/config.js';
import { errorMessage } from '../errors.js';
import { StateMachine } from '../lifecycle/state-machine.js';
import { TASK_TRANSITIONS } from '../lifecycle/states.js';
import { TASK_STATE_CODES, type TaskMetrics } from '../metrics/metric-groups.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import { instantiate, type CompiledSubtopology, type TaskGraph } from '../processor/compile.js';
import { ProcessorContext } from '../processor/processor-context.js';
import { processSourceRecord, rawRecordShown } from '../processor/source-records.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT, taskDirOf } from '../state/checkpoint.js';
import type { KeyValueStore } from '../state/key-value-store.js';
import { MeteredKeyValueStore } from '../state/metered-store.js';
import type { NamedCache, ThreadCache } from '../state/record-cache.js';
import { createRecordCache } from '../state/record-cache-factory.js';
import { isVersionedStore } from '../state/versioned-store.js';
import { createTaskStore, isKeyValueStore } from '../state/store-factory.js';
import { SuppressionBufferStore } from '../state/suppression-buffer.js';
import type { TaskStateStore } from '../state/task-store.js';
import {
  createTimestampExtractor,
  invalidTimestampMessage,
  sourceTimestampExtractorConfig,
  type TimestampExtractor,
} from '../time/timestamp-extractor.js';
import { PartitionGroup } from './partition-group.js';
import type { RecordCollector } from './record-collector.js';
import { tpKey, type RecordQueue } from './record-queue.js';
import { checkpointStores, restoreStores } from './store-restore.js';

export interface StreamTaskOptions {
  subtopology: CompiledSubtopology;
  partition: number;
  /** The task's input partitions: partition `partition` of each source topic that has it. */
  partitions: TopicPartition[];
  collector: RecordCollector;
  metrics: MetricsRegistry;
  config: EngineConfig;
  onError: (error: ProcessingError) => void;
  /** An error's dead-letter copy was acknowledged (worker threads relay where it went). */
  onDeadLetterWritten?: (error: ProcessingError) => void;
  /** The thread's record cache (`statestore.cache.max.bytes` > 0), or null. */
  threadCache?: ThreadCache | null;
  /** Backend#checkRecord, for the production exception handler. */
  checkRecord?: ((record: ProduceRecord) => Error | null) | undefined;
  /** Partition counts of topics, for custom partitioners (a foreign-key join's TableJoined). */
  partitionsFor?: ((topic: string) => number | undefined) | undefined;
  now?: () => number;
  /** Processing stops between records while it is closed (a debugger's pause). */
  pauseGate?: Readonly<PauseGate>;
  /** A loud recovery while restoring (a store wiped and rebuilt from its changelog). */
  onRecovery?: (recovery: Recovery) => void;
}

export const taskIdOf = (subtopology: number, partition: number): string =>
  `${subtopology}_${partition}`;

export class StreamTask {
  readonly #onRecovery: ((recovery: Recovery) => void) | undefined;
  readonly id: string;
  readonly subtopology: number;
  readonly partition: number;
  readonly partitions: TopicPartition[];
  readonly lifecycle: StateMachine<TaskState>;
  readonly context: ProcessorContext;
  readonly graph: TaskGraph;
  readonly stores: TaskStateStore[];
  /** Record caches of the stores materialized with caching (Materialized's default). */
  readonly caches: NamedCache[] = [];
  /** `<state.dir>/<application.id>/<task id>`, or null without a state dir. */
  readonly #taskDir: string | null;
  /** Stores whose directory under `<task dir>/lmdb` did not exist when the task was made. */
  readonly #missingStoreDirs: ReadonlySet<string>;
  readonly partitionGroup: PartitionGroup;
  readonly metrics: TaskMetrics;
  #commitNeeded = false;
  /** Changelog records this task's stores wrote since its last checkpoint (Kafka sums the changelog offset deltas). */
  #changelogSinceCheckpoint = 0;
  /** The input record being processed (one object per task, updated in place: no allocation per record). */
  readonly #metadata = { topic: '', partition: 0, offset: 0 };
  readonly #config: EngineConfig;
  readonly #now: () => number;
  /** Null: the record's own timestamp (the default), checked for validity in process(). */
  /** Per input topic: its source's timestamp extractor (null: the record's, fail on negative). */
  readonly #extractors = new Map<string, TimestampExtractor | null>();
  /** Largest valid extracted timestamp per input partition (Kafka's partition time). */
  readonly #partitionTime = new Map<string, number>();

  readonly #gate: Readonly<PauseGate>;
  constructor(options: StreamTaskOptions) {
    const { subtopology, partition, config } = options;
    this.id = taskIdOf(subtopology.id, partition);
    this.subtopology = subtopology.id;
    this.partition = partition;
    this.partitions = options.partitions;
    this.#config = config;
    this.#now = options.now ?? Date.now;
    this.#onRecovery = options.onRecovery;
    this.#gate = options.pauseGate ?? OPEN_GATE;
    this.lifecycle = new StateMachine<TaskState>(`task ${this.id}`, 'CREATED', TASK_TRANSITIONS);
    // Mirrored into the task's shared metric slots, so status() sees tasks of worker threads too.
    this.lifecycle.onChange((next) => (this.metrics.stateCode = TASK_STATE_CODES.indexOf(next)));
    this.metrics = options.metrics.task(this.id, {
      subtopology: subtopology.id,
      partitions: options.partitions,
    });
    this.metrics.streamTime = NaN;
    this.#taskDir =
      config.stateDir === undefined
        ? null
        : taskDirOf(config.stateDir, config.applicationId, this.id);
    const metered = config.metricsRecordingLevel !== 'INFO';
    // Noted before the stores open (opening creates their directories): a persistent store whose
    // directory is gone while the task's checkpoint names it is rebuilt, not trusted (restore).
    const taskDir = this.#taskDir;
    this.#missingStoreDirs = new Set(
      taskDir === null
        ? []
        : subtopology.stores
            .filter((s) => !existsSync(join(taskDir, 'lmdb', s.name)))
            .map((s) => s.name),
    );
    this.stores = subtopology.stores.map((s) => {
      const store = createTaskStore(s, partition, {
        taskDir: this.#taskDir,
        persistentStores: config.persistentStores,
      });
      // Store metrics for key-value stores (window/session stores have their own layouts).
      if (isVersionedStore(store)) store.onExpired = () => void this.metrics.droppedRecordsTotal++;
      // Versioned stores are not metered yet (MeteredVersionedKeyValueStore: docs/STATE.md).
      if (!metered || !isKeyValueStore(store) || isVersionedStore(store)) return store;
      const scope = store.persistent ? 'lmdb' : 'in-memory';
      return new MeteredKeyValueStore(store, options.metrics.store(this.id, s.name, scope));
    });
    const threadCache = options.threadCache ?? null;
    if (threadCache !== null) {
      for (const s of subtopology.stores) {
        const cache = createRecordCache(s, threadCache);
        if (cache === null) continue;
        if (metered) cache.metrics = options.metrics.cache(this.id, s.name);
        this.caches.push(cache);
      }
    }
    if (metered)
      for (const store of this.stores)
        if (store instanceof SuppressionBufferStore)
          store.metrics = options.metrics.buffer(this.id, store.name);
    this.context = new ProcessorContext({
      applicationId: config.applicationId,
      taskId: this.id,
      partition,
      collector: options.collector,
      stores: new Map<string, KeyValueStore>(
        this.stores.filter(isKeyValueStore).map((s) => [s.name, s]),
      ),
      stateStores: new Map(this.stores.map((s) => [s.name, s])),
      globalStores: subtopology.globalStores,
      caches: new Map(this.caches.map((c) => [c.name, c])),
      taskMetrics: this.metrics,
      processingHandler: config.processingExceptionHandler,
      productionHandler: config.productionExceptionHandler,
      deadLetterQueueTopic: config.deadLetterQueueTopic,
      produceCheck: options.checkRecord,
      partitionsFor: options.partitionsFor,
      onError: options.onError,
      ...(options.onDeadLetterWritten ? { onDeadLetterWritten: options.onDeadLetterWritten } : {}),
      now: this.#now,
    });
    this.graph = instantiate(subtopology, this.context, (name) =>
      options.metrics.node(this.id, name),
    );
    this.partitionGroup = new PartitionGroup(this.partitions, config.maxTaskIdleMs);
    this.metrics.stateCode = TASK_STATE_CODES.indexOf('CREATED');
    for (const q of this.partitionGroup.queues.values())
      q.binding = this.graph.sourceByTopic.get(q.tp.topic) ?? null;
    const shared = createTimestampExtractor(config.timestampExtractor, this.#now);
    for (const [topic, { source }] of this.graph.sourceByTopic) {
      const own = source.timestampExtractor;
      this.#extractors.set(
        topic,
        own === undefined
          ? shared
          : createTimestampExtractor(
              sourceTimestampExtractorConfig(config.timestampExtractor, own),
              this.#now,
            ),
      );
    }
  }

  get state(): TaskState {
    return this.lifecycle.state;
  }

  get streamTime(): number | null {
    return this.context.streamTime === -Infinity ? null : this.context.streamTime;
  }

  /** Replays each store's changelog partition (CREATED → RESTORING → RUNNING; store-restore.ts). */
  async restore(
    backend: Backend,
    isolationLevel: IsolationLevel = 'read_uncommitted',
  ): Promise<void> {
    this.lifecycle.transition('RESTORING');
    await restoreStores(
      backend,
      {
        partition: this.partition,
        stores: this.stores,
        metrics: this.metrics,
        taskDir: this.#taskDir,
        missingStoreDirs: this.#missingStoreDirs,
        eos: this.#config.processingGuarantee === 'exactly_once_v2',
        resumeAt: (topic) => this.partitionGroup.queue(topic, this.partition)?.position ?? -1,
        taskId: this.id,
        ...(this.#onRecovery ? { onRecovery: this.#onRecovery } : {}),
      },
      isolationLevel,
    );
    this.lifecycle.transition('RUNNING');
    this.#initializeTopology();
  }

  /**
   * After a successful commit (Kafka's postCommit): under at_least_once, writes the checkpoint
   * when the task's stores wrote more than OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT (10,000)
   * changelog records since the last one, so a crash replays only the changelog's tail. Under
   * exactly_once_v2 only a clean close writes one (`enforce`), as in Kafka Streams.
   */
  async maybeCheckpoint(backend: Backend, enforce: boolean): Promise<void> {
    if (!enforce) {
      if (this.#config.processingGuarantee === 'exactly_once_v2') return;
      if (this.#changelogSinceCheckpoint <= OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT) return;
    }
    await this.writeCheckpoint(backend);
  }

  /** Records where each persistent store's changelog ends, so the next start replays only what comes after. */
  async writeCheckpoint(backend: Backend): Promise<void> {
    this.#changelogSinceCheckpoint = 0;
    if (this.#taskDir === null) return;
    await checkpointStores(backend, this.#taskDir, this.partition, this.stores);
  }

  /** Marks a task without stores as restored (the test driver and stateless tasks). */
  initializeWithoutRestore(): void {
    this.lifecycle.transition('RESTORING');
    this.lifecycle.transition('RUNNING');
    this.#initializeTopology();
  }

  /**
   * Kafka Streams' initializeTopology: processors' init() once state is ready (they may schedule
   * punctuations). A failing init fails the task whatever the processing exception handler, as
   * ProcessorNode#init's StreamsException `failed to initialize processor <name>` does.
   */
  #initializeTopology(): void {
    for (const node of this.graph.nodes.values()) {
      const init = node.processor.init;
      if (!init) continue;
      const initialize = (): void => {
        try {
          init.call(node.processor);
        } catch (error) {
          throw new Error(`failed to initialize processor ${node.name}: ${errorMessage(error)}`, {
            cause: error,
          });
        }
      };
      this.context.runAs(node, this.context.currentTimestamp, initialize, 'log-and-fail');
    }
  }

  /** Fires due STREAM_TIME punctuations (after processing, as StreamTask#maybePunctuateStreamTime). */
  maybePunctuateStreamTime(): boolean {
    const ctx = this.context;
    if (ctx.streamTime === -Infinity || ctx.streamTimePunctuation.size === 0) return false;
    return ctx.punctuate(ctx.streamTimePunctuation, ctx.streamTime);
  }

  /** Fires due WALL_CLOCK_TIME punctuations. */
  maybePunctuateSystemTime(now: number = this.#now()): boolean {
    const ctx = this.context;
    if (ctx.wallClockPunctuation.size === 0) return false;
    return ctx.punctuate(ctx.wallClockPunctuation, now);
  }

  addRecords(tp: TopicPartition, records: readonly StoredRecord[]): void {
    const queue = this.partitionGroup.queue(tp.topic, tp.partition);
    if (!queue) return;
    const extractor = this.#extractors.get(tp.topic) ?? null;
    if (extractor === null) {
      queue.push(records);
      return;
    }
    queue.push(this.#extractTimestamps(tp, records, extractor));
  }

  /** Applies the timestamp extractor as records are queued (Kafka's RecordQueue does it at the head). */
  #extractTimestamps(
    tp: TopicPartition,
    records: readonly StoredRecord[],
    extractor: TimestampExtractor,
  ): StoredRecord[] {
    const source = this.graph.sourceByTopic.get(tp.topic)?.source;
    if (!source) return [...records];
    const serdes = { key: source.keySerde, value: source.valueSerde };
    const key = tpKey(tp.topic, tp.partition);
    let partitionTime = this.#partitionTime.get(key) ?? -1;
    const out: StoredRecord[] = [];
    for (const record of records) {
      const extracted = extractor.extract(record, serdes, partitionTime);
      if ('skip' in extracted) {
        // LogAndSkipOnInvalidTimestamp: never processed, counted as dropped.
        this.metrics.droppedRecordsTotal++;
        continue;
      }
      if (extracted.timestamp > partitionTime) partitionTime = extracted.timestamp;
      out.push(
        extracted.timestamp === record.timestamp
          ? record
          : { ...record, timestamp: extracted.timestamp },
      );
    }
    this.#partitionTime.set(key, partitionTime);
    return out;
  }

  /** Processes one record if the task is ready; synchronous. @throws FailedProcessingError */
  process(now: number = this.#now()): boolean {
    return this.processBatch(1, now) === 1;
  }

  /**
   * Processes up to `max` records while the task is ready, lowest timestamp first (Kafka's
   * TaskExecutor loop of isProcessable + process). `now` is the thread's wall clock for this batch:
   * readiness and e2e latency use it instead of reading the clock per record, as Kafka Streams does.
   * Returns how many records were processed. @throws FailedProcessingError
   */
  processBatch(max: number, now: number): number {
    const group = this.partitionGroup;
    const ctx = this.context;
    const metadata = this.#metadata;
    const deserializationHandler = this.#config.deserializationExceptionHandler;
    const gate = this.#gate;
    ctx.systemTimeMs = now;
    let n = 0;
    try {
      while (n < max && !gate.paused) {
        const queue = group.nextQueue(now);
        if (queue === null) break;
        const raw = queue.poll()!;
        n++;
        this.#processRecord(queue, raw, ctx, metadata, deserializationHandler);
      }
    } finally {
      this.metrics.processTotal += n;
      if (group.enforced > 0) {
        this.metrics.enforcedProcessingTotal += group.enforced;
        group.enforced = 0;
      }
      if (n > 0) this.#commitNeeded = true;
      ctx.recordMetadata = null;
      ctx.sourceRecord = null;
      this.metrics.streamTime = ctx.streamTime === -Infinity ? NaN : ctx.streamTime;
    }
    return n;
  }

  #processRecord(
    queue: RecordQueue,
    raw: StoredRecord,
    ctx: ProcessorContext,
    metadata: { topic: string; partition: number; offset: number },
    deserializationHandler: EngineConfig['deserializationExceptionHandler'],
  ): void {
    if (raw.timestamp < 0) this.#failOnInvalidTimestamp(raw);
    // record-lateness: how far behind stream time a record is (0 when it advances stream time).
    if (raw.timestamp > ctx.streamTime) {
      ctx.streamTime = raw.timestamp;
      this.metrics.recordLateness(0);
    } else {
      this.metrics.recordLateness(ctx.streamTime - raw.timestamp);
    }
    metadata.topic = raw.topic;
    metadata.partition = raw.partition;
    metadata.offset = raw.offset;
    ctx.recordMetadata = metadata;
    ctx.sourceRecord = raw;
    queue.consumed = raw.offset + 1;
    const binding = queue.binding;
    if (binding !== null)
      processSourceRecord(ctx, binding.node, binding.source, raw, deserializationHandler);
  }

  /** FailOnInvalidTimestamp: the task fails, whatever the processing exception handler says. */
  #failOnInvalidTimestamp(raw: StoredRecord): never {
    const binding = this.graph.sourceByTopic.get(raw.topic);
    // the report shows what arrived (the timestamp is the problem, not the key or value)
    const record = rawRecordShown(raw);
    this.context.recordMetadata = {
      topic: raw.topic,
      partition: raw.partition,
      offset: raw.offset,
    };
    const error = new Error(invalidTimestampMessage(raw));
    if (binding) this.context.handleError(binding.node, record, error, 'log-and-fail');
    throw error;
  }

  get commitNeeded(): boolean {
    return this.#commitNeeded;
  }

  /** A processor asked for a commit (ProcessorContext#commit). */
  get commitRequested(): boolean {
    return this.context.commitRequested;
  }

  /**
   * Kafka's prepareCommit: the record caches forward what they hold (downstream output lands in
   * the collector), so the changelog and output that follow are complete. @throws FailedProcessingError
   */
  flushCaches(): void {
    for (const c of this.caches) c.flush();
  }

  /**
   * Hands the changelog records its stores have already logged for good (window stores: each
   * write) to `send` between commits (TaskStateStore#drainLoggedWrites).
   */
  drainLoggedWrites(send: (record: ProduceRecord) => void): void {
    for (const s of this.stores) {
      if (s.drainLoggedWrites === undefined) continue;
      this.#changelogSinceCheckpoint += s.drainLoggedWrites(send);
    }
  }

  /** Changelog records to write before this task's offsets are committed. */
  takeChangelogRecords(): ProduceRecord[] {
    const out: ProduceRecord[] = [];
    for (const s of this.stores) for (const r of s.takeChangelogRecords()) out.push(r);
    this.#changelogSinceCheckpoint += out.length;
    return out;
  }

  /** The offsets to commit; marks the task clean. */
  takeCommittableOffsets(): { topic: string; partition: number; offset: number }[] {
    this.#commitNeeded = false;
    this.context.commitRequested = false;
    const out: { topic: string; partition: number; offset: number }[] = [];
    for (const q of this.partitionGroup.queues.values())
      if (q.consumed >= 0)
        out.push({ topic: q.tp.topic, partition: q.tp.partition, offset: q.consumed });
    return out;
  }

  /** The commit of the offsets taken failed: the next commit takes them again. */
  markCommitNeeded(): void {
    this.#commitNeeded = true;
  }

  fail(): void {
    if (this.lifecycle.state !== 'FAILED') this.lifecycle.tryTransition('FAILED');
    this.partitionGroup.clear();
  }

  /** RUNNING/RESTORING → SUSPENDED → CLOSED; closing a FAILED task only releases memory. */
  close(): void {
    if (this.lifecycle.state !== 'FAILED') {
      if (this.lifecycle.state !== 'SUSPENDED' && this.lifecycle.state !== 'CLOSED')
        this.lifecycle.transition('SUSPENDED');
      this.lifecycle.tryTransition('CLOSED');
    }
    for (const node of this.graph.nodes.values()) node.processor.close?.();
    this.context.streamTimePunctuation.clear();
    this.context.wallClockPunctuation.clear();
    for (const c of this.caches) c.clear();
    for (const s of this.stores) s.close();
    this.partitionGroup.clear();
  }
}
