// Topic configs as Kafka's AdminClient#createTopics takes them: Kafka's topic-level keys only,
// each value checked for its type, so a typo (`retention.msec`) is refused instead of silently
// ignored. The embedded log honours the ones it implements (docs/CLI.md lists them); the others
// are kept with the topic, as a broker would keep them.
import { RuntimeError } from '../errors.js';

type Check = (value: string) => string | null;

const integer =
  (min: number): Check =>
  (value) =>
    /^-?\d+$/.test(value) && Number(value) >= min && Number.isSafeInteger(Number(value))
      ? null
      : `an integer ≥ ${min}`;
const oneOf =
  (...allowed: string[]): Check =>
  (value) =>
    allowed.includes(value) ? null : `one of ${allowed.join(', ')}`;
const bool: Check = oneOf('true', 'false');
const anyText: Check = () => null;
const ratio: Check = (value) =>
  /^\d*\.?\d+$/.test(value) && Number(value) >= 0 && Number(value) <= 1 ? null : 'a number 0..1';
const cleanupPolicy: Check = (value) => {
  const parts = value.split(',').map((p) => p.trim());
  return parts.length > 0 && parts.every((p) => p === 'compact' || p === 'delete')
    ? null
    : '"delete", "compact" or "compact,delete"';
};

/** Kafka's topic-level configs (TopicConfig) and what their values must be. */
export const TOPIC_CONFIGS: Readonly<Record<string, Check>> = {
  'cleanup.policy': cleanupPolicy,
  'compression.type': oneOf('uncompressed', 'zstd', 'lz4', 'snappy', 'gzip', 'producer'),
  'compression.gzip.level': integer(-1),
  'compression.lz4.level': integer(1),
  'compression.zstd.level': integer(-131072),
  'delete.retention.ms': integer(0),
  'file.delete.delay.ms': integer(0),
  'flush.messages': integer(1),
  'flush.ms': integer(0),
  'follower.replication.throttled.replicas': anyText,
  'index.interval.bytes': integer(0),
  'leader.replication.throttled.replicas': anyText,
  'local.retention.bytes': integer(-2),
  'local.retention.ms': integer(-2),
  'max.compaction.lag.ms': integer(1),
  'max.message.bytes': integer(0),
  'message.downconversion.enable': bool,
  'message.timestamp.after.max.ms': integer(0),
  'message.timestamp.before.max.ms': integer(0),
  'message.timestamp.type': oneOf('CreateTime', 'LogAppendTime'),
  'min.cleanable.dirty.ratio': ratio,
  'min.compaction.lag.ms': integer(0),
  'min.insync.replicas': integer(1),
  preallocate: bool,
  'remote.log.copy.disable': bool,
  'remote.log.delete.on.disable': bool,
  'remote.storage.enable': bool,
  'retention.bytes': integer(-1),
  'retention.ms': integer(-1),
  'segment.bytes': integer(14),
  'segment.index.bytes': integer(4),
  'segment.jitter.ms': integer(0),
  'segment.ms': integer(1),
  'unclean.leader.election.enable': bool,
};

/** Checks every key and value; returns the config as strings (as Kafka stores them). */
export function checkTopicConfig(
  config: Readonly<Record<string, string | number | boolean>>,
): Record<string, string> {
  const problems: string[] = [];
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(config)) {
    const value = String(raw).trim();
    const check = TOPIC_CONFIGS[key];
    if (!check) {
      problems.push(`unknown topic config "${key}"`);
      continue;
    }
    const expected = check(value);
    if (expected) problems.push(`${key} must be ${expected}, got ${JSON.stringify(value)}`);
    else out[key] = value;
  }
  if (problems.length > 0) {
    throw new RuntimeError('INVALID_TOPIC_CONFIG', `config: ${problems.join('; ')}`);
  }
  return out;
}
