// The config of every node kind. Field names: a kind with a single logic field calls it
// `expression` (as v1's filter and mapValues do); kinds with several logic fields use the names
// of the Kafka Streams parameters they stand for (initializer, aggregator, adder, subtractor,
// predicate, topicExtractor, mapper, action). Optional fields without a default keep exported
// v1 documents byte-identical.
import { z } from 'zod';
import {
  celSchema,
  functionRefSchema,
  kafkaNameSchema,
  logicSchema,
  materializedFields,
  portNameSchema,
  registryNameSchema,
  serdeSchema,
  storeNameSchema,
  topicNameSchema,
} from './primitives.js';
import {
  keyValueMaterializedFields,
  versionedMaterializedChecks,
  versionedStoreSchema,
} from './versioned-materialized.js';
import { windowSpecSchema, type WindowSpec } from './window-kinds.js';

export { versionedStoreSchema, type VersionedStoreConfig } from './versioned-materialized.js';

// ---- sources --------------------------------------------------------------------------------

export const generatorConfigSchema = z.object({
  /** The topic the generator writes to; the node then reads it like a source. */
  topic: topicNameSchema,
  /** Records per second across all partitions. */
  ratePerSecond: z.number().positive().max(1_000_000),
  /** CEL over `seq` (int, 0-based counter) and `now` (int ms); null key when absent. */
  key: celSchema.optional(),
  /** CEL over `seq` and `now`. */
  value: celSchema,
  keySerde: serdeSchema.default('string'),
  valueSerde: serdeSchema.default('json'),
});

/**
 * Consumed.withTimestampExtractor for one source or table (absent: the application's
 * `default.timestamp.extractor`): `record` is the record's own timestamp, `wallclock` Kafka's
 * WallclockTimestampExtractor, `{"expression": CEL}` epoch milliseconds (an int) computed from
 * the deserialized record (`key`, `value`, `timestamp`, `headers`). What happens to an invalid
 * (negative) result is the application's extractor's rule (docs/DSL.md, "Time").
 */
export const timestampExtractorSchema = z.union(
  [z.enum(['record', 'wallclock']), z.object({ expression: celSchema }).strict()],
  {
    error: () =>
      'a timestamp extractor is "record", "wallclock" or {"expression": "<CEL returning epoch ms>"}',
  },
);
export type TimestampExtractorSpec = z.infer<typeof timestampExtractorSchema>;

/** A source's own reset policy (Kafka Streams' AutoOffsetReset earliest / latest). */
const offsetResetSchema = z.enum(['earliest', 'latest']);

/**
 * builder.stream(topic | topics | pattern, Consumed): exactly one of `topic`, `topics` (a
 * Collection of topics) and `topicPattern` (a Pattern, matched against whole topic names).
 */
export const sourceConfigSchema = z.object({
  topic: topicNameSchema.optional(),
  topics: z.array(topicNameSchema).min(1, 'a source needs at least one topic').optional(),
  /** A regular expression a whole topic name must match (Java's Matcher#matches). */
  topicPattern: z.string().min(1, 'the topic pattern is empty').optional(),
  keySerde: serdeSchema.default('string'),
  valueSerde: serdeSchema.default('json'),
  /**
   * Consumed#withOffsetResetPolicy: where a partition without a usable committed offset starts.
   * Unset: the application's `auto.offset.reset` (Kafka Streams' default `earliest`).
   */
  offsetReset: offsetResetSchema.optional(),
  timestampExtractor: timestampExtractorSchema.optional(),
});

/** builder.table(topic, Consumed, Materialized). */
export const tableConfigSchema = z
  .object({
    topic: topicNameSchema,
    keySerde: serdeSchema.default('string'),
    valueSerde: serdeSchema.default('json'),
    offsetReset: offsetResetSchema.optional(),
    timestampExtractor: timestampExtractorSchema.optional(),
    store: materializedFields.store,
    logging: materializedFields.logging,
    caching: materializedFields.caching,
    storeType: materializedFields.storeType,
    versioned: keyValueMaterializedFields.versioned,
  })
  .superRefine(versionedMaterializedChecks);

/** builder.globalTable(topic, Consumed, Materialized): global stores never log. */
export const globalTableConfigSchema = z.object({
  topic: topicNameSchema,
  keySerde: serdeSchema.default('string'),
  valueSerde: serdeSchema.default('json'),
  store: materializedFields.store,
});

// ---- stateless KStream operations -------------------------------------------------------------

