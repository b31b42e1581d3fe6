// Deploying, starting, stopping and resetting the one application; its status and lag.
import { z } from 'zod';
import { procedure, router } from '../trpc.js';

export const appRouter = router({
  deploy: procedure
    .input(z.object({ topology: z.unknown(), start: z.boolean().default(true) }))
    .mutation(({ input, ctx }) => ctx.service.deploy(input.topology, input.start)),

  start: procedure.mutation(({ ctx }) => ctx.service.start()),

  stop: procedure.mutation(({ ctx }) => ctx.service.stop()),

  status: procedure.query(({ ctx }) => ctx.service.view()),

  lag: procedure.query(({ ctx }) => ctx.service.lag()),

  reset: procedure
    .input(z.object({ dryRun: z.boolean().default(false) }).default({ dryRun: false }))
    .mutation(({ input, ctx }) => ctx.service.reset(input)),
});
