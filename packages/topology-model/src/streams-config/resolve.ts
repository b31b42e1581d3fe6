// The application's Kafka Streams config read as Kafka Streams 4.1 reads it (StreamsConfig):
// - `replication.factor` and the `topic.`-prefixed configs for the internal topics it creates
//   (InternalTopicManager: library defaults < `topic.*` < the topic's own configs);
// - the configs of its clients, with its precedence (StreamsConfig#getMainConsumerConfigs and
//   friends): for the main consumer `main.consumer.` over `consumer.` over the un-prefixed key
//   (restore and global consumers alike with their prefixes), `producer.` and `admin.` over the
//   un-prefixed key; an un-prefixed key goes to every client that knows it;
// - a note for every key that is not honoured: a bad value (an error, as Kafka's ConfigException
//   refuses to start), a key Kafka does not know (a warning: Kafka logs "The configuration 'x'
//   was supplied but isn't a known config." at WARN), a key Kafka Streams itself overrides, and a
//   known key Streamwright does not implement. What a backend does not implement of the client
//   configs is the backend's to say (engine: Backend#appliesClientConfig).
import type { AppConfig } from '../schema.js';
import {
  ADMIN_CONFIGS,
  CONSUMER_CONFIGS,
  PRODUCER_CONFIGS,
  STREAMS_CONFIGS,
  TOPIC_CONFIGS,
  type KafkaConfigType,
} from './kafka-config-names.js';

export type ConfigScalar = string | number | boolean;

/** Kafka Streams' clients, each configured from the application config. */
export type StreamsClient =
  'mainConsumer' | 'restoreConsumer' | 'globalConsumer' | 'producer' | 'admin';
export const STREAMS_CLIENTS: readonly StreamsClient[] = [
  'mainConsumer',
  'restoreConsumer',
  'globalConsumer',
  'producer',
  'admin',
];
/** For messages: `the main consumer`. */
export const CLIENT_WORDS: Readonly<Record<StreamsClient, string>> = {
  mainConsumer: 'main consumer',
  restoreConsumer: 'restore consumer',
  globalConsumer: 'global consumer',
  producer: 'producer',
  admin: 'admin client',
};

/** One setting of a client, with the application-config key it came from. */
export interface ClientSetting {
  value: ConfigScalar;
  /** The key in the application config, e.g. `consumer.session.timeout.ms`. */
  source: string;
}
/** A client's settings by Kafka key (`session.timeout.ms`), without prefixes. */
export type ClientConfig = Readonly<Record<string, ClientSetting>>;
export type ClientConfigs = Readonly<Record<StreamsClient, ClientConfig>>;

export interface ConfigNote {
  /** The application-config key. */
  key: string;
  /** Where in the topology document: `application.config["consumer.foo"]`. */
  path: string;
  /** Errors refuse the topology (as Kafka's ConfigException refuses to start); warnings do not. */
  severity: 'error' | 'warning';
  /**
   * invalid: a bad value; unknown: not a key Kafka knows there; ignored: Kafka Streams itself
   * overrides it; unsupported: Kafka knows it, Streamwright (or the backend) does not implement it.
   */
  kind: 'invalid' | 'unknown' | 'ignored' | 'unsupported';
  message: string;
}

export interface ResolvedStreamsConfig {
  /** `replication.factor` of the internal topics; -1 (the default): the broker's default. */
  replicationFactor: number;
  /** The `topic.`-prefixed configs without the prefix, for every internal topic. */
  topicDefaults: Readonly<Record<string, string>>;
  clients: ClientConfigs;
  notes: ConfigNote[];
}

const CLIENT_PREFIXES: readonly { prefix: string; clients: readonly StreamsClient[] }[] = [
  // Longest first: `main.consumer.x` is not `consumer.x` (Kafka matches prefixes at the start).
  { prefix: 'main.consumer.', clients: ['mainConsumer'] },
  { prefix: 'restore.consumer.', clients: ['restoreConsumer'] },
  { prefix: 'global.consumer.', clients: ['globalConsumer'] },
  { prefix: 'consumer.', clients: ['mainConsumer', 'restoreConsumer', 'globalConsumer'] },
  { prefix: 'producer.', clients: ['producer'] },
  { prefix: 'admin.', clients: ['admin'] },
];
const TOPIC_PREFIX = 'topic.';
/** StreamsConfig.CLIENT_TAG_PREFIX (rack-aware assignment tags). */
const CLIENT_TAG_PREFIX = 'client.tag.';