/** filter / filterNot: a predicate returning bool. */
export const filterConfigSchema = z.object({ expression: logicSchema });
export const filterNotConfigSchema = filterConfigSchema;
/** mapValues: the new value. */
export const mapValuesConfigSchema = z.object({ expression: logicSchema });
/** map: a `{"key": …, "value": …}` map, the new record. */
export const mapConfigSchema = z.object({ expression: logicSchema });
/** selectKey: the new key. */
export const selectKeyConfigSchema = z.object({ expression: logicSchema });
/** flatMap: a list of `{"key": …, "value": …}` maps. */
export const flatMapConfigSchema = z.object({ expression: logicSchema });
/** flatMapValues: a list of values. */
export const flatMapValuesConfigSchema = z.object({ expression: logicSchema });
/** peek: forwards unchanged; the action (side effects only) must be a TypeScript function. */
export const peekConfigSchema = z.object({ action: functionRefSchema.optional() });
/** foreach: terminal; the action must be a TypeScript function (CEL has no side effects). */
export const foreachConfigSchema = z.object({ action: functionRefSchema.optional() });
/** print(Printed.toSysOut().withLabel(label).withKeyValueMapper(mapper)). */
export const printConfigSchema = z.object({
  label: z.string().min(1).max(200).optional(),
  /** Returns the printed string; default `[label]: key, value`. */
  mapper: logicSchema.optional(),
});

/**
 * split(Named) → BranchedKStream: branch(predicate, Branched.as(name)) in order, then
 * defaultBranch(Branched.as(name)) or noDefaultBranch(). Output ports: branch i (1-based) is
 * port `name ?? String(i)`, the default branch `name ?? "0"` — the suffix Kafka Streams appends
 * to the split's name to name the branch.
 */
export const splitBranchSchema = z
  .object({ name: kafkaNameSchema.optional(), predicate: logicSchema })
  .strict();
export const splitConfigSchema = z.object({
  branches: z.array(splitBranchSchema).min(1, 'a split needs at least one branch'),
  defaultBranch: z.object({ name: kafkaNameSchema.optional() }).strict().optional(),
});

/** merge: two or more streams into one (port `in` takes several edges). */
export const mergeConfigSchema = z.object({});

/** repartition(Repartitioned.as(name).withNumberOfPartitions(n).withKey/ValueSerde). */
export const repartitionConfigSchema = z.object({
  /** Partitions of the repartition topic; absent: decided at deploy time like Kafka Streams. */
  partitions: z.number().int().positive().max(1024).optional(),
  keySerde: serdeSchema.optional(),
  valueSerde: serdeSchema.optional(),
});

/** to(topic, Produced) or to(TopicNameExtractor, Produced): exactly one of topic / topicExtractor. */
export const sinkConfigSchema = z
  .object({
    topic: topicNameSchema.optional(),
    keySerde: serdeSchema.default('string'),
    valueSerde: serdeSchema.default('json'),
    /** Returns the topic name per record (a declared topic). */
    topicExtractor: logicSchema.optional(),
    /**
     * Keys are windowed (a windowed aggregation's table, streamed): write them with Kafka's
     * WindowedSerdes around `keySerde` — `time`: TimeWindowedSerde (key bytes + start; readers
     * derive the end from `windowSizeMs`), `session`: SessionWindowedSerde (key bytes + end + start).
     * Without it a windowed key is written as `{key, start, end}` with `keySerde` (json).
     */
    windowedKey: z.enum(['time', 'session']).optional(),
    /** The window size TimeWindowedSerde's readers derive window ends from (`windowedKey: time`). */
    windowSizeMs: z.number().int().positive().optional(),
  })
  .refine((c) => c.windowedKey !== 'time' || c.windowSizeMs !== undefined, {
    message:
      'windowedKey "time" needs windowSizeMs (TimeWindowedSerde derives window ends from it)',
    path: ['windowSizeMs'],
  });

/** toTable(Named, Materialized). */
export const toTableConfigSchema = z
  .object({ ...keyValueMaterializedFields })
  .superRefine(versionedMaterializedChecks);

/**
 * process / processValues: a custom Processor API processor looked up by `processor` in the
 * registry the operator provides when starting the runtime (never code from the document).
 */
export const processConfigSchema = z.object({
  processor: registryNameSchema,
  /** Names of the state stores the processor is connected to (document `stores` or DSL stores). */
  stores: z.array(storeNameSchema).default([]),
  /** Passed to the processor's factory as is. */
  params: z.record(z.string(), z.json()).optional(),
});
export const processValuesConfigSchema = processConfigSchema;

// ---- grouping and aggregation -----------------------------------------------------------------

