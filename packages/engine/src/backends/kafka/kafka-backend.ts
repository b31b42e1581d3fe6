// The Apache Kafka backend: the engine's Backend on a real Kafka cluster through kafkajs 2.2.4.
// Admin operations go through kafkajs' admin client; produce (record batches the engine encodes),
// fetch at explicit offsets and the consumer-group protocol through the Cluster underneath
// (kafkajs-internals.ts explains why).
// Names follow Kafka Streams: the group id is the application.id, the internal topics are the
// engine's `<application.id>-<name>-repartition|-changelog`, client ids `<thread>-consumer`.
import kafkajs, { type SASLOptions } from 'kafkajs';
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
} from '../../api.js';
import { BackendClosedError, EngineError, UnknownTopicError } from '../../errors.js';
import { rangeAssignor, roundRobinAssignor } from '../embedded/assignors.js';
import { KafkaFetcher, type FetchOptions } from './kafka-fetch.js';
import { KafkaGroupMember, type GroupTimings } from './kafka-group-member.js';
import { KafkaProducer } from './kafka-produce.js';
import { threadView } from './kafka-thread-view.js';
import { createCluster, kafkaErrorType, type Broker, type Cluster } from './kafkajs-internals.js';
import { checkTlsOptions, connectError, type KafkaBackendOptions } from './kafka-connection.js';
import { firstContact } from './kafka-first-contact.js';

export type { KafkaBackendOptions } from './kafka-connection.js';

const { Kafka, logLevel, ConfigResourceTypes, ConfigSource } = kafkajs;

export interface KafkaBackend extends Backend {
  readonly kind: 'kafka';
  readonly bootstrapServers: string[];
}

/** Connects (admin and producer) and resolves once the cluster answered. */
export async function createKafkaBackend(options: KafkaBackendOptions): Promise<KafkaBackend> {
  if (options.bootstrapServers.length === 0)
    throw new EngineError('UNSUPPORTED_CONFIG', 'the Kafka backend needs bootstrap servers');
  checkTlsOptions(options);
  const backend = new KafkajsBackend(options);
  try {
    await backend.connect();
  } catch (error) {
    await backend.close();
    throw connectError(options, error);
  }
  return backend;
}

const COORDINATOR_MOVED = new Set([
  'NOT_COORDINATOR_FOR_GROUP',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
  'GROUP_LOAD_IN_PROGRESS',
]);

/** Transient while a new topic's leaders are elected or metadata travels (KRaft). */
const LEADER_MOVED = new Set([
  'NOT_LEADER_FOR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'UNKNOWN_LEADER_EPOCH',
]);

/** Retries `op` while Kafka reports a leader it is still electing or moving (≈ 10 s at most). */
async function retryingLeaders<T>(op: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (error) {
      const type = kafkaErrorType(error);
      if (attempt >= 30 || type === undefined || !LEADER_MOVED.has(type)) throw error;
      await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 500)));
    }
  }
}

function tpKey(topic: string, partition: number): string {
  return `${topic}:${partition}`;
}

class KafkajsBackend implements KafkaBackend {
  readonly kind = 'kafka' as const;
  readonly bootstrapServers: string[];
  readonly #kafka: InstanceType<typeof Kafka>;
  readonly #admin: ReturnType<InstanceType<typeof Kafka>['admin']>;
  /** The backend's producer, on connections of its own (a fetch's long poll never delays it). */
  readonly #producerCluster: Cluster;
  readonly #producer: KafkaProducer;
  readonly #cluster: Cluster;
  readonly #timings: GroupTimings;
  readonly #logger: { warn(obj: object, msg?: string): void };
  readonly #partitionCounts = new Map<string, number>();
  /** groupId → its members in this process; commits go out with the owning member's generation. */
  readonly #members = new Map<string, Set<KafkaGroupMember>>();
  /** Closes of the per-thread views (forThread) still open. */
  readonly #views = new Set<() => Promise<void>>();
  /** The backend's own fetches and those of the thread views, whose kept records a delete drops. */
  readonly #fetchers = new Set<KafkaFetcher>();
  readonly #fetcher: KafkaFetcher;
  #closed: Promise<void> | null = null;

