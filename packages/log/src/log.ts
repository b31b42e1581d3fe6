// The embedded commit log: Kafka's partitioned, durable log in-process on a local data dir.
// One process owns a data dir; within it one Log object serves every caller (worker threads reach
// it through ./remote). See docs/LOG.md for the on-disk layout and the guarantees.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Cleaner, type CompactionReport } from './compaction/cleaner.js';
import {
  effectiveConfig,
  normaliseOverrides,
  parseTopicConfig,
  type TopicConfig,
} from './config.js';
import {
  lockDataDir,
  partitionDir,
  readCheckpoint,
  TopicRegistry,
  tpKey,
  validateTopicName,
  writeCheckpoint,
  type TopicRecord,
} from './data-dir.js';
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
import { Producer, type TopicHandle, type TransactionalAppend } from './produce.js';
import { PartitionLog, type ReadBatch } from './storage/partition-log.js';
import type { RecoveryEvent } from './storage/segment.js';
import type {
  FetchOptions,
  FetchResult,
  IsolationLevel,
  PartitionState,
  ProduceOptions,
  ProducerRecord,
  RecordMetadata,
  TopicDescription,
  TopicPartition,
  TopicSpec,
} from './types.js';

export interface LogOptions {
  dataDir: string;
  /** Milliseconds since the epoch; inject one to test retention, segment.ms and timeouts. */
  clock?: () => number;
  /** Log-level topic config defaults, like a broker's `log.*` settings (e.g. `flush.ms`). */
  topicDefaults?: Record<string, string | number>;
  /** Run retention, compaction and checkpoints on timers (default true). Off: call them yourself. */
  background?: boolean;
  /** Kafka's log.retention.check.interval.ms (default 5 minutes). */
  retentionCheckIntervalMs?: number;
  /** How often the cleaner looks for dirty compacted logs (Kafka's log.cleaner.backoff.ms, 15 s). */
  cleanerBackoffMs?: number;
  /** How often recovery points are checkpointed (default 10 s): bounds the scan after a crash. */
  checkpointIntervalMs?: number;
  /** Partitions of `__consumer_offsets` when it is first created (Kafka: 50; default here 1). */
  offsetsTopicPartitions?: number;
  /** Where warnings go (a session timed out, a listener failed); default: silence. */
  logger?: { warn(obj: object, msg?: string): void };
}

interface TopicState extends TopicHandle {
  record: TopicRecord;
  /** One of the log's own topics. */
  system: boolean;
}

const INTERNAL_PREFIX = '__';