const NAMES_OF: Readonly<Record<StreamsClient, Readonly<Record<string, KafkaConfigType>>>> = {
  mainConsumer: CONSUMER_CONFIGS,
  restoreConsumer: CONSUMER_CONFIGS,
  globalConsumer: CONSUMER_CONFIGS,
  producer: PRODUCER_CONFIGS,
  admin: ADMIN_CONFIGS,
};

/** Topic configs a broker takes beyond TopicConfig's names (LogConfig's throttling lists). */
const MORE_TOPIC_CONFIGS = new Set([
  'leader.replication.throttled.replicas',
  'follower.replication.throttled.replicas',
]);

/** Streamwright's own application-config keys (no Kafka Streams 4.1 equivalent). */
const STREAMWRIGHT_CONFIGS: Readonly<Record<string, KafkaConfigType>> = {
  /** CEL timestamp extraction (docs/ENGINE.md). */
  'default.timestamp.extractor.expression': 'STRING',
  /** KIP-1034 (Kafka Streams 4.2): the dead-letter topic. */
  'errors.dead.letter.queue.topic.name': 'STRING',
};

/**
 * The StreamsConfig keys the engine implements (docs/ENGINE.md, application config). Keys that
 * are also client configs (request.timeout.ms, retry.backoff.ms, …) are judged as client configs.
 */
const IMPLEMENTED_STREAMS_CONFIGS = new Set([
  'processing.guarantee',
  'commit.interval.ms',
  'num.stream.threads',
  'processing.exception.handler',
  'default.deserialization.exception.handler',
  'default.production.exception.handler',
  'statestore.cache.max.bytes',
  'default.dsl.store',
  'max.task.idle.ms',
  'topology.optimization',
  'upgrade.from',
  'metrics.recording.level',
  'default.timestamp.extractor',
  'poll.ms',
  'buffered.records.per.partition',
  'replication.factor',
  // The high-availability assignor and standby replicas (the Kafka backend's group protocol).
  'num.standby.replicas',
  'max.warmup.replicas',
  'acceptable.recovery.lag',
  'probing.rebalance.interval.ms',
  // Interactive query metadata (queryMetadataForKey) on the Kafka backend.
  'application.server',
]);

/** StreamsConfig keys that something other than the application config sets here. */
const SET_ELSEWHERE: Readonly<Record<string, string>> = {
  'application.id':
    'the application id is the document\'s "application.id" (application.id in the config is ignored)',
  'bootstrap.servers':
    "the brokers are the backend's (createKafkaBackend's bootstrapServers, `streamwright serve --bootstrap-servers`), not the application config's",
  'security.protocol':
    "TLS and SASL are the backend's settings (createKafkaBackend's ssl and sasl, `streamwright serve` options), not the application config's",
  'state.dir':
    "the state directory is the runtime's data dir (or StreamsAppOptions.stateDir), not the application config's",
};

/** Kafka Streams 4.1's new names of exception handlers whose `default.` names the engine reads. */
const RENAMED: Readonly<Record<string, string>> = {
  'deserialization.exception.handler': 'default.deserialization.exception.handler',
  'production.exception.handler': 'default.production.exception.handler',
  'cache.max.bytes.buffering': 'statestore.cache.max.bytes',
};

/** Connection settings: Kafka Streams passes them to every client; here the backend has them. */
function isConnectionKey(key: string): boolean {
  return (
    key === 'bootstrap.servers' ||
    key === 'security.protocol' ||
    key.startsWith('ssl.') ||
    key.startsWith('sasl.')
  );
}

export function configPath(key: string): string {
  return `application.config[${JSON.stringify(key)}]`;
}

