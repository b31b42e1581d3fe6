// Topics of the embedded backend: list, produce one record, read the latest records.
import { z } from 'zod';
import { procedure, router } from '../trpc.js';
import { keySerdeInput, partitionInput, topicInput, valueSerdeInput } from './inputs.js';

export const topicsRouter = router({
  list: procedure.query(({ ctx }) => ctx.service.topics.list()),

  produce: procedure
    .input(
      z.object({
        topic: topicInput,
        partition: partitionInput.optional(),
        key: z.string().nullable(),
        value: z.string().nullable(),
        keySerde: keySerdeInput,
        valueSerde: valueSerdeInput,
        headers: z.record(z.string(), z.string()).optional(),
      }),
    )
    .mutation(({ input, ctx }) => ctx.service.topics.produce(input)),

  read: procedure
    .input(
      z.object({
        topic: topicInput,
        partition: partitionInput.optional(),
        limit: z.number().int().min(1).max(500).default(50),
        keySerde: keySerdeInput,
        valueSerde: valueSerdeInput,
      }),
    )
    .query(({ input, ctx }) => ctx.service.topics.read(input)),
});
