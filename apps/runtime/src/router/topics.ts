// Topics of the embedded backend: admin (list, describe, create, delete), one record from text
// and the latest records (the web app's topic browser), and records as bytes (the CLI's produce
// and consume).
import { z } from 'zod';
import { procedure, router } from '../trpc.js';
import { headersJson } from '../service/headers-json.js';
import { intInRange } from '../input-issues.js';
import {
  bytesInput,
  createTopicInput,
  headersInput,
  keySerdeInput,
  keyWindowInput,
  offsetInput,
  partitionInput,
  toBase64,
  topicInput,
  valueSerdeInput,
} from './inputs.js';

/** Long polls end at the latest after this long, so a request never outlives its client much. */
export const MAX_FETCH_WAIT_MS = 30_000;

export const topicsRouter = router({
  list: procedure.query(({ ctx }) => ctx.service.topics.list()),

  describe: procedure
    .input(z.object({ name: topicInput }))
    .query(({ input, ctx }) => ctx.service.topics.describe(input.name)),

  create: procedure
    .input(createTopicInput)
    .mutation(({ input, ctx }) => ctx.service.topics.create(input)),

  delete: procedure.input(z.object({ name: topicInput })).mutation(async ({ input, ctx }) => {
    await ctx.service.topics.delete(input.name);
    return { deleted: input.name };
  }),

  produce: procedure
    .input(
      z.object({
        topic: topicInput,
        partition: partitionInput.optional(),
        key: z.string().nullable(),
        value: z.string().nullable(),
        keySerde: keySerdeInput,
        valueSerde: valueSerdeInput,
        headers: headersInput.optional(),
        /** The record's timestamp in epoch milliseconds; absent: the time of producing. */
        timestamp: intInRange(0, Number.MAX_SAFE_INTEGER).optional(),
      }),
    )
    .mutation(({ input, ctx }) => ctx.service.topics.produce(input)),

  read: procedure
    .input(
      z.object({
        topic: topicInput,
        partition: partitionInput.optional(),
        limit: intInRange(1, 500).default(50),
        keySerde: keySerdeInput,
        keyWindow: keyWindowInput,
        valueSerde: valueSerdeInput,
      }),
    )
    .query(({ input, ctx }) => ctx.service.topics.read(input)),

  /** One page of one partition: from an offset, from a time, or the latest (the topic browser). */
  browse: procedure
    .input(
      z.object({
        topic: topicInput,
        partition: partitionInput,
        start: z.union([
          z.object({ offset: intInRange(0, Number.MAX_SAFE_INTEGER) }).strict(),
          z.object({ timestamp: intInRange(0, Number.MAX_SAFE_INTEGER) }).strict(),
          z.object({ latest: z.literal(true) }).strict(),
        ]),
        limit: intInRange(1, 500).default(50),
        keySerde: keySerdeInput,
        keyWindow: keyWindowInput,
        valueSerde: valueSerdeInput,
      }),
    )
    .query(({ input, ctx }) => ctx.service.topics.browse(input)),

  produceBatch: procedure
    .input(
      z.object({
        topic: topicInput,
        records: z
          .array(
            z.object({
              key: bytesInput,
              value: bytesInput,
              partition: partitionInput.optional(),
              timestamp: intInRange(0, Number.MAX_SAFE_INTEGER).optional(),
              headers: headersInput.optional(),
            }),
          )
          .min(1)
          .max(10_000),
        /** The batches' compression.type, as a Kafka producer's (none by default). */
        compression: z.enum(['none', 'gzip', 'snappy', 'lz4', 'zstd']).optional(),
      }),
    )
    .mutation(async ({ input, ctx }) => ({
      results: await ctx.service.records.produceBatch(
        input.topic,
        input.records,
        input.compression,
      ),
    })),

  // A mutation although it reads: it long-polls and its positions may not fit in a URL.
  fetch: procedure
    .input(
      z.object({
        topic: topicInput,
        positions: z
          .array(z.object({ partition: partitionInput, offset: offsetInput }))
          .min(1)
          .max(1024),
        maxRecords: intInRange(1, 10_000).default(500),
        maxWaitMs: intInRange(0, MAX_FETCH_WAIT_MS).default(0),
      }),
    )
    .mutation(async ({ input, ctx, signal }) => {
      const abort = signal ? AbortSignal.any([signal, ctx.shutdown]) : ctx.shutdown;
      const partitions = await ctx.service.records.fetch(input, abort);
      return {
        partitions: partitions.map((p) => ({
          ...p,
          records: p.records.map((r) => ({
            ...r,
            key: toBase64(r.key),
            value: toBase64(r.value),
            headers: headersJson(r.headers),
          })),
        })),
      };
    }),
});
