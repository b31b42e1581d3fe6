import type { Headers } from '../backend-spi.js';

/** A record on the synchronous record path: decoded key and value. */
export interface EngineRecord {
  key: unknown;
  value: unknown;
  timestamp: number;
  headers: Headers;
}

/**
 * What a KTable forwards (Kafka Streams' Change<V>): the new value and, when a downstream
 * processor asked for old values (sendOldValues), the previous one. A class, so that a user's JSON
 * value with `newValue` / `oldValue` fields is never mistaken for one.
 */
export class Change {
  /**
   * False for an out-of-order update of a versioned table (older than the key's latest version):
   * table–table joins and groupBy ignore it (KIP-914). Not an own property unless false, so
   * changes shown to users (samples, the debugger) stay {newValue, oldValue}.
   */
  declare readonly isLatest: boolean;
  constructor(
    readonly newValue: unknown,
    readonly oldValue: unknown,
    isLatest = true,
  ) {
    if (!isLatest) Object.defineProperty(this, 'isLatest', { value: false, enumerable: false });
  }
}
Object.defineProperty(Change.prototype, 'isLatest', { value: true });

/** Topic, partition and offset of the input record being processed (Kafka's RecordMetadata). */
export interface RecordMetadata {
  topic: string;
  partition: number;
  offset: number;
}

export function isChange(value: unknown): value is Change {
  return value instanceof Change;
}

/** A null or absent key or value, as Kafka Streams' null checks see it. */
export function isNullish(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}
