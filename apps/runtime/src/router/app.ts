// Deploying, starting and stopping the one application, and its status.
import { z } from 'zod';
import { procedure, router } from '../trpc.js';

export const appRouter = router({
  deploy: procedure
    .input(z.object({ topology: z.unknown(), start: z.boolean().default(true) }))
    .mutation(({ input, ctx }) => ctx.service.deploy(input.topology, input.start)),

  start: procedure.mutation(({ ctx }) => ctx.service.start()),

  stop: procedure.mutation(({ ctx }) => ctx.service.stop()),

  status: procedure.query(({ ctx }) => ctx.service.view()),
});
