// Errors of the codec layer. Every error names the message (API and request/response), the
// version and, when a field is at fault, the field's path, so a bad frame or a bad value can be
// traced without a debugger.

/** Base class of every error thrown by this package's encoders and decoders. */
export class KafkaProtocolError extends Error {
  override name = 'KafkaProtocolError';
}

/**
 * A message or field cannot be written or read at this version: the Java client's
 * UnsupportedVersionException. A server answers it with UNSUPPORTED_VERSION (error code 35).
 */
export class UnsupportedVersionError extends KafkaProtocolError {
  override name = 'UnsupportedVersionError';
}

/** Bytes that do not parse: truncated, malformed lengths, invalid values. */
export class MalformedMessageError extends KafkaProtocolError {
  override name = 'MalformedMessageError';
}

/** A value the schema cannot represent (out of an integer type's range, a string too long…). */
export class InvalidValueError extends KafkaProtocolError {
  override name = 'InvalidValueError';
}

/**
 * A request frame for an API key or version this package does not know (decodeRequestFrame);
 * carries what the header said, so a server can answer with UNSUPPORTED_VERSION.
 */
export class UnsupportedRequestError extends UnsupportedVersionError {
  override name = 'UnsupportedRequestError';
  constructor(
    message: string,
    readonly apiKey: number,
    readonly apiVersion: number,
    readonly correlationId: number,
    readonly clientId: string | null,
  ) {
    super(message);
  }
}

/**
 * Internal: thrown deep inside a codec with only the field's label; the message's top-level
 * function catches it and rethrows with the message name and version in front.
 */
export class FieldError extends Error {
  constructor(
    readonly kind: 'malformed' | 'invalid' | 'unsupported',
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

/** Adds "<Message> v<version>" to a FieldError; other errors pass unchanged. */
export function withContext(error: unknown, what: string, version: number, op: string): Error {
  if (error instanceof FieldError) {
    const text = `Cannot ${op} ${what} v${version}: field ${error.field}: ${error.detail}`;
    if (error.kind === 'malformed') return new MalformedMessageError(text);
    if (error.kind === 'unsupported') return new UnsupportedVersionError(text);
    return new InvalidValueError(text);
  }
  return error as Error;
}
