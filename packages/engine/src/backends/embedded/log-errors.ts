// The log speaks Kafka's error codes; the engine's callers (threads, runtime, CLI) know the
// engine's typed errors. Translate the few they act on and keep the rest as they are.
import { isLogError, LogErrorCode } from '@streamwright/log/reader';
import { BackendClosedError, EngineError, UnknownTopicError } from '../../errors.js';

export function engineErrorOf(error: unknown, topic?: string): unknown {
  if (!isLogError(error)) return error;
  switch (error.code) {
    case LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
      return topic === undefined
        ? new EngineError('UNKNOWN_TOPIC', error.message, { retriable: true, cause: error })
        : new UnknownTopicError(topic);
    case LogErrorCode.LOG_CLOSED:
      return new BackendClosedError();
    case LogErrorCode.CORRUPT_MESSAGE:
      return new EngineError('LOG_CORRUPT', error.message, { cause: error });
    case LogErrorCode.INVALID_CONFIG:
    case LogErrorCode.INVALID_PARTITIONS:
    case LogErrorCode.INVALID_TOPIC_EXCEPTION:
      return new EngineError('INVALID_TOPIC_CONFIG', error.message, { cause: error });
    default:
      return error;
  }
}

/** Runs `fn`, rethrowing log errors as engine errors. */
export async function translated<T>(fn: () => Promise<T> | T, topic?: string): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw engineErrorOf(error, topic);
  }
}
