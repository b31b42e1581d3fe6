// The embedded backend: Kafka's broker-side behaviour in-process — topics of partitions with
// offsets, long-poll fetch, consumer groups and committed offsets. With a data directory it is
// durable (see docs/ENGINE.md for the layout); without one it lives in memory.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  Backend,
  FetchRequest,
  FetchResponse,
  GroupMember,
  JoinGroupOptions,
  ProduceRecord,
  StoredRecord,
  TopicDescription,
  TopicPartition,
} from '../../api.js';
import { BackendClosedError, EngineError, OffsetOutOfRangeError, UnknownTopicError } from '../../errors.js';
import { DefaultPartitioner } from '../../partitioner/default-partitioner.js';
import { safeName, writeFileAtomic } from './fs-util.js';
import { GroupCoordinator } from './group-coordinator.js';
import { logConfigOf } from './log-config.js';
import { OffsetStore } from './offset-store.js';
import { PartitionLog, type AppendRecord } from './partition-log.js';

export interface EmbeddedBackendOptions {
  /** Durable storage; in memory when absent. */
  dataDir?: string;
  /** How often retention and compaction run (Kafka's log.retention.check.interval.ms). */
  retentionCheckIntervalMs?: number;
  /** Injectable clock for retention tests. */
  now?: () => number;
  onError?: (error: unknown) => void;
}

export interface NewTopic {
  name: string;
  partitions: number;
  config?: Record<string, string | number>;
  /** Internal topics (changelog, repartition) are flagged in listTopics. */
  internal?: boolean;
}

interface Topic {
  name: string;
  partitions: PartitionLog[];
  config: Record<string, string>;
  internal: boolean;
}

/** The embedded backend, with the extra operations tests and the runtime may want. */
export interface EmbeddedBackend extends Backend {
  readonly kind: 'embedded';
  readonly dataDir: string | null;
  createTopics(topics: NewTopic[]): Promise<void>;
  /** Runs retention and compaction now (they also run on a timer). */
  enforceRetention(): Promise<void>;
  /** Bytes held per partition of a topic (in memory; equal to the segment files' size). */
  partitionSizes(topic: string): number[];
}

const TOPIC_META = 'topic.json';
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

export async function createEmbeddedBackend(options: EmbeddedBackendOptions = {}): Promise<EmbeddedBackend> {
  const backend = new EmbeddedBackendImpl(options);
  await backend.open();
  return backend;
}

class EmbeddedBackendImpl implements EmbeddedBackend {
  readonly kind = 'embedded' as const;
  readonly dataDir: string | null;
  readonly #topics = new Map<string, Topic>();
  readonly #offsets: OffsetStore;
  readonly #groups: GroupCoordinator;
  readonly #partitioner = new DefaultPartitioner();
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  readonly #closeSignal = new AbortController();

  constructor(private readonly options: EmbeddedBackendOptions) {
    this.dataDir = options.dataDir ?? null;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? ((error) => console.error('[embedded backend]', error));
    this.#offsets = new OffsetStore(this.dataDir === null ? null : join(this.dataDir, 'groups'));
    this.#groups = new GroupCoordinator((t) => this.#topics.get(t)?.partitions.length, this.#onError);
  }

  async open(): Promise<void> {
    if (this.dataDir !== null) {
      await mkdir(join(this.dataDir, 'topics'), { recursive: true });
      await this.#offsets.load();
      for (const entry of await readdir(join(this.dataDir, 'topics'))) {
        const dir = join(this.dataDir, 'topics', entry);
        let meta: { name: string; partitions: number; config: Record<string, string>; internal: boolean };
        try {
          meta = JSON.parse(await readFile(join(dir, TOPIC_META), 'utf8'));
        } catch {
          continue; // a topic whose creation never finished
        }
        await this.#openTopic(meta.name, meta.partitions, meta.config, meta.internal);
      }
    }
    const interval = this.options.retentionCheckIntervalMs ?? 5000;
    this.#timer = setInterval(() => void this.enforceRetention().catch(this.#onError), interval);
    this.#timer.unref();
  }