export class Log {
  readonly dataDir: string;
  readonly clock: () => number;
  /** What opening the data dir had to repair (torn tails truncated, indexes rebuilt, ...). */
  readonly recoveryEvents: RecoveryEvent[] = [];
  private readonly registry: TopicRegistry;
  private readonly topics = new Map<string, TopicState>();
  private readonly defaults: Record<string, string>;
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
    this.defaults = normaliseOverrides(opts.topicDefaults);
    this.registry = new TopicRegistry(opts.dataDir);
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
      log.load();
      await log.startInternal(opts);
    } catch (err) {
      if (log)
        for (const t of log.topics.values())
          for (const p of t.partitions) void p.close().catch(() => undefined);
      release();
      throw err;
    }
    if (opts.background !== false) log.startTimers(opts);
    return log;
  }

  private load(): void {
    const recovery = readCheckpoint(this.dataDir, 'recovery-point-offset-checkpoint');
    const starts = readCheckpoint(this.dataDir, 'log-start-offset-checkpoint');
    for (const [name, record] of this.registry.topics) {
      const state = this.makeState(name, record);
      for (let p = 0; p < record.partitions; p++) {
        const dir = partitionDir(this.dataDir, name, p);
        const key = tpKey(name, p);
        const opts = this.partitionOptions(state, p);
        const rp = recovery.get(key);
        const ls = starts.get(key);
        state.partitions.push(
          fs.existsSync(dir)
            ? PartitionLog.open(
                opts,
                rp === undefined && ls === undefined
                  ? undefined
                  : { recoveryPoint: rp ?? 0, logStartOffset: ls ?? 0 },
                this.recoveryEvents,
              )
            : PartitionLog.create(opts),
        );
      }
      this.topics.set(name, state);
    }
    this.writeCheckpoints();
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

  private makeState(name: string, record: TopicRecord): TopicState {
    const state: TopicState = {
      name,
      record,
      system: name.startsWith(INTERNAL_PREFIX),
      config: parseTopicConfig(record.config, this.defaults),
      partitions: [],
    };
    return state;
  }

  private partitionOptions(state: TopicState, partition: number) {
    return {
      dir: partitionDir(this.dataDir, state.name, partition),
      topic: state.name,
      partition,
      config: (): TopicConfig => state.config,
      clock: this.clock,
    };
  }

  private startTimers(opts: LogOptions): void {
    const every = (ms: number, fn: () => unknown): void => {
      const t = setInterval(() => {
        if (!this.closed) void Promise.resolve(fn()).catch(() => undefined);
      }, ms);
      t.unref();
      this.timers.push(t);
    };
    every(opts.retentionCheckIntervalMs ?? 300_000, () => this.runRetention());
    every(opts.checkpointIntervalMs ?? 10_000, () => this.writeCheckpoints());
    every(opts.cleanerBackoffMs ?? 15_000, () => this.maintenanceHooks.forEach((h) => h()));
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
    const t = this.topics.get(name);
    if (!t)
      throw new LogError(
        LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        `This server does not host this topic-partition: ${name}`,
      );
    return t;
  }

  /** @internal */
  partition(topic: string, partition: number): PartitionLog {
    const t = this.topic(topic);
    const p = t.partitions[partition];
    if (!p)
      throw new LogError(
        LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        `This server does not host this topic-partition: ${topic}-${partition}`,
      );
    return p;
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
    const todo: { spec: TopicSpec; overrides: Record<string, string> }[] = [];
    for (const spec of specs) {
      validateTopicName(spec.name);
      if (!Number.isInteger(spec.partitions) || spec.partitions < 1 || spec.partitions > 100_000) {
        throw new LogError(
          LogErrorCode.INVALID_PARTITIONS,
          `Number of partitions must be at least 1 (got ${spec.partitions} for ${spec.name})`,
        );
      }
      if (this.topics.has(spec.name)) {
        if (opts.ifNotExists) continue;
        throw new LogError(
          LogErrorCode.TOPIC_ALREADY_EXISTS,
          `Topic '${spec.name}' already exists.`,
        );
      }
      const overrides = normaliseOverrides(spec.config);
      parseTopicConfig(overrides, this.defaults);
      todo.push({ spec, overrides });
    }
    for (const { spec, overrides } of todo) {
      if (this.topics.has(spec.name)) continue; // listed twice
      const record: TopicRecord = {
        id: randomUUID(),
        partitions: spec.partitions,
        config: overrides,
        createdAt: this.clock(),
        ...(spec.internal ? { internal: true } : {}),
      };
      const state = this.makeState(spec.name, record);
      for (let p = 0; p < spec.partitions; p++) {
        const dir = partitionDir(this.dataDir, spec.name, p);
        fs.rmSync(dir, { recursive: true, force: true }); // leftovers of a deletion cut short
        state.partitions.push(PartitionLog.create(this.partitionOptions(state, p)));
      }
      this.topics.set(spec.name, state);
      this.registry.topics.set(spec.name, record);
    }
    if (todo.length > 0) {
      this.registry.save();
      this.groups?.topicsChanged(todo.map((t) => t.spec.name));
    }
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
    for (const name of names) this.topic(name);
    for (const name of names) {
      const state = this.topics.get(name);
      if (!state) continue;
      this.topics.delete(name);
      this.registry.topics.delete(name);
      this.registry.save(); // the registry first: a crash mid-way leaves only orphan dirs behind
      for (const p of state.partitions) await p.destroy();
    }
    this.groups.topicsChanged(names);
  }

  /** Adds partitions (Kafka never removes them; keyed records may move to new partitions). */
  async createPartitions(name: string, totalCount: number): Promise<void> {
    const state = this.topic(name);
    if (!Number.isInteger(totalCount) || totalCount <= state.partitions.length) {
      throw new LogError(
        LogErrorCode.INVALID_PARTITIONS,
        `Topic ${name} has ${state.partitions.length} partitions; the new count must be larger (got ${totalCount})`,
      );
    }
    for (let p = state.partitions.length; p < totalCount; p++) {
      fs.rmSync(partitionDir(this.dataDir, name, p), { recursive: true, force: true });
      state.partitions.push(PartitionLog.create(this.partitionOptions(state, p)));
    }
    state.record.partitions = totalCount;
    this.registry.save();
    this.groups.topicsChanged([name]);
  }

  /** Sets and removes config overrides (Kafka's incrementalAlterConfigs SET / DELETE). */
  async alterTopicConfig(
    name: string,
    set: Record<string, string | number>,
    remove: string[] = [],
  ): Promise<void> {
    const state = this.topic(name);
    const next = { ...state.record.config, ...normaliseOverrides(set) };
    for (const k of remove) delete next[k];
    state.config = parseTopicConfig(next, this.defaults);
    state.record.config = next;
    this.registry.save();
  }

  /** Every topic, sorted; the log's own `__` topics only with `includeSystem`. */
  listTopics(opts: { includeSystem?: boolean } = {}): TopicDescription[] {
    this.ensureOpen();
    return [...this.topics.keys()]
      .sort()
      .map((n) => this.describeTopic(n)!)
      .filter((t) => opts.includeSystem === true || !t.system);
  }

  describeTopic(name: string): TopicDescription | null {
    this.ensureOpen();
    const t = this.topics.get(name);
    if (!t) return null;
    return {
      name,
      id: t.record.id,
      partitions: t.partitions.length,
      internal: t.system || t.record.internal === true,
      system: t.system,
      config: effectiveConfig(t.record.config, this.defaults),
      overrides: { ...t.record.config },
      offsets: t.partitions.map((p): PartitionState => ({
        partition: p.partition,
        earliest: p.logStartOffset,
        latest: p.highWatermark,
        logEndOffset: p.logEndOffset,
        lastStableOffset: p.lastStableOffset,
        sizeBytes: p.sizeInBytes(),
        segments: p.segments.length,
      })),
    };
  }

  // ---- produce and fetch ---------------------------------------------------------------------

  /** Appends records; resolves with each record's partition and offset, in input order. */
  produce(records: readonly ProducerRecord[], opts?: ProduceOptions): Promise<RecordMetadata[]> {
    try {
      this.ensureOpen();
      return this.producer.produce(records, opts);
    } catch (err) {
      return Promise.reject(err);
    }
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
    try {
      return fetchRecords(this.partition(topic, partition), offset, opts);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Long-polls several partitions, returning once any has records (see fetch.ts). */
  poll(
    positions: (TopicPartition & { offset: number })[],
    opts?: FetchOptions,
  ): Promise<FetchResult[]> {
    try {
      return pollRecords(
        positions.map((p) => ({ log: this.partition(p.topic, p.partition), offset: p.offset })),
        opts,
      );
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Raw, CRC-checked batches as stored (Kafka's fetch response payload), for tools and copies. */
  fetchBatches(
    topic: string,
    partition: number,
    offset: number,
    opts: { maxBytes?: number; isolationLevel?: IsolationLevel } = {},
  ): Promise<ReadBatch[]> {
    try {
      return this.partition(topic, partition).read(
        offset,
        opts.maxBytes ?? 1 << 20,
        opts.isolationLevel ?? 'read_uncommitted',
      );
    } catch (err) {
      return Promise.reject(err);
    }
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
    try {
      return pollReadPlans(
        positions.map((p) => ({ log: this.partition(p.topic, p.partition), offset: p.offset })),
        opts,
      );
    } catch (err) {
      return Promise.reject(err);
    }
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
    try {
      return this.partition(topic, partition).offsetForTimestamp(timestamp);
    } catch (err) {
      return Promise.reject(err);
    }
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
    try {
      this.ensureOpen();
      return this.groups.join(groupId, opts);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Commits offsets durably (unfenced; GroupMembership.commit checks the generation). */
  commitOffsets(
    groupId: string,
    offsets: (TopicPartition & { offset: number; metadata?: string })[],
  ): Promise<void> {
    try {
      this.ensureOpen();
      return this.groups.commit(groupId, offsets);
    } catch (err) {
      return Promise.reject(err);
    }
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
    try {
      this.ensureOpen();
      return this.groups.deleteOffsets(groupId, tps);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  deleteGroup(groupId: string): Promise<void> {
    try {
      this.ensureOpen();
      return this.groups.deleteGroup(groupId);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  // ---- transactions --------------------------------------------------------------------------

  /** Kafka's initTransactions for `transactionalId`: fences older producers with the same id. */
  transactionalProducer(
    transactionalId: string,
    opts?: TransactionalProducerOptions,
  ): Promise<TransactionalProducer> {
    try {
      this.ensureOpen();
      return this.txns.init(transactionalId, opts);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  // ---- maintenance ---------------------------------------------------------------------------

  /** Applies retention to every partition now; returns the number of segments deleted. */
  runRetention(): number {
    if (this.closed) return 0;
    let deleted = 0;
    const now = this.clock();
    for (const t of this.topics.values()) {
      for (const p of t.partitions) if (!p.cleaning) deleted += p.deleteOldSegments(now);
    }
    if (deleted > 0) this.writeCheckpoints();
    return deleted;
  }

  /**
   * Compacts a partition of a compacted topic now (the background cleaner does it on its own once
   * min.cleanable.dirty.ratio is reached). Runs in a worker thread; appends and reads go on.
   */
  compact(topic: string, partition: number): Promise<CompactionReport> {
    try {
      return this.cleaner.compact(topic, partition);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** One pass of the background cleaner: compacts partitions over their dirty ratio. */
  cleanDirty(): Promise<unknown> {
    return this.cleaner.cleanDirty();
  }

  /** Writes recovery points and log start offsets (also done on a timer and at close). */
  writeCheckpoints(): void {
    const rp: { topic: string; partition: number; offset: number }[] = [];
    const ls: { topic: string; partition: number; offset: number }[] = [];
    for (const t of this.topics.values()) {
      for (const p of t.partitions) {
        rp.push({ topic: t.name, partition: p.partition, offset: p.recoveryPoint });
        ls.push({ topic: t.name, partition: p.partition, offset: p.logStartOffset });
      }
    }
    writeCheckpoint(this.dataDir, 'recovery-point-offset-checkpoint', rp);
    writeCheckpoint(this.dataDir, 'log-start-offset-checkpoint', ls);
  }

  /** fsyncs every partition, whatever its flush policy. */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.topics.values()].flatMap((t) => t.partitions.map((p) => p.flushAll())),
    );
  }

  /** @internal every partition, for the cleaner and admin listings */
  allPartitions(): PartitionLog[] {
    return [...this.topics.values()].flatMap((t) => t.partitions);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Flushes, checkpoints and releases the data dir. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const t of this.timers) clearInterval(t);
    for (const hook of this.closeHooks.reverse()) await hook();
    this.closed = true;
    const parts = [...this.topics.values()].flatMap((t) => t.partitions);
    for (const p of parts) if (p.cleaning) await p.cleaning.catch(() => undefined);
    await Promise.all(parts.map((p) => p.close()));
    this.writeCheckpoints();
    this.releaseLock();
  }
}

export function openLog(opts: LogOptions): Promise<Log> {
  return Log.open(opts);
}
