import type { ProcessingError } from '../api.js';
import { EngineError } from '../errors.js';

/**
 * Thrown up the record path when the exception handler said FAIL. It carries the handled error, so
 * upstream nodes pass it on instead of handling it again (Kafka Streams' FailedProcessingException).
 */
export class FailedProcessingError extends EngineError {
  constructor(
    readonly detail: ProcessingError,
    cause: unknown,
  ) {
    super(
      'PROCESSING_FAILED',
      `task ${detail.taskId}: ${detail.processor} failed: ${detail.message}`,
      { cause },
    );
  }
}
