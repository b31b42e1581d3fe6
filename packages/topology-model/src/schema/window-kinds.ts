// Windowing kinds: KGroupedStream#windowedBy with a window spec (TimeWindows, SlidingWindows,
// SessionWindows), the windowed aggregations (count / reduce / aggregate of a windowed grouped
// stream) and KTable#suppress. Their node-kind specs are spread into `nodeKinds` (kinds.ts).
import { z } from 'zod';
import { logicSchema, materializedFields } from './primitives.js';

const ms = z.number().int().min(0);
const positiveMs = z.number().int().positive();

/**
 * The window of a windowed aggregation, in milliseconds. `graceMs` defaults to 0, as
 * `TimeWindows.ofSizeWithNoGrace` / `SessionWindows.ofInactivityGapWithNoGrace` (Kafka Streams 3.0+).
 * - tumbling: `TimeWindows.ofSizeAndGrace(size, grace)` (advance = size);
 * - hopping: `TimeWindows.ofSizeAndGrace(size, grace).advanceBy(advance)`;
 * - sliding: `SlidingWindows.ofTimeDifferenceAndGrace(timeDifference, grace)`;
 * - session: `SessionWindows.ofInactivityGapAndGrace(gap, grace)`.
 */
export const windowSpecSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('tumbling'), sizeMs: positiveMs, graceMs: ms.default(0) }),
  z
    .object({
      type: z.literal('hopping'),
      sizeMs: positiveMs,
      advanceMs: positiveMs,
      graceMs: ms.default(0),
    })
    .refine((w) => w.advanceMs <= w.sizeMs, {
      message:
        'advanceMs must be at most sizeMs (Kafka Streams: "Window advancement interval should be more than zero and less than window duration")',
      path: ['advanceMs'],
    }),
  z.object({ type: z.literal('sliding'), timeDifferenceMs: ms, graceMs: ms.default(0) }),
  z.object({ type: z.literal('session'), gapMs: positiveMs, graceMs: ms.default(0) }),
]);
export type WindowSpec = z.output<typeof windowSpecSchema>;

/** KGroupedStream#windowedBy(windows), then `emitStrategy(onWindowUpdate | onWindowClose)`. */
export const windowedByConfigSchema = z.object({
  window: windowSpecSchema,
  /** EmitStrategy: onWindowUpdate (default) forwards every update; onWindowClose only final results. */
  emitStrategy: z.enum(['onWindowUpdate', 'onWindowClose']).optional(),
});

/** Window store retention: Materialized#withRetention (at least window size + grace). */
const retentionMs = positiveMs.optional();

export const windowedCountConfigSchema = z.object({
  store: materializedFields.store,
  keySerde: materializedFields.keySerde,
  logging: materializedFields.logging,
  caching: materializedFields.caching,
  storeType: materializedFields.storeType,
  retentionMs,
});
/** reduce(reducer, Materialized): `agg` and `value` → the new aggregate. */
export const windowedReduceConfigSchema = z.object({
  expression: logicSchema,
  ...materializedFields,
  retentionMs,
});
/**
 * aggregate(initializer, aggregator[, merger], Materialized). Session windows need `merger`:
 * it combines two sessions' aggregates when a record bridges them (`agg` the earlier session's,
 * `value` the later one's, `key` the key).
 */
export const windowedAggregateConfigSchema = z.object({
  initializer: logicSchema,
  aggregator: logicSchema,
  merger: logicSchema.optional(),
  ...materializedFields,
  retentionMs,
});

/**
 * KTable#suppress(Suppressed): `untilWindowCloses` holds each window's result until stream time
 * passes window end + grace; `untilTimeLimit` holds each key's latest update for `timeLimitMs`
 * of stream time. Buffer bounds: `maxRecords` / `maxBytes` (absent = unbounded); when full,
 * `shutDown` fails the task, `emitEarly` emits the oldest entries (untilTimeLimit only, as in
 * Kafka Streams, whose untilWindowCloses accepts only strict buffers).
 */
export const suppressConfigSchema = z
  .object({
    until: z.enum(['windowCloses', 'timeLimit']),
    timeLimitMs: ms.optional(),
    maxRecords: positiveMs.optional(),
    maxBytes: positiveMs.optional(),
    whenFull: z.enum(['shutDown', 'emitEarly']).default('shutDown'),
  })
  .refine((c) => c.until !== 'timeLimit' || c.timeLimitMs !== undefined, {
    message: 'untilTimeLimit needs timeLimitMs',
    path: ['timeLimitMs'],
  })
  .refine((c) => c.until !== 'windowCloses' || c.whenFull === 'shutDown', {
    message: 'untilWindowCloses only takes a strict buffer (whenFull: shutDown), as Kafka Streams',
    path: ['whenFull'],
  });
export type SuppressConfig = z.output<typeof suppressConfigSchema>;

const windowedGroupedIn = [{ port: 'in', accepts: 'windowedGrouped' }] as const;

/** Node-kind specs (see NodeKindSpec in kinds.ts), in palette order. */
export const windowNodeKinds = {
  windowedBy: {
    config: windowedByConfigSchema,
    inputs: [{ port: 'in', accepts: 'grouped' }],
    output: 'windowedGrouped',
    category: 'stateful',
    label: 'Windowed by',
  },
  windowedCount: {
    config: windowedCountConfigSchema,
    inputs: windowedGroupedIn,
    output: 'table',
    category: 'stateful',
    label: 'Count (windowed)',
  },
  windowedReduce: {
    config: windowedReduceConfigSchema,
    inputs: windowedGroupedIn,
    output: 'table',
    category: 'stateful',
    label: 'Reduce (windowed)',
  },
  windowedAggregate: {
    config: windowedAggregateConfigSchema,
    inputs: windowedGroupedIn,
    output: 'table',
    category: 'stateful',
    label: 'Aggregate (windowed)',
  },
  suppress: {
    config: suppressConfigSchema,
    inputs: [{ port: 'in', accepts: 'table' }],
    output: 'table',
    category: 'stateful',
    label: 'Suppress',
  },
} as const;
