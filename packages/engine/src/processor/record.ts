import type { Headers } from '../api.js';

/** A record on the synchronous record path: decoded key and value. */
export interface EngineRecord {
  key: unknown;
  value: unknown;
  timestamp: number;
  headers: Headers;
}

/** What a KTable forwards: the new value and (when old values are sent) the previous one. */
export interface Change {
  readonly newValue: unknown;
  readonly oldValue: unknown;
}

/** Topic, partition and offset of the input record being processed (Kafka's RecordMetadata). */
export interface RecordMetadata {
  topic: string;
  partition: number;
  offset: number;
}

export function isChange(value: unknown): value is Change {
  return typeof value === 'object' && value !== null && 'newValue' in value && 'oldValue' in value;
}
