// The embedded commit log: Kafka's partitioned, durable log in-process on a local data dir.
// One process owns a data dir; within it one Log object serves every caller (worker threads reach
// it through ./remote). See docs/LOG.md for the on-disk layout and the guarantees.
import fs from 'node:fs';
import { Cleaner, type CompactionReport } from './compaction/cleaner.js';
import { lockDataDir } from './data-dir.js';
import { LogError, LogErrorCode } from './errors.js';
import { fetchRecords, pollRecords } from './fetch.js';
import {
  GroupCoordinator,
  type GroupDescription,
  type GroupMembership,
  type JoinOptions,
  type OffsetReset,
} from './groups/coordinator.js';
import { OFFSETS_TOPIC, type CommittedOffset } from './groups/offsets-store.js';
import {
  TRANSACTION_STATE_TOPIC,
  TransactionCoordinator,
  type TransactionalProducer,
  type TransactionalProducerOptions,
} from './transactions/coordinator.js';
import { NullKeyPartitioner } from './partitioner.js';
import { pollReadPlans, type ReadPlan } from './read/read-plan.js';
import { Topics, type TopicState } from './topics.js';
import type { LogOptions } from './log-options.js';

export type { LogOptions };
import type { ProducerTopicMetadata } from './batch-encoder.js';
import {
  Producer,
  producerMetadataOf,
  type BatchesAppended,
  type PartitionBatches,
  type ProduceBatchesOptions,
  type TransactionalAppend,
} from './produce.js';
import type { PartitionLog, ReadBatch } from './storage/partition-log.js';
import type { RecoveryEvent } from './storage/segment.js';
import type {
  FetchOptions,
  FetchResult,
  IsolationLevel,
  ProduceOptions,
  ProducerRecord,
  RecordMetadata,
  TopicDescription,
  TopicPartition,
  TopicSpec,
} from './types.js';

export class Log {
  readonly dataDir: string;
  readonly clock: () => number;
  /** What opening the data dir had to repair (torn tails truncated, indexes rebuilt, ...). */
  readonly recoveryEvents: RecoveryEvent[] = [];
  private readonly topics: Topics;
  private readonly producer: Producer;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly releaseLock: () => void;
  private readonly closeHooks: (() => Promise<void> | void)[] = [];
  private closed = false;
  private readonly cleaner: Cleaner;
  private readonly groups: GroupCoordinator;
  private readonly txns: TransactionCoordinator;
  private readonly logger: LogOptions['logger'];

  private constructor(opts: LogOptions, releaseLock: () => void) {
    this.dataDir = opts.dataDir;
    this.clock = opts.clock ?? Date.now;
    this.releaseLock = releaseLock;
    this.topics = new Topics(opts.dataDir, this.clock, opts.topicDefaults);
    this.producer = new Producer({
      topic: (name) => this.topic(name),
      clock: this.clock,
      nullKeys: new NullKeyPartitioner(),
    });
    this.cleaner = new Cleaner(this);
    this.logger = opts.logger;
    this.groups = new GroupCoordinator(this, opts.offsetsTopicPartitions ?? 1);
    this.txns = new TransactionCoordinator(this, this.groups);
    this.onClose(() => {
      this.groups.close();
      this.txns.close();
    });
  }

  private readonly lastWarned = new Map<string, number>();
  /**
   * Failures of the background jobs (`retention`, `checkpoint`, `cleaner`) since open, per job
   * (each running job from 0).
   */
  readonly backgroundFailures = new Map<string, number>();

  /** A background job failed: a WARN, at most one a minute per job (a full disk fails each tick). */
  private warnThrottled(job: string, err: unknown): void {
    const now = Date.now();
    if (now - (this.lastWarned.get(job) ?? -Infinity) < 60_000) return;
    this.lastWarned.set(job, now);
    this.warn(
      `log ${job} failed (retried on its timer): ${(err as Error)?.message ?? String(err)}`,
      err,
    );
  }

