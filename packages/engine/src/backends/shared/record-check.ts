// The embedded log's check of one record before it is buffered (Backend#checkRecord): what the
// log would refuse when the batch is written — an unknown topic, a record without a key on a
// compacted topic, a record over max.message.bytes — so the production exception handler sees
// the record itself, as Kafka's producer callback does, instead of the whole flush failing. Used
// on the main thread (the log's live topic config) and in worker threads (the topic metadata
// their batch encoder caches).
import { Buffer } from 'node:buffer';
import type { ProducerTopicMetadata } from '@streamwright/log/encoder';
import type { ProduceRecord } from '../../backend-spi.js';
import { UnknownTopicError } from '../../errors.js';

/** A record the log refuses (Kafka's InvalidRecordException / RecordTooLargeException). */
export class InvalidRecordError extends Error {
  constructor(message: string, name = 'InvalidRecordError') {
    super(message);
    this.name = name;
  }
}

/** `meta`: the topic's producer metadata, or null when the topic does not exist. */
export function checkProducedRecord(
  record: ProduceRecord,
  meta: Pick<ProducerTopicMetadata, 'compact' | 'maxMessageBytes'> | null,
): Error | null {
  if (meta === null) return new UnknownTopicError(record.topic);
  if (meta.compact && record.key === null) {
    return new InvalidRecordError(
      `compacted topic ${record.topic} cannot accept a record without a key`,
    );
  }
  const size = recordSize(record);
  if (size > meta.maxMessageBytes) {
    return new InvalidRecordError(
      `the record is ${size} bytes, larger than max.message.bytes ${meta.maxMessageBytes} of ${record.topic}`,
      'RecordTooLargeError',
    );
  }
  return null;
}

/** The record's size in a v2 batch, roughly (varint overheads counted at their maximum). */
function recordSize(record: ProduceRecord): number {
  let size = 24 + (record.key?.length ?? 0) + (record.value?.length ?? 0);
  const headers = record.headers;
  // for…in, not Object.entries: no array per record on the produce path.
  if (headers)
    for (const k in headers) size += 10 + Buffer.byteLength(k) + Buffer.byteLength(headers[k]!);
  return size;
}
