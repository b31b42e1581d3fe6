// The application's API: StreamsApp (Kafka Streams' KafkaStreams), its options, status and
// metrics. What a backend implements is the Backend SPI (backend-spi.ts).
import type { ConfigNote, Topology } from '@streamwright/topology-model';
import type { RecordDebugger } from './debug/record-debugger.js';
import type {
  FunctionRegistry,
  PartitionerRegistry,
  ProcessorRegistry,
  ValueTransformerRegistry,
} from './processor/registries.js';
import type {
  QueryableKeyValueStore,
  QueryableSessionStore,
  QueryableWindowStore,
} from './queryable-api.js';
import type { Backend, Headers, Recovery, RecoveryKind, TopicPartition } from './backend-spi.js';

// ---- application lifecycle, status and metrics --------------------------------------------------

/** Kafka Streams' KafkaStreams.State. */
export type AppState =
  | 'CREATED'
  | 'REBALANCING'
  | 'RUNNING'
  | 'PENDING_SHUTDOWN'
  | 'NOT_RUNNING'
  | 'PENDING_ERROR'
  | 'ERROR';

/** Kafka Streams' task lifecycle. */
export type TaskState = 'CREATED' | 'RESTORING' | 'RUNNING' | 'SUSPENDED' | 'CLOSED' | 'FAILED';

export interface DecodedRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: unknown;
  value: unknown;
  headers: Headers;
}

export interface ProcessingError {
  taskId: string;
  /** Kafka Streams node name and the model node it came from. */
  processor: string;
  modelNodeId?: string;
  message: string;
  record: DecodedRecord | null;
  at: number;
  /** What the exception handler decided. */
  handling: 'fail' | 'continue';
  /** Which handler dealt with it (Kafka Streams has one per kind of failure). */
  handler?: 'deserialization' | 'processing' | 'production';
  /**
   * Where the record was copied with `errors.dead.letter.queue.topic.name` set: the topic at once,
   * partition and offset once the copy is written (not filled in for worker-thread tasks).
   */
  deadLetter?: { topic: string; partition?: number; offset?: number };
}

export interface TaskStatus {
  taskId: string;
  subtopology: number;
  partitions: TopicPartition[];
  thread: string;
  state: TaskState;
  streamTime: number | null;
  /** Changelog records replayed into the task's stores so far (Kafka's restore-total). */
  restoredRecords: number;
  /** Changelog records still to replay while RESTORING, 0 after (restore-remaining-records-total). */
  restoreRemainingRecords: number;
  /**
   * A standby replica (num.standby.replicas, or a warm-up of the high-availability assignor):
   * its stores follow the changelog, it processes no input. Absent for an active task.
   */
  standby?: true;
  /** A standby's changelog records behind the changelogs' ends, as of its last fetch (KIP-535). */
  standbyLag?: number;
}

/**
 * Something the application waits for before it can go on. While it waits its state stays
 * RUNNING or REBALANCING: it resumes by itself when the wait is over.
 */
export interface WaitingFor {
  /** `brokers`: the Kafka cluster, or some of its brokers, cannot be reached. */
  kind: 'brokers';
  /** `host:port` of the brokers it cannot reach (the bootstrap servers when unknown). */
  brokers: string[];
  /** When the wait began (epoch ms). */
  since: number;
  /** The last error seen, e.g. `connect ECONNREFUSED 127.0.0.1:9092`. */
  reason: string;
}

/**
 * The last failed deploy or start, or the fatal error that put a running application in ERROR.
 * It stays in the status until the next successful deploy or start.
 */
export interface LastFailure {
  /**
   * `deploy`: installing a new version failed; `start`: start() failed (the app went to ERROR or
   * stayed CREATED); `run`: a fatal error stopped the running application (state ERROR).
   */
  phase: 'deploy' | 'start' | 'run';
  message: string;
  /** The engine's error code when there is one (`UNSUPPORTED_CONFIG`, `PROCESSING_FAILED`, …). */
  code?: string;
  at: number;
  /** Whether the version that ran before the failed deploy was kept running (safe deploy). */
  previousVersionKept: boolean;
}

/** One instance of the application and the tasks the last rebalance gave it. */
export interface InstanceTasks {
  /** Its application.server (`host:port` or URL), as its subscription carried it. */
  host: string;
  /** This instance (the one answering). */
  self: boolean;
  activeTasks: string[];
  standbyTasks: string[];
}

export interface AppStatus {
  applicationId: string;
  state: AppState;
  tasks: TaskStatus[];
  /**
   * On Kafka with more than one possible instance: every instance that has an
   * application.server and the tasks it runs, as of the last rebalance (Kafka Streams'
   * metadataForAllStreamsClients). Absent on the embedded backend (one instance).
   */
  instances?: InstanceTasks[];
  /** Most recent errors first, capped. */
  errors: ProcessingError[];
  /** What the application waits for now (unreachable brokers); empty when nothing. */
  waitingFor: WaitingFor[];
  /** The last failed deploy or start, or fatal run error; null since the last successful one. */
  lastFailure: LastFailure | null;
  /** Loud recoveries, most recent first, capped at 50 (the backend's and the application's). */
  recoveries: Recovery[];
  /** How many recoveries of each kind there were in all (also those beyond the list's cap). */
  recoveryCounts: Partial<Record<RecoveryKind, number>>;
}