/** Kafka's ConfigDef parsing of one value: null when it parses, else Kafka's reason. */
export function kafkaTypeError(type: KafkaConfigType, value: ConfigScalar): string | null {
  const text = typeof value === 'string' ? value.trim() : null;
  switch (type) {
    case 'INT':
    case 'SHORT':
    case 'LONG': {
      const n =
        typeof value === 'number'
          ? value
          : text !== null && /^-?\d+$/.test(text)
            ? Number(text)
            : NaN;
      const bits = type === 'INT' ? 31 : type === 'SHORT' ? 15 : 63;
      const word =
        type === 'INT' ? '32-bit integer' : type === 'SHORT' ? '16-bit integer' : '64-bit integer';
      if (!Number.isInteger(n)) return `Not a number of type ${type}`;
      if (n < -(2 ** bits) || n >= 2 ** bits) return `Not a ${word}`;
      return null;
    }
    case 'DOUBLE': {
      const n =
        typeof value === 'number' ? value : text !== null && text !== '' ? Number(text) : NaN;
      return Number.isFinite(n) ? null : 'Not a number of type DOUBLE';
    }
    case 'BOOLEAN':
      if (typeof value === 'boolean') return null;
      if (text !== null && /^(true|false)$/i.test(text)) return null;
      return 'Expected value to be either true or false';
    default:
      return null;
  }
}

function invalidValue(key: string, value: ConfigScalar, reason: string): ConfigNote {
  return {
    key,
    path: configPath(key),
    severity: 'error',
    kind: 'invalid',
    // Kafka's ConfigException text.
    message: `Invalid value ${String(value)} for configuration ${key}: ${reason}`,
  };
}

function warning(key: string, kind: ConfigNote['kind'], message: string): ConfigNote {
  return { key, path: configPath(key), severity: 'warning', kind, message };
}

/** Values Kafka Streams' clients take for a few keys, with ConfigDef's ValidString message. */
const ENUMS: Readonly<Record<string, readonly string[]>> = {
  'auto.offset.reset': ['latest', 'earliest', 'none'],
  'isolation.level': ['read_committed', 'read_uncommitted'],
  acks: ['all', '-1', '0', '1'],
  'compression.type': ['none', 'gzip', 'snappy', 'lz4', 'zstd'],
};

function checkClientValue(key: string, source: string, value: ConfigScalar, type: KafkaConfigType) {
  const reason = kafkaTypeError(type, value);
  if (reason !== null) return invalidValue(source, value, reason);
  const allowed = ENUMS[key];
  if (allowed && !allowed.includes(String(value).trim().toLowerCase()))
    return invalidValue(source, value, `String must be one of: ${allowed.join(', ')}`);
  return null;
}

/**
 * Reads the application config as Kafka Streams 4.1 does. `config` is the validated document's
 * (its typed keys already checked by the schema).
 */
