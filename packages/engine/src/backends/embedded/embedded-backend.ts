// The embedded backend: the engine's Backend on top of @streamwright/log, Kafka's log in-process
// (segments, consumer groups in __consumer_offsets, transactions). Each method is a call or two
// into the Log; this module only translates shapes and errors. Without a data dir the log lives
// in a temporary directory with fsync off, removed at close (the engine's "in-memory" mode).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LONG_MAX,
  Log,
  acceptsTopicConfig,
  type ReadPlan,
  type TopicDescription as LogTopicDescription,
} from '@streamwright/log';
import type {
  Backend,
  FetchRequest,
  FetchResponse,
  GroupMember,
  IsolationLevel,
  JoinGroupOptions,
  ProduceCallOptions,
  ProduceRecord,
  StoredRecord,
  TopicDescription,
  TopicPartition,
  EncodingTransactionalProducer,
  FetchManyOptions,
  Recovery,
  EncodedBatchAppender,
  ReadPlanOptions,
} from '../../backend-spi.js';
import { OffsetOutOfRangeError, UnknownTopicError } from '../../errors.js';
import { checkProducedRecord } from '../shared/record-check.js';
import { recoveryOf } from './log-recoveries.js';
import { BatchFetcher } from './batch-fetch.js';
import { joinGroup } from './group-member.js';
import { engineErrorOf, translated } from './log-errors.js';
import { transactionalProducer } from './transactions.js';

export interface EmbeddedBackendOptions {
  /** Durable storage; a temporary directory without fsync (removed at close) when absent. */
  dataDir?: string;
  /**
   * Log-level topic defaults (a broker's `log.*` settings), e.g. `{ 'flush.ms': 10 }`. The default
   * flush policy is the log's: fsync per produce batch, shared by concurrent appends (see
   * docs/LOG.md). The engine produces once per poll loop and commit, so that is one fsync per
   * burst, not per record.
   */
  topicDefaults?: Record<string, string | number>;
  /** How often retention runs (Kafka's log.retention.check.interval.ms, default 5 minutes). */
  retentionCheckIntervalMs?: number;
  /** Injectable clock for retention tests. */
  now?: () => number;
  /** Where the log's warnings go (a session timed out, a listener failed). */
  logger?: { warn(obj: object, msg?: string): void };
}

export interface NewTopic {
  name: string;
  partitions: number;
  config?: Record<string, string | number>;
  /** Internal topics (changelog, repartition) are flagged in listTopics. */
  internal?: boolean;
  /** Kafka Streams' replication.factor: no meaning here (one copy of each log); accepted, unused. */
  replicationFactor?: number;
}

/** The embedded backend, with the extra operations tests, the runtime and exactly-once need. */
export interface EmbeddedBackend extends Backend {
  readonly kind: 'embedded';
  /** The data dir given at creation; null in the temporary ("in-memory") mode. */
  readonly dataDir: string | null;
  /** The log underneath: transactions (exactly_once_v2), worker-thread ports, admin listings. */
  readonly log: Log;
  createTopics(topics: NewTopic[]): Promise<void>;
  transactionalProducer(transactionalId: string): Promise<EncodingTransactionalProducer>;
  readonly encodedBatches: EncodedBatchAppender;
  readPlans(requests: FetchRequest[], options: ReadPlanOptions): Promise<ReadPlan[]>;
  backgroundFailures(): Record<string, number>;
  /** Runs retention and compaction now (they also run on timers). */
  enforceRetention(): Promise<void>;
  /** Bytes held per partition of a topic (the segment files' size). */
  partitionSizes(topic: string): number[];
}