  /** @internal */
  warn(message: string, err?: unknown): void {
    this.logger?.warn(err === undefined ? {} : { err }, message);
  }

  /** Opens (creating if needed) a data dir, takes its lock and recovers every partition. */
  static async open(opts: LogOptions): Promise<Log> {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    const release = lockDataDir(opts.dataDir);
    let log: Log | undefined;
    try {
      log = new Log(opts, release);
      log.topics.load(log.recoveryEvents);
      log.writeCheckpoints();
      await log.startInternal(opts);
    } catch (err) {
      // Opening failed: the caller gets that error; a partition failing to close as well adds nothing.
      // eslint-disable-next-line no-restricted-syntax -- cleanup after a failed open
      if (log) for (const p of log.topics.all()) void p.close().catch(() => undefined);
      release();
      throw err;
    }
    if (opts.background !== false) log.startTimers(opts);
    return log;
  }

  /** Internal topics, then transaction recovery, then the offsets replay (which needs it). */
  private async startInternal(opts: LogOptions): Promise<void> {
    const internal = { 'cleanup.policy': 'compact', 'segment.bytes': 104857600 };
    await this.createTopics(
      [
        { name: OFFSETS_TOPIC, partitions: opts.offsetsTopicPartitions ?? 1, config: internal },
        { name: TRANSACTION_STATE_TOPIC, partitions: 1, config: internal },
      ],
      { ifNotExists: true },
    );
    await this.txns.load();
    await this.groups.load();
  }

  private startTimers(opts: LogOptions): void {
    const every = (ms: number, what: string, fn: () => unknown): void => {
      // Counted from 0, so a metrics scrape shows every job before its first failure.
      this.backgroundFailures.set(what, 0);
      const failed = (err: unknown): void => {
        this.backgroundFailures.set(what, (this.backgroundFailures.get(what) ?? 0) + 1);
        this.warnThrottled(what, err);
      };
      const t = setInterval(() => {
        if (this.closed) return;
        // A job may throw synchronously (a checkpoint on a full disk) or reject: either is
        // reported, and the next tick tries again; neither may reach the process.
        try {
          void Promise.resolve(fn()).catch(failed);
        } catch (err) {
          failed(err);
        }
      }, ms);
      t.unref();
      this.timers.push(t);
    };
    every(opts.retentionCheckIntervalMs ?? 300_000, 'retention', () => this.runRetention());
    every(opts.checkpointIntervalMs ?? 1_000, 'checkpoint', () => this.writeCheckpoints());
    // Awaited together, so that a failing pass (the cleaner's) is reported like the others'
    // instead of becoming an unhandled rejection.
    every(opts.cleanerBackoffMs ?? 15_000, 'cleaner', () =>
      Promise.all(this.maintenanceHooks.map((h) => h())),
    );
  }

  /** Background jobs registered by other modules (the cleaner). */
  readonly maintenanceHooks: (() => unknown)[] = [];

  /** Runs `hook` when the log closes, before partitions close (groups, transactions, cleaner). */
  onClose(hook: () => Promise<void> | void): void {
    this.closeHooks.push(hook);
  }

  private ensureOpen(): void {
    if (this.closed) throw new LogError(LogErrorCode.LOG_CLOSED, 'the log is closed');
  }

  // ---- topics --------------------------------------------------------------------------------

  /** @internal the live handle of a topic (throws UNKNOWN_TOPIC_OR_PARTITION). */
  topic(name: string): TopicState {
    this.ensureOpen();
    return this.topics.get(name);
  }

  /** @internal */
  partition(topic: string, partition: number): PartitionLog {
    this.ensureOpen();
    return this.topics.partition(topic, partition);
  }

  hasTopic(name: string): boolean {
    return this.topics.has(name);
  }

