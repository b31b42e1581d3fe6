// The Backend SPI: what the engine needs of a Kafka-like log, and what a backend implements —
// records, topics, group membership, transactions, and the optional capabilities a backend
// declares (encodedBatches, readPlans, workerClients, health, …). The engine checks those here,
// never a backend's name. The application's API is api.ts.
import type { ClientConfig, ClientSetting, StreamsClient } from '@streamwright/topology-model';
import type { ProducerTopicMetadata } from '@streamwright/log/encoder';
import type { ReadPlan } from '@streamwright/log/reader';

// ---- records and the backend interface --------------------------------------------------------

export type Headers = Record<string, string>;

/** A record as stored in a topic: key and value are bytes (or null). */
export interface StoredRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: Headers;
}

export interface ProduceRecord {
  topic: string;
  /** When absent, the default partitioner picks one (murmur2 on the key, as Java clients do). */
  partition?: number;
  timestamp?: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers?: Headers;
}

/** Kafka's producer compression.type values. */
export type CompressionType = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';

export interface ProduceCallOptions {
  /** false: the caller does not need each record's (partition, offset) (default true). */
  positions?: boolean;
  /**
   * The producer's compression.type (default none). A topic whose own compression.type is not
   * `producer` is stored with the topic's codec (by the broker on Kafka, as on the embedded log).
   */
  compression?: CompressionType;
}

export interface TopicDescription {
  name: string;
  partitions: number;
  config: Record<string, string>;
  internal: boolean;
  /** Per partition: [earliest, latest) offsets. */
  offsets: { partition: number; earliest: number; latest: number }[];
}

export interface TopicPartition {
  topic: string;
  partition: number;
}

/** The group-membership view a stream thread gets from the backend. */
export interface GroupMember {
  readonly memberId: string;
  /** Bumped on every rebalance of the group (Kafka's generation id). */
  generation(): number;
  /** Partitions currently assigned to this member (changes on rebalance). */
  assignment(): TopicPartition[];
  /** Called with the new assignment after each rebalance. */
  onAssignment(listener: (assigned: TopicPartition[]) => void): void;
  /**
   * Eager rebalance protocol: before partitions move, every member is told which of its
   * partitions it loses, and the rebalance waits for the returned promise (commit, close tasks),
   * so a partition is never processed by two members at once (Kafka's onPartitionsRevoked).
   */
  onRevocation(listener: (revoked: TopicPartition[]) => Promise<void> | void): void;
  /**
   * Optional: true from the member's JoinGroup until its new assignment is handed to the listeners
   * (Kafka Streams' TaskManager#rebalanceInProgress): under the cooperative protocol the tasks keep
   * processing meanwhile, but offsets are not committed (the coordinator refuses them then).
   */
  rebalanceInProgress?(): boolean;
  leave(): Promise<void>;
}

/** One group member as an assignor sees it. */
export interface AssignorMember {
  memberId: string;
  topics: string[];
  /** The subscription's user data (Kafka Streams: its SubscriptionInfo), when there is some. */
  userData?: Uint8Array | null;
  /**
   * The partitions the member owns as it joins (Kafka's ownedPartitions; cooperative protocol):
   * a partition owned by one member must not be given to another until its owner revoked it.
   */
  ownedPartitions?: TopicPartition[];
}

/** One member's share of an assignment, with the assignor's user data (Kafka's Assignment). */
export interface MemberAssignment {
  partitions: TopicPartition[];
  /** Kafka Streams: its AssignmentInfo (standby tasks, the probing rebalance). */
  userData: Uint8Array | null;
}

/**
 * A client-side assignor, as Kafka's ConsumerPartitionAssignor: the group leader computes every
 * member's partitions. Kafka Streams plugs its task assignor in this way (StreamsPartitionAssignor).
 */
export interface PartitionAssignor {
  readonly name: string;
  assign(
    members: AssignorMember[],
    partitionsPerTopic: ReadonlyMap<string, number>,
  ): Map<string, TopicPartition[]>;
  /**
   * Optional, used instead of assign() by a backend whose group protocol carries user data (Kafka):
   * each member's partitions and user data, from the members' subscription user data (it may look
   * up offsets, hence asynchronous).
   */
  assignWithUserData?(
    members: AssignorMember[],
    partitionsPerTopic: ReadonlyMap<string, number>,
  ): Promise<Map<string, MemberAssignment>>;
  /** Optional (Kafka's subscriptionUserData): the user data of a member's subscription, at each join. */
  subscriptionUserData?(clientId: string): Uint8Array | null;
  /**
   * Optional (Kafka's onAssignment): a member's assignment as it arrives; may ask the member to
   * rejoin at a time (Kafka Streams' probing rebalance, which its StreamThread enforces).
   */
  onAssignment?(clientId: string, assignment: MemberAssignment): { rebalanceAtMs?: number } | void;
}

