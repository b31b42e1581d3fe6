import { EngineError } from '../errors.js';
// The Kafka Streams configs the engine reads, with Kafka Streams' defaults.
import {
  resolveStreamsConfig,
  type AppConfig,
  type ClientConfig,
  type ResolvedStreamsConfig,
} from '@streamwright/topology-model';
import type { IsolationLevel } from '../backend-spi.js';
import { UnsupportedConfigError } from '../errors.js';
import type { ExceptionHandling } from '../processor/processor-context.js';
import {
  timestampExtractorConfig,
  type TimestampExtractorConfig,
} from '../time/timestamp-extractor.js';

export interface EngineConfig {
  applicationId: string;
  processingGuarantee: 'at_least_once' | 'exactly_once_v2';
  commitIntervalMs: number;
  numStreamThreads: number;
  processingExceptionHandler: ExceptionHandling;
  deserializationExceptionHandler: ExceptionHandling;
  /** `default.production.exception.handler`: serialization errors at sinks, records the log refuses. */
  productionExceptionHandler: ExceptionHandling;
  /** `errors.dead.letter.queue.topic.name` (KIP-1034), or null: no dead-letter records. */
  deadLetterQueueTopic: string | null;
  /** `statestore.cache.max.bytes` (Kafka Streams' default 10 MB; 0: no record cache). */
  cacheMaxBytes: number;
  /** `metrics.recording.level`: INFO (default), DEBUG or TRACE; store metrics need DEBUG. */
  metricsRecordingLevel: 'INFO' | 'DEBUG' | 'TRACE';
  /** `default.timestamp.extractor` (+ `default.timestamp.extractor.expression`). */
  timestampExtractor: TimestampExtractorConfig;
  maxTaskIdleMs: number;
  /** The main consumer's max.poll.records (Kafka Streams sets 1000). */
  maxPollRecords: number;
  /**
   * The main consumer's auto.offset.reset (Kafka Streams sets earliest): where a partition
   * without a usable committed offset starts, unless its source says otherwise; `none` fails
   * the task (NoValidOffsetError).
   */
  autoOffsetReset: 'earliest' | 'latest' | 'none';
  /** The main consumer's isolation.level (read_committed under exactly_once_v2). */
  isolationLevel: IsolationLevel;
  /** The restore consumer's isolation.level (read_committed under exactly_once_v2). */
  restoreIsolationLevel: IsolationLevel;
  /**
   * The application config as Kafka Streams reads it: replication.factor and the `topic.`
   * defaults of internal topics, the clients' settings, and the notes on what is not honoured.
   */
  streams: ResolvedStreamsConfig;
  /** How long a poll waits when nothing is buffered (Kafka Streams' poll.ms, default 100). */
  pollMs: number;
  /** Fetching pauses for a partition with this many records buffered (Kafka Streams default 1000). */
  bufferedRecordsPerPartition: number;
  /** Kafka Streams' state.dir (the app's StreamsAppOptions.stateDir); persistent stores and checkpoints live there. */
  stateDir?: string;
  /**
   * `default.dsl.store`: `rocksDB` (Kafka's default and name; `lmdb` says the same) puts the
   * stores materialized as persistent on lmdb under the state dir; `in_memory` keeps every store
   * in memory.
   */
  persistentStores: boolean;
  /** `num.standby.replicas` (0): standby copies of each stateful task, on other instances. */
  numStandbyReplicas: number;
  /** `max.warmup.replicas` (2): warm-up replicas in flight at once, over the group. */
  maxWarmupReplicas: number;
  /** `acceptable.recovery.lag` (10,000): a task lag this small counts as caught up. */
  acceptableRecoveryLag: number;
  /** `probing.rebalance.interval.ms` (600,000, at least 60,000): when warm-ups are checked again. */
  probingRebalanceIntervalMs: number;
  /**
   * The consumer group's rebalance protocol on Kafka (AssignorConfiguration#rebalanceProtocol):
   * cooperative, or eager when `upgrade.from` names 2.3 or older.
   */
  rebalanceProtocol: 'eager' | 'cooperative';
  /**
   * `application.server` (host:port, or null): the endpoint this instance's interactive queries
   * answer on, which the group's assignment tells every instance (queryMetadataForKey).
   */
  applicationServer: string | null;
}

/** `application.server`: host:port as Kafka Streams checks it (StreamsConfig), or null. */
function applicationServer(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const value = String(raw);
  if (!/^[^:\s]+:\d{1,5}$/.test(value) && !/^\[[0-9a-fA-F:.]+\]:\d{1,5}$/.test(value))
    throw new EngineError(
      'UNSUPPORTED_CONFIG',
      `Invalid value ${value} for configuration application.server: it must be host:port`,
    );
  return value;
}

/** `upgrade.from` values for which Kafka Streams keeps the eager rebalance protocol. */
const EAGER_UPGRADE_FROM = new Set([
  '0.10.0',
  '0.10.1',
  '0.10.2',
  '0.11.0',
  '1.0',
  '1.1',
  '2.0',
  '2.1',
  '2.2',
  '2.3',
]);

