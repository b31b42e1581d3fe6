// The one place where the application's Kafka Streams client configs (resolved with Kafka
// Streams' precedence by topology-model's resolveStreamsConfig) meet the Kafka backend: which
// settings it applies, and what they become. Everything not listed here is reported by the engine
// as not implemented by this backend (app/config-report.ts). Keep it in step with the table in
// docs/KAFKA_BACKEND.md#application-config.
import type { ClientConfig, ClientSetting, StreamsClient } from '@streamwright/topology-model';
import type { GroupTimings } from './kafka-group-member.js';

const lower = (s: ClientSetting) => String(s.value).trim().toLowerCase();

/**
 * Settings the backend applies, per client; a predicate for values it applies only in part
 * (acks: every produce waits for all in-sync replicas, so acks=all/-1 is what it does).
 */
const APPLIED: Readonly<
  Record<StreamsClient, Readonly<Record<string, (s: ClientSetting) => boolean>>>
> = {
  mainConsumer: {
    'session.timeout.ms': () => true,
    'heartbeat.interval.ms': () => true,
    'max.poll.interval.ms': () => true,
  },
  restoreConsumer: {},
  globalConsumer: {},
  producer: {
    acks: (s) => lower(s) === 'all' || lower(s) === '-1',
    // exactly_once_v2's transactional producers (kafka-transactional-producer.ts).
    'transaction.timeout.ms': (s) => positiveInt(s) !== undefined,
    // Every producer is idempotent (kafka-produce.ts); false is not something it can do.
    'enable.idempotence': (s) => lower(s) === 'true',
  },
  admin: {},
};

export function kafkaAppliesClientConfig(
  client: StreamsClient,
  key: string,
  setting: ClientSetting,
): boolean {
  return APPLIED[client][key]?.(setting) ?? false;
}

const positiveInt = (s: ClientSetting | undefined): number | undefined => {
  const n = s === undefined ? NaN : Number(s.value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * Kafka Streams' transaction.timeout.ms under exactly_once_v2 (StreamsConfig's producer override
 * for exactly-once: 10 s, where a plain Java producer has 60 s): how long the coordinator lets a
 * transaction stay open before it aborts it — how soon a crashed instance's open transaction
 * stops holding back read_committed readers when no new producer with its id fences it first.
 */
export const EOS_TRANSACTION_TIMEOUT_MS = 10_000;

/** The transactional producer's settings from the application's producer config. */
export function transactionSettingsOf(config: ClientConfig | undefined): {
  transactionTimeoutMs: number;
} {
  return {
    transactionTimeoutMs:
      positiveInt(config?.['transaction.timeout.ms']) ?? EOS_TRANSACTION_TIMEOUT_MS,
  };
}

/**
 * A group member's timings: the main consumer's session.timeout.ms, heartbeat.interval.ms and
 * max.poll.interval.ms (the rebalance timeout) over the backend's own (createKafkaBackend options).
 */
export function groupTimingsOf(
  config: ClientConfig | undefined,
  defaults: GroupTimings,
): GroupTimings {
  const ms = (key: string, fallback: number) => {
    const setting = config?.[key];
    const n = setting === undefined ? NaN : Number(setting.value);
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  return {
    sessionTimeoutMs: ms('session.timeout.ms', defaults.sessionTimeoutMs),
    heartbeatIntervalMs: ms('heartbeat.interval.ms', defaults.heartbeatIntervalMs),
    rebalanceTimeoutMs: ms('max.poll.interval.ms', defaults.rebalanceTimeoutMs),
  };
}
