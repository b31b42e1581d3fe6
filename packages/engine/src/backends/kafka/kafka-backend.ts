// The Apache Kafka backend: the engine's Backend on a real Kafka cluster through the engine's own
// Kafka client (client/: connections, version negotiation, TLS, SASL, metadata, coordinators,
// reconnects) and the protocol layer generated from Kafka's message definitions
// (@streamwright/kafka-protocol). Admin requests in kafka-admin.ts, produce of the record batches
// the engine encodes in kafka-produce.ts, fetch at explicit offsets in kafka-fetch.ts, the
// consumer-group protocol in kafka-group-member.ts.
// Names follow Kafka Streams: the group id is the application.id, the internal topics are the
// engine's `<application.id>-<name>-repartition|-changelog`, client ids `<thread>-consumer`.
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import type { ClientSetting, StreamsClient } from '@streamwright/topology-model';
import type {
  Backend,
  BackendHealth,
  FetchRequest,
  FetchResponse,
  GroupMember,
  IsolationLevel,
  JoinGroupOptions,
  NewTopicSpec,
  ProduceCallOptions,
  ProduceRecord,
  StoredRecord,
  TopicDescription,
  TopicPartition,
  TransactionalProducer,
  TransactionalProducerOptions,
  TransientFailure,
  WorkerClientsInit,
} from '../../backend-spi.js';
import { BackendClosedError, EngineError, UnknownTopicError } from '../../errors.js';
import { rangeAssignor, roundRobinAssignor } from '../shared/assignors.js';
import { KafkaCluster } from './client/cluster.js';
import type { BrokerConnection } from './client/connection.js';
import { errorType, KafkaAuthorizationError, KafkaConnectionError } from './client/errors.js';
import { HealthTracker } from './client/health.js';
import { protocolError } from './client/protocol.js';
import {
  createTopics,
  deleteTopics,
  EARLIEST,
  LATEST,
  listOffsets,
  listOffsetsRetriable,
  listTopicNames,
  topicConfig,
} from './kafka-admin.js';
import { KafkaFetcher, type FetchOptions } from './kafka-fetch.js';
import { KafkaGroupMember, type GroupTimings } from './kafka-group-member.js';
import type { KafkaProducer } from './kafka-produce.js';
import { idempotentProducer } from './kafka-produce.js';
import { KafkaTransactionalProducer } from './kafka-transactional-producer.js';
import { threadView } from './kafka-thread-view.js';
import { checkTlsOptions, connectError, type KafkaBackendOptions } from './kafka-connection.js';
import { firstContact } from './kafka-first-contact.js';
import {
  groupTimingsOf,
  kafkaAppliesClientConfig,
  transactionSettingsOf,
} from './client-configs.js';
import { kafkaTransientFailure } from './kafka-transient.js';

export type { KafkaBackendOptions } from './kafka-connection.js';

export interface KafkaBackend extends Backend {
  readonly kind: 'kafka';
  readonly bootstrapServers: string[];
}

/** Connects (a first contact with the cluster) and resolves once the cluster answered. */
export async function createKafkaBackend(options: KafkaBackendOptions): Promise<KafkaBackend> {
  if (options.bootstrapServers.length === 0)
    throw new EngineError('UNSUPPORTED_CONFIG', 'the Kafka backend needs bootstrap servers');
  checkTlsOptions(options);
  const backend = new KafkaClientBackend(options);
  try {
    await backend.connect();
  } catch (error) {
    await backend.close();
    throw connectError(options, error);
  }
  return backend;
}

const COORDINATOR_MOVED = new Set([
  'NOT_COORDINATOR',
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
]);
/** Retried at the group coordinator besides its moves: a transaction's offsets still pending. */
const COORDINATOR_WAIT = new Set([...COORDINATOR_MOVED, 'UNSTABLE_OFFSET_COMMIT']);

/** default.api.timeout.ms (60 s): how long an admin call waits out an unreachable cluster. */
const ADMIN_DEADLINE_MS = 60_000;

