// Data preview of an unsaved topology in the test driver: nothing is written anywhere.
import { z } from 'zod';
import { intInRange } from '../input-issues.js';
import { runPreview } from '../service/preview.js';
import { procedure, router } from '../trpc.js';
import { headersInput, topicInput } from './inputs.js';

/** A key or value as the source's serde takes it (a JSON value); absent is null. */
const jsonValue = z
  .unknown()
  .optional()
  .transform((v) => (v === undefined ? null : v));

const typedRecords = z
  .array(
    z.object({
      topic: topicInput,
      key: jsonValue,
      value: jsonValue,
      timestamp: intInRange(0, Number.MAX_SAFE_INTEGER).optional(),
      headers: headersInput.optional(),
    }),
  )
  .max(1000);

const sampledRecords = z.object({
  /** One topic, or several (each gives its latest `limit`; merged in time order). */
  sampleFromTopic: z.union([topicInput, z.array(topicInput).min(1).max(20)]),
  limit: intInRange(1, 1000).default(20),
});

export const previewRouter = router({
  run: procedure
    .input(
      z.object({
        topology: z.unknown(),
        records: z.union([typedRecords, sampledRecords]),
        /** Records shown per node and direction, and per topic. */
        limit: intInRange(1, 500).default(50),
      }),
    )
    .mutation(({ input, ctx }) =>
      runPreview({
        input: input.topology,
        records: input.records,
        limit: input.limit,
        validate: (doc) => ctx.service.validate(doc),
        code: ctx.service.code,
        backend: ctx.service.backend,
      }),
    ),
});