/** Kafka's ConsumerRebalanceListener, given at join time so that no rebalance is missed. */
export interface RebalanceListener {
  onPartitionsRevoked?(revoked: TopicPartition[]): Promise<void> | void;
  /** `userData`: the assignor's user data for this member (Kafka Streams' AssignmentInfo), if any. */
  onPartitionsAssigned?(assigned: TopicPartition[], userData?: Uint8Array | null): void;
}

/** Backend#transactionalProducer's options. */
export interface TransactionalProducerOptions {
  /**
   * The application's producer settings (`producer.` > un-prefixed, as Kafka Streams hands them
   * to its producer); the backend applies those appliesClientConfig says it does, e.g.
   * transaction.timeout.ms on Kafka.
   */
  clientConfig?: ClientConfig;
}

export interface JoinGroupOptions {
  assignor?: 'range' | 'roundrobin' | PartitionAssignor;
  listener?: RebalanceListener;
  /** Prefix of the member id (Kafka's client.id), e.g. `<app>-StreamThread-1-consumer`. */
  clientId?: string;
  /**
   * The application's main-consumer settings (Kafka Streams' `main.consumer.` > `consumer.` >
   * un-prefixed keys, resolved by resolveStreamsConfig): the backend applies those it implements
   * (appliesClientConfig says which) to this member, e.g. session.timeout.ms on Kafka.
   */
  clientConfig?: ClientConfig;
  /**
   * Kafka's rebalance protocol for this member (a backend with consumer groups of its own may
   * ignore it): 'eager' (the default) revokes every partition before each rejoin; 'cooperative'
   * (KIP-429, Kafka Streams' default) keeps its partitions through a rebalance and revokes only
   * those the new assignment takes away, then rejoins so they can be handed on.
   */
  rebalanceProtocol?: 'eager' | 'cooperative';
}

/** One partition of a multi-partition fetch. */
export interface FetchRequest {
  topic: string;
  partition: number;
  offset: number;
}

export interface FetchResponse {
  topic: string;
  partition: number;
  records: StoredRecord[];
  /** The partition's end offset when the fetch was answered (Kafka's high watermark). */
  highWatermark: number;
  /**
   * Set when the requested offset is beyond the log end, or (with `belowLogStart: 'out-of-range'`)
   * before the log start: the consumer must reset.
   */
  error?: 'OFFSET_OUT_OF_RANGE';
}

/** Kafka's isolation.level: read_committed readers see committed transactional data only. */
export type IsolationLevel = 'read_uncommitted' | 'read_committed';

/**
 * Kafka's transactional producer, as exactly_once_v2 uses it: one per stream thread. Records sent
 * inside a transaction are written at once but become visible to read_committed readers only when
 * the transaction commits, together with the consumed offsets sent into it. A newer producer with
 * the same transactional id fences this one: its calls then fail with code PRODUCER_FENCED.
 */
export interface TransactionalProducer {
  readonly transactionalId: string;
  beginTransaction(): void;
  send(
    records: ProduceRecord[],
    options?: Pick<ProduceCallOptions, 'compression'>,
  ): Promise<{ partition: number; offset: number }[]>;
  /** The group's offsets commit with the transaction; with `member`, its generation is checked (KIP-447). */
  sendOffsetsToTransaction(
    offsets: { topic: string; partition: number; offset: number }[],
    groupId: string,
    member?: { memberId: string; generation: number },
  ): Promise<void>;
  commitTransaction(): Promise<void>;
  abortTransaction(): Promise<void>;
}

/**
 * A transactional producer that also takes record batches a stream thread encoded itself as this
 * producer's transactional batches (its id and epoch): the backend then only validates and
 * appends them. The embedded backend's producers are such; a worker checks with `sendBatches`.
 */
export interface EncodingTransactionalProducer extends TransactionalProducer {
  readonly producerId: number;
  readonly epoch: number;
  /**
   * Each part's base offset. A refusal (stale metadata, a bad batch) wrote nothing. `checks:
   * 'headers'` for batches a stream thread's BatchEncoder wrote (see Log.produceBatches).
   */
  sendBatches(parts: EncodedBatches[], opts?: { checks?: 'full' | 'headers' }): Promise<number[]>;
}

