// StreamJoined's options beyond the serdes (Kafka Streams 3.9 / 4.1): withStoreName,
// withThisStoreSupplier / withOtherStoreSupplier, withDslStoreSuppliers (KIP-954),
// withLoggingEnabled(config) / withLoggingDisabled(), and the other side's value serde. All
// optional: a document without them plans exactly as before.
import { z } from 'zod';
import { serdeSchema, storeNameSchema } from './primitives.js';

const ms = z.number().int().min(0);

/**
 * Stores.inMemoryWindowStore / Stores.persistentWindowStore(name, retentionPeriod, windowSize,
 * retainDuplicates): a join store that is exactly this supplier's store (named by it, of its type,
 * always logged with the default changelog config, as Kafka's Stores.windowStoreBuilder is).
 */
export const windowStoreSupplierSchema = z
  .object({
    name: storeNameSchema,
    /** `inMemory` (InMemoryWindowBytesStoreSupplier) or `persistent` (RocksDB; lmdb here). */
    type: z.enum(['inMemory', 'persistent']),
    retentionMs: ms,
    windowSizeMs: ms,
    retainDuplicates: z.boolean(),
  })
  .superRefine((s, ctx) => {
    // Stores#inMemoryWindowStore / persistentWindowStore refuse this when they are called.
    if (s.windowSizeMs > s.retentionMs)
      ctx.addIssue({
        code: 'custom',
        path: ['windowSizeMs'],
        message:
          `The retention period of the window store ${s.name} must be no smaller than its ` +
          `window size. Got size=[${s.windowSizeMs}], retention=[${s.retentionMs}]`,
      });
  });
export type WindowStoreSupplierSpec = z.output<typeof windowStoreSupplierSchema>;

/** BuiltInDslStoreSuppliers: InMemoryDslStoreSuppliers / RocksDBDslStoreSuppliers. */
export const dslStoreSuppliersSchema = z.enum(['in_memory', 'rocksDB']);

export const streamJoinedFields = {
  /** StreamJoined#withOtherValueSerde: the right side's value serde (its store, its repartition). */
  otherValueSerde: serdeSchema.optional(),
  /** StreamJoined#withStoreName: stores `<storeName>-this-join-store`, `-other-join-store`, … */
  storeName: storeNameSchema.optional(),
  /** StreamJoined#withThisStoreSupplier: the left side's window store. */
  thisStoreSupplier: windowStoreSupplierSchema.optional(),
  /** StreamJoined#withOtherStoreSupplier: the right side's window store. */
  otherStoreSupplier: windowStoreSupplierSchema.optional(),
  /**
   * StreamJoined#withDslStoreSuppliers: the store type of every join store no supplier gives
   * (the outer store's too), instead of `default.dsl.store`.
   */
  dslStoreSuppliers: dslStoreSuppliersSchema.optional(),
  /** withLoggingEnabled / withLoggingDisabled (default true): changelog topics of the stores. */
  logging: z.boolean().optional(),
  /** withLoggingEnabled(config): topic configs of the changelogs. */
  logConfig: z.record(z.string(), z.string()).optional(),
} as const;

interface StreamJoinedConfig {
  window: { beforeMs: number; afterMs: number; graceMs: number };
  thisStoreSupplier?: WindowStoreSupplierSpec | undefined;
  otherStoreSupplier?: WindowStoreSupplierSpec | undefined;
  logging?: boolean | undefined;
  logConfig?: Record<string, string> | undefined;
}

/** Java's toString of a window store supplier, as Kafka's messages print it. */
function supplierText(s: WindowStoreSupplierSpec): string {
  if (s.type === 'inMemory')
    return (
      `InMemoryWindowBytesStoreSupplier{name='${s.name}', retentionPeriod=${s.retentionMs}, ` +
      `windowSize=${s.windowSizeMs}, retainDuplicates=${s.retainDuplicates}}`
    );
  // Stores#persistentWindowStore's default segment interval.
  const segmentInterval = Math.max(Math.floor(s.retentionMs / 2), 60_000);
  return (
    `RocksDbWindowBytesStoreSupplier{name='${s.name}', retentionPeriod=${s.retentionMs}, ` +
    `segmentInterval=${segmentInterval}, windowSize=${s.windowSizeMs}, ` +
    `retainDuplicates=${s.retainDuplicates}, windowStoreType=DEFAULT_WINDOW_STORE}`
  );
}

/**
 * What KStreamImplJoin#join checks of StreamJoined (StreamsException in Kafka Streams, with its
 * messages): two suppliers need different names; each keeps duplicates and has the join's
 * window size (before + after) and retention (size + grace).
 */
export function streamJoinedChecks(c: StreamJoinedConfig, ctx: z.RefinementCtx): void {
  const { thisStoreSupplier: mine, otherStoreSupplier: other } = c;
  if (mine !== undefined && other !== undefined && mine.name === other.name)
    ctx.addIssue({
      code: 'custom',
      path: ['otherStoreSupplier', 'name'],
      message: 'Both StoreSuppliers have the same name.  StoreSuppliers must provide unique names',
    });
  const size = c.window.beforeMs + c.window.afterMs;
  const w = c.window;
  for (const field of ['thisStoreSupplier', 'otherStoreSupplier'] as const) {
    const s = c[field];
    if (s === undefined) continue;
    if (!s.retainDuplicates) {
      ctx.addIssue({
        code: 'custom',
        path: [field, 'retainDuplicates'],
        message: 'The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false',
      });
      continue;
    }
    if (s.retentionMs !== size + w.graceMs || s.windowSizeMs !== size)
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message:
          `Window settings mismatch. WindowBytesStoreSupplier settings ${supplierText(s)} must ` +
          `match JoinWindows settings JoinWindows{beforeMs=${w.beforeMs}, afterMs=${w.afterMs}, ` +
          `graceMs=${w.graceMs}} for the window size and retention period ` +
          `(expected windowSizeMs ${size}, retentionMs ${size + w.graceMs})`,
      });
  }
  // StreamJoined#withLoggingDisabled drops the topic config withLoggingEnabled gave.
  if (c.logging === false && c.logConfig !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['logConfig'],
      message: 'logConfig needs logging (withLoggingEnabled(config)); logging is false',
    });
}