  async createTopics(topics: NewTopic[]): Promise<void> {
    this.#ensureOpen();
    for (const t of topics) {
      if (this.#topics.has(t.name)) continue; // like Kafka's TopicExistsException, but idempotent
      if (!Number.isInteger(t.partitions) || t.partitions < 1) {
        throw new EngineError('INVALID_TOPIC_CONFIG', `topic ${t.name}: partitions must be a positive integer`);
      }
      const config = Object.fromEntries(Object.entries(t.config ?? {}).map(([k, v]) => [k, String(v)]));
      const internal = t.internal ?? false;
      if (this.dataDir !== null) {
        await writeFileAtomic(
          join(this.#topicDir(t.name), TOPIC_META),
          JSON.stringify({ name: t.name, partitions: t.partitions, config, internal }),
        );
      }
      await this.#openTopic(t.name, t.partitions, config, internal);
      await this.#groups.topicChanged(t.name);
    }
  }

  async deleteTopics(names: string[]): Promise<void> {
    this.#ensureOpen();
    for (const name of names) {
      const topic = this.#topics.get(name);
      if (!topic) continue;
      this.#topics.delete(name);
      for (const p of topic.partitions) await p.deleteFiles();
      if (this.dataDir !== null) await rm(this.#topicDir(name), { recursive: true, force: true });
      await this.#offsets.forgetTopic(name);
      await this.#groups.topicChanged(name);
    }
  }

  async listTopics(): Promise<TopicDescription[]> {
    this.#ensureOpen();
    return [...this.#topics.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map((t) => this.#describe(t));
  }

  async describeTopic(name: string): Promise<TopicDescription | null> {
    this.#ensureOpen();
    const t = this.#topics.get(name);
    return t ? this.#describe(t) : null;
  }

  async produce(records: ProduceRecord[]): Promise<{ partition: number; offset: number }[]> {
    this.#ensureOpen();
    this.#partitioner.newBatch();
    const batches = new Map<PartitionLog, { indices: number[]; records: AppendRecord[] }>();
    const now = this.#now();
    for (let index = 0; index < records.length; index++) {
      const record = records[index]!;
      const topic = this.#topics.get(record.topic);
      if (!topic) throw new UnknownTopicError(record.topic);
      const n = topic.partitions.length;
      const partition = record.partition ?? this.#partitioner.partition(record.topic, record.key, n);
      if (!Number.isInteger(partition) || partition < 0 || partition >= n) {
        throw new EngineError('UNKNOWN_TOPIC', `partition ${partition} does not exist in ${record.topic} (${n} partitions)`);
      }
      const log = topic.partitions[partition]!;
      let batch = batches.get(log);
      if (!batch) batches.set(log, (batch = { indices: [], records: [] }));
      batch.indices.push(index);
      batch.records.push({ timestamp: record.timestamp ?? now, key: record.key, value: record.value, headers: record.headers ?? NO_HEADERS });
    }
    const results: { partition: number; offset: number }[] = new Array(records.length);
    const writes: Promise<void>[] = [];
    for (const [log, batch] of batches) {
      const { baseOffset, written } = log.append(batch.records);
      batch.indices.forEach((index, i) => (results[index] = { partition: log.partition, offset: baseOffset + i }));
      writes.push(written);
    }
    await Promise.all(writes);
    return results;
  }

  async fetch(tp: TopicPartition, offset: number, maxRecords: number, maxWaitMs: number): Promise<StoredRecord[]> {
    const [response] = await this.fetchMany([{ ...tp, offset }], { maxRecords, maxWaitMs });
    if (response!.error === 'OFFSET_OUT_OF_RANGE') {
      const log = this.#log(tp.topic, tp.partition);
      throw new OffsetOutOfRangeError(tp.topic, tp.partition, offset, log.logStartOffset, log.highWatermark);
    }
    return response!.records;
  }

  async fetchMany(
    requests: FetchRequest[],
    options: { maxRecords: number; maxWaitMs: number; signal?: AbortSignal },
  ): Promise<FetchResponse[]> {
    this.#ensureOpen();
    const logs = requests.map((r) => this.#log(r.topic, r.partition));
    const read = (): { responses: FetchResponse[]; any: boolean } => {
      let any = false;
      const responses = requests.map((r, i): FetchResponse => {
        const log = logs[i]!;
        const hw = log.highWatermark;
        if (r.offset > hw) return { topic: r.topic, partition: r.partition, records: [], highWatermark: hw, error: 'OFFSET_OUT_OF_RANGE' };
        const records: StoredRecord[] = log.read(r.offset, options.maxRecords);
        if (records.length > 0) any = true;
        return { topic: r.topic, partition: r.partition, records, highWatermark: hw };
      });
      return { responses, any: any || responses.some((x) => x.error !== undefined) };
    };
    const first = read();
    if (first.any || options.maxWaitMs <= 0 || options.signal?.aborted || requests.length === 0) {
      if (!first.any && requests.length === 0 && options.maxWaitMs > 0) await this.#sleep(options.maxWaitMs, options.signal);
      return first.responses;
    }
    // Long poll: park until any requested partition gets data, the wait expires, or we are woken.
    await new Promise<void>((resolve) => {
      const unsubscribe: (() => void)[] = [];
      const done = (): void => {
        clearTimeout(timer);
        for (const u of unsubscribe) u();
        options.signal?.removeEventListener('abort', done);
        this.#closeSignal.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, options.maxWaitMs);
      for (const log of new Set(logs)) unsubscribe.push(log.onData(done));
      options.signal?.addEventListener('abort', done);
      this.#closeSignal.signal.addEventListener('abort', done);
    });
    if (this.#closed) return first.responses;
    return read().responses;
  }

  joinGroup(groupId: string, topics: string[], options?: JoinGroupOptions): Promise<GroupMember> {
    this.#ensureOpen();
    return this.#groups.join(groupId, topics, options);
  }

  async commitOffsets(groupId: string, offsets: { topic: string; partition: number; offset: number }[]): Promise<void> {
    this.#ensureOpen();
    await this.#offsets.commit(groupId, offsets);
  }

  async committedOffsets(groupId: string, tps: TopicPartition[]): Promise<Map<string, number>> {
    this.#ensureOpen();
    return this.#offsets.get(groupId, tps);
  }

  async enforceRetention(): Promise<void> {
    if (this.#closed) return;
    await Promise.all([...this.#topics.values()].flatMap((t) => t.partitions.map((p) => p.enforceRetention())));
  }

  partitionSizes(topic: string): number[] {
    const t = this.#topics.get(topic);
    if (!t) throw new UnknownTopicError(topic);
    return t.partitions.map((p) => p.sizeBytes);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#closeSignal.abort();
    for (const t of this.#topics.values()) for (const p of t.partitions) await p.close();
    await this.#offsets.flushed();
  }

  async #openTopic(name: string, partitions: number, config: Record<string, string>, internal: boolean): Promise<void> {
    const logConfig = logConfigOf(config);
    const logs: PartitionLog[] = [];
    for (let p = 0; p < partitions; p++) {
      const dir = this.dataDir === null ? null : join(this.#topicDir(name), String(p));
      if (dir !== null) await mkdir(dir, { recursive: true });
      logs.push(await PartitionLog.open(name, p, dir, logConfig, this.#now));
    }
    this.#topics.set(name, { name, partitions: logs, config, internal });
  }

  #describe(t: Topic): TopicDescription {
    return {
      name: t.name,
      partitions: t.partitions.length,
      config: { ...t.config },
      internal: t.internal,
      offsets: t.partitions.map((p) => ({ partition: p.partition, earliest: p.logStartOffset, latest: p.highWatermark })),
    };
  }

  #log(topic: string, partition: number): PartitionLog {
    const t = this.#topics.get(topic);
    if (!t) throw new UnknownTopicError(topic);
    const log = t.partitions[partition];
    if (!log) throw new EngineError('UNKNOWN_TOPIC', `partition ${partition} does not exist in ${topic}`);
    return log;
  }

  #topicDir(name: string): string {
    return join(this.dataDir!, 'topics', safeName(name));
  }

  #sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done);
    });
  }

  #ensureOpen(): void {
    if (this.#closed) throw new BackendClosedError();
  }
}