/** Metric values keyed by Kafka Streams metric names, e.g. `process-total`, `process-rate`. */
export type MetricValues = Record<string, number>;

export interface MetricsSnapshot {
  at: number;
  applicationId: string;
  /** thread name → thread-level metrics */
  threads: Record<string, MetricValues>;
  /** task id (`0_1`) → task-level metrics */
  tasks: Record<string, MetricValues>;
  /** Processor-node metrics per task: task id → Kafka Streams node name → values. */
  nodes: Record<string, Record<string, MetricValues>>;
  /** Kafka Streams node name → model node id, so the UI can label its nodes. */
  nodeModelIds: Record<string, string>;
  /**
   * State-store metrics (Kafka's stream-state-metrics, recorded only with
   * `metrics.recording.level` = DEBUG): task id → store name → its store type tag (`scope`:
   * `in-memory` or `lmdb`) and values (`put-latency-avg` in ns, `put-rate`, …, `restore-rate`);
   * suppression buffers as scope `in-memory-suppression` with `suppression-buffer-size-avg|max`
   * (bytes) and `suppression-buffer-count-avg|max`.
   */
  stores?: Record<string, Record<string, { scope: string; values: MetricValues }>>;
  /**
   * Record-cache metrics (Kafka's stream-record-cache-metrics, DEBUG only): task id → the cached
   * store's name (Kafka's record-cache-id) → `hit-ratio-avg|min|max`, absent before the first hit.
   */
  caches?: Record<string, Record<string, MetricValues>>;
}

/** What the DSL's StreamsBuilder#build() returns (dsl/streams-builder.ts), accepted as a topology. */
export interface BuiltTopologyLike {
  readonly kind: 'streamwright.built-topology';
  readonly topology: Topology;
  readonly functions: FunctionRegistry;
  readonly processors: ProcessorRegistry;
  readonly valueTransformers?: ValueTransformerRegistry;
  readonly partitioners?: PartitionerRegistry;
}

export interface StreamsAppOptions {
  /** A validated topology, or a DSL program's build() (its registries are used too). */
  topology: Topology | BuiltTopologyLike;
  backend: Backend;
  /**
   * TypeScript functions the topology refers to by name (`{"function": "…"}` logic fields), e.g.
   * the registry a DSL program's build() returns. In-process only: never from the API.
   */
  functions?: FunctionRegistry;
  /**
   * Processor API processors for process / processValues nodes (`config.processor`), registered
   * by the operator when starting the runtime. Trusted code: never from the API.
   */
  processors?: ProcessorRegistry;
  /**
   * ValueTransformerWithKey factories for transformValues nodes (`config.transformer`), registered
   * by the operator like processors. Trusted code: never from the API.
   */
  valueTransformers?: ValueTransformerRegistry;
  /**
   * Partitioners a foreign-key join's TableJoined names (`partitioner` / `otherPartitioner`),
   * registered by the operator like processors. Trusted code: never from the API.
   */
  partitioners?: PartitionerRegistry;
  /**
   * With num.stream.threads > 1 the stream threads run in worker threads, which cannot receive the
   * in-process `functions` / `processors`: each worker imports this module instead (a file path or
   * URL; JavaScript, or TypeScript when a loader such as tsx is registered). Its default export (or
   * `registries`) is `{functions, processors, valueTransformers, partitioners}`, a DSL build()
   * result, or a function returning
   * either. See docs/ENGINE.md#threads.
   */
  workerModule?: string | URL;
  /** Where local state lives (checkpoints, persistent stores). */
  stateDir: string;
  /** Structured logger; defaults to silence. */
  logger?: EngineLogger;
  /**
   * Opt-in: sees every record each node is given (the designer's live sampling). Only stream
   * threads on the application's own event loop are tapped (num.stream.threads = 1).
   */
  recordTap?: RecordTap;
  /**
   * Opt-in: breakpoints, pause, step and resume (src/debug/app-debugger.ts). Only stream threads
   * on the application's own event loop can be paused (num.stream.threads = 1).
   */
  debugger?: RecordDebugger;
}

/** One record a node was given, and the node that forwarded it (null: a source's input). */
export interface RecordTapEvent {
  taskId: string;
  /** Kafka Streams node name. */
  node: string;
  from: string | null;
  /** The record itself, not a copy: read it, do not change it. */
  record: {
    readonly key: unknown;
    readonly value: unknown;
    readonly timestamp: number;
    readonly headers: Headers;
  };
}

export interface RecordTap {
  /** Read per record and node: while false nothing is reported (and almost nothing is spent). */
  active: boolean;
  onRecord(event: RecordTapEvent): void;
}

export type {
  QueryableKeyValueStore,
  QueriedWindow,
  QueriedWindowOfKey,
  QueryableWindowStore,
  QueriedSession,
  QueryableSessionStore,
} from './queryable-api.js';

