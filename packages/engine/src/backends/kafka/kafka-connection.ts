// How the Kafka backend connects: its options (bootstrap servers, TLS, SASL, group timings) and
// the error a failed first connection becomes — naming the brokers, the security protocol and
// what was refused: the broker's certificate, the client's (or its absence), or the SASL
// mechanism and user (never the password).
import { createSecureContext, type ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import { EngineError } from '../../errors.js';
import { KafkaSaslAuthenticationError, KafkaTlsError } from './client/errors.js';
import {
  certificateSubject,
  isCertificateNotVerified,
  isClientCertificateRefused,
  isTlsRefused,
  tlsAlert,
} from './client/socket-errors.js';

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
  /** Where the client's warnings go (retries through an outage, group membership). */
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

/** Why connecting failed, naming the brokers and what they refused. */
export function connectError(options: KafkaBackendOptions, failure: unknown): Error {
  const error = failure instanceof KafkaTlsError ? (failure.cause ?? failure) : failure;
  const brokers = options.bootstrapServers.join(',');
  const message = (error as Error).message;
  const sasl = options.sasl;
  const failed = (why: string) =>
    new EngineError(
      'BACKEND_CONNECT_FAILED',
      `connecting to Kafka at ${brokers} (${securityProtocol(options)}) failed: ${why}`,
      { cause: error },
    );
  if (failure instanceof KafkaSaslAuthenticationError && sasl !== undefined)
    return new EngineError(
      'BACKEND_CONNECT_FAILED',
      `Kafka at ${brokers} refused SASL ${sasl.mechanism.toUpperCase()} authentication as user "${sasl.username}" (wrong user name or password, or a mechanism the listener does not enable): ${message}`,
      { cause: error },
    );
  if (isCertificateNotVerified(error))
    return failed(
      `the broker's certificate did not verify: ${message} (${(error as { code: string }).code}); trust the CA that signed it`,
    );
  if (isTlsRefused(error)) {
    const alert = tlsAlert(error);
    const cert = typeof options.ssl === 'object' ? options.ssl.cert : undefined;
    if (!isClientCertificateRefused(error))
      return failed(`the broker refused the TLS handshake (${alert})`);
    if (cert === undefined)
      return failed(
        `the broker requires a client certificate (mutual TLS) and none was given: it refused the TLS handshake (${alert}); give a client certificate and its key`,
      );
    const subject = certificateSubject(cert);
    return failed(
      `the broker refused the client certificate${subject ? ` "${subject}"` : ''} (${alert}): it does not trust the CA that signed it, or the certificate expired, was revoked or is not for client authentication`,
    );
  }
  if (error instanceof EngineError) return error;
  return failed(message);
}

/**
 * Checks the client certificate before any connection: one that does not parse, a key that does
 * not match it or a wrong passphrase would otherwise fail every connection attempt with an error
 * that names none of them. (Node accepts any text as a CA: a bad one
 * shows as a broker certificate that does not verify, which fails fast anyway.)
 */
export function checkTlsOptions(options: KafkaBackendOptions): void {
  const tls = options.ssl;
  if (typeof tls !== 'object') return;
  if ((tls.cert === undefined) !== (tls.key === undefined))
    throw new EngineError(
      'UNSUPPORTED_CONFIG',
      `the Kafka backend's ssl.${tls.cert === undefined ? 'key' : 'cert'} needs ssl.${tls.cert === undefined ? 'cert' : 'key'} (a client certificate goes with its private key)`,
    );
  if (tls.cert === undefined || tls.key === undefined) return;
  try {
    createSecureContext({
      cert: tls.cert,
      key: tls.key,
      ...(tls.passphrase !== undefined ? { passphrase: tls.passphrase } : {}),
    });
  } catch (error) {
    throw new EngineError(
      'UNSUPPORTED_CONFIG',
      `the Kafka backend's TLS client certificate and key (ssl.cert, ssl.key, ssl.passphrase) is unusable (PEM expected): ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Kafka's security.protocol for these options, for messages. */
export function securityProtocol(options: KafkaBackendOptions): string {
  const tls = options.ssl !== undefined && options.ssl !== false;
  if (options.sasl)
    return `${tls ? 'SASL_SSL' : 'SASL_PLAINTEXT'}, ${options.sasl.mechanism.toUpperCase()}`;
  return tls ? 'SSL' : 'PLAINTEXT';
}

/** Node's TLS options of the backend's `ssl` option (undefined: plain TCP). */
export function tlsOptions(options: KafkaBackendOptions): TlsConnectionOptions | undefined {
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