function int(config: AppConfig, key: string, fallback: number): number {
  const raw = config[key];
  const n =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && raw.trim() !== ''
        ? Number(raw)
        : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

function clientString(client: ClientConfig, key: string): string | undefined {
  const setting = client[key];
  return setting === undefined ? undefined : String(setting.value).trim().toLowerCase();
}

function clientInt(client: ClientConfig, key: string, fallback: number): number {
  const setting = client[key];
  const n = setting === undefined ? NaN : Number(setting.value);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

export function engineConfig(applicationId: string, config: AppConfig): EngineConfig {
  const guarantee = config['processing.guarantee'] ?? 'at_least_once';
  const streams = resolveStreamsConfig(config);
  const errors = streams.notes.filter((n) => n.severity === 'error');
  if (errors.length > 0)
    throw new UnsupportedConfigError(errors.map((n) => `${n.path}: ${n.message}`).join('; '));
  const main = streams.clients.mainConsumer;
  const eos = guarantee === 'exactly_once_v2';
  const isolation = (client: ClientConfig): IsolationLevel =>
    eos || clientString(client, 'isolation.level') === 'read_committed'
      ? 'read_committed'
      : 'read_uncommitted';
  return {
    applicationId,
    processingGuarantee: guarantee,
    commitIntervalMs: int(
      config,
      'commit.interval.ms',
      guarantee === 'exactly_once_v2' ? 100 : 30_000,
    ),
    numStreamThreads: Math.max(1, int(config, 'num.stream.threads', 1)),
    processingExceptionHandler: config['processing.exception.handler'] ?? 'log-and-fail',
    deserializationExceptionHandler:
      config['default.deserialization.exception.handler'] ?? 'log-and-fail',
    productionExceptionHandler: config['default.production.exception.handler'] ?? 'log-and-fail',
    deadLetterQueueTopic: deadLetterTopicOf(config),
    cacheMaxBytes: Math.max(0, int(config, 'statestore.cache.max.bytes', 10 * 1024 * 1024)),
    metricsRecordingLevel: recordingLevel(config['metrics.recording.level']),
    timestampExtractor: timestampExtractorConfig(config),
    maxTaskIdleMs: int(config, 'max.task.idle.ms', 0),
    maxPollRecords: Math.max(1, clientInt(main, 'max.poll.records', 1000)),
    autoOffsetReset: offsetResetOf(clientString(main, 'auto.offset.reset')),
    isolationLevel: isolation(main),
    restoreIsolationLevel: isolation(streams.clients.restoreConsumer),
    streams,
    pollMs: Math.max(1, int(config, 'poll.ms', 100)),
    bufferedRecordsPerPartition: Math.max(1, int(config, 'buffered.records.per.partition', 1000)),
    persistentStores: dslStoreOf(config) !== 'in_memory',
    numStandbyReplicas: Math.max(0, int(config, 'num.standby.replicas', 0)),
    maxWarmupReplicas: Math.max(1, int(config, 'max.warmup.replicas', 2)),
    acceptableRecoveryLag: Math.max(0, int(config, 'acceptable.recovery.lag', 10_000)),
    // Kafka Streams refuses less than 60 s; tests here use less (a WARN is not worth it).
    probingRebalanceIntervalMs: Math.max(
      1_000,
      int(config, 'probing.rebalance.interval.ms', 600_000),
    ),
    applicationServer: applicationServer(config['application.server']),
    rebalanceProtocol: EAGER_UPGRADE_FROM.has(String(config['upgrade.from'] ?? ''))
      ? 'eager'
      : 'cooperative',
  };
}

/** `default.dsl.store` (Kafka Streams' values `rocksDB`, `in_memory`; `lmdb` = `rocksDB`). */
export function dslStoreOf(config: AppConfig): 'rocksDB' | 'in_memory' {
  const raw = config['default.dsl.store'];
  if (raw === undefined || raw === null) return 'rocksDB';
  const name = String(raw);
  if (name === 'in_memory') return 'in_memory';
  if (name === 'rocksDB' || name === 'rocksdb' || name === 'lmdb') return 'rocksDB';
  throw new Error(
    `default.dsl.store: '${name}' is not a store type (Kafka Streams takes rocksDB or in_memory; ` +
      `rocksDB, the default, means persistent stores on lmdb here)`,
  );
}

/** The dead-letter topic the application config names, or null. */
export function deadLetterTopicOf(config: AppConfig): string | null {
  const name = config['errors.dead.letter.queue.topic.name'];
  return typeof name === 'string' && name.length > 0 ? name : null;
}

function recordingLevel(raw: unknown): EngineConfig['metricsRecordingLevel'] {
  const level = String(raw ?? 'INFO').toUpperCase();
  return level === 'DEBUG' || level === 'TRACE' ? level : 'INFO';
}

/** auto.offset.reset as the main consumer reads it (validated already: latest, earliest, none). */
function offsetResetOf(value: string | undefined): 'earliest' | 'latest' | 'none' {
  const v = value?.trim().toLowerCase();
  return v === 'latest' || v === 'none' ? v : 'earliest';
}
