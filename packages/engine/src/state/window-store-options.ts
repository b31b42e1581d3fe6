// What a SegmentedWindowStore is made of (window-store.ts) and the helpers other stores share.
import type { SerdeName } from '@streamwright/topology-model';

export interface WindowStoreOptions {
  retentionMs: number;
  /** Default retention / 2 (see defaultSegmentInterval). */
  segmentIntervalMs?: number;
  name?: string;
  keySerde?: SerdeName;
  valueSerde?: SerdeName;
  changelogTopic?: string | null;
  /** False when logging is off (the store is not backed up). */
  logging?: boolean;
  /** Every put is kept, also for the same key and start (Stores.persistentWindowStore(…, true)). */
  retainDuplicates?: boolean;
  /** Values are logged with their timestamp (TimestampedWindowStore, the DSL's); default true. */
  timestamped?: boolean;
  /** The window size, where the store knows it (Processor API stores: a windowed key's end). */
  windowSizeMs?: number;
}

/** An identity for any record key (keys are compared by value, as bytes in Kafka Streams). */
export function keyId(key: unknown): string {
  if (typeof key === 'string') return `s${key}`;
  if (typeof key === 'number') return `n${key}`;
  return `j${JSON.stringify(key)}`;
}

/**
 * Kafka's persistent stores use max(retention / 2, 60 s) segments; what a reader sees does not
 * depend on it (windows older than stream time − retention are invisible either way), only how
 * long expired entries linger. In memory we use retention / 2 without the 60 s floor, so short
 * windows do not keep a minute of expired entries around.
 */
export function defaultSegmentInterval(retentionMs: number): number {
  return Math.max(Math.floor(retentionMs / 2), 1);
}