function tpKey(topic: string, partition: number): string {
  return `${topic}:${partition}`;
}

/** Node's TLS options of the backend's `ssl` option (undefined: plain TCP). */
function tlsOptions(options: KafkaBackendOptions): TlsConnectionOptions | undefined {
  const ssl = options.ssl;
  if (ssl === undefined || ssl === false) return undefined;
  if (ssl === true) return {};
  return {
    ...(ssl.ca !== undefined ? { ca: ssl.ca } : {}),
    ...(ssl.cert !== undefined ? { cert: ssl.cert } : {}),
    ...(ssl.key !== undefined ? { key: ssl.key } : {}),
    ...(ssl.passphrase !== undefined ? { passphrase: ssl.passphrase } : {}),
    ...(ssl.rejectUnauthorized !== undefined ? { rejectUnauthorized: ssl.rejectUnauthorized } : {}),
  };
}

class KafkaClientBackend implements KafkaBackend {
  readonly kind = 'kafka' as const;
  readonly bootstrapServers: string[];
  /** Unreachable brokers, reported by every client of the backend (health()). */
  readonly #health = new HealthTracker();
  /** What the stream threads' own clients in workers cannot reach (reportHealth), by thread. */
  readonly #workerHealth = new Map<string, BackendHealth>();
  readonly #healthListeners = new Set<(health: BackendHealth) => void>();
  /** Admin requests, commits and committed offsets (never behind a long-polled fetch). */
  readonly #admin: KafkaCluster;
  /** The backend's producer, on connections of its own (a fetch's long poll never delays it). */
  readonly #producerCluster: KafkaCluster;
  readonly #producer: KafkaProducer;
  readonly #cluster: KafkaCluster;
  readonly #timings: GroupTimings;
  readonly #logger: { warn(obj: object, msg?: string): void };
  readonly #partitionCounts = new Map<string, number>();
  /** Topics whose configs the principal may not read (DESCRIBE_CONFIGS; warned once each). */
  readonly #configsRefused = new Set<string>();
  /** groupId → its members in this process; commits go out with the owning member's generation. */
  readonly #members = new Map<string, Set<KafkaGroupMember>>();
  /** Closes of the per-thread views (forThread) still open. */
  readonly #views = new Set<() => Promise<void>>();
  /** The backend's own fetches and those of the thread views, whose kept records a delete drops. */
  readonly #fetchers = new Set<KafkaFetcher>();
  /** Every client the backend made (closed with it), with the topics a delete makes them forget. */
  readonly #clusters = new Set<KafkaCluster>();
  readonly #fetcher: KafkaFetcher;
  /** transactional id → the client of its current producer (a new producer closes the old one). */
  readonly #transactional = new Map<string, KafkaCluster>();
  #closed: Promise<void> | null = null;