  /**
   * Creates topics. An existing topic is TOPIC_ALREADY_EXISTS unless `ifNotExists`, in which case
   * it is left as it is (its partition count and configs are not compared).
   */
  async createTopics(specs: TopicSpec[], opts: { ifNotExists?: boolean } = {}): Promise<void> {
    this.ensureOpen();
    const created = this.topics.create(specs, opts);
    if (created.length > 0) this.groups?.topicsChanged(created);
  }

  async createTopic(
    name: string,
    partitions: number,
    config?: Record<string, string | number>,
  ): Promise<void> {
    await this.createTopics([{ name, partitions, ...(config ? { config } : {}) }]);
  }

  /** Deletes topics and their data. Unknown names are UNKNOWN_TOPIC_OR_PARTITION. */
  async deleteTopics(names: string[]): Promise<void> {
    this.ensureOpen();
    await this.topics.delete(names);
    this.groups.topicsChanged(names);
  }

  /** Adds partitions (Kafka never removes them; keyed records may move to new partitions). */
  async createPartitions(name: string, totalCount: number): Promise<void> {
    this.ensureOpen();
    this.topics.addPartitions(name, totalCount);
    this.groups.topicsChanged([name]);
  }

  /**
   * Sets and removes config overrides (Kafka's incrementalAlterConfigs SET / DELETE); with
   * `validateOnly` only checks them.
   */
  async alterTopicConfig(
    name: string,
    set: Record<string, string | number>,
    remove: string[] = [],
    opts: { validateOnly?: boolean } = {},
  ): Promise<void> {
    this.ensureOpen();
    this.topics.alterConfig(name, set, remove, opts.validateOnly === true);
  }

  /** Every topic, sorted; the log's own `__` topics only with `includeSystem`. */
  listTopics(opts: { includeSystem?: boolean } = {}): TopicDescription[] {
    this.ensureOpen();
    return this.topics.list(opts);
  }

  describeTopic(name: string): TopicDescription | null {
    this.ensureOpen();
    return this.topics.describe(name);
  }

  // ---- produce and fetch ---------------------------------------------------------------------

  /** Appends records; resolves with each record's partition and offset, in input order. */
  produce(records: readonly ProducerRecord[], opts?: ProduceOptions): Promise<RecordMetadata[]> {
    return settle(() => {
      this.ensureOpen();
      return this.producer.produce(records, opts);
    });
  }

  /**
   * Appends v2 batches a producer encoded (BatchEncoder): all validated before any is written (a
   * bad one refuses the request, nothing written); offsets are stamped into the given buffers,
   * which the log owns until the promise settles. See docs/LOG.md, Producer-encoded batches.
   */
  produceBatches(
    parts: readonly PartitionBatches[],
    opts?: ProduceBatchesOptions,
  ): Promise<BatchesAppended[]> {
    return settle(() => {
      this.ensureOpen();
      return this.producer.produceBatches(parts, opts);
    });
  }

  /** What a producer needs to encode batches for `topic` (partition count, limits, codec). */
  producerMetadata(topic: string): ProducerTopicMetadata {
    return producerMetadataOf(this.topic(topic));
  }

  /**
   * @internal the transactional path of producer-encoded batches (see transactions/); a refused
   * request throws synchronously, nothing of it written.
   */
  produceTransactionalBatches(
    parts: readonly PartitionBatches[],
    opts: ProduceBatchesOptions,
    txn: TransactionalAppend,
  ): Promise<BatchesAppended[]> {
    this.ensureOpen();
    return this.producer.produceBatches(parts, opts, txn);
  }

  /** @internal the transactional produce path (see transactions/). */
  produceTransactional(
    records: readonly ProducerRecord[],
    opts: ProduceOptions,
    txn: TransactionalAppend,
  ): Promise<RecordMetadata[]> {
    this.ensureOpen();
    return this.producer.produce(records, opts, txn);
  }

  fetch(
    topic: string,
    partition: number,
    offset: number,
    opts?: FetchOptions,
  ): Promise<FetchResult> {
    return settle(() => fetchRecords(this.partition(topic, partition), offset, opts));
  }