/** Kafka v2 record batches for one partition, encoded by the caller (@streamwright/log/encoder). */
export interface EncodedBatches {
  topic: string;
  partition: number;
  batches: Uint8Array;
}

/**
 * Backend#encodedBatches: appending record batches a stream thread in a worker encoded itself with
 * the topics' producer metadata, so the backend's thread only validates and appends them.
 */
export interface EncodedBatchAppender {
  /** What a producer needs to encode for `topic` (partitions, limits, codec); null: no such topic. */
  producerMetadata(topic: string): ProducerTopicMetadata | null;
  /**
   * Appends; resolves with each part's base offset. A refusal (stale metadata, a bad batch) wrote
   * nothing. `checks: 'headers'` for batches the engine's own BatchEncoder wrote.
   */
  produceBatches(
    parts: EncodedBatches[],
    opts?: { checks?: 'full' | 'headers' },
  ): Promise<number[]>;
}

/** Backend#readPlans' bounds: the long-poll wait, its wakeup, the isolation level. */
export interface ReadPlanOptions {
  maxWaitMs: number;
  signal?: AbortSignal;
  isolationLevel?: IsolationLevel;
  /** As FetchManyOptions' (an `out-of-range` plan carries `error` and no spans to read). */
  belowLogStart?: BelowLogStart;
}

/**
 * Where a fetch position below the partition's log start (retention or deleteRecords passed it)
 * goes: `log-start` (the default) reads from the log start, as restores, standbys and the CLI
 * want; `out-of-range` answers the partition with `OFFSET_OUT_OF_RANGE` and no records, so that
 * the caller applies its auto.offset.reset (a stream thread's main consumer, as in Kafka).
 */
export type BelowLogStart = 'log-start' | 'out-of-range';

/** A fetchMany's bounds: records in all, the long-poll wait, its wakeup, the isolation level. */
export interface FetchManyOptions {
  maxRecords: number;
  maxWaitMs: number;
  signal?: AbortSignal;
  isolationLevel?: IsolationLevel;
  belowLogStart?: BelowLogStart;
}

/** A topic to create (Backend#createTopics). */
export interface NewTopicSpec {
  name: string;
  partitions: number;
  config?: Record<string, string | number>;
  internal?: boolean;
  replicationFactor?: number;
}

/**
 * Everything the engine needs from a Kafka-like log. Asynchronous on purpose: the engine only
 * awaits it at poll, produce-flush and commit boundaries, never per record.
 */
