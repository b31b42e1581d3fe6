// Consumer-group offsets for clients outside the application (the `consume --group` command):
// commit what was read, and where to resume.
import { z } from 'zod';
import { procedure, router } from '../trpc.js';
import { groupInput, offsetInput, partitionInput, topicInput } from './inputs.js';

export const groupsRouter = router({
  commit: procedure
    .input(
      z.object({
        group: groupInput,
        topic: topicInput,
        offsets: z
          .array(z.object({ partition: partitionInput, offset: offsetInput }))
          .min(1)
          .max(1024),
      }),
    )
    .mutation(async ({ input, ctx }) => {
      await ctx.service.records.commitOffsets(input.group, input.topic, input.offsets);
      return { committed: input.offsets.length };
    }),

  committed: procedure
    .input(z.object({ group: groupInput, topic: topicInput }))
    .query(({ input, ctx }) => ctx.service.records.committedOffsets(input.group, input.topic)),
});