export interface EngineLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A running (or startable) application: Kafka Streams' `KafkaStreams` object. */
export interface StreamsApp {
  readonly applicationId: string;
  start(): Promise<void>;
  /** Graceful: stop threads, commit, flush, close stores. Idempotent. */
  close(): Promise<void>;
  state(): AppState;
  status(): AppStatus;
  metrics(): MetricsSnapshot;
  /**
   * What of the application's Kafka Streams config is not honoured on this backend (unknown
   * keys, keys Kafka Streams overrides, keys not implemented), each naming the key and its path
   * (docs/ENGINE.md#application-config). Logged at WARN by start().
   */
  configNotes(): readonly ConfigNote[];
  onStateChange(listener: (next: AppState, previous: AppState) => void): () => void;
  /**
   * Kafka Streams' KafkaStreams#store for key-value stores: `name` across the app's tasks (or a
   * global store), read-only; null when the topology has no such store. Throws
   * UNSUPPORTED_CONFIG while the stream threads run in worker threads (num.stream.threads > 1):
   * queryStore answers then.
   */
  store(name: string): QueryableKeyValueStore | null;
  /**
   * Interactive queries on a window store (a windowed aggregation's, or a Processor API window
   * store); null when the application has no store of that name. Throws for a store of another
   * type.
   */
  windowStore(name: string): QueryableWindowStore | null;
  /** Interactive queries on a session store (a session-windowed aggregation's, or a Processor API one). */
  sessionStore(name: string): QueryableSessionStore | null;
  /**
   * An interactive query whatever num.stream.threads is: `method` of the store's queryable view
   * (QueryableKeyValueStore / QueryableWindowStore / QueryableSessionStore, by `type`) called with
   * `args`. With stream threads in worker threads each worker runs it on its own tasks' stores
   * and the answers are merged in the order one view returns. Resolves to null when the
   * application has no store `name`; rejects with INVALID_STATE_STORE for a store of another type.
   */
  queryStore(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
  ): Promise<unknown>;
  /**
   * KafkaStreams#queryMetadataForKey: the application.server of the instance running the task of
   * `key` in store `name` (null while it is migrating), those with its standbys, and the key's
   * partition. Null for an unknown store.
   */
  queryMetadataForKey(name: string, key: unknown): Promise<KeyQueryMetadata | null>;
  /** KafkaStreams#streamsMetadataForStore: the instances holding tasks of store `name`. */
  streamsMetadataForStore(name: string): StoreHostMetadata[] | null;
  /**
   * A query routed across instances, run on this instance's share of store `name` only: the
   * running actives of `scope.tasks` (all when absent), and with `scope.stale` the standbys of
   * those no running active here has (KIP-535). Answers in parts (one per stream thread) with
   * each range row's serialized key, which `mergeStoreParts` merges with other instances' parts
   * into the order one view over every task returns; `tasks` names the tasks that answered and
   * their lag. Not for global stores (every instance has all of one: queryStore).
   */
  queryLocalStore(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
    scope: QueryScope,
  ): Promise<LocalStoreAnswer>;
  /** Every instance's parts of one routed query (queryLocalStore) as one view's answer. */
  mergeStoreParts(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
    parts: StoreQueryPart[],
  ): unknown;
  /** The task ids of store `name` (its sub-topology's partitions); null for a global or unknown one. */
  storeTaskIds(name: string): Promise<string[] | null>;
}

/** This instance's share of a routed interactive query (StreamsApp#queryLocalStore). */
export interface LocalStoreAnswer {
  parts: StoreQueryPart[];
  tasks: AnsweredTask[];
}

/** Kafka Streams' KeyQueryMetadata: where a key's state lives (application.server endpoints). */
export interface KeyQueryMetadata {
  /** The instance running the key's task as an active; null while none does (migrating). */
  activeHost: string | null;
  standbyHosts: string[];
  /** The key's partition of the store's source topics (-1 for a global store). */
  partition: number;
}

/** One instance's share of a store (Kafka Streams' StreamsMetadata for it). */
export interface StoreHostMetadata {
  /** Its application.server. */
  host: string;
  activeTasks: string[];
  standbyTasks: string[];
}

/** Which of an instance's tasks a routed query reads (StreamsApp#queryLocalStore). */
export interface QueryScope {
  /** Task ids to read; absent: every task of the store here. */
  tasks?: readonly string[];
  /** Standby replicas may answer too (KIP-535's enableStaleStores). */
  stale?: boolean;
}

/** A task whose stores answered a scoped query, and how far its state is behind (KIP-535). */
export interface AnsweredTask {
  taskId: string;
  standby: boolean;
  /** Changelog records the state is behind the changelog's end (0 for a running active). */
  lag: number;
}

/** One stream thread's answer to a routed query (StreamsApp#queryLocalStore). */
export interface StoreQueryPart {
  value: unknown;
  /** For a range read: each row's serialized key, to order rows across threads and instances. */
  keys: (Uint8Array | null)[] | null;
  /** A scoped query: the tasks whose stores answered. */
  tasks?: AnsweredTask[];
}