export function resolveStreamsConfig(config: AppConfig): ResolvedStreamsConfig {
  const notes: ConfigNote[] = [];
  const entries = Object.entries(config).filter(
    (e): e is [string, ConfigScalar] => e[1] !== undefined && e[1] !== null,
  );
  const eos = config['processing.guarantee'] === 'exactly_once_v2';

  // Un-prefixed client configs first, then `consumer.`, then the client-specific prefixes: each
  // layer overrides the one before (StreamsConfig#getClientPropsWithPrefix, get*ConsumerConfigs).
  const layers: { rank: number; client: StreamsClient; key: string; setting: ClientSetting }[] = [];
  const topicDefaults: Record<string, string> = {};
  let replicationFactor = -1;

  for (const [key, value] of entries) {
    const prefixed = CLIENT_PREFIXES.find((p) => key.startsWith(p.prefix));
    if (prefixed) {
      const name = key.slice(prefixed.prefix.length);
      const client = prefixed.clients[0]!;
      const type = NAMES_OF[client][name];
      if (type === undefined) {
        notes.push(
          warning(
            key,
            'unknown',
            `'${name}' is not a ${CLIENT_WORDS[client].replace(/^(main|restore|global) /, '')} config: Kafka's ${CLIENT_WORDS[client]} logs "The configuration '${name}' was supplied but isn't a known config." and ignores it; so does Streamwright`,
          ),
        );
        continue;
      }
      const bad = checkClientValue(name, key, value, type);
      if (bad) {
        notes.push(bad);
        continue;
      }
      const rank = prefixed.prefix === 'consumer.' ? 1 : 2;
      for (const c of prefixed.clients)
        layers.push({ rank, client: c, key: name, setting: { value, source: key } });
      continue;
    }
    if (key.startsWith(TOPIC_PREFIX)) {
      const name = key.slice(TOPIC_PREFIX.length);
      if (!TOPIC_CONFIGS.has(name) && !MORE_TOPIC_CONFIGS.has(name)) {
        // Not a warning: Kafka Streams passes it on, and the broker refuses to create the
        // internal topics ("Unknown topic config name"), so the application could not start.
        notes.push({
          key,
          path: configPath(key),
          severity: 'error',
          kind: 'invalid',
          message: `'${name}' is not a Kafka topic config: the internal topics could not be created with it (Kafka: "Unknown topic config name: ${name}")`,
        });
        continue;
      }
      topicDefaults[name] = String(value);
      continue;
    }

    const streamsType = STREAMS_CONFIGS[key] ?? STREAMWRIGHT_CONFIGS[key];
    const clientsKnowing = (
      ['mainConsumer', 'restoreConsumer', 'globalConsumer', 'producer', 'admin'] as const
    ).filter((c) => NAMES_OF[c][key] !== undefined);
    if (streamsType === undefined && clientsKnowing.length === 0) {
      if (key.startsWith(CLIENT_TAG_PREFIX)) {
        notes.push(
          warning(
            key,
            'unsupported',
            `client tags (rack-aware standby assignment) are not implemented: ${key} is ignored`,
          ),
        );
        continue;
      }
      notes.push(
        warning(
          key,
          'unknown',
          `'${key}' is not a Kafka Streams config, nor a consumer, producer or admin config: Kafka Streams passes it to its clients, which log "The configuration '${key}' was supplied but isn't a known config." and ignore it; so does Streamwright`,
        ),
      );
      continue;
    }
    const type = streamsType ?? NAMES_OF[clientsKnowing[0]!][key]!;
    // The schema's typed keys have their own (stricter) checks and messages.
    if (!(key in TYPED_BY_SCHEMA)) {
      const bad =
        clientsKnowing.length > 0
          ? checkClientValue(key, key, value, type)
          : (() => {
              const reason = kafkaTypeError(type, value);
              return reason === null ? null : invalidValue(key, value, reason);
            })();
      if (bad) {
        notes.push(bad);
        continue;
      }
    }
    if (key === 'replication.factor') {
      const rf = Number(value);
      if (rf === 0 || rf < -1) {
        notes.push(
          invalidValue(
            key,
            value,
            "Value must be -1 (the broker's default.replication.factor) or at least 1",
          ),
        );
        continue;
      }
      replicationFactor = rf;
      continue;
    }
    for (const client of clientsKnowing)
      layers.push({ rank: 0, client, key, setting: { value, source: key } });
    if (clientsKnowing.length > 0) continue;
    if (IMPLEMENTED_STREAMS_CONFIGS.has(key) || key in STREAMWRIGHT_CONFIGS) continue;
    const elsewhere = SET_ELSEWHERE[key];
    if (elsewhere !== undefined) {
      notes.push(warning(key, 'ignored', elsewhere));
      continue;
    }
    const renamed = RENAMED[key];
    notes.push(
      warning(
        key,
        'unsupported',
        renamed
          ? `Streamwright does not implement the Kafka Streams config ${key}; it reads ${renamed} (same values): ${key} is ignored`
          : `Streamwright does not implement the Kafka Streams config ${key}: it is ignored`,
      ),
    );
  }

  const clients = {} as Record<StreamsClient, Record<string, ClientSetting>>;
  for (const c of STREAMS_CLIENTS) clients[c] = {};
  for (const layer of [...layers].sort((a, b) => a.rank - b.rank))
    clients[layer.client][layer.key] = layer.setting;

  overridden(clients, notes, eos);
  return { replicationFactor, topicDefaults, clients, notes };
}

