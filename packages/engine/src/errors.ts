// Typed engine errors with stable codes, so the runtime and the UI can tell apart what to do:
// fix the data (serdes), fix the topology or config, or retry (the backend said so).

export type EngineErrorCode =
  | 'SERIALIZATION_FAILED'
  | 'DESERIALIZATION_FAILED'
  | 'ILLEGAL_STATE_TRANSITION'
  | 'OFFSET_OUT_OF_RANGE'
  /** auto.offset.reset=none and no usable committed offset (Kafka's NoOffsetForPartition). */
  | 'NO_VALID_OFFSET'
  | 'UNKNOWN_TOPIC'
  | 'INVALID_TOPIC_CONFIG'
  /**
   * The embedded log found a partition's files damaged (a CRC failure below its recovery point):
   * the partition is refused until repaired (`streamwright log repair`); never retried.
   */
  | 'LOG_CORRUPT'
  /** A stream thread's worker reached its heap limit and was stopped (its app goes to ERROR). */
  | 'OUT_OF_MEMORY'
  | 'UNSUPPORTED_CONFIG'
  | 'PROCESSING_FAILED'
  | 'BACKEND_CLOSED'
  | 'INVALID_PLAN'
  | 'PRODUCER_FENCED'
  | 'APP_STATE'
  | 'INVALID_BREAKPOINT'
  | 'INVALID_STATE_STORE'
  /** A Kafka cluster refused the credentials (SASL) or could not be reached (TLS, network). */
  | 'BACKEND_CONNECT_FAILED'
  /**
   * The backend cannot reach its cluster (or part of it) now: a connection refused, reset or
   * closed, a request timed out, a leader or coordinator not available. The engine waits and
   * retries (app.status' waitingFor) instead of failing.
   */
  | 'BACKEND_UNAVAILABLE';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  /** True when trying the same operation again may succeed without changing anything. */
  readonly retriable: boolean;
  constructor(
    code: EngineErrorCode,
    message: string,
    options?: { retriable?: boolean; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retriable = options?.retriable ?? false;
  }
}

export class SerializationError extends EngineError {
  constructor(
    readonly serde: string,
    message: string,
    cause?: unknown,
  ) {
    super('SERIALIZATION_FAILED', `${serde} serde cannot serialize: ${message}`, { cause });
  }
}

export class DeserializationError extends EngineError {
  constructor(
    readonly serde: string,
    message: string,
    cause?: unknown,
  ) {
    super('DESERIALIZATION_FAILED', `${serde} serde cannot deserialize: ${message}`, { cause });
  }
}

export class IllegalStateTransitionError extends EngineError {
  constructor(machine: string, from: string, to: string) {
    super('ILLEGAL_STATE_TRANSITION', `${machine}: illegal state transition from ${from} to ${to}`);
  }
}

export class OffsetOutOfRangeError extends EngineError {
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly offset: number,
    readonly earliest: number,
    readonly latest: number,
  ) {
    super(
      'OFFSET_OUT_OF_RANGE',
      `offset ${offset} is out of range for ${topic}-${partition} (log has [${earliest}, ${latest}))`,
    );
  }
}

/**
 * A partition has no committed offset, or one before the log start, and its reset policy is
 * `none` (the application's auto.offset.reset, no source-level policy): the task fails rather
 * than guess where to start, as Kafka Streams does.
 */
export class NoValidOffsetError extends EngineError {
  constructor(
    readonly topic: string,
    readonly partition: number,
    /** The committed offset (null: none committed). */
    readonly committed: number | null,
    readonly earliest: number,
    /** The position was a running task's, overtaken by retention (not a committed offset). */
    running = false,
  ) {
    super(
      'NO_VALID_OFFSET',
      `${topic}-${partition}: ${
        committed === null
          ? 'no committed offset'
          : running
            ? `the position ${committed} was overtaken by the log start ${earliest} (retention or deleteRecords) while the task ran`
            : `the committed offset ${committed} is before the log start ${earliest}`
      } and auto.offset.reset is none. Set auto.offset.reset to earliest or latest, give the source an offsetReset, or commit a position for the partition ('streamwright app reset' commits the earliest)`,
    );
  }
}

export class UnknownTopicError extends EngineError {
  constructor(readonly topic: string) {
    super('UNKNOWN_TOPIC', `topic ${topic} does not exist`, { retriable: true });
  }
}

export class UnsupportedConfigError extends EngineError {
  constructor(message: string) {
    super('UNSUPPORTED_CONFIG', message);
  }
}

export class BackendClosedError extends EngineError {
  constructor() {
    super('BACKEND_CLOSED', 'the backend is closed');
  }
}

/**
 * A newer producer with the same transactional id took over (or the transaction timed out): the
 * thread's tasks may have moved (Kafka Streams' TaskMigratedException). Close them dirty, rejoin.
 */
export class ProducerFencedError extends EngineError {
  constructor(message: string, cause?: unknown) {
    super('PRODUCER_FENCED', message, { cause });
  }
}

/**
 * A transient backend failure in a backend-neutral form (backends classify their own errors with
 * Backend#transientFailure; this class carries the answer where an error crosses a worker port).
 */
export class BackendUnavailableError extends EngineError {
  constructor(
    /** `host:port` of the brokers that could not be reached (the bootstrap servers when unknown). */
    readonly brokers: string[],
    /** What failed, e.g. `connect ECONNREFUSED 127.0.0.1:9092`. */
    readonly reason: string,
    cause?: unknown,
  ) {
    super('BACKEND_UNAVAILABLE', `cannot reach ${brokers.join(', ') || 'the cluster'}: ${reason}`, {
      retriable: true,
      cause,
    });
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