  /** Long-polls several partitions, returning once any has records (see fetch.ts). */
  poll(
    positions: (TopicPartition & { offset: number })[],
    opts?: FetchOptions,
  ): Promise<FetchResult[]> {
    return settle(() =>
      pollRecords(
        positions.map((p) => ({ log: this.partition(p.topic, p.partition), offset: p.offset })),
        opts,
      ),
    );
  }

  /** Raw, CRC-checked batches as stored (Kafka's fetch response payload), for tools and copies. */
  fetchBatches(
    topic: string,
    partition: number,
    offset: number,
    opts: { maxBytes?: number; isolationLevel?: IsolationLevel } = {},
  ): Promise<ReadBatch[]> {
    return settle(() =>
      this.partition(topic, partition).read(
        offset,
        opts.maxBytes ?? 1 << 20,
        opts.isolationLevel ?? 'read_uncommitted',
      ),
    );
  }

  /**
   * Where another thread can read these partitions' segment files itself (read/file-reader.ts),
   * from each offset (moved up to the log start when below it); long-polls up to `maxWaitMs`
   * until any of them has data, as poll() does.
   */
  readPlans(
    positions: (TopicPartition & { offset: number })[],
    opts?: { maxWaitMs?: number; isolationLevel?: IsolationLevel; signal?: AbortSignal },
  ): Promise<ReadPlan[]> {
    return settle(() =>
      pollReadPlans(
        positions.map((p) => ({ log: this.partition(p.topic, p.partition), offset: p.offset })),
        opts,
      ),
    );
  }

  earliestOffset(topic: string, partition: number): number {
    return this.partition(topic, partition).logStartOffset;
  }

  /** The end of the readable log: the high watermark, or the last stable offset for read_committed. */
  latestOffset(
    topic: string,
    partition: number,
    isolation: IsolationLevel = 'read_uncommitted',
  ): number {
    const p = this.partition(topic, partition);
    return isolation === 'read_committed' ? p.lastStableOffset : p.highWatermark;
  }

  offsetForTimestamp(
    topic: string,
    partition: number,
    timestamp: number,
  ): Promise<{ offset: number; timestamp: number } | null> {
    return settle(() => this.partition(topic, partition).offsetForTimestamp(timestamp));
  }

  /** Kafka's deleteRecords: records below `beforeOffset` become unreadable, their segments go. */
  async deleteRecords(topic: string, partition: number, beforeOffset: number): Promise<number> {
    const p = this.partition(topic, partition);
    p.advanceLogStartOffset(beforeOffset);
    this.writeCheckpoints();
    if (!p.cleaning) p.deleteOldSegments(this.clock(), true);
    return p.logStartOffset;
  }

  // ---- consumer groups -----------------------------------------------------------------------

  /** Joins a consumer group; resolves once the first rebalance has given this member its partitions. */
  joinGroup(groupId: string, opts: JoinOptions): Promise<GroupMembership> {
    return settle(() => {
      this.ensureOpen();
      return this.groups.join(groupId, opts);
    });
  }

  /** Commits offsets durably (unfenced; GroupMembership.commit checks the generation). */
  commitOffsets(
    groupId: string,
    offsets: (TopicPartition & { offset: number; metadata?: string })[],
  ): Promise<void> {
    return settle(() => {
      this.ensureOpen();
      return this.groups.commit(groupId, offsets);
    });
  }

  committedOffsets(groupId: string, tps?: TopicPartition[]): CommittedOffset[] {
    this.ensureOpen();
    return this.groups.committed(groupId, tps);
  }

  /** The committed offset when valid, else per `reset` (Kafka's auto.offset.reset). */
  startingOffset(groupId: string, tp: TopicPartition, reset: OffsetReset = 'latest'): number {
    this.ensureOpen();
    return this.groups.startingOffset(groupId, tp, reset);
  }

