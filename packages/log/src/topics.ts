// The topics of a data dir: the registry (topics.json), each topic's parsed config and partition
// logs, and the admin operations on them (Kafka's CreateTopics, DeleteTopics, CreatePartitions,
// IncrementalAlterConfigs, DescribeTopics). The Log wraps these with its checks and listeners.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import {
  effectiveConfig,
  normaliseOverrides,
  parseTopicConfig,
  type TopicConfig,
} from './config.js';
import {
  partitionDir,
  readCheckpoint,
  writeCheckpoint,
  TopicRegistry,
  tpKey,
  validateTopicName,
  type TopicRecord,
} from './data-dir.js';
import { LogError, LogErrorCode } from './errors.js';
import type { TopicHandle } from './produce.js';
import { PartitionLog } from './storage/partition-log.js';
import { FlushRounds } from './storage/flush-rounds.js';
import type { RecoveryEvent } from './storage/segment.js';
import type { PartitionState, TopicDescription, TopicSpec } from './types.js';

export interface TopicState extends TopicHandle {
  record: TopicRecord;
  /** One of the log's own topics. */
  system: boolean;
}

const INTERNAL_PREFIX = '__';

export class Topics {
  readonly map = new Map<string, TopicState>();
  private readonly registry: TopicRegistry;
  private readonly defaults: Record<string, string>;
  /** The timed flushes of all partitions go out together (see FlushRounds). */
  private readonly flushRounds = new FlushRounds();

  constructor(
    private readonly dataDir: string,
    private readonly clock: () => number,
    topicDefaults: Record<string, string | number> | undefined,
  ) {
    this.defaults = normaliseOverrides(topicDefaults);
    this.registry = new TopicRegistry(dataDir);
  }

