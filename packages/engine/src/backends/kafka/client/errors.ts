// The client's errors. Two kinds matter to every caller: what a retry can fix (a lost or refused
// connection, a request that timed out, a protocol error Kafka marks retriable — a leader that
// moved, a coordinator still loading) and what it cannot (a certificate that does not verify, a
// refused TLS handshake or SASL login, an API version neither side can speak, an authorisation
// failure). `retriable` says which; callers of the long-lived clients retry the first kind
// without limit (an outage of any length) and fail fast on the second.

/** Where an error applies, for its message and for callers. */
export interface ErrorPlace {
  topic?: string;
  partition?: number;
  group?: string;
  transactionalId?: string;
}

/** An error code a broker answered with (Kafka's Errors enum: name, code, retriable). */
export class KafkaApiError extends Error {
  override name = 'KafkaApiError';
  constructor(
    /** Kafka's name of the error, e.g. NOT_LEADER_OR_FOLLOWER. */
    readonly type: string,
    readonly code: number,
    readonly retriable: boolean,
    message: string,
    /** Where it applies (a topic-partition, a group), for messages and for callers. */
    readonly where?: ErrorPlace,
  ) {
    super(message);
  }
}

/**
 * The broker's authorizer refused an operation (TOPIC_/GROUP_/CLUSTER_/TRANSACTIONAL_ID_
 * AUTHORIZATION_FAILED): which operation, on which resource, for which principal. No retry fixes
 * it; an ACL does (Java's TopicAuthorizationException and its kin).
 */
export class KafkaAuthorizationError extends KafkaApiError {
  override name = 'KafkaAuthorizationError';
  constructor(
    type: string,
    code: number,
    message: string,
    where: ErrorPlace | undefined,
    /** 'topic', 'group', 'cluster' or 'transactional id'. */
    readonly resource: string,
    readonly resourceName: string,
    /** Kafka's AclOperation (WRITE, READ, DESCRIBE…); undefined when the request is not known. */
    readonly operation: string | undefined,
    /** As the broker's default principal builder names this client, e.g. User:alice. */
    readonly principal: string,
  ) {
    super(type, code, false, message, where);
  }
}

/** A connection to a broker could not be made, or was lost (refused, reset, closed, timed out). */
export class KafkaConnectionError extends Error {
  override name = 'KafkaConnectionError';
  readonly retriable = true;
  /** The socket's error code (ECONNREFUSED, ECONNRESET, ETIMEDOUT…) if any. */
  readonly code: string | undefined;
  constructor(
    readonly broker: string,
    message: string,
    options?: { cause?: unknown; code?: string },
  ) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.code = options?.code;
  }
}

/** A request got no answer within its timeout; its connection is closed (Java's clients do the same). */
export class KafkaRequestTimeoutError extends KafkaConnectionError {
  override name = 'KafkaRequestTimeoutError';
}

/**
 * The TLS handshake failed for a reason no retry fixes: the broker's certificate did not verify
 * (`code` is OpenSSL's X509 reason, e.g. SELF_SIGNED_CERT_IN_CHAIN), or the broker ended the
 * handshake with an alert (`code` ERR_SSL_…, e.g. a client certificate it requires or refuses).
 */
export class KafkaTlsError extends Error {
  override name = 'KafkaTlsError';
  readonly retriable = false;
  constructor(
    readonly broker: string,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The broker refused the SASL login (wrong credentials, or a mechanism it does not enable). */
export class KafkaSaslAuthenticationError extends Error {
  override name = 'KafkaSaslAuthenticationError';
  readonly retriable = false;
  constructor(
    readonly broker: string,
    message: string,
  ) {
    super(message);
  }
}

/** No version of an API both this client and the broker speak. */
export class KafkaUnsupportedVersionError extends Error {
  override name = 'KafkaUnsupportedVersionError';
  readonly retriable = false;
}

/** The client was closed while the request was waiting. */
export class KafkaClientClosedError extends Error {
  override name = 'KafkaClientClosedError';
  readonly retriable = false;
  constructor() {
    super('the Kafka client is closed');
  }
}

/** True when a retry (after a backoff, metadata refreshed) may succeed. */
export function isRetriable(error: unknown): boolean {
  return (error as { retriable?: unknown } | null)?.retriable === true;
}

/** Kafka's error name of a protocol error (NOT_COORDINATOR…), else undefined. */
export function errorType(error: unknown): string | undefined {
  return error instanceof KafkaApiError ? error.type : undefined;
}