/** The keys appConfigSchema types itself (schema.ts). */
const TYPED_BY_SCHEMA: Readonly<Record<string, true>> = {
  'processing.guarantee': true,
  'commit.interval.ms': true,
  'num.stream.threads': true,
  'processing.exception.handler': true,
  'default.deserialization.exception.handler': true,
  'default.production.exception.handler': true,
  'errors.dead.letter.queue.topic.name': true,
  'statestore.cache.max.bytes': true,
  'default.dsl.store': true,
  'max.task.idle.ms': true,
  'topology.optimization': true,
  'upgrade.from': true,
};

/**
 * What Kafka Streams sets itself whatever the user says (StreamsConfig: the main consumer's
 * group.id, client.id, partition.assignment.strategy, allow.auto.create.topics; the
 * non-configurable enable.auto.commit, and under exactly_once_v2 isolation.level,
 * enable.idempotence and transactional.id — logged and ignored), and connection settings,
 * which the backend has. These are dropped from the clients with a note.
 */
function overridden(
  clients: Record<StreamsClient, Record<string, ClientSetting>>,
  notes: ConfigNote[],
  eos: boolean,
): void {
  const noted = new Set<string>();
  const drop = (
    client: StreamsClient,
    key: string,
    why: (s: ClientSetting) => string | null,
    kind: ConfigNote['kind'] = 'ignored',
  ) => {
    const setting = clients[client][key];
    if (!setting) return;
    const reason = why(setting);
    if (reason === null) return;
    delete clients[client][key];
    if (noted.has(setting.source)) return;
    noted.add(setting.source);
    notes.push(warning(setting.source, kind, reason));
  };
  for (const client of STREAMS_CLIENTS) {
    for (const key of Object.keys(clients[client]))
      if (isConnectionKey(key))
        drop(client, key, () =>
          key === 'bootstrap.servers' || key === 'security.protocol'
            ? SET_ELSEWHERE[key]!
            : `${key}: TLS and SASL are the backend's settings (createKafkaBackend's ssl and sasl, \`streamwright serve\` options), not the application config's`,
        );
    drop(
      client,
      'client.id',
      () =>
        'Streamwright names its clients <application.id>-StreamThread-<n>-consumer (and so on); a client.id prefix is not implemented: client.id is ignored',
      'unsupported',
    );
  }
  const consumers: StreamsClient[] = ['mainConsumer', 'restoreConsumer', 'globalConsumer'];
  for (const c of consumers) {
    drop(c, 'enable.auto.commit', (s) =>
      String(s.value).toLowerCase() === 'false'
        ? null
        : `Kafka Streams commits itself: enable.auto.commit (${String(s.value)}) is ignored and false is used (Kafka Streams logs "Unexpected user-specified consumer config 'enable.auto.commit' found")`,
    );
    drop(c, 'group.id', () => 'the group id is the application id: group.id is ignored');
    drop(
      c,
      'partition.assignment.strategy',
      () =>
        'Kafka Streams assigns tasks with its own assignor: partition.assignment.strategy is ignored',
    );
    if (eos)
      drop(c, 'isolation.level', (s) =>
        String(s.value).toLowerCase() === 'read_committed'
          ? null
          : `'processing.guarantee' is exactly_once_v2: the consumers read read_committed and isolation.level (${String(s.value)}) is ignored, as in Kafka Streams`,
      );
  }
  if (eos) {
    drop('producer', 'enable.idempotence', (s) =>
      String(s.value).toLowerCase() === 'true'
        ? null
        : `'processing.guarantee' is exactly_once_v2: the producer is idempotent and enable.idempotence (${String(s.value)}) is ignored, as in Kafka Streams`,
    );
    drop(
      'producer',
      'transactional.id',
      () =>
        `'processing.guarantee' is exactly_once_v2: Kafka Streams names the transactional ids itself (<application.id>-<process id>-<thread>): transactional.id is ignored`,
    );
    const inflight = clients.producer['max.in.flight.requests.per.connection'];
    if (inflight && Number(inflight.value) > 5)
      notes.push(
        invalidValue(
          inflight.source,
          inflight.value,
          "Can't exceed 5 when exactly-once processing is enabled",
        ),
      );
  }
}
