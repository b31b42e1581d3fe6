// The application's recent processing errors (app.status' errors), newest first and bounded,
// each logged as it is recorded: at ERROR when it stops the application, else at WARN.
import type { EngineLogger, ProcessingError } from '../api.js';

const MAX_ERRORS = 100;

export class ProcessingErrors {
  readonly #errors: ProcessingError[] = [];

  constructor(private readonly logger: EngineLogger) {}

  record(error: ProcessingError): void {
    this.#errors.unshift(error);
    if (this.#errors.length > MAX_ERRORS) this.#errors.length = MAX_ERRORS;
    const log = error.handling === 'fail' ? this.logger.error : this.logger.warn;
    log.call(
      this.logger,
      { ...error },
      `processing error in ${error.processor} (task ${error.taskId}): ${error.message}`,
    );
  }

  /** A copy, newest first. */
  list(): ProcessingError[] {
    return [...this.#errors];
  }

  /** Whether an error already stopped (or is stopping) the application. */
  hasFatal(): boolean {
    return this.#errors.some((e) => e.handling === 'fail');
  }
}