/** groupByKey(Grouped.with(keySerde, valueSerde)); the node's `name` is Grouped.as(name). */
export const groupByKeyConfigSchema = z.object({
  keySerde: serdeSchema.optional(),
  valueSerde: serdeSchema.optional(),
});
/** groupBy(keySelector, Grouped): the expression returns the new key. */
export const groupByConfigSchema = z.object({
  expression: logicSchema,
  keySerde: serdeSchema.optional(),
  valueSerde: serdeSchema.optional(),
});

/** count(Materialized): values are always longs. */
export const countConfigSchema = z
  .object({
    store: materializedFields.store,
    keySerde: materializedFields.keySerde,
    logging: materializedFields.logging,
    caching: materializedFields.caching,
    storeType: materializedFields.storeType,
    versioned: keyValueMaterializedFields.versioned,
  })
  .superRefine(versionedMaterializedChecks);
/** reduce(reducer, Materialized): the expression combines `agg` and `value`. */
export const reduceConfigSchema = z
  .object({ expression: logicSchema, ...keyValueMaterializedFields })
  .superRefine(versionedMaterializedChecks);
/** aggregate(initializer, aggregator, Materialized). */
export const aggregateConfigSchema = z
  .object({
    initializer: logicSchema,
    aggregator: logicSchema,
    ...keyValueMaterializedFields,
  })
  .superRefine(versionedMaterializedChecks);

/**
 * grouped₁.cogroup(aggregator₁).cogroup(grouped₂, aggregator₂)…aggregate(initializer, Named,
 * Materialized). Each entry of `inputs` is an input port (accepting a grouped stream) with its
 * aggregator, in cogroup call order.
 */
export const cogroupInputSchema = z
  .object({ port: portNameSchema, aggregator: logicSchema })
  .strict();
export const cogroupConfigSchema = z
  .object({
    inputs: z.array(cogroupInputSchema).min(1, 'a cogroup needs at least one input'),
    initializer: logicSchema,
    /**
     * CogroupedKStream#windowedBy(windows) before aggregate: a windowed cogroup, whose result is
     * a windowed table (keys Windowed<K>). Time (tumbling, hopping), sliding or session windows;
     * Kafka Streams gives a cogroup no emit strategy (always onWindowUpdate).
     */
    window: windowSpecSchema.optional(),
    /**
     * SessionWindowedCogroupedKStream#aggregate's session merger (required with session windows,
     * refused otherwise): `agg` the earlier session's aggregate, `value` the later one's.
     */
    merger: logicSchema.optional(),
    /** Window / session store retention (Materialized#withRetention); windowed cogroups only. */
    retentionMs: z.number().int().positive().optional(),
    ...keyValueMaterializedFields,
  })
  .superRefine(versionedMaterializedChecks)
  .superRefine(windowedCogroupChecks);

/** What Kafka Streams' DSL types allow a windowed cogroup (and refuse a plain one). */
function windowedCogroupChecks(
  c: {
    window?: WindowSpec | undefined;
    merger?: unknown;
    retentionMs?: number | undefined;
    versioned?: unknown;
  },
  ctx: z.RefinementCtx,
): void {
  const session = c.window?.type === 'session';
  if (session && c.merger === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['merger'],
      message:
        'a session-windowed cogroup needs a merger (SessionWindowedCogroupedKStream#aggregate(initializer, merger))',
    });
  if (!session && c.merger !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['merger'],
      message: 'only a session-windowed cogroup takes a merger',
    });
  if (c.window === undefined && c.retentionMs !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['retentionMs'],
      message: 'retentionMs is for windowed cogroups (a window or session store)',
    });
  if (c.window !== undefined && c.versioned !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['versioned'],
      message: 'a windowed cogroup keeps a window or session store, which cannot be versioned',
    });
}

// ---- KTable operations ------------------------------------------------------------------------

export const toStreamConfigSchema = z.object({});
/** KTable#filter / filterNot(predicate, Named, Materialized). */
export const tableFilterConfigSchema = z
  .object({
    expression: logicSchema,
    ...keyValueMaterializedFields,
  })
  .superRefine(versionedMaterializedChecks);
/** KTable#mapValues(mapper, Named, Materialized). */
export const tableMapValuesConfigSchema = z
  .object({
    expression: logicSchema,
    ...keyValueMaterializedFields,
  })
  .superRefine(versionedMaterializedChecks);
/**
 * KTable#transformValues(supplier, Materialized, Named, stateStoreNames): a ValueTransformerWithKey
 * looked up by `transformer` in the registry the operator provides when starting the runtime
 * (never code from the document). `stores` are the state stores it is connected to (document
 * `stores`); `store` materializes the result (without it there is no store and readers
 * re-apply the transformer, as Kafka's KTableTransformValuesGetter does).
 */