export interface Backend {
  readonly kind: 'embedded' | 'kafka';
  /**
   * Creates the topics that do not exist yet (existing ones are left as they are).
   * `replicationFactor` (Kafka Streams' replication.factor, given for internal topics): -1 or
   * absent means the backend's default (on Kafka the broker's default.replication.factor, or
   * createKafkaBackend's replicationFactor); the embedded log keeps one copy whatever it says.
   */
  createTopics(topics: NewTopicSpec[]): Promise<void>;
  deleteTopics(names: string[]): Promise<void>;
  listTopics(): Promise<TopicDescription[]>;
  describeTopic(name: string): Promise<TopicDescription | null>;
  /**
   * Appends and resolves once acknowledged; returns the assigned (partition, offset) per record,
   * or, with `positions: false`, may resolve with an empty array instead (a caller that does not
   * need them — the record collector without callbacks — saves an object per record).
   */
  produce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]>;
  /**
   * Kafka's offsetsForTimes for one partition: the first offset whose record timestamp is at or
   * after `timestamp`, or null when there is none. Optional (the topic browser's "from time").
   */
  offsetForTimestamp?(tp: TopicPartition, timestamp: number): Promise<number | null>;
  /** Reads from `offset`, at most `maxRecords`; waits up to `maxWaitMs` when nothing is there. */
  fetch(
    tp: TopicPartition,
    offset: number,
    maxRecords: number,
    maxWaitMs: number,
    options?: { isolationLevel?: IsolationLevel },
  ): Promise<StoredRecord[]>;
  /**
   * Kafka's fetch request: several partitions at once, answered as soon as any of them has data
   * (or after `maxWaitMs`, or when `signal` aborts — a consumer's wakeup()). An offset below the
   * log start is served from the log start (auto.offset.reset=earliest); an offset past the end
   * is reported per partition as OFFSET_OUT_OF_RANGE.
   */
  fetchMany(requests: FetchRequest[], options: FetchManyOptions): Promise<FetchResponse[]>;
  joinGroup(groupId: string, topics: string[], options?: JoinGroupOptions): Promise<GroupMember>;
  commitOffsets(
    groupId: string,
    offsets: { topic: string; partition: number; offset: number }[],
  ): Promise<void>;
  committedOffsets(groupId: string, tps: TopicPartition[]): Promise<Map<string, number>>;
  /**
   * Kafka's initTransactions for `transactionalId` (fencing older producers with that id).
   * Absent when the backend has no transactions: exactly_once_v2 is then refused at start.
   */
  transactionalProducer?(
    transactionalId: string,
    options?: TransactionalProducerOptions,
  ): Promise<TransactionalProducer>;
  /**
   * Synchronously tells whether the log would refuse this record (unknown topic, a null key on a
   * compacted topic, larger than max.message.bytes), so the production exception handler can
   * deal with that one record instead of a whole flush failing. Optional.
   */
  checkRecord?(record: ProduceRecord): Error | null;
  /**
   * The backend for one stream thread running in a worker (num.stream.threads > 1), whose calls
   * the main thread makes for it: Kafka gives each such thread its own producer and fetch
   * connections, as each Kafka Streams StreamThread has its own clients. Closing the view closes
   * only what it opened. Optional: without it the threads share this backend.
   */
  forThread?(threadName: string): Backend;
  /**
   * Optional, preferred to forThread for a stream thread in a worker: what the worker needs to
   * open produce and fetch clients of its own (a structured-cloneable description), so that it
   * encodes, sends, fetches and decodes for itself instead of the main thread doing it for every
   * thread. Group membership, commits and admin calls still go to this backend.
   */
  workerClients?(threadName: string): WorkerClientsInit;
  /**
   * Optional capability: the brokers (or other remote parts) the backend cannot reach right now,
   * and since when — what the application waits for during an outage (app.status.waitingFor).
   * The Kafka backend reports a broker from its first failed connection attempt (dated from when
   * its connection was lost) until a connection to it succeeds again; its clients keep retrying
   * meanwhile (reconnect backoff, no attempt limit). Absent on backends with nothing remote.
   */
  health?(): BackendHealth;
  /** With health(): calls `listener` on every change of it; returns its removal. */
  onHealthChange?(listener: (health: BackendHealth) => void): () => void;
  /**
   * With health() and workerClients(): what a stream thread's own clients in its worker cannot
   * reach (reported by the worker on every change; an empty report when its clients close),
   * merged into health().
   */
  reportHealth?(threadName: string, health: BackendHealth): void;
  /**
   * Whether this backend applies a setting of the application's Kafka Streams client configs
   * (`key` without its prefix, on `client`). The engine reports (WARN at start, the runtime's
   * deploy answer) every setting no one applies. Absent: the backend applies none.
   */
  appliesClientConfig?(client: StreamsClient, key: string, setting: ClientSetting): boolean;
  /**
   * Whether this backend applies a topic config to the topics it creates (the `topic.`-prefixed
   * defaults of internal topics). Absent: it applies every Kafka topic config.
   */
  appliesTopicConfig?(key: string): boolean;
  /**
   * The one place a backend says which of its errors are transient: the cluster (or some of its
   * brokers) cannot be reached now, and the same call may succeed once it is back (a connection
   * refused, reset or closed, a request timeout, a leader or coordinator not available). The
   * engine then waits and retries with backoff, keeping the application RUNNING (app.status'
   * `waitingFor`), instead of failing it. Null for anything else. Optional: a backend without it
   * has no transient errors (the embedded log).
   */
  transientFailure?(error: unknown): TransientFailure | null;
  /**
   * Optional capability: appending record batches encoded by the caller. A stream thread in a
   * worker then encodes its records itself and checks them (checkRecord) against the topics'
   * metadata, and its transactional producers are EncodingTransactionalProducers. Without it the
   * worker's records cross to this backend packed in one buffer, and it encodes them.
   */
  readonly encodedBatches?: EncodedBatchAppender;
  /**
   * Optional capability: where partitions' segment files are and how far they may be read (Kafka's
   * log segments, as @streamwright/log/reader reads them), so a stream thread in a worker reads
   * and decodes its fetches itself; this backend hands out positions, never records. Below the
   * log start reads from the log start, as fetchMany does; long-polls up to `maxWaitMs` for any
   * data. Without it a worker's fetches go through fetchMany.
   */
  readPlans?(requests: FetchRequest[], options: ReadPlanOptions): Promise<ReadPlan[]>;
  /**
   * Optional capability: the group protocol carries each member's subscription and assignment
   * user data between processes (Kafka's consumer protocol), so a group may span several
   * application instances and its assignor may use PartitionAssignor#assignWithUserData. The
   * application then runs Kafka Streams' high-availability assignor (process ids, task lags,
   * standbys, warm-ups); without it, the plain task assignor (the embedded log's members are
   * all in one process).
   */
  readonly groupUserData?: boolean;
  /**
   * Failures of the backend's background jobs since it opened, per job (the embedded log's
   * `retention`, `checkpoint` and `cleaner`, each from 0 while it runs); each failure is also a
   * WARN naming the job. The runtime exports them as a counter on /metrics. Optional: absent on
   * a backend without background jobs.
   */
  backgroundFailures?(): Record<string, number>;
  /**
   * Loud repairs the backend made (the embedded log's torn tails cut at open, rebuilt indexes),
   * oldest first; the application's status lists them with its own. Optional.
   */
  recoveries?(): Recovery[];
  close(): Promise<void>;
}