  /** Every known group (with members, or with committed offsets) and its lag. */
  listGroups(): GroupDescription[] {
    this.ensureOpen();
    return this.groups.listGroups();
  }

  describeGroup(groupId: string): GroupDescription {
    this.ensureOpen();
    return this.groups.describeGroup(groupId);
  }

  /** Forgets a group's committed offsets for these partitions (Kafka's OffsetDelete). */
  deleteOffsets(groupId: string, tps: TopicPartition[]): Promise<void> {
    return settle(() => {
      this.ensureOpen();
      return this.groups.deleteOffsets(groupId, tps);
    });
  }

  deleteGroup(groupId: string): Promise<void> {
    return settle(() => {
      this.ensureOpen();
      return this.groups.deleteGroup(groupId);
    });
  }

  // ---- transactions --------------------------------------------------------------------------

  /** Kafka's initTransactions for `transactionalId`: fences older producers with the same id. */
  transactionalProducer(
    transactionalId: string,
    opts?: TransactionalProducerOptions,
  ): Promise<TransactionalProducer> {
    return settle(() => {
      this.ensureOpen();
      return this.txns.init(transactionalId, opts);
    });
  }

  // ---- maintenance ---------------------------------------------------------------------------

  /** Applies retention to every partition now; returns the number of segments deleted. */
  runRetention(): number {
    return this.closed ? 0 : this.topics.runRetention(this.clock());
  }

  /**
   * Compacts a partition of a compacted topic now (the background cleaner does it on its own once
   * min.cleanable.dirty.ratio is reached). Runs in a worker thread; appends and reads go on.
   */
  compact(topic: string, partition: number): Promise<CompactionReport> {
    return settle(() => this.cleaner.compact(topic, partition));
  }

  /** One pass of the background cleaner: compacts partitions over their dirty ratio. */
  cleanDirty = (): Promise<unknown> => this.cleaner.cleanDirty();
  /** Writes recovery points and log start offsets (also done on a timer and at close). */
  writeCheckpoints = (): void => this.topics.writeCheckpoints();
  /** fsyncs every partition, whatever its flush policy. */
  flush = async (): Promise<void> =>
    void (await Promise.all(this.topics.all().map((p) => p.flushAll())));
  /** @internal every partition, for the cleaner and admin listings */
  allPartitions = (): PartitionLog[] => this.topics.all();

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Flushes, checkpoints and releases the data dir. Idempotent. A storage error on the way (a full
   * disk refusing the last index entries or the final checkpoint, a failed fsync) is a WARN, not a
   * rejection: every file is closed and the lock released all the same, and the next open
   * recovers from the last checkpoint that was written. Closing is what a caller does when things
   * go wrong; it must not become the thing that crashes the process.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const t of this.timers) clearInterval(t);
    for (const hook of this.closeHooks.reverse()) await hook();
    this.closed = true;
    const parts = this.topics.all();
    // Closing waits for compactions to end; a failed one's caller got its error.
    for (const p of parts) if (p.cleaning) await p.cleaning.catch(() => undefined);
    try {
      const closed = await Promise.allSettled(parts.map((p) => p.close()));
      closed.forEach((r, i) => {
        if (r.status === 'rejected')
          this.warn(
            `log close: ${parts[i]!.topic}-${parts[i]!.partition} did not close cleanly, its ` +
              `unflushed tail is recovered at the next open: ${errorText(r.reason)}`,
            r.reason,
          );
      });
      try {
        this.writeCheckpoints();
      } catch (err) {
        this.warn(
          `log close: the final checkpoint was not written, the next open recovers from the ` +
            `previous one: ${errorText(err)}`,
          err,
        );
      }
    } finally {
      this.releaseLock();
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs `fn`, a synchronous throw (closed log, unknown topic) becoming the promise's rejection. */
function settle<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (err) {
    return Promise.reject(err);
  }
}

export function openLog(opts: LogOptions): Promise<Log> {
  return Log.open(opts);
}
