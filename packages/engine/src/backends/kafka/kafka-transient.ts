// Which Kafka errors are transient (Backend#transientFailure): the cluster, or one of its brokers,
// cannot be reached now and the same call may succeed once it is back — what Kafka's Java clients
// treat as retriable and keep retrying (reconnect.backoff.ms): a connection refused, reset or
// closed, a request timeout, a leader or coordinator not available or moving. The engine waits
// such failures out (app/waiting.ts) instead of failing the application. The backend's own client
// retries a lost connection without limit (client/cluster.ts), so these reach the engine only
// where a call has a deadline (admin calls: default.api.timeout.ms). Errors are recognised by
// name (the client's, and kafkajs' under its retry wrappers) and by Kafka's error types, in Java's
// and kafkajs' spellings.
import type { TransientFailure } from '../../backend-spi.js';

/** The client's (client/errors.ts) and kafkajs' errors that mean "not reachable now". */
const TRANSIENT_NAMES = new Set([
  'KafkaConnectionError',
  'KafkaRequestTimeoutError',
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSGroupCoordinatorNotFound',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSTopicMetadataNotLoaded',
  'KafkaJSLockTimeout',
]);

/** Kafka protocol error types a broker answers while leaders or coordinators move or load. */
const TRANSIENT_TYPES = new Set([
  'NOT_LEADER_FOR_PARTITION',
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'GROUP_LOAD_IN_PROGRESS',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_NOT_AVAILABLE',
  'NOT_COORDINATOR_FOR_GROUP',
  'NOT_COORDINATOR',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'UNKNOWN_LEADER_EPOCH',
  'FENCED_LEADER_EPOCH',
  'NOT_CONTROLLER',
  'KAFKA_STORAGE_ERROR',
]);

/** Socket errors of a peer that is down or unreachable. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

interface ErrorLike {
  name?: unknown;
  type?: unknown;
  code?: unknown;
  message?: unknown;
  broker?: unknown;
  host?: unknown;
  port?: unknown;
  cause?: unknown;
  originalError?: unknown;
}

/** The error and those it wraps (kafkajs keeps the last attempt's error as `cause`). */
function chain(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  let e: unknown = error;
  while (e !== null && typeof e === 'object' && out.length < 8 && !out.includes(e as ErrorLike)) {
    out.push(e as ErrorLike);
    const next = (e as ErrorLike).cause ?? (e as ErrorLike).originalError;
    e = next;
  }
  return out;
}

const HOST_PORT = /((?:\d{1,3}\.){3}\d{1,3}|\[[0-9a-f:]+\]|[a-z0-9][a-z0-9.-]*):(\d{2,5})\b/i;

/**
 * Whether `error` is transient on a Kafka cluster, and which brokers it concerns (the one the
 * error names, else `bootstrapServers`). Null: not transient (a refused login, an unknown topic,
 * a fenced producer, an authorisation failure…).
 */
export function kafkaTransientFailure(
  error: unknown,
  bootstrapServers: readonly string[],
): TransientFailure | null {
  const errors = chain(error);
  const transient = errors.some(
    (e) =>
      (typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name)) ||
      (typeof e.type === 'string' && TRANSIENT_TYPES.has(e.type)) ||
      (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)),
  );
  if (!transient) return null;
  const innermost = errors[errors.length - 1]!;
  const reason = String(innermost.message ?? innermost.name ?? 'unknown error');
  let broker: string | undefined;
  for (const e of errors) {
    if (typeof e.broker === 'string' && e.broker !== '') broker ??= e.broker;
    else if (typeof e.host === 'string' && e.port !== undefined) broker ??= `${e.host}:${e.port}`;
  }
  broker ??= errors
    .map((e) => (typeof e.message === 'string' ? HOST_PORT.exec(e.message)?.[0] : undefined))
    .find((m) => m !== undefined);
  return { brokers: broker !== undefined ? [broker] : [...bootstrapServers], reason };
}