  /** Opens every registered topic's partitions, recovering them (see PartitionLog.open). */
  load(events: RecoveryEvent[]): void {
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
        const before = events.length;
        const checkpoint =
          rp === undefined && ls === undefined
            ? undefined
            : { recoveryPoint: rp ?? 0, logStartOffset: ls ?? 0 };
        let partition: PartitionLog;
        try {
          partition = fs.existsSync(dir)
            ? PartitionLog.open(opts, checkpoint, events)
            : PartitionLog.create(opts);
        } catch (err) {
          const damaged = damagedPartition(this.dataDir, name, p, err);
          if (damaged) {
            // Damage is this partition's alone: it is refused (every read and append of it fails
            // with this error), the other partitions and topics open and run.
            events.length = before;
            events.push({
              kind: 'refused-partition',
              file: damaged.file ?? dir,
              ...(damaged.offset !== undefined ? { offset: damaged.offset } : {}),
              ...(damaged.position !== undefined ? { position: damaged.position } : {}),
              detail: damaged.message,
            });
            partition = PartitionLog.refused(opts, checkpoint, damaged);
          } else {
            // This topic's partitions opened so far are not in the map yet: closed here.
            // eslint-disable-next-line no-restricted-syntax -- cleanup: the open's error is thrown below
            for (const opened of state.partitions) void opened.close().catch(() => undefined);
            throw err;
          }
        }
        state.partitions.push(partition);
        for (let i = before; i < events.length; i++)
          Object.assign(events[i]!, { topic: name, partition: p });
      }
      this.map.set(name, state);
    }
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
      flushRounds: this.flushRounds,
    };
  }

  /** The live handle of a topic (throws UNKNOWN_TOPIC_OR_PARTITION). */
  get(name: string): TopicState {
    const t = this.map.get(name);
    if (!t)
      throw new LogError(
        LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        `This server does not host this topic-partition: ${name}`,
      );
    return t;
  }

  partition(topic: string, partition: number): PartitionLog {
    const t = this.get(topic);
    const p = t.partitions[partition];
    if (!p)
      throw new LogError(
        LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        `This server does not host this topic-partition: ${topic}-${partition}`,
      );
    if (p.refusal) throw p.refusal;
    return p;
  }

  /** The partitions refused at open for damage (see PartitionLog#refusal). */
  refused(): PartitionLog[] {
    return [...this.map.values()].flatMap((t) => t.partitions.filter((p) => p.refusal));
  }

  has(name: string): boolean {
    return this.map.has(name);
  }

  /**
   * Creates topics. An existing topic is TOPIC_ALREADY_EXISTS unless `ifNotExists`, in which case
   * it is left as it is (its partition count and configs are not compared).
   */
  create(specs: TopicSpec[], opts: { ifNotExists?: boolean } = {}): string[] {
    const todo: { spec: TopicSpec; overrides: Record<string, string> }[] = [];
    for (const spec of specs) {
      validateTopicName(spec.name);
      if (!Number.isInteger(spec.partitions) || spec.partitions < 1 || spec.partitions > 100_000) {
        throw new LogError(
          LogErrorCode.INVALID_PARTITIONS,
          `Number of partitions must be at least 1 (got ${spec.partitions} for ${spec.name})`,
        );
      }
      if (this.map.has(spec.name)) {
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
      if (this.map.has(spec.name)) continue; // listed twice
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
      this.map.set(spec.name, state);
      this.registry.topics.set(spec.name, record);
    }
    if (todo.length > 0) this.registry.save();
    return todo.map((t) => t.spec.name);
  }

  /** Deletes topics and their data. Unknown names are UNKNOWN_TOPIC_OR_PARTITION. */
  async delete(names: string[]): Promise<void> {
    for (const name of names) this.get(name);
    for (const name of names) {
      const state = this.map.get(name);
      if (!state) continue;
      this.map.delete(name);
      this.registry.topics.delete(name);
      this.registry.save(); // the registry first: a crash mid-way leaves only orphan dirs behind
      for (const p of state.partitions) await p.destroy();
    }
  }

  /** Adds partitions (Kafka never removes them; keyed records may move to new partitions). */
  addPartitions(name: string, totalCount: number): void {
    const state = this.get(name);
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
  }

  /**
   * Sets and removes config overrides (Kafka's incrementalAlterConfigs SET / DELETE); with
   * `validateOnly` checks them (names, values) and changes nothing.
   */
  alterConfig(
    name: string,
    set: Record<string, string | number>,
    remove: string[],
    validateOnly = false,
  ): void {
    const state = this.get(name);
    const next = { ...state.record.config, ...normaliseOverrides(set) };
    for (const k of remove) delete next[k];
    const config = parseTopicConfig(next, this.defaults);
    if (validateOnly) return;
    state.config = config;
    state.record.config = next;
    this.registry.save();
  }

  /** Every topic, sorted; the log's own `__` topics only with `includeSystem`. */
  list(opts: { includeSystem?: boolean } = {}): TopicDescription[] {
    return [...this.map.keys()]
      .sort()
      .map((n) => this.describe(n)!)
      .filter((t) => opts.includeSystem === true || !t.system);
  }

  describe(name: string): TopicDescription | null {
    const t = this.map.get(name);
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
        ...(p.refusal ? { refused: p.refusal.message } : {}),
      })),
    };
  }

  /** Every open partition (a refused one has no files open: nothing to flush, clean or close). */
  all(): PartitionLog[] {
    return [...this.map.values()].flatMap((t) => t.partitions.filter((p) => !p.refusal));
  }

  private readonly lastCheckpoints = new Map<string, string>();

  /** Writes recovery points and log start offsets (on a timer, at close; skipped if unchanged). */
  writeCheckpoints(): void {
    const rp: { topic: string; partition: number; offset: number }[] = [];
    const ls: { topic: string; partition: number; offset: number }[] = [];
    for (const t of this.map.values()) {
      for (const p of t.partitions) {
        // A refused partition keeps the checkpoint it had: lowered, its damage would pass for a
        // torn tail at the next open and be cut silently.
        if (p.refusal && !p.refusedCheckpoint) continue;
        rp.push({ topic: t.name, partition: p.partition, offset: p.recoveryPoint });
        ls.push({ topic: t.name, partition: p.partition, offset: p.logStartOffset });
      }
    }
    for (const [name, entries] of [
      ['recovery-point-offset-checkpoint', rp],
      ['log-start-offset-checkpoint', ls],
    ] as const) {
      const text = JSON.stringify(entries);
      if (this.lastCheckpoints.get(name) === text) continue;
      writeCheckpoint(this.dataDir, name, entries);
      this.lastCheckpoints.set(name, text);
    }
  }

  /** Applies retention to every partition; returns the number of segments deleted. */
  runRetention(now: number): number {
    let deleted = 0;
    for (const p of this.all()) if (!p.cleaning) deleted += p.deleteOldSegments(now);
    if (deleted > 0) this.writeCheckpoints();
    return deleted;
  }
}

/**
 * A partition that cannot be opened because its files are damaged: the error names it, where the
 * damage is, and the way out (the data dir is left as it is: nothing is cut silently).
 */
function damagedPartition(
  dataDir: string,
  topic: string,
  partition: number,
  err: unknown,
): LogError | null {
  if (!(err instanceof LogError) || err.code !== LogErrorCode.CORRUPT_MESSAGE) return null;
  const at = err.offset === undefined ? '' : ` --from ${err.offset}`;
  return new LogError(
    LogErrorCode.CORRUPT_MESSAGE,
    `partition ${topic}-${partition} is damaged and was refused (its records are not read or written; the rest of the log runs): ${err.message}. ` +
      `With the runtime stopped, \`streamwright log check --data-dir ${dataDir}\` lists the damage and ` +
      `\`streamwright log repair --data-dir ${dataDir} --partition ${topic}-${partition}${at}\` cuts the partition there (records from that offset on are lost).`,
    {
      ...(err.file !== undefined ? { file: err.file } : {}),
      ...(err.offset !== undefined ? { offset: err.offset } : {}),
      ...(err.position !== undefined ? { position: err.position } : {}),
      cause: err,
    },
  );
}