  constructor(private readonly options: KafkaBackendOptions) {
    this.bootstrapServers = options.bootstrapServers;
    this.#logger = options.logger ?? { warn: () => {} };
    this.#health.onChange(() => this.#healthChanged());
    const clientId = options.clientId ?? 'streamwright';
    this.#admin = this.#client(clientId);
    // Record batches encoded by the engine, acks=all for every send (kafka-produce.ts).
    this.#producerCluster = this.#client(clientId);
    this.#producer = idempotentProducer(
      this.#producerCluster,
      (t) => this.#partitions(t),
      this.#logger,
    );
    this.#cluster = this.#client(clientId);
    this.#fetcher = new KafkaFetcher(this.#cluster, (t, p) => this.#range(t, p));
    this.#fetchers.add(this.#fetcher);
    this.#timings = {
      sessionTimeoutMs: options.sessionTimeoutMs ?? 45_000,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 3_000,
      rebalanceTimeoutMs: options.rebalanceTimeoutMs ?? 300_000,
    };
  }

  /** A client of the cluster with this backend's settings under `clientId`. */
  #client(clientId: string, track = true): KafkaCluster {
    const tls = tlsOptions(this.options);
    const cluster = new KafkaCluster({
      bootstrapServers: this.options.bootstrapServers,
      clientId,
      ...(tls ? { tls } : {}),
      ...(this.options.sasl ? { sasl: { ...this.options.sasl } } : {}),
      health: this.#health,
      logger: this.#logger,
    });
    if (track) this.#clusters.add(cluster);
    return cluster;
  }

  async connect(): Promise<void> {
    // A first contact (bounded retries, kafka-first-contact.ts): what no retry can fix (a
    // certificate that does not verify, a refused handshake or SASL login) fails at once, and a
    // cluster that is not there yet is waited for a while, not forever.
    await firstContact(async () => {
      const probe = this.#client(this.options.clientId ?? 'streamwright', false);
      try {
        await probe.metadata([]);
      } finally {
        probe.close();
      }
    });
  }

  /**
   * Brokers the backend cannot reach now, and since when (Backend#health): its own clients' and
   * those of the stream threads' clients in workers (reportHealth), the earliest `since` of each.
   */
  health(): BackendHealth {
    const merged = new Map<string, BackendHealth['unreachable'][number]>();
    for (const h of [this.#health.health(), ...this.#workerHealth.values()])
      for (const u of h.unreachable) {
        const known = merged.get(u.broker);
        if (known === undefined || u.since < known.since) merged.set(u.broker, { ...u });
      }
    return { unreachable: [...merged.values()].sort((a, b) => a.since - b.since) };
  }

  onHealthChange(listener: (health: BackendHealth) => void): () => void {
    this.#healthListeners.add(listener);
    return () => this.#healthListeners.delete(listener);
  }

  reportHealth(threadName: string, health: BackendHealth): void {
    if (health.unreachable.length === 0) this.#workerHealth.delete(threadName);
    else this.#workerHealth.set(threadName, health);
    this.#healthChanged();
  }

  #healthChanged(): void {
    const health = this.health();
    for (const l of this.#healthListeners) {
      try {
        l(health);
      } catch {
        // A listener's failure is its own; the others still hear of the change.
      }
    }
  }

  #open(): void {
    if (this.#closed) throw new BackendClosedError();
  }

  /** An admin call, retried through lost connections and moving leaders for up to 60 s. */
  #adminCall<T>(what: string, op: () => Promise<T>, deadlineMs = ADMIN_DEADLINE_MS): Promise<T> {
    return this.#admin.retrying(what, op, {
      maxAttempts: 30,
      deadline: Date.now() + deadlineMs,
    });
  }

  async createTopics(topics: NewTopicSpec[]): Promise<void> {
    this.#open();
    const existing = new Set(
      await this.#adminCall('listing topics', () => listTopicNames(this.#admin)),
    );
    const missing = topics.filter((t) => !existing.has(t.name));
    if (missing.length === 0) return;
    // Another instance of the application may have created them a moment ago: an existing
    // topic is no error (createTopics leaves TOPIC_ALREADY_EXISTS out).
    const failures = await this.#adminCall('creating topics', () =>
      createTopics(this.#admin, missing, this.options.replicationFactor),
    );
    // Not a bad config: the principal lacks CREATE (the error names it, the topic and the ACL).
    const refused = failures.find((f) => f.error instanceof KafkaAuthorizationError);
    if (refused !== undefined) throw refused.error;
    if (failures.length > 0)
      throw new EngineError(
        'INVALID_TOPIC_CONFIG',
        `creating topics ${missing.map((t) => t.name).join(', ')} failed: ${failures.map((f) => `${f.name}: ${f.error.message}`).join('; ')}`,
        { cause: failures[0]!.error },
      );
    // Ready once every partition has a leader that answers for its offsets (retried through
    // KRaft's UNKNOWN_TOPIC_OR_PARTITION while the new topic's metadata travels).
    for (const t of missing) await this.#offsets(t.name, LATEST);
    for (const t of missing) this.#partitionCounts.set(t.name, t.partitions);
  }

  async deleteTopics(names: string[]): Promise<void> {
    this.#open();
    const existing = new Set(
      await this.#adminCall('listing topics', () => listTopicNames(this.#admin)),
    );
    const doomed = names.filter((n) => existing.has(n));
    for (const n of names) this.#partitionCounts.delete(n);
    for (const f of this.#fetchers) f.forget(names);
    for (const c of this.#clusters) c.forget(names);
    if (doomed.length > 0)
      await this.#adminCall('deleting topics', () => deleteTopics(this.#admin, doomed));
  }

  async listTopics(): Promise<TopicDescription[]> {
    this.#open();
    const names = (
      await this.#adminCall('listing topics', () => listTopicNames(this.#admin))
    ).filter((n) => !n.startsWith('__'));
    const out: TopicDescription[] = [];
    for (const name of names.sort()) {
      const d = await this.describeTopic(name);
      if (d) out.push(d);
    }
    return out;
  }

  async describeTopic(name: string): Promise<TopicDescription | null> {
    this.#open();
    const names = await this.#adminCall('listing topics', () => listTopicNames(this.#admin));
    if (!names.includes(name)) return null;
    const earliest = await this.#offsets(name, EARLIEST);
    const latest = await this.#offsets(name, LATEST);
    this.#partitionCounts.set(name, latest.size);
    const config = await this.#adminCall(`describing ${name}`, () =>
      topicConfig(this.#admin, name),
    ).catch((error: unknown) => {
      // A principal may describe a topic without DESCRIBE_CONFIGS on it (what Kafka's producer,
      // consumer and Kafka Streams need of a source or sink topic): its own settings stay unknown.
      if (!(error instanceof KafkaAuthorizationError)) throw error;
      if (!this.#configsRefused.has(name)) {
        this.#configsRefused.add(name);
        this.#logger.warn(
          { topic: name, err: error.message },
          `Kafka: cannot read the configs of topic ${name}; describing it without them`,
        );
      }
      return {};
    });
    return {
      name,
      partitions: latest.size,
      config,
      internal: name.endsWith('-repartition') || name.endsWith('-changelog'),
      offsets: [...latest]
        .map(([partition, high]) => ({
          partition,
          earliest: earliest.get(partition) ?? 0,
          latest: high,
        }))
        .sort((a, b) => a.partition - b.partition),
    };
  }

  /**
   * ListOffsets of every partition of `topic`, retried while leaders are elected or metadata
   * travels (≈ 10 s at most, as before) and through lost connections.
   */
  #offsets(
    topic: string,
    at: bigint,
    deadlineMs = ADMIN_DEADLINE_MS,
  ): Promise<Map<number, number>> {
    return this.#admin.retrying(
      `listing offsets of ${topic}`,
      () => listOffsets(this.#admin, topic, at),
      {
        maxAttempts: 30,
        deadline: Date.now() + deadlineMs,
        retriable: listOffsetsRetriable,
      },
    );
  }

  /**
   * A topic's partition count for a produce, from its metadata only (what Kafka's producer
   * asks: DESCRIBE on the topic, nothing more; a principal without it meets a
   * KafkaAuthorizationError naming DESCRIBE).
   */
  async #partitions(topic: string): Promise<number> {
    const known = this.#partitionCounts.get(topic);
    if (known !== undefined) return known;
    const metadata = await this.#adminCall(`the metadata of ${topic}`, () =>
      this.#admin.topic(topic),
    );
    if (metadata === undefined) throw new UnknownTopicError(topic);
    this.#partitionCounts.set(topic, metadata.partitions.length);
    return metadata.partitions.length;
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
    const made: KafkaCluster[] = [];
    const view = threadView(this, threadName, {
      client: (clientId) => {
        const cluster = this.#client(clientId);
        made.push(cluster);
        return cluster;
      },
      partitionsOf: (topic) => this.#partitions(topic),
      range: (topic, partition) => this.#range(topic, partition),
      open: () => this.#open(),
      fetcher: (fetcher) => {
        this.#fetchers.add(fetcher);
        return () => this.#fetchers.delete(fetcher);
      },
      closed: () => {
        this.#views.delete(view.close);
        for (const c of made) this.#clusters.delete(c);
      },
    });
    this.#views.add(view.close);
    return view;
  }

  /** A stream thread's own producer and fetch clients in its worker (worker-clients.ts). */
  workerClients(threadName: string): WorkerClientsInit {
    this.#open();
    const tls = tlsOptions(this.options);
    return {
      kind: 'kafka',
      threadName,
      bootstrapServers: [...this.options.bootstrapServers],
      ...(tls ? { tls: { ...tls } as Record<string, unknown> } : {}),
      ...(this.options.sasl ? { sasl: { ...this.options.sasl } } : {}),
    };
  }

  /**
   * exactly_once_v2's producer of a stream thread (kafka-transactional-producer.ts), on
   * connections of its own; its InitProducerId fences older producers with this id. A producer
   * made again for the same id (after it was fenced) replaces the old one, whose client closes.
   */
  async transactionalProducer(
    transactionalId: string,
    options?: TransactionalProducerOptions,
  ): Promise<TransactionalProducer> {
    this.#open();
    this.#transactional.get(transactionalId)?.close();
    const cluster = this.#client(`${transactionalId}-producer`);
    this.#transactional.set(transactionalId, cluster);
    try {
      return await KafkaTransactionalProducer.create(
        cluster,
        transactionalId,
        (t) => this.#partitions(t),
        this.#logger,
        transactionSettingsOf(options?.clientConfig),
      );
    } catch (error) {
      cluster.close();
      this.#clusters.delete(cluster);
      throw error;
    }
  }

  appliesClientConfig(client: StreamsClient, key: string, setting: ClientSetting): boolean {
    return kafkaAppliesClientConfig(client, key, setting);
  }

  async offsetForTimestamp(tp: TopicPartition, timestamp: number): Promise<number | null> {
    this.#open();
    const found = await this.#offsets(tp.topic, BigInt(timestamp));
    const offset = found.get(tp.partition);
    if (offset === undefined) return null;
    // Kafka answers -1 (or the log end) when no record is at or after the timestamp.
    const range = await this.#range(tp.topic, tp.partition);
    return offset < 0 || offset >= range.latest ? null : offset;
  }

  /** A partition's [earliest, latest) offsets; waits out an unreachable cluster (fetch resets). */
  async #range(topic: string, partition: number): Promise<{ earliest: number; latest: number }> {
    const earliest = await this.#offsets(topic, EARLIEST, Infinity);
    const latest = await this.#offsets(topic, LATEST, Infinity);
    const low = earliest.get(partition);
    const high = latest.get(partition);
    if (low === undefined || high === undefined) throw new UnknownTopicError(topic);
    return { earliest: low, latest: high };
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
    const clientId = options?.clientId ?? `${groupId}-consumer`;
    const cluster = this.#client(clientId);
    const member = new KafkaGroupMember(
      cluster,
      groupId,
      topics,
      assignor === 'roundrobin'
        ? roundRobinAssignor
        : assignor === undefined || assignor === 'range'
          ? rangeAssignor
          : assignor,
      // The application's main-consumer settings over the backend's options (client-configs.ts).
      groupTimingsOf(options?.clientConfig, this.#timings),
      this.#logger,
      options?.listener,
      () => {},
      clientId,
      options?.rebalanceProtocol ?? 'eager',
    );
    let members = this.#members.get(groupId);
    if (!members) this.#members.set(groupId, (members = new Set()));
    members.add(member);
    const leave = member.leave.bind(member);
    member.leave = async () => {
      await leave();
      members.delete(member);
      this.#clusters.delete(cluster);
    };
    try {
      await member.start();
    } catch (error) {
      await member.leave();
      throw error;
    }
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
      const topics = new Map<string, { partitionIndex: number; committedOffset: bigint }[]>();
      for (const o of list) {
        let ps = topics.get(o.topic);
        if (!ps) topics.set(o.topic, (ps = []));
        ps.push({ partitionIndex: o.partition, committedOffset: BigInt(o.offset) });
      }
      await this.#atCoordinator(groupId, async (coordinator) => {
        const answer = await coordinator.send('OffsetCommit', {
          groupId,
          generationIdOrMemberEpoch: m?.generation() ?? -1,
          memberId: m?.memberId ?? '',
          groupInstanceId: null,
          retentionTimeMs: -1n,
          topics: [...topics].map(([name, partitions]) => ({
            name,
            partitions: partitions.map((p) => ({
              ...p,
              committedLeaderEpoch: -1,
              committedMetadata: null,
            })),
          })),
        });
        for (const t of answer.topics)
          for (const p of t.partitions)
            if (p.errorCode !== 0)
              throw protocolError(p.errorCode, {
                group: groupId,
                topic: t.name,
                partition: p.partitionIndex,
                api: 'OffsetCommit',
                principal: this.#admin.principal,
              });
      });
    }
  }

  async committedOffsets(groupId: string, tps: TopicPartition[]): Promise<Map<string, number>> {
    this.#open();
    const out = new Map<string, number>();
    if (tps.length === 0) return out;
    const topics = new Map<string, number[]>();
    for (const tp of tps) {
      let ps = topics.get(tp.topic);
      if (!ps) topics.set(tp.topic, (ps = []));
      ps.push(tp.partition);
    }
    const fetched = await this.#atCoordinator(groupId, async (coordinator) => {
      const answer = await coordinator.send('OffsetFetch', {
        groupId,
        topics: [...topics].map(([name, partitionIndexes]) => ({ name, partitionIndexes })),
        groups: [],
        // KIP-447: offsets a transaction has sent but not committed yet are waited for
        // (UNSTABLE_OFFSET_COMMIT, retried), so a new owner never starts from the offsets
        // before a commit that is about to complete.
        requireStable: true,
      });
      const context = {
        group: groupId,
        api: 'OffsetFetch',
        principal: this.#admin.principal,
      } as const;
      if ((answer.errorCode ?? 0) !== 0) throw protocolError(answer.errorCode!, context);
      for (const t of answer.topics)
        for (const p of t.partitions)
          if (p.errorCode !== 0)
            throw protocolError(p.errorCode, {
              ...context,
              topic: t.name,
              partition: p.partitionIndex,
            });
      return answer.topics;
    });
    for (const t of fetched)
      for (const p of t.partitions) {
        const offset = Number(p.committedOffset);
        if (offset >= 0) out.set(tpKey(t.name, p.partitionIndex), offset);
      }
    return out;
  }

  /**
   * A request to the group's coordinator, retried while the coordinator moves or loads (the
   * offsets topic is created on a cluster's first group request, 20 attempts as before) and
   * through lost connections (an outage is waited out).
   */
  #atCoordinator<T>(
    groupId: string,
    request: (coordinator: BrokerConnection) => Promise<T>,
  ): Promise<T> {
    return this.#admin.retrying(
      `a request to group ${groupId}'s coordinator`,
      async () => {
        try {
          return await request(await this.#admin.coordinator('group', groupId));
        } catch (error) {
          if (
            error instanceof KafkaConnectionError ||
            COORDINATOR_MOVED.has(errorType(error) ?? '')
          )
            this.#admin.forgetCoordinator('group', groupId);
          throw error;
        }
      },
      {
        // UNSTABLE_OFFSET_COMMIT lasts until a transaction completes (≤ transaction.timeout.ms).
        maxAttempts: 60,
        retriable: (e) =>
          e instanceof KafkaConnectionError || COORDINATOR_WAIT.has(errorType(e) ?? ''),
      },
    );
  }

  /** A connection refused, reset or timed out, a leader or coordinator moving (kafka-transient.ts). */
  transientFailure(error: unknown): TransientFailure | null {
    return kafkaTransientFailure(error, this.bootstrapServers);
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      for (const members of this.#members.values())
        // Closing: a member whose LeaveGroup fails is dropped at its session timeout.
        for (const m of [...members]) await m.leave().catch(() => {});
      for (const close of [...this.#views]) await close();
      for (const c of this.#clusters) c.close();
    })();
    return this.#closed;
  }
}
