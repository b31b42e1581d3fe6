// The designer's workspace of saved topologies: every save a new version; diffs between versions.
import { z } from 'zod';
import { intInRange } from '../input-issues.js';
import { procedure, router } from '../trpc.js';

/** A saved topology's name: free text, one line. */
const nameInput = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((name) => !/\p{Cc}/u.test(name), 'no control characters');
const versionInput = intInRange(1, Number.MAX_SAFE_INTEGER);

export const workspaceRouter = router({
  save: procedure
    .input(
      z.object({ name: nameInput, topology: z.unknown(), message: z.string().max(500).optional() }),
    )
    .mutation(({ input, ctx }) =>
      ctx.service.workspace.save(input.name, input.topology, input.message),
    ),

  list: procedure.query(({ ctx }) => ctx.service.workspace.list()),

  history: procedure
    .input(z.object({ name: nameInput }))
    .query(({ input, ctx }) => ctx.service.workspace.history(input.name)),

  open: procedure
    .input(z.object({ name: nameInput, version: versionInput.optional() }))
    .query(({ input, ctx }) => ctx.service.workspace.open(input.name, input.version)),

  rename: procedure
    .input(z.object({ from: nameInput, to: nameInput }))
    .mutation(({ input, ctx }) => ctx.service.workspace.rename(input.from, input.to)),

  delete: procedure.input(z.object({ name: nameInput })).mutation(async ({ input, ctx }) => {
    await ctx.service.workspace.delete(input.name);
    return { deleted: input.name };
  }),

  diff: procedure
    .input(z.object({ name: nameInput, from: versionInput, to: versionInput }))
    .query(({ input, ctx }) => ctx.service.workspace.diff(input.name, input.from, input.to)),
});
