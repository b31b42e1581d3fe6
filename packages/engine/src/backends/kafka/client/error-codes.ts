// Kafka's error codes the client meets (org.apache.kafka.common.protocol.Errors): name, and
// whether Kafka classes the error as retriable (its exception extends RetriableException).
// Codes not listed are reported by number and treated as not retriable.

interface ErrorCode {
  name: string;
  retriable: boolean;
}

const CODES: Record<number, ErrorCode> = {
  [-1]: { name: 'UNKNOWN_SERVER_ERROR', retriable: false },
  1: { name: 'OFFSET_OUT_OF_RANGE', retriable: false },
  2: { name: 'CORRUPT_MESSAGE', retriable: true },
  3: { name: 'UNKNOWN_TOPIC_OR_PARTITION', retriable: true },
  4: { name: 'INVALID_FETCH_SIZE', retriable: false },
  5: { name: 'LEADER_NOT_AVAILABLE', retriable: true },
  6: { name: 'NOT_LEADER_OR_FOLLOWER', retriable: true },
  7: { name: 'REQUEST_TIMED_OUT', retriable: true },
  10: { name: 'MESSAGE_TOO_LARGE', retriable: false },
  13: { name: 'NETWORK_EXCEPTION', retriable: true },
  14: { name: 'COORDINATOR_LOAD_IN_PROGRESS', retriable: true },
  15: { name: 'COORDINATOR_NOT_AVAILABLE', retriable: true },
  16: { name: 'NOT_COORDINATOR', retriable: true },
  17: { name: 'INVALID_TOPIC_EXCEPTION', retriable: false },
  18: { name: 'RECORD_LIST_TOO_LARGE', retriable: false },
  19: { name: 'NOT_ENOUGH_REPLICAS', retriable: true },
  20: { name: 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', retriable: true },
  21: { name: 'INVALID_REQUIRED_ACKS', retriable: false },
  22: { name: 'ILLEGAL_GENERATION', retriable: false },
  23: { name: 'INCONSISTENT_GROUP_PROTOCOL', retriable: false },
  24: { name: 'INVALID_GROUP_ID', retriable: false },
  25: { name: 'UNKNOWN_MEMBER_ID', retriable: false },
  26: { name: 'INVALID_SESSION_TIMEOUT', retriable: false },
  27: { name: 'REBALANCE_IN_PROGRESS', retriable: false },
  28: { name: 'INVALID_COMMIT_OFFSET_SIZE', retriable: false },
  29: { name: 'TOPIC_AUTHORIZATION_FAILED', retriable: false },
  30: { name: 'GROUP_AUTHORIZATION_FAILED', retriable: false },
  31: { name: 'CLUSTER_AUTHORIZATION_FAILED', retriable: false },
  32: { name: 'INVALID_TIMESTAMP', retriable: false },
  33: { name: 'UNSUPPORTED_SASL_MECHANISM', retriable: false },
  34: { name: 'ILLEGAL_SASL_STATE', retriable: false },
  35: { name: 'UNSUPPORTED_VERSION', retriable: false },
  36: { name: 'TOPIC_ALREADY_EXISTS', retriable: false },
  37: { name: 'INVALID_PARTITIONS', retriable: false },
  38: { name: 'INVALID_REPLICATION_FACTOR', retriable: false },
  39: { name: 'INVALID_REPLICA_ASSIGNMENT', retriable: false },
  40: { name: 'INVALID_CONFIG', retriable: false },
  41: { name: 'NOT_CONTROLLER', retriable: true },
  42: { name: 'INVALID_REQUEST', retriable: false },
  43: { name: 'UNSUPPORTED_FOR_MESSAGE_FORMAT', retriable: false },
  44: { name: 'POLICY_VIOLATION', retriable: false },
  45: { name: 'OUT_OF_ORDER_SEQUENCE_NUMBER', retriable: false },
  46: { name: 'DUPLICATE_SEQUENCE_NUMBER', retriable: false },
  47: { name: 'INVALID_PRODUCER_EPOCH', retriable: false },
  48: { name: 'INVALID_TXN_STATE', retriable: false },
  49: { name: 'INVALID_PRODUCER_ID_MAPPING', retriable: false },
  50: { name: 'INVALID_TRANSACTION_TIMEOUT', retriable: false },
  51: { name: 'CONCURRENT_TRANSACTIONS', retriable: true },
  52: { name: 'TRANSACTION_COORDINATOR_FENCED', retriable: false },
  53: { name: 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED', retriable: false },
  56: { name: 'KAFKA_STORAGE_ERROR', retriable: true },
  58: { name: 'SASL_AUTHENTICATION_FAILED', retriable: false },
  59: { name: 'UNKNOWN_PRODUCER_ID', retriable: false },
  72: { name: 'LISTENER_NOT_FOUND', retriable: true },
  74: { name: 'FENCED_LEADER_EPOCH', retriable: true },
  75: { name: 'UNKNOWN_LEADER_EPOCH', retriable: true },
  79: { name: 'MEMBER_ID_REQUIRED', retriable: false },
  82: { name: 'FENCED_INSTANCE_ID', retriable: false },
  87: { name: 'THROTTLING_QUOTA_EXCEEDED', retriable: true },
  89: { name: 'UNSTABLE_OFFSET_COMMIT', retriable: true },
  90: { name: 'PRODUCER_FENCED', retriable: false },
  100: { name: 'UNKNOWN_TOPIC_ID', retriable: true },
};

export function errorByCode(code: number): ErrorCode | undefined {
  return CODES[code];
}