export const transformValuesConfigSchema = z
  .object({
    transformer: registryNameSchema,
    /** Names of the state stores the transformer is connected to (document `stores`). */
    stores: z.array(storeNameSchema).default([]),
    /** Passed to the transformer's factory as is. */
    params: z.record(z.string(), z.json()).optional(),
    ...keyValueMaterializedFields,
  })
  .superRefine(versionedMaterializedChecks);
/** KTable#groupBy(selector, Grouped): the expression returns `{"key": …, "value": …}`. */
export const tableGroupByConfigSchema = z.object({
  expression: logicSchema,
  keySerde: serdeSchema.optional(),
  valueSerde: serdeSchema.optional(),
});
/** KGroupedTable#count(Named, Materialized). */
export const tableCountConfigSchema = countConfigSchema;
/** KGroupedTable#reduce(adder, subtractor, Named, Materialized). */
export const tableReduceConfigSchema = z
  .object({
    adder: logicSchema,
    subtractor: logicSchema,
    ...keyValueMaterializedFields,
  })
  .superRefine(versionedMaterializedChecks);
/** KGroupedTable#aggregate(initializer, adder, subtractor, Named, Materialized). */
export const tableAggregateConfigSchema = z
  .object({
    initializer: logicSchema,
    adder: logicSchema,
    subtractor: logicSchema,
    ...keyValueMaterializedFields,
  })
  .superRefine(versionedMaterializedChecks);

// ---- document-level state stores (StreamsBuilder#addStateStore) -------------------------------

export const storeSpecSchema = z
  .object({
    name: storeNameSchema,
    /**
     * `keyValue` (Stores.keyValueStoreBuilder), `window` (Stores.windowStoreBuilder), `session`
     * (Stores.sessionStoreBuilder) or `versioned` (Stores.versionedKeyValueStoreBuilder over
     * Stores.persistentVersionedKeyValueStore).
     */
    type: z.enum(['keyValue', 'window', 'session', 'versioned']).default('keyValue'),
    keySerde: serdeSchema.default('string'),
    valueSerde: serdeSchema.default('json'),
    logging: z.boolean().default(true),
    caching: z.boolean().default(false),
    storeType: z.enum(['persistent', 'inMemory']).default('persistent'),
    /** Window and session stores: how long windows / sessions are kept (retentionPeriod). */
    retentionMs: z.number().int().positive().optional(),
    /** Window stores: the window size (a windowed key's end is its start + size). */
    windowSizeMs: z.number().int().positive().optional(),
    /** Window stores: keep every put, also for the same key and window (retainDuplicates). */
    retainDuplicates: z.boolean().optional(),
    /** Versioned stores: how far back get(key, asOf) answers (historyRetention, ms). */
    historyRetentionMs: versionedStoreSchema.shape.historyRetentionMs.optional(),
    /** Versioned stores: the segment interval (ms); Kafka Streams' default when absent. */
    segmentIntervalMs: versionedStoreSchema.shape.segmentIntervalMs,
  })
  .superRefine((s, ctx) => {
    const onlyFor = (field: 'historyRetentionMs' | 'segmentIntervalMs' | 'retentionMs') =>
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `${field} is for ${field === 'retentionMs' ? 'window and session' : 'versioned'} stores, not ${s.type} stores`,
      });
    if (s.type !== 'versioned') {
      if (s.historyRetentionMs !== undefined) onlyFor('historyRetentionMs');
      if (s.segmentIntervalMs !== undefined) onlyFor('segmentIntervalMs');
    }
    if (s.type === 'versioned') {
      if (s.historyRetentionMs === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['historyRetentionMs'],
          message: 'a versioned store needs historyRetentionMs (its history retention)',
        });
      if (s.retentionMs !== undefined) onlyFor('retentionMs');
      if (s.caching)
        ctx.addIssue({
          code: 'custom',
          path: ['caching'],
          message: 'Versioned stores do not support caching',
        });
      return;
    }
    // Stores.persistentWindowStore / persistentSessionStore refuse these with the same messages.
    if (s.type === 'keyValue') return;
    if (s.retentionMs === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['retentionMs'],
        message: `a ${s.type} store needs retentionMs (its retention period)`,
      });
    if (s.type === 'window') {
      if (s.windowSizeMs === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['windowSizeMs'],
          message: 'a window store needs windowSizeMs (its window size)',
        });
      else if (s.retentionMs !== undefined && s.windowSizeMs > s.retentionMs)
        ctx.addIssue({
          code: 'custom',
          path: ['windowSizeMs'],
          message: `The retention period of the window store ${s.name} must be no smaller than its window size. Got size=[${s.windowSizeMs}], retention=[${s.retentionMs}]`,
        });
    }
  });
export type StoreSpec = z.infer<typeof storeSpecSchema>;