/** Backend#transientFailure's answer: whom the backend could not reach, and why. */
export interface TransientFailure {
  /** `host:port` of the unreachable brokers (the bootstrap servers when the error names none). */
  brokers: string[];
  /** The underlying error's message, e.g. `connect ECONNREFUSED 127.0.0.1:9092`. */
  reason: string;
}

/** Backend#workerClients: a Kafka backend's connection settings for one stream thread's clients. */
export interface WorkerClientsInit {
  kind: 'kafka';
  threadName: string;
  bootstrapServers: string[];
  /** Node's TLS options (ca, cert, key, passphrase, rejectUnauthorized); absent: plain TCP. */
  tls?: Record<string, unknown>;
  sasl?: {
    mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
    username: string;
    password: string;
  };
}

/**
 * A stream thread's own produce and fetch clients in its worker, opened from a WorkerClientsInit
 * (Backend#workerClients) by the opener of its kind (backends/worker-clients.ts).
 */
export interface WorkerClients {
  produce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]>;
  fetchMany(requests: FetchRequest[], options: FetchManyOptions): Promise<FetchResponse[]>;
  /**
   * exactly_once_v2's producer of this thread, on connections of its own (client id
   * `<thread>-producer`); its InitProducerId fences older producers with this id. A producer made
   * again for the same id (after it was fenced) replaces the old one, whose connections close.
   */
  transactionalProducer(
    transactionalId: string,
    options?: TransactionalProducerOptions,
  ): Promise<TransactionalProducer>;
  /** Backend#transientFailure for these clients' errors. */
  transientFailure(error: unknown): TransientFailure | null;
  /** Aborts a transaction left open (bounded wait), then closes every connection. */
  close(): Promise<void>;
}

/** What a backend cannot reach now (Backend#health). */
export interface BackendHealth {
  unreachable: {
    /** `host:port` of the broker as dialled. */
    broker: string;
    /** Epoch ms since which it has been unreachable. */
    since: number;
    /** The last attempt's error. */
    error: string;
  }[];
}

/**
 * What a loud recovery was: the embedded log cut a torn tail (`log-truncated`) or rebuilt an
 * index or finished an interrupted operation at open (`log-repaired`), or refused a partition
 * damaged below its recovery point (`partition-refused`: nothing cut, its reads and appends fail
 * until `streamwright log repair`); a stream thread's position
 * was past the log end or before its start and was reset (`offset-reset`); a store's local copy
 * was wiped and rebuilt from its changelog (`store-rebuilt`); the brokers came back after an
 * outage (`reconnected`).
 */
export type RecoveryKind =
  | 'log-truncated'
  | 'log-repaired'
  | 'partition-refused'
  | 'offset-reset'
  | 'store-rebuilt'
  | 'reconnected';

export interface Recovery {
  at: number;
  kind: RecoveryKind;
  topic?: string;
  partition?: number;
  /** The offsets involved: the first offset cut, or the position reset from. */
  fromOffset?: number;
  /** The position reset to. */
  toOffset?: number;
  store?: string;
  taskId?: string;
  /** The file repaired (embedded log). */
  file?: string;
  /** Bytes cut from the file. */
  bytes?: number;
  /** `reconnected`: how long the outage lasted, and the brokers it concerned. */
  durationMs?: number;
  brokers?: string[];
  message: string;
}