  constructor(private readonly options: KafkaBackendOptions) {
    this.bootstrapServers = options.bootstrapServers;
    this.#logger = options.logger ?? { warn: () => {} };
    this.#kafka = this.#client(options.clientId ?? 'streamwright');
    this.#admin = this.#kafka.admin();
    // Record batches encoded by the engine, acks=all for every send (kafka-produce.ts).
    this.#producerCluster = createCluster(this.#kafka);
    this.#producer = new KafkaProducer(this.#producerCluster, (t) => this.#partitions(t));
    this.#cluster = createCluster(this.#kafka);
    this.#fetcher = new KafkaFetcher(this.#cluster, (t, p) => this.#range(t, p));
    this.#fetchers.add(this.#fetcher);
    this.#timings = {
      sessionTimeoutMs: options.sessionTimeoutMs ?? 45_000,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 3_000,
      rebalanceTimeoutMs: options.rebalanceTimeoutMs ?? 300_000,
    };
  }

  /** A kafkajs client with this backend's settings under `clientId` (`retries`: kafkajs' 8). */
  #client(clientId: string, retries = 8): InstanceType<typeof Kafka> {
    const logger = this.#logger;
    const { ssl, sasl } = this.options;
    return new Kafka({
      brokers: this.options.bootstrapServers,
      clientId,
      ...(ssl !== undefined && ssl !== false ? { ssl } : {}),
      ...(sasl !== undefined ? { sasl: { ...sasl } as SASLOptions } : {}),
      connectionTimeout: 10_000,
      requestTimeout: 60_000,
      retry: { retries, initialRetryTime: 200, maxRetryTime: 5_000 },
      logLevel: logLevel.WARN,
      // kafkajs logs every error response of a connection (a coordinator still loading, a
      // rebalance in progress); the backend handles those where they surface, so only the
      // other namespaces' warnings go on.
      logCreator:
        () =>
        ({ namespace, log }) => {
          if (namespace !== 'Connection')
            logger.warn({ kafkajs: namespace, ...log }, String(log.message));
        },
    });
  }

  async connect(): Promise<void> {
    // First one connection without kafkajs' retries, so that what no retry can fix (a certificate
    // that does not verify, a refused handshake or SASL login) fails at once (kafka-first-contact.ts).
    const probe = this.#client(this.options.clientId ?? 'streamwright', 0);
    await firstContact(async () => {
      const admin = probe.admin();
      try {
        await admin.connect();
      } finally {
        await admin.disconnect().catch(() => {});
      }
    });
    await this.#admin.connect();
    await this.#producerCluster.connect();
    await this.#cluster.connect();
  }

  #open(): void {
    if (this.#closed) throw new BackendClosedError();
  }

  async createTopics(
    topics: {
      name: string;
      partitions: number;
      config?: Record<string, string | number>;
      internal?: boolean;
    }[],
  ): Promise<void> {
    this.#open();
    const existing = new Set(await this.#admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.name));
    if (missing.length === 0) return;
    try {
      // Not kafkajs' waitForLeaders: its wait gives up on KRaft's UNKNOWN_TOPIC_OR_PARTITION
      // while the new topic's metadata travels. The wait below retries through it.
      await this.#admin.createTopics({
        waitForLeaders: false,
        topics: missing.map((t) => ({
          topic: t.name,
          numPartitions: t.partitions,
          ...(this.options.replicationFactor !== undefined
            ? { replicationFactor: this.options.replicationFactor }
            : {}),
          configEntries: Object.entries(t.config ?? {}).map(([name, value]) => ({
            name,
            value: String(value),
          })),
        })),
      });
    } catch (error) {
      // Another instance of the application may have created them a moment ago.
      const type = kafkaErrorType(error);
      const already = (error as { errors?: unknown[] }).errors?.every(
        (e) => kafkaErrorType(e) === 'TOPIC_ALREADY_EXISTS',
      );
      if (type !== 'TOPIC_ALREADY_EXISTS' && !already)
        throw new EngineError(
          'INVALID_TOPIC_CONFIG',
          `creating topics ${missing.map((t) => t.name).join(', ')} failed: ${(error as Error).message}`,
          { cause: error },
        );
    }
    // Ready once every partition has a leader that answers for its offsets.
    for (const t of missing) await retryingLeaders(() => this.#admin.fetchTopicOffsets(t.name));
    for (const t of missing) this.#partitionCounts.set(t.name, t.partitions);
  }

  async deleteTopics(names: string[]): Promise<void> {
    this.#open();
    const existing = new Set(await this.#admin.listTopics());
    const doomed = names.filter((n) => existing.has(n));
    for (const n of names) this.#partitionCounts.delete(n);
    for (const f of this.#fetchers) f.forget(names);
    if (doomed.length > 0) await this.#admin.deleteTopics({ topics: doomed, timeout: 30_000 });
  }

  async listTopics(): Promise<TopicDescription[]> {
    this.#open();
    const names = (await this.#admin.listTopics()).filter((n) => !n.startsWith('__'));
    const out: TopicDescription[] = [];
    for (const name of names.sort()) {
      const d = await this.describeTopic(name);
      if (d) out.push(d);
    }
    return out;
  }

  async describeTopic(name: string): Promise<TopicDescription | null> {
    this.#open();
    if (!(await this.#admin.listTopics()).includes(name)) return null;
    const offsets = await retryingLeaders(() => this.#admin.fetchTopicOffsets(name));
    this.#partitionCounts.set(name, offsets.length);
    const described = await this.#admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name }],
    });
    const config: Record<string, string> = {};
    // The topic's own settings, as Kafka's describe lists them without the broker defaults.
    for (const e of described.resources[0]?.configEntries ?? [])
      if (e.configSource === ConfigSource.TOPIC_CONFIG) config[e.configName] = e.configValue;
    return {
      name,
      partitions: offsets.length,
      config,
      internal: name.endsWith('-repartition') || name.endsWith('-changelog'),
      offsets: offsets
        .map((o) => ({ partition: o.partition, earliest: Number(o.low), latest: Number(o.high) }))
        .sort((a, b) => a.partition - b.partition),
    };
  }

  async #partitions(topic: string): Promise<number> {
    const known = this.#partitionCounts.get(topic);
    if (known !== undefined) return known;
    const d = await this.describeTopic(topic);
    if (d === null) throw new UnknownTopicError(topic);
    return d.partitions;
  }

  produce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]> {
    this.#open();
    return this.#producer.produce(records, options);
  }

  /** A stream thread's own producer and fetch connections (kafka-thread-view.ts). */
  forThread(threadName: string): Backend {
    this.#open();
    const view = threadView(this, threadName, {
      client: (clientId) => this.#client(clientId),
      partitionsOf: (topic) => this.#partitions(topic),
      range: (topic, partition) => this.#range(topic, partition),
      open: () => this.#open(),
      fetcher: (fetcher) => {
        this.#fetchers.add(fetcher);
        return () => this.#fetchers.delete(fetcher);
      },
      closed: () => this.#views.delete(view.close),
    });
    this.#views.add(view.close);
    return view;
  }

  async offsetForTimestamp(tp: TopicPartition, timestamp: number): Promise<number | null> {
    this.#open();
    const found = await retryingLeaders(() =>
      this.#admin.fetchTopicOffsetsByTimestamp(tp.topic, timestamp),
    );
    const entry = found.find((e) => e.partition === tp.partition);
    if (!entry) return null;
    const offset = Number(entry.offset);
    // Kafka answers -1 (or the log end) when no record is at or after the timestamp.
    const range = await this.#range(tp.topic, tp.partition);
    return offset < 0 || offset >= range.latest ? null : offset;
  }

  async #range(topic: string, partition: number): Promise<{ earliest: number; latest: number }> {
    const offsets = await retryingLeaders(() => this.#admin.fetchTopicOffsets(topic));
    const o = offsets.find((x) => x.partition === partition);
    if (!o) throw new UnknownTopicError(topic);
    return { earliest: Number(o.low), latest: Number(o.high) };
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
    return response?.records ?? [];
  }

  fetchMany(requests: FetchRequest[], options: FetchOptions): Promise<FetchResponse[]> {
    this.#open();
    return this.#fetcher.fetchMany(requests, options);
  }

  async joinGroup(
    groupId: string,
    topics: string[],
    options?: JoinGroupOptions,
  ): Promise<GroupMember> {
    this.#open();
    const assignor = options?.assignor;
    // Its own client (Kafka's client.id, e.g. `<app>-StreamThread-1-consumer`, prefixes the member
    // id the coordinator gives it) and its own connections (see KafkaGroupMember's constructor).
    const cluster = createCluster(this.#client(options?.clientId ?? `${groupId}-consumer`));
    await cluster.connect();
    const member = new KafkaGroupMember(
      cluster,
      groupId,
      topics,
      assignor === 'roundrobin'
        ? roundRobinAssignor
        : assignor === undefined || assignor === 'range'
          ? rangeAssignor
          : assignor,
      this.#timings,
      this.#logger,
      options?.listener,
      () => {},
    );
    let members = this.#members.get(groupId);
    if (!members) this.#members.set(groupId, (members = new Set()));
    members.add(member);
    await member.start();
    const leave = member.leave.bind(member);
    member.leave = async () => {
      await leave();
      members.delete(member);
    };
    return member;
  }

  async commitOffsets(
    groupId: string,
    offsets: { topic: string; partition: number; offset: number }[],
  ): Promise<void> {
    this.#open();
    if (offsets.length === 0) return;
    // Each offset goes out with the generation of the member owning its partition (Kafka refuses
    // a commit of a live group from outside it); offsets of partitions no member owns any more
    // go with the first member's generation and are refused by the coordinator if stale.
    const members = [...(this.#members.get(groupId) ?? [])];
    const owner = new Map<string, KafkaGroupMember>();
    for (const m of members)
      for (const tp of m.assignment()) owner.set(tpKey(tp.topic, tp.partition), m);
    const byMember = new Map<KafkaGroupMember | null, typeof offsets>();
    for (const o of offsets) {
      const m = owner.get(tpKey(o.topic, o.partition)) ?? members[0] ?? null;
      let list = byMember.get(m);
      if (!list) byMember.set(m, (list = []));
      list.push(o);
    }
    for (const [m, list] of byMember) {
      const topics = new Map<string, { partition: number; offset: string }[]>();
      for (const o of list) {
        let ps = topics.get(o.topic);
        if (!ps) topics.set(o.topic, (ps = []));
        ps.push({ partition: o.partition, offset: String(o.offset) });
      }
      await this.#atCoordinator(groupId, (coordinator) =>
        coordinator.offsetCommit({
          groupId,
          groupGenerationId: m?.generation() ?? -1,
          memberId: m?.memberId ?? '',
          topics: [...topics].map(([topic, partitions]) => ({ topic, partitions })),
        }),
      );
    }
  }

  async committedOffsets(groupId: string, tps: TopicPartition[]): Promise<Map<string, number>> {
    this.#open();
    const out = new Map<string, number>();
    if (tps.length === 0) return out;
    const topics = new Map<string, { partition: number }[]>();
    for (const tp of tps) {
      let ps = topics.get(tp.topic);
      if (!ps) topics.set(tp.topic, (ps = []));
      ps.push({ partition: tp.partition });
    }
    const fetched = await this.#atCoordinator(groupId, (coordinator) =>
      coordinator.offsetFetch({
        groupId,
        topics: [...topics].map(([topic, partitions]) => ({ topic, partitions })),
      }),
    );
    for (const t of fetched.responses)
      for (const p of t.partitions) {
        const offset = Number(p.offset);
        if (offset >= 0) out.set(tpKey(t.topic, p.partition), offset);
      }
    return out;
  }

  /**
   * A request to the group's coordinator, retried while the coordinator moves or loads (the
   * offsets topic is created on a cluster's first group request).
   */
  async #atCoordinator<T>(
    groupId: string,
    request: (coordinator: Broker) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(await this.#cluster.findGroupCoordinator({ groupId }));
      } catch (error) {
        const type = kafkaErrorType(error);
        if (attempt >= 20 || type === undefined || !COORDINATOR_MOVED.has(type)) throw error;
        await this.#cluster.refreshMetadata().catch(() => {});
        await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 1000)));
      }
    }
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      for (const members of this.#members.values())
        for (const m of [...members]) await m.leave().catch(() => {});
      for (const close of [...this.#views]) await close();
      await this.#producerCluster.disconnect().catch(() => {});
      await this.#admin.disconnect().catch(() => {});
      await this.#cluster.disconnect().catch(() => {});
    })();
    return this.#closed;
  }
}
