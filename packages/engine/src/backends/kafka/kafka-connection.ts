// How the Kafka backend connects: its options (bootstrap servers, TLS, SASL, group timings) and
// the error a failed first connection becomes — naming the brokers, the security protocol and,
// when the brokers refused the credentials, the SASL mechanism and user (never the password).
import { EngineError } from '../../errors.js';

export interface KafkaBackendOptions {
  /** bootstrap.servers: `host:port` entries (use 127.0.0.1, not localhost: Node may pick ::1). */
  bootstrapServers: string[];
  /** client.id prefix of the backend's own clients (default `streamwright`). */
  clientId?: string;
  /** Replication factor of the topics the backend creates (default: the broker's default). */
  replicationFactor?: number;
  /** session.timeout.ms of group members (default 45 000, Kafka's). */
  sessionTimeoutMs?: number;
  /** heartbeat.interval.ms (default 3 000). */
  heartbeatIntervalMs?: number;
  /** The rebalance timeout, max.poll.interval.ms (default 300 000). */
  rebalanceTimeoutMs?: number;
  /** Where kafkajs' and the group members' warnings go. */
  logger?: { warn(obj: object, msg?: string): void };
  /**
   * TLS to the brokers (security.protocol SSL or SASL_SSL): `true` trusts the system's CAs;
   * an object gives Node's TLS options — `ca` (PEM) for a private CA, `cert` and `key` (PEM) for
   * a client certificate (mutual TLS).
   */
  ssl?: boolean | KafkaTlsOptions;
  /** SASL authentication (security.protocol SASL_PLAINTEXT, or SASL_SSL with `ssl`). */
  sasl?: KafkaSaslOptions;
}

export interface KafkaTlsOptions {
  ca?: string | Buffer | (string | Buffer)[];
  cert?: string | Buffer;
  key?: string | Buffer;
  passphrase?: string;
  /** Default true: the broker's certificate must chain to a trusted CA and match its name. */
  rejectUnauthorized?: boolean;
}

export interface KafkaSaslOptions {
  /** Kafka's sasl.mechanism, lower case: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512. */
  mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  username: string;
  password: string;
}

/** Why connecting failed, naming the brokers and (for SASL) the mechanism and user. */
export function connectError(options: KafkaBackendOptions, error: unknown): Error {
  const brokers = options.bootstrapServers.join(',');
  const name = (error as { name?: string }).name;
  const message = (error as Error).message;
  const sasl = options.sasl;
  if (name === 'KafkaJSSASLAuthenticationError' && sasl !== undefined)
    return new EngineError(
      'BACKEND_CONNECT_FAILED',
      `Kafka at ${brokers} refused SASL ${sasl.mechanism.toUpperCase()} authentication as user "${sasl.username}" (wrong user name or password, or a mechanism the listener does not enable): ${message}`,
      { cause: error },
    );
  if (typeof name === 'string' && name.startsWith('KafkaJS'))
    return new EngineError(
      'BACKEND_CONNECT_FAILED',
      `connecting to Kafka at ${brokers} (${securityProtocol(options)}) failed: ${message}`,
      { cause: error },
    );
  return error instanceof Error ? error : new Error(String(error));
}

/** Kafka's security.protocol for these options, for messages. */
export function securityProtocol(options: KafkaBackendOptions): string {
  const tls = options.ssl !== undefined && options.ssl !== false;
  if (options.sasl)
    return `${tls ? 'SASL_SSL' : 'SASL_PLAINTEXT'}, ${options.sasl.mechanism.toUpperCase()}`;
  return tls ? 'SSL' : 'PLAINTEXT';
}
