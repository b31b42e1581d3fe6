// Dead-letter records (Kafka Streams' KIP-1034, ExceptionHandlerUtils#buildDeadLetterQueueRecord):
// with `errors.dead.letter.queue.topic.name` set, every record an exception handler deals with is
// copied to that topic — the raw source bytes for deserialization and processing errors, the
// record being produced for production errors — with the failed record's timestamp, its headers
// and six `__streams.errors.*` headers saying what went wrong and where the record came from. The
// partition is left to the default partitioner (murmur2 on the key), as Kafka does.
import type { Headers, ProduceRecord } from '../backend-spi.js';
import { errorMessage } from '../errors.js';

export const DLQ_HEADERS = {
  exception: '__streams.errors.exception',
  stacktrace: '__streams.errors.stacktrace',
  message: '__streams.errors.message',
  topic: '__streams.errors.topic',
  partition: '__streams.errors.partition',
  offset: '__streams.errors.offset',
} as const;

export interface DeadLetterSource {
  /** Where the failed record was read from (the source record of the task). */
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  headers: Headers;
}

export function deadLetterRecord(
  dlqTopic: string,
  key: Uint8Array | null,
  value: Uint8Array | null,
  source: DeadLetterSource,
  error: unknown,
): ProduceRecord {
  const headers: Headers = { ...source.headers };
  // Kafka writes the exception's class name; in JavaScript that is the error's name.
  headers[DLQ_HEADERS.exception] = error instanceof Error ? error.name : typeof error;
  headers[DLQ_HEADERS.message] = errorMessage(error);
  headers[DLQ_HEADERS.stacktrace] =
    error instanceof Error ? (error.stack ?? String(error)) : String(error);
  headers[DLQ_HEADERS.topic] = source.topic;
  headers[DLQ_HEADERS.partition] = String(source.partition);
  headers[DLQ_HEADERS.offset] = String(source.offset);
  return { topic: dlqTopic, timestamp: source.timestamp, key, value, headers };
}
