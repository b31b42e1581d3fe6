// Topic configs, with Kafka's keys and defaults. Overrides are kept as given (strings, as Kafka's
// admin API stores them) and parsed into a typed view that the storage code reads.
import {
  isCompressionAvailable,
  isCompressionType,
  type CompressionType,
} from './format/compression.js';
import type { TimestampType } from './format/record-batch.js';
import { LogError, LogErrorCode } from './errors.js';

export const LONG_MAX = '9223372036854775807';

/**
 * Kafka's defaults, except `flush.messages`: Kafka leaves flushing to the OS because it relies on
 * replication; an embedded single copy relies on fsync, so the default fsyncs every batch (group
 * commit merges concurrent batches into one fsync).
 */
export const DEFAULT_TOPIC_CONFIG: Readonly<Record<string, string>> = {
  'cleanup.policy': 'delete',
  'compression.type': 'producer',
  'delete.retention.ms': '86400000',
  'file.delete.delay.ms': '60000',
  'flush.messages': '1',
  'flush.ms': LONG_MAX,
  'index.interval.bytes': '4096',
  'max.compaction.lag.ms': LONG_MAX,
  'max.message.bytes': '1048588',
  'message.timestamp.type': 'CreateTime',
  'min.cleanable.dirty.ratio': '0.5',
  'min.compaction.lag.ms': '0',
  'retention.bytes': '-1',
  'retention.ms': '604800000',
  'segment.bytes': '1073741824',
  'segment.ms': '604800000',
};

/** Keys Kafka accepts that have no effect on a single-node log; stored and described, not used. */
const ACCEPTED_WITHOUT_EFFECT = new Set([
  'min.insync.replicas',
  'unclean.leader.election.enable',
  'message.downconversion.enable',
  'preallocate',
  'segment.index.bytes',
  'segment.jitter.ms',
  'leader.replication.throttled.replicas',
  'follower.replication.throttled.replicas',
  'message.format.version',
  'message.timestamp.difference.max.ms',
  'message.timestamp.before.max.ms',
  'message.timestamp.after.max.ms',
  'remote.storage.enable',
  'local.retention.ms',
  'local.retention.bytes',
]);

export interface TopicConfig {
  compact: boolean;
  delete: boolean;
  compressionType: 'producer' | CompressionType;
  deleteRetentionMs: number;
  /** fsync once this many messages are unflushed; Infinity = never by count. */
  flushMessages: number;
  /** fsync once the oldest unflushed write is this old; Infinity = never by time. */
  flushMs: number;
  indexIntervalBytes: number;
  maxCompactionLagMs: number;
  maxMessageBytes: number;
  timestampType: TimestampType;
  minCleanableDirtyRatio: number;
  minCompactionLagMs: number;
  /** -1 = unlimited */
  retentionBytes: number;
  /** -1 = unlimited */
  retentionMs: number;
  segmentBytes: number;
  segmentMs: number;
}

function invalid(key: string, value: string, why: string): LogError {
  return new LogError(
    LogErrorCode.INVALID_CONFIG,
    `Invalid value ${value} for configuration ${key}: ${why}`,
  );
}

function long(key: string, value: string, min: number): number {
  if (value === LONG_MAX) return Infinity;
  if (!/^-?\d+$/.test(value.trim())) throw invalid(key, value, 'Not a number of type LONG');
  const n = Number(value);
  if (n < min) throw invalid(key, value, `Value must be at least ${min}`);
  return n;
}

/**
 * Whether the log takes this topic config (Kafka's keys it implements, and those it stores
 * without effect on a single node, such as min.insync.replicas).
 */
export function acceptsTopicConfig(key: string): boolean {
  return key in DEFAULT_TOPIC_CONFIG || ACCEPTED_WITHOUT_EFFECT.has(key);
}

/** Normalises user overrides (numbers become strings) and rejects unknown keys and bad values. */
export function normaliseOverrides(
  overrides: Record<string, string | number> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(overrides ?? {})) {
    if (!acceptsTopicConfig(key)) {
      throw new LogError(LogErrorCode.INVALID_CONFIG, `Unknown topic config name: ${key}`);
    }
    out[key] = String(raw);
  }
  parseTopicConfig(out); // validates
  return out;
}

export function parseTopicConfig(
  overrides: Record<string, string>,
  defaults: Record<string, string> = {},
): TopicConfig {
  const get = (key: string): string =>
    overrides[key] ?? defaults[key] ?? DEFAULT_TOPIC_CONFIG[key]!;
  const policy = get('cleanup.policy')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (policy.length === 0 || policy.some((p) => p !== 'delete' && p !== 'compact')) {
    throw invalid('cleanup.policy', get('cleanup.policy'), 'must be a list of delete and compact');
  }
  // Kafka's topic values: uncompressed, zstd, lz4, snappy, gzip, producer ('none', the producer's
  // word for uncompressed, is read too).
  const given = get('compression.type');
  const compression = given === 'uncompressed' ? 'none' : given;
  if (compression !== 'producer' && !isCompressionType(compression)) {
    throw invalid(
      'compression.type',
      given,
      'unknown codec (one of uncompressed, zstd, lz4, snappy, gzip, producer)',
    );
  }
  if (compression !== 'producer' && !isCompressionAvailable(compression)) {
    throw invalid('compression.type', given, 'codec failed to load');
  }
  const tsType = get('message.timestamp.type');
  if (tsType !== 'CreateTime' && tsType !== 'LogAppendTime') {
    throw invalid('message.timestamp.type', tsType, 'must be CreateTime or LogAppendTime');
  }
  const ratio = Number(get('min.cleanable.dirty.ratio'));
  if (!(ratio >= 0 && ratio <= 1))
    throw invalid(
      'min.cleanable.dirty.ratio',
      get('min.cleanable.dirty.ratio'),
      'must be in [0, 1]',
    );
  return {
    compact: policy.includes('compact'),
    delete: policy.includes('delete'),
    compressionType: compression as TopicConfig['compressionType'],
    deleteRetentionMs: long('delete.retention.ms', get('delete.retention.ms'), 0),
    flushMessages: long('flush.messages', get('flush.messages'), 1),
    flushMs: long('flush.ms', get('flush.ms'), 0),
    indexIntervalBytes: long('index.interval.bytes', get('index.interval.bytes'), 0),
    maxCompactionLagMs: long('max.compaction.lag.ms', get('max.compaction.lag.ms'), 1),
    maxMessageBytes: long('max.message.bytes', get('max.message.bytes'), 0),
    timestampType: tsType,
    minCleanableDirtyRatio: ratio,
    minCompactionLagMs: long('min.compaction.lag.ms', get('min.compaction.lag.ms'), 0),
    retentionBytes: long('retention.bytes', get('retention.bytes'), -1),
    retentionMs: long('retention.ms', get('retention.ms'), -1),
    segmentBytes: long('segment.bytes', get('segment.bytes'), 14),
    segmentMs: long('segment.ms', get('segment.ms'), 1),
  };
}

/** The full effective config as strings: defaults overlaid with log-level defaults and overrides. */
export function effectiveConfig(
  overrides: Record<string, string>,
  defaults: Record<string, string> = {},
): Record<string, string> {
  return { ...DEFAULT_TOPIC_CONFIG, ...defaults, ...overrides };
}
