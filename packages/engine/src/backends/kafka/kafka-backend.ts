// The Apache Kafka backend: the engine's Backend on a real Kafka cluster through the engine's own
// Kafka client (client/: connections, version negotiation, TLS, SASL, metadata, coordinators,
// reconnects) and the protocol layer generated from Kafka's message definitions
// (@streamwright/kafka-protocol). This module owns the clients and their lifetimes and routes
// each Backend call to the part that does it: topic administration in kafka-topics.ts, group
// offsets in kafka-group-offsets.ts, broker health in kafka-health.ts, produce of the record
// batches the engine encodes in kafka-produce.ts, fetch at explicit offsets in kafka-fetch.ts,
// the consumer-group protocol in kafka-group-member.ts.
// Names follow Kafka Streams: the group id is the application.id, the internal topics are the
// engine's `<application.id>-<name>-repartition|-changelog`, client ids `<thread>-consumer`.
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
import { BackendClosedError, EngineError } from '../../errors.js';
import { rangeAssignor, roundRobinAssignor } from '../shared/assignors.js';
import { KafkaCluster } from './client/cluster.js';
import { KafkaFetcher, type FetchOptions } from './kafka-fetch.js';
import { KafkaGroupMember, type GroupTimings } from './kafka-group-member.js';
import { KafkaGroupOffsets } from './kafka-group-offsets.js';
import { KafkaHealth } from './kafka-health.js';
import type { KafkaProducer } from './kafka-produce.js';
import { idempotentProducer } from './kafka-produce.js';
import { KafkaTopics } from './kafka-topics.js';
import { KafkaTransactionalProducer } from './kafka-transactional-producer.js';
import { threadView } from './kafka-thread-view.js';
import {
  checkTlsOptions,
  connectError,
  tlsOptions,
  type KafkaBackendOptions,
} from './kafka-connection.js';
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

class KafkaClientBackend implements KafkaBackend {
  readonly kind = 'kafka' as const;
  readonly bootstrapServers: string[];
  /** Kafka's consumer protocol carries the members' user data (Backend#groupUserData). */
  readonly groupUserData = true;
  readonly #health = new KafkaHealth();
  /** Admin requests, commits and committed offsets (never behind a long-polled fetch). */
  readonly #admin: KafkaCluster;
  /** The backend's producer, on connections of its own (a fetch's long poll never delays it). */
  readonly #producerCluster: KafkaCluster;
  readonly #producer: KafkaProducer;
  readonly #cluster: KafkaCluster;
  readonly #timings: GroupTimings;
  readonly #logger: { warn(obj: object, msg?: string): void };
  readonly #topics: KafkaTopics;
  readonly #offsets: KafkaGroupOffsets;
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
    const clientId = options.clientId ?? 'streamwright';
    this.#admin = this.#client(clientId);
    this.#topics = new KafkaTopics({
      admin: this.#admin,
      replicationFactor: options.replicationFactor,
      logger: this.#logger,
      forget: (names) => {
        for (const f of this.#fetchers) f.forget(names);
        for (const c of this.#clusters) c.forget(names);
      },
    });
    this.#offsets = new KafkaGroupOffsets(this.#admin);
    // Record batches encoded by the engine, acks=all for every send (kafka-produce.ts).
    this.#producerCluster = this.#client(clientId);
    this.#producer = idempotentProducer(
      this.#producerCluster,
      (t) => this.#topics.partitions(t),
      this.#logger,
    );
    this.#cluster = this.#client(clientId);
    this.#fetcher = new KafkaFetcher(this.#cluster, (t, p) => this.#topics.range(t, p));
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
      health: this.#health.tracker,
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
    return this.#health.health();
  }

  onHealthChange(listener: (health: BackendHealth) => void): () => void {
    return this.#health.onChange(listener);
  }

  reportHealth(threadName: string, health: BackendHealth): void {
    this.#health.report(threadName, health);
  }

  #open(): void {
    if (this.#closed) throw new BackendClosedError();
  }

  async createTopics(topics: NewTopicSpec[]): Promise<void> {
    this.#open();
    return this.#topics.createTopics(topics);
  }

  async deleteTopics(names: string[]): Promise<void> {
    this.#open();
    return this.#topics.deleteTopics(names);
  }

  async listTopics(): Promise<TopicDescription[]> {
    this.#open();
    return this.#topics.listTopics();
  }

  async describeTopic(name: string): Promise<TopicDescription | null> {
    this.#open();
    return this.#topics.describeTopic(name);
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
      partitionsOf: (topic) => this.#topics.partitions(topic),
      range: (topic, partition) => this.#topics.range(topic, partition),
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
        (t) => this.#topics.partitions(t),
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
    return this.#topics.offsetForTimestamp(tp, timestamp);
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
    const unregister = this.#offsets.register(groupId, member);
    const leave = member.leave.bind(member);
    member.leave = async () => {
      await leave();
      unregister();
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
    return this.#offsets.commitOffsets(groupId, offsets);
  }

  async committedOffsets(groupId: string, tps: TopicPartition[]): Promise<Map<string, number>> {
    this.#open();
    return this.#offsets.committedOffsets(groupId, tps);
  }

  /** A connection refused, reset or timed out, a leader or coordinator moving (kafka-transient.ts). */
  transientFailure(error: unknown): TransientFailure | null {
    return kafkaTransientFailure(error, this.bootstrapServers);
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      // Closing: a member whose LeaveGroup fails is dropped at its session timeout.
      for (const m of this.#offsets.allMembers()) await m.leave().catch(() => {});
      for (const close of [...this.#views]) await close();
      for (const c of this.#clusters) c.close();
    })();
    return this.#closed;
  }
}
