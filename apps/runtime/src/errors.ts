// One table of runtime error codes. Services throw `RuntimeError` with a code from this table;
// the tRPC layer maps each to a tRPC code (and HTTP status), so callers can rely on both.
import { TRPCError, getTRPCErrorFromUnknown } from '@trpc/server';

export const RUNTIME_ERRORS = {
  /** app.start / app.stop with nothing deployed. */
  NOT_DEPLOYED: 'PRECONDITION_FAILED',
  /** A topic named in a request does not exist. */
  TOPIC_NOT_FOUND: 'NOT_FOUND',
  /** A partition outside the topic's range. */
  PARTITION_OUT_OF_RANGE: 'BAD_REQUEST',
  /** A key or value text the chosen serde cannot encode (bad JSON, a non-integer long...). */
  BAD_RECORD: 'BAD_REQUEST',
  /** The engine refused to build or start the application (e.g. topics not co-partitioned). */
  APP_FAILED: 'INTERNAL_SERVER_ERROR',
  /** The runtime is shutting down and takes no more work. */
  SHUTTING_DOWN: 'SERVICE_UNAVAILABLE',
  /** topics.create of a name that exists (Kafka's TopicExistsException). */
  TOPIC_EXISTS: 'CONFLICT',
  /** Deleting a topic the running application reads or writes. */
  TOPIC_IN_USE: 'CONFLICT',
  /** A topic config key Kafka does not know, or a value of the wrong type. */
  INVALID_TOPIC_CONFIG: 'BAD_REQUEST',
  /** Committing offsets for the consumer group of the running application. */
  GROUP_IN_USE: 'CONFLICT',
  /** The data dir is held by another process (a running runtime or another command). */
  DATA_DIR_LOCKED: 'CONFLICT',
  /** The application is not running (debug sampling and state queries need it running). */
  NOT_RUNNING: 'PRECONDITION_FAILED',
  /** A node id or Kafka Streams node name the deployed topology does not have. */
  NODE_NOT_FOUND: 'NOT_FOUND',
  /** A state store the running application does not have. */
  STORE_NOT_FOUND: 'NOT_FOUND',
  /** get / range / all on a window, session or suppression store. */
  NOT_KEY_VALUE_STORE: 'BAD_REQUEST',
  /** window / windows on a store that is not a window store. */
  NOT_WINDOW_STORE: 'BAD_REQUEST',
  /** session / sessions on a store that is not a session store. */
  NOT_SESSION_STORE: 'BAD_REQUEST',
  /** A store query whose bounds contradict each other (a key and a key range, an empty time range). */
  INVALID_QUERY: 'BAD_REQUEST',
  /** An as-of query on a store that keeps no versions. */
  NOT_VERSIONED_STORE: 'BAD_REQUEST',
  /**
   * Sampling and state queries reach stream threads on the runtime's event loop only; with
   * num.stream.threads > 1 they run in worker threads.
   */
  INSPECTION_UNAVAILABLE: 'PRECONDITION_FAILED',
  /** A breakpoint on a node the app does not have, or with a condition that does not compile. */
  INVALID_BREAKPOINT: 'BAD_REQUEST',
  /** Removing a breakpoint that is not set. */
  BREAKPOINT_NOT_FOUND: 'NOT_FOUND',
  /** A saved topology (or one of its versions) that is not in the workspace. */
  WORKSPACE_NOT_FOUND: 'NOT_FOUND',
  /** Renaming a saved topology onto a name that is taken. */
  WORKSPACE_EXISTS: 'CONFLICT',
  /** A document that is not a topology document at all (not even its structure). */
  NOT_A_TOPOLOGY: 'BAD_REQUEST',
  /** The process ran out of file descriptors (EMFILE / ENFILE): the message says what to do. */
  TOO_MANY_OPEN_FILES: 'SERVICE_UNAVAILABLE',
  /** The disk under the data dir is full (ENOSPC / EDQUOT): the message names the file. */
  DISK_FULL: 'SERVICE_UNAVAILABLE',
  /** A record larger than its topic's max.message.bytes (Kafka's RecordTooLargeException). */
  RECORD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /**
   * A state query for a key (or a range) whose task no instance can answer for right now: a
   * rebalance is moving it, or its new owner still restores it. Retry; or ask with stale reads.
   */
  MIGRATING: 'SERVICE_UNAVAILABLE',
  /** Another instance of the application failed a forwarded state query (its message says why). */
  PEER_FAILED: 'BAD_GATEWAY',
  /** A document past one of the runtime's input limits (size, nodes, nesting): the message names it. */
  LIMIT_EXCEEDED: 'PAYLOAD_TOO_LARGE',
} as const satisfies Record<string, TRPCError['code']>;

