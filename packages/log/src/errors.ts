// Typed errors with stable codes, named after Kafka's error codes where one exists, so callers
// (the engine's adapter, the CLI) can branch on `code` and know whether a retry can help.

export const LogErrorCode = {
  /** Bytes on disk failed a CRC or a structural check. Never retriable: the data is damaged. */
  CORRUPT_MESSAGE: 'CORRUPT_MESSAGE',
  UNKNOWN_TOPIC_OR_PARTITION: 'UNKNOWN_TOPIC_OR_PARTITION',
  TOPIC_ALREADY_EXISTS: 'TOPIC_ALREADY_EXISTS',
  INVALID_TOPIC_EXCEPTION: 'INVALID_TOPIC_EXCEPTION',
  INVALID_PARTITIONS: 'INVALID_PARTITIONS',
  INVALID_CONFIG: 'INVALID_CONFIG',
  INVALID_RECORD: 'INVALID_RECORD',
  RECORD_TOO_LARGE: 'RECORD_TOO_LARGE',
  OFFSET_OUT_OF_RANGE: 'OFFSET_OUT_OF_RANGE',
  UNSUPPORTED_COMPRESSION_TYPE: 'UNSUPPORTED_COMPRESSION_TYPE',
  /** Another process (or another open in this one) owns the data dir. */
  DATA_DIR_LOCKED: 'DATA_DIR_LOCKED',
  LOG_CLOSED: 'LOG_CLOSED',
  KAFKA_STORAGE_ERROR: 'KAFKA_STORAGE_ERROR',
  // consumer groups
  UNKNOWN_MEMBER_ID: 'UNKNOWN_MEMBER_ID',
  ILLEGAL_GENERATION: 'ILLEGAL_GENERATION',
  REBALANCE_IN_PROGRESS: 'REBALANCE_IN_PROGRESS',
  INCONSISTENT_GROUP_PROTOCOL: 'INCONSISTENT_GROUP_PROTOCOL',
  NON_EMPTY_GROUP: 'NON_EMPTY_GROUP',
  // transactions
  PRODUCER_FENCED: 'PRODUCER_FENCED',
  INVALID_TXN_STATE: 'INVALID_TXN_STATE',
  CONCURRENT_TRANSACTIONS: 'CONCURRENT_TRANSACTIONS',
} as const;
export type LogErrorCode = (typeof LogErrorCode)[keyof typeof LogErrorCode];

const RETRIABLE: ReadonlySet<LogErrorCode> = new Set<LogErrorCode>([
  LogErrorCode.REBALANCE_IN_PROGRESS,
  LogErrorCode.CONCURRENT_TRANSACTIONS,
  LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
]);

export class LogError extends Error {
  readonly code: LogErrorCode;
  readonly retriable: boolean;
  /** For CORRUPT_MESSAGE: where the damage is. */
  readonly file?: string;
  readonly offset?: number;
  readonly position?: number;

  constructor(
    code: LogErrorCode,
    message: string,
    details: {
      file?: string;
      offset?: number;
      position?: number;
      cause?: unknown;
      /** Overrides the code's default (a full disk is retriable, other storage errors are not). */
      retriable?: boolean;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'LogError';
    this.code = code;
    this.retriable = details.retriable ?? RETRIABLE.has(code);
    if (details.file !== undefined) this.file = details.file;
    if (details.offset !== undefined) this.offset = details.offset;
    if (details.position !== undefined) this.position = details.position;
  }
}

export function isLogError(err: unknown, code?: LogErrorCode): err is LogError {
  return err instanceof LogError && (code === undefined || err.code === code);
}
