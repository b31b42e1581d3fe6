// Materialized.as(Stores.persistentVersionedKeyValueStore(store, historyRetention[,
// segmentInterval])) on the DSL operations whose result is a key-value table (KIP-889 / KIP-914):
// builder.table, KStream#toTable, KTable#filter / filterNot / mapValues, table–table joins
// (foreign-key ones too), KGroupedStream and KGroupedTable count / reduce / aggregate and
// CogroupedKStream#aggregate. Kafka Streams 4.1 accepts a versioned supplier on all of them.
import { z } from 'zod';
import { materializedFields } from './primitives.js';

/**
 * A versioned key-value store (KIP-889) keeping every version of a key for `historyRetentionMs`
 * behind the store's observed stream time.
 */
export const versionedStoreSchema = z
  .object({
    /** How far back (ms, ≥ 0) get(key, asOf) answers; older puts are not stored. */
    historyRetentionMs: z.number().int().min(0, 'historyRetention cannot be negative'),
    /** The store's segment interval (ms, ≥ 1); Kafka Streams' default derives from the retention. */
    segmentIntervalMs: z
      .number()
      .int()
      .min(1, 'segmentInterval cannot be zero or negative')
      .optional(),
  })
  .strict();
export type VersionedStoreConfig = z.infer<typeof versionedStoreSchema>;

/** Materialized options of a key-value table, the versioned supplier included. */
export const keyValueMaterializedFields = {
  ...materializedFields,
  /** A versioned store (Materialized.as(VersionedBytesStoreSupplier)); needs `store`. */
  versioned: versionedStoreSchema.optional(),
} as const;

/**
 * Materialized.as(versioned supplier): the store is named by the supplier and there is no store
 * type to choose (Materialized#withStoreType refuses a pre-configured supplier). Caching may be
 * asked for: Kafka's KeyValueStoreMaterializer then leaves it off (versioned stores have no
 * caching layer) without an error, and so does the planner.
 */
export function versionedMaterializedChecks(
  c: { versioned?: unknown; store?: string | undefined; storeType?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (c.versioned === undefined) return;
  // Materialized.as(supplier) names the store after the supplier: there is no generated name.
  if (c.store === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['store'],
      message: 'a versioned table needs a store name (Materialized.as(versionedStoreSupplier))',
    });
  if (c.storeType !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['storeType'],
      message: 'Cannot set store type when store supplier is pre-configured.',
    });
}
