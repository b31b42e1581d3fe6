// A versioned key-value store's plan (KIP-889): its history retention and segment interval, the
// interval defaulting as Stores.persistentVersionedKeyValueStore(name, historyRetention) does.
import type { StorePlan } from '../plan-types.js';
import type { PendingStore } from './builder.js';

/** RocksDbVersionedKeyValueBytesStoreSupplier's default segment interval for a history retention. */
export function defaultSegmentIntervalMs(historyRetentionMs: number): number {
  if (historyRetentionMs <= 60_000) return Math.max(Math.floor(historyRetentionMs / 3), 2_000);
  if (historyRetentionMs <= 300_000) return Math.max(Math.floor(historyRetentionMs / 5), 20_000);
  if (historyRetentionMs <= 3_600_000) return Math.max(Math.floor(historyRetentionMs / 12), 60_000);
  return Math.max(Math.floor(historyRetentionMs / 24), 300_000);
}

export function versionedPlan(c: {
  historyRetentionMs?: number | undefined;
  segmentIntervalMs?: number | undefined;
}): NonNullable<StorePlan['versioned']> {
  const historyRetentionMs = c.historyRetentionMs ?? 0;
  return {
    historyRetentionMs,
    segmentIntervalMs: c.segmentIntervalMs ?? defaultSegmentIntervalMs(historyRetentionMs),
  };
}

/**
 * KeyValueStoreMaterializer: a versioned supplier builds a VersionedKeyValueStoreBuilder, which
 * has no caching layer (caching asked for is left off, as Kafka Streams does).
 */
export function applyVersioned(
  pending: PendingStore,
  config: {
    versioned?: { historyRetentionMs: number; segmentIntervalMs?: number | undefined } | undefined;
  },
): void {
  if (config.versioned === undefined) return;
  pending.versioned = versionedPlan(config.versioned);
  pending.caching = false;
}