/** Opens the log in `dataDir` (taking its lock: a second process gets DATA_DIR_LOCKED). */
export async function createEmbeddedBackend(
  options: EmbeddedBackendOptions = {},
): Promise<EmbeddedBackend> {
  const temporary =
    options.dataDir === undefined ? mkdtempSync(join(tmpdir(), 'streamwright-log-')) : null;
  const defaults =
    temporary === null
      ? options.topicDefaults
      : { 'flush.messages': LONG_MAX, 'flush.ms': LONG_MAX, ...options.topicDefaults };
  try {
    const log = await Log.open({
      dataDir: options.dataDir ?? temporary!,
      ...(options.now ? { clock: options.now } : {}),
      ...(defaults ? { topicDefaults: defaults } : {}),
      ...(options.retentionCheckIntervalMs !== undefined
        ? { retentionCheckIntervalMs: options.retentionCheckIntervalMs }
        : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const backend = new LogBackend(log, options.dataDir ?? null, temporary);
    for (const r of backend.recoveries()) options.logger?.warn({ recovery: r }, r.message);
    return backend;
  } catch (error) {
    if (temporary !== null) rmSync(temporary, { recursive: true, force: true });
    throw engineErrorOf(error);
  }
}

/** Log.produce without each record's metadata (one object per record less). */
const NO_METADATA = { metadata: false } as const;

const describe = (t: LogTopicDescription): TopicDescription => ({
  name: t.name,
  partitions: t.partitions,
  // The topic's own settings, as Kafka's describe lists them without the broker defaults.
  config: { ...t.overrides },
  internal: t.internal,
  offsets: t.offsets.map((o) => ({
    partition: o.partition,
    earliest: o.earliest,
    latest: o.latest,
  })),
});

class LogBackend implements EmbeddedBackend {
  readonly kind = 'embedded' as const;
  readonly #closing = new AbortController();
  #closed: Promise<void> | null = null;

  readonly #batches: BatchFetcher;
  /** What opening the log repaired (log-recoveries.ts). */
  readonly #recoveries: Recovery[];

  constructor(
    readonly log: Log,
    readonly dataDir: string | null,
    private readonly temporary: string | null,
  ) {
    this.#batches = new BatchFetcher(log);
    const openedAt = Date.now();
    this.#recoveries = log.recoveryEvents.map((e) => recoveryOf(e, openedAt));
  }

  recoveries(): Recovery[] {
    return this.#recoveries;
  }

  /** The log's retention, checkpoint and cleaner timers (Log#backgroundFailures). */
  backgroundFailures(): Record<string, number> {
    return Object.fromEntries(this.log.backgroundFailures);
  }

  createTopics(topics: NewTopic[]): Promise<void> {
    const specs = topics.map(({ replicationFactor: _oneCopy, ...spec }) => spec);
    return translated(() => this.log.createTopics(specs, { ifNotExists: true }));
  }

  /** The topic configs the log implements, or stores without effect (min.insync.replicas). */
  appliesTopicConfig(key: string): boolean {
    return acceptsTopicConfig(key);
  }

  deleteTopics(names: string[]): Promise<void> {
    return translated(async () => {
      const doomed = new Set(names.filter((n) => this.log.hasTopic(n)));
      // Kafka's broker forgets the committed offsets of deleted partitions, so a topic created
      // again under the same name is not read from a stale position.
      const stale = this.log
        .listGroups()
        .map((g) => ({
          groupId: g.groupId,
          tps: this.log.committedOffsets(g.groupId).filter((c) => doomed.has(c.topic)),
        }))
        .filter((g) => g.tps.length > 0);
      await this.log.deleteTopics([...doomed]);
      for (const g of stale) await this.log.deleteOffsets(g.groupId, g.tps);
    });
  }

  async listTopics(): Promise<TopicDescription[]> {
    return translated(() => this.log.listTopics().map(describe));
  }

  async describeTopic(name: string): Promise<TopicDescription | null> {
    return translated(() => {
      const t = this.log.describeTopic(name);
      return t === null ? null : describe(t);
    });
  }

  async produce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]> {
    try {
      const compression = options?.compression;
      if (options?.positions === false) {
        await this.log.produce(
          records,
          compression === undefined ? NO_METADATA : { metadata: false, compression },
        );
        return [];
      }
      const acks = await this.log.produce(
        records,
        compression === undefined ? {} : { compression },
      );
      const out: { partition: number; offset: number }[] = new Array(acks.length);
      for (let i = 0; i < acks.length; i++)
        out[i] = { partition: acks[i]!.partition, offset: acks[i]!.offset };
      return out;
    } catch (error) {
      throw engineErrorOf(
        error,
        records.find((r) => !this.log.hasTopic(r.topic))?.topic ?? records[0]?.topic,
      );
    }
  }

  checkRecord(record: ProduceRecord): Error | null {
    const known = this.log.hasTopic(record.topic);
    return checkProducedRecord(record, known ? this.log.topic(record.topic).config : null);
  }

  async offsetForTimestamp(tp: TopicPartition, timestamp: number): Promise<number | null> {
    const found = await translated(
      () => this.log.offsetForTimestamp(tp.topic, tp.partition, timestamp),
      tp.topic,
    );
    return found === null ? null : found.offset;
  }

  async fetch(
    tp: TopicPartition,
    offset: number,
    maxRecords: number,
    maxWaitMs: number,
    options?: { isolationLevel?: IsolationLevel },
  ): Promise<StoredRecord[]> {
    const [response] = await this.fetchMany([{ ...tp, offset }], {
      maxRecords,
      maxWaitMs,
      ...options,
    });
    if (response!.error === 'OFFSET_OUT_OF_RANGE') {
      throw new OffsetOutOfRangeError(
        tp.topic,
        tp.partition,
        offset,
        this.log.earliestOffset(tp.topic, tp.partition),
        response!.highWatermark,
      );
    }
    return response!.records;
  }

  async fetchMany(requests: FetchRequest[], options: FetchManyOptions): Promise<FetchResponse[]> {
    if (requests.length === 0) {
      await sleep(
        options.maxWaitMs,
        options.signal
          ? AbortSignal.any([options.signal, this.#closing.signal])
          : this.#closing.signal,
      );
      return [];
    }
    const signal = options.signal
      ? AbortSignal.any([options.signal, this.#closing.signal])
      : this.#closing.signal;
    try {
      if ((options.isolationLevel ?? 'read_uncommitted') === 'read_uncommitted') {
        // Batch-wise (batch-fetch.ts): reads sized to what is asked, leftovers kept for the next poll.
        return await this.#batches.fetchRecords(requests, {
          maxRecords: options.maxRecords,
          maxWaitMs: options.maxWaitMs,
          signal,
          ...(options.belowLogStart !== undefined ? { belowLogStart: options.belowLogStart } : {}),
        });
      }
      if (options.belowLogStart === 'out-of-range') {
        // Positions retention passed are answered out of range; the rest are read.
        const below = requests.map((r) => r.offset < this.log.earliestOffset(r.topic, r.partition));
        if (below.some(Boolean)) {
          const rest = requests.filter((_, i) => !below[i]);
          const read =
            rest.length === 0
              ? []
              : await this.fetchMany(rest, { ...options, belowLogStart: 'log-start' });
          let next = 0;
          return requests.map((r, i) =>
            below[i]
              ? {
                  topic: r.topic,
                  partition: r.partition,
                  records: [],
                  highWatermark: this.log.latestOffset(r.topic, r.partition),
                  error: 'OFFSET_OUT_OF_RANGE' as const,
                }
              : read[next++]!,
          );
        }
      }
      // The engine's contract: below the log start reads from the log start (retention passed the
      // consumer); past the end is reported per partition.
      const positions = requests.map((r) => ({
        topic: r.topic,
        partition: r.partition,
        offset: Math.max(r.offset, this.log.earliestOffset(r.topic, r.partition)),
      }));
      const isolationLevel = options.isolationLevel ?? 'read_uncommitted';
      let results = await this.log.poll(positions, {
        maxRecords: options.maxRecords,
        maxWaitMs: options.maxWaitMs,
        signal,
        isolationLevel,
      });
      if (
        results.some((r, i) => r.error !== undefined && positions[i]!.offset < r.logStartOffset)
      ) {
        const again = positions.map((p, i) => ({
          ...p,
          offset: Math.max(p.offset, results[i]!.logStartOffset),
        }));
        results = await this.log.poll(again, {
          maxRecords: options.maxRecords,
          maxWaitMs: 0,
          isolationLevel,
        });
      }
      return results.map((r) => ({
        topic: r.topic,
        partition: r.partition,
        records: r.records,
        highWatermark: r.highWatermark,
        ...(r.error ? { error: r.error } : {}),
      }));
    } catch (error) {
      throw engineErrorOf(error, requests.find((r) => !this.log.hasTopic(r.topic))?.topic);
    }
  }

  /**
   * Stream threads in worker threads encode their batches themselves with the log's metadata; the
   * log checks their headers and appends them (Log.produceBatches).
   */
  readonly encodedBatches: EncodedBatchAppender = {
    producerMetadata: (topic) => {
      try {
        return this.log.hasTopic(topic) ? this.log.producerMetadata(topic) : null;
      } catch (error) {
        throw engineErrorOf(error, topic);
      }
    },
    produceBatches: (parts, opts) =>
      translated(
        async () => (await this.log.produceBatches(parts, opts)).map((d) => d.baseOffset),
        parts[0]?.topic,
      ),
  };

  /**
   * Where stream threads in worker threads read the partitions' segment files themselves (the
   * log's read plans): this thread hands out positions, never records. Below the log start reads
   * from the log start, as fetchMany does; long-polls up to `maxWaitMs` for any data.
   */
  async readPlans(requests: FetchRequest[], options: ReadPlanOptions): Promise<ReadPlan[]> {
    const signal = options.signal
      ? AbortSignal.any([options.signal, this.#closing.signal])
      : this.#closing.signal;
    try {
      const plans = await this.log.readPlans(
        requests.map((r) => ({ topic: r.topic, partition: r.partition, offset: r.offset })),
        {
          maxWaitMs: options.maxWaitMs,
          signal,
          isolationLevel: options.isolationLevel ?? 'read_uncommitted',
        },
      );
      if (options.belowLogStart === 'out-of-range')
        // A plan moved up to the log start: the reader's auto.offset.reset decides instead.
        plans.forEach((plan, i) => {
          if (requests[i]!.offset < plan.logStartOffset) {
            plan.error = 'OFFSET_OUT_OF_RANGE';
            plan.segments = [];
            plan.offset = requests[i]!.offset;
          }
        });
      return plans;
    } catch (error) {
      throw engineErrorOf(error, requests.find((r) => !this.log.hasTopic(r.topic))?.topic);
    }
  }

  joinGroup(groupId: string, topics: string[], options?: JoinGroupOptions): Promise<GroupMember> {
    return translated(() => joinGroup(this.log, groupId, topics, options));
  }

  commitOffsets(
    groupId: string,
    offsets: { topic: string; partition: number; offset: number }[],
  ): Promise<void> {
    return translated(() => this.log.commitOffsets(groupId, offsets));
  }

  async committedOffsets(groupId: string, tps: TopicPartition[]): Promise<Map<string, number>> {
    return translated(
      () =>
        new Map(
          this.log
            .committedOffsets(groupId, tps)
            .map((c) => [`${c.topic}:${c.partition}`, c.offset]),
        ),
    );
  }

  transactionalProducer(transactionalId: string): Promise<EncodingTransactionalProducer> {
    return translated(() => transactionalProducer(this.log, transactionalId));
  }

  async enforceRetention(): Promise<void> {
    await translated(async () => {
      this.log.runRetention();
      await this.log.cleanDirty();
    });
  }

  partitionSizes(topic: string): number[] {
    const t = this.log.describeTopic(topic);
    if (t === null) throw new UnknownTopicError(topic);
    return t.offsets.map((o) => o.sizeBytes);
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#closing.abort();
      try {
        await this.log.close();
      } finally {
        if (this.temporary !== null) rmSync(this.temporary, { recursive: true, force: true });
      }
    })();
    return this.#closed;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