export type RuntimeErrorCode = keyof typeof RUNTIME_ERRORS;

export class RuntimeError extends Error {
  override readonly name = 'RuntimeError';
  constructor(
    readonly code: RuntimeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Normalizes anything thrown into a TRPCError, keeping the runtime code as the cause. */
export function toTRPCError(error: unknown): TRPCError {
  if (error instanceof TRPCError) {
    if (error.cause instanceof RuntimeError) return fromRuntimeError(error.cause);
    return error;
  }
  if (error instanceof RuntimeError) return fromRuntimeError(error);
  return getTRPCErrorFromUnknown(error);
}

function fromRuntimeError(error: RuntimeError): TRPCError {
  return new TRPCError({ code: RUNTIME_ERRORS[error.code], message: error.message, cause: error });
}

/** The runtime code of an error, if it came from this table. */
export function runtimeCodeOf(error: unknown): RuntimeErrorCode | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof RuntimeError) return current.code;
    current = current.cause;
  }
  return null;
}

/**
 * A backend's refusal of a record over `max.message.bytes` (the embedded log's RECORD_TOO_LARGE,
 * Kafka's MESSAGE_TOO_LARGE) as a 413 naming the topic and the limit; anything else unchanged.
 */
export function recordTooLarge(error: unknown, topic: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'RECORD_TOO_LARGE' && code !== 'MESSAGE_TOO_LARGE') return error;
  return new RuntimeError(
    'RECORD_TOO_LARGE',
    `the record is larger than max.message.bytes of topic ${topic}: ${(error as Error).message}. Raise the topic's max.message.bytes (topics.alterConfig) or send a smaller record.`,
    { cause: error },
  );
}

/**
 * An error caused (anywhere in its cause chain) by running out of file descriptors, as a
 * TOO_MANY_OPEN_FILES with advice; null for anything else. Each partition of the embedded log
 * keeps its segment and index files open, so thousands of partitions meet `ulimit -n` soon.
 */
export function tooManyOpenFiles(error: unknown): RuntimeError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code === 'EMFILE' || code === 'ENFILE')
      return new RuntimeError(
        'TOO_MANY_OPEN_FILES',
        `too many open files (${code}): the embedded log keeps each partition's segment and index files open. Raise the limit (ulimit -n, LimitNOFILE= for a service) and restart, or use fewer partitions`,
        { cause: error },
      );
    current = current.cause;
  }
  return null;
}

/**
 * An error caused (anywhere in its cause chain) by a full disk, as a DISK_FULL (503: retry once
 * space returns) naming what could not be written; null for anything else. Before, such a call
 * answered 500 with node's bare "ENOSPC: no space left on device, write".
 */
export function diskFull(error: unknown): RuntimeError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const e = current as NodeJS.ErrnoException;
    if (e.code === 'ENOSPC' || e.code === 'EDQUOT')
      return new RuntimeError(
        'DISK_FULL',
        `no space left on the device (${e.code})${e.path ? ` writing ${e.path}` : ''}: ${(error as Error).message}. Free space in the data dir's file system and retry`,
        { cause: error },
      );
    current = e.cause;
  }
  return null;
}
