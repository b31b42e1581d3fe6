// Kafka error codes for what the log throws. The log's LogError codes are Kafka's error names
// (UNKNOWN_TOPIC_OR_PARTITION, OFFSET_OUT_OF_RANGE, ...), so the code is a lookup; anything else
// is UNKNOWN_SERVER_ERROR and is logged by the caller with its request.
import { errorCodeByName } from '@streamwright/kafka-protocol';
import { isLogError } from '@streamwright/log';

export const NONE = 0;

/** Kafka's numeric code for a named error; throws for a name Kafka does not have (a bug here). */
export function code(name: string): number {
  const c = errorCodeByName[name];
  if (c === undefined) throw new Error(`no Kafka error named ${name}`);
  return c;
}

export const Errors = {
  UNKNOWN_SERVER_ERROR: code('UNKNOWN_SERVER_ERROR'),
  OFFSET_OUT_OF_RANGE: code('OFFSET_OUT_OF_RANGE'),
  CORRUPT_MESSAGE: code('CORRUPT_MESSAGE'),
  UNKNOWN_TOPIC_OR_PARTITION: code('UNKNOWN_TOPIC_OR_PARTITION'),
  REQUEST_TIMED_OUT: code('REQUEST_TIMED_OUT'),
  MESSAGE_TOO_LARGE: code('MESSAGE_TOO_LARGE'),
  COORDINATOR_NOT_AVAILABLE: code('COORDINATOR_NOT_AVAILABLE'),
  NOT_COORDINATOR: code('NOT_COORDINATOR'),
  RECORD_LIST_TOO_LARGE: code('RECORD_LIST_TOO_LARGE'),
  ILLEGAL_GENERATION: code('ILLEGAL_GENERATION'),
  INCONSISTENT_GROUP_PROTOCOL: code('INCONSISTENT_GROUP_PROTOCOL'),
  INVALID_GROUP_ID: code('INVALID_GROUP_ID'),
  UNKNOWN_MEMBER_ID: code('UNKNOWN_MEMBER_ID'),
  INVALID_SESSION_TIMEOUT: code('INVALID_SESSION_TIMEOUT'),
  REBALANCE_IN_PROGRESS: code('REBALANCE_IN_PROGRESS'),
  INVALID_COMMIT_OFFSET_SIZE: code('INVALID_COMMIT_OFFSET_SIZE'),
  TOPIC_AUTHORIZATION_FAILED: code('TOPIC_AUTHORIZATION_FAILED'),
  INVALID_TOPIC_EXCEPTION: code('INVALID_TOPIC_EXCEPTION'),
  INVALID_PARTITIONS: code('INVALID_PARTITIONS'),
  INVALID_REPLICATION_FACTOR: code('INVALID_REPLICATION_FACTOR'),
  INVALID_REQUEST: code('INVALID_REQUEST'),
  INVALID_CONFIG: code('INVALID_CONFIG'),
  TOPIC_ALREADY_EXISTS: code('TOPIC_ALREADY_EXISTS'),
  UNSUPPORTED_VERSION: code('UNSUPPORTED_VERSION'),
  OUT_OF_ORDER_SEQUENCE_NUMBER: code('OUT_OF_ORDER_SEQUENCE_NUMBER'),
  DUPLICATE_SEQUENCE_NUMBER: code('DUPLICATE_SEQUENCE_NUMBER'),
  INVALID_PRODUCER_EPOCH: code('INVALID_PRODUCER_EPOCH'),
  INVALID_TXN_STATE: code('INVALID_TXN_STATE'),
  INVALID_PRODUCER_ID_MAPPING: code('INVALID_PRODUCER_ID_MAPPING'),
  INVALID_TRANSACTION_TIMEOUT: code('INVALID_TRANSACTION_TIMEOUT'),
  CONCURRENT_TRANSACTIONS: code('CONCURRENT_TRANSACTIONS'),
  INVALID_RECORD: code('INVALID_RECORD'),
  GROUP_ID_NOT_FOUND: code('GROUP_ID_NOT_FOUND'),
  NON_EMPTY_GROUP: code('NON_EMPTY_GROUP'),
  GROUP_SUBSCRIBED_TO_TOPIC: code('GROUP_SUBSCRIBED_TO_TOPIC'),
  UNKNOWN_LEADER_EPOCH: code('UNKNOWN_LEADER_EPOCH'),
  UNKNOWN_TOPIC_ID: code('UNKNOWN_TOPIC_ID'),
  PRODUCER_FENCED: code('PRODUCER_FENCED'),
  MEMBER_ID_REQUIRED: code('MEMBER_ID_REQUIRED'),
  INVALID_RECORD_STATE: code('INVALID_RECORD_STATE'),
  UNSTABLE_OFFSET_COMMIT: code('UNSTABLE_OFFSET_COMMIT'),
  POLICY_VIOLATION: code('POLICY_VIOLATION'),
} as const;

/** The Kafka error code and message for an error the log (or a handler) threw. */
export function errorOf(err: unknown): { code: number; message: string } {
  const message = err instanceof Error ? err.message : String(err);
  if (isLogError(err)) {
    const byName = errorCodeByName[err.code];
    if (byName !== undefined) return { code: byName, message };
    if (err.code === 'RECORD_TOO_LARGE') return { code: Errors.MESSAGE_TOO_LARGE, message };
  }
  return { code: Errors.UNKNOWN_SERVER_ERROR, message };
}
