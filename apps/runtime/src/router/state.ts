// The store browser: interactive queries on the running app's key-value stores.
import { z } from 'zod';
import { procedure, router } from '../trpc.js';

const storeInput = z.string().min(1).max(249);
const limitInput = z.number().int().min(1).max(1000).default(100);
/** A key as the store's key serde takes it: a JSON value (text for string keys). */
const keyInput = z.unknown();

export const stateRouter = router({
  stores: procedure.query(({ ctx }) => ctx.service.state.stores()),

  get: procedure
    .input(z.object({ store: storeInput, key: keyInput }))
    .query(({ input, ctx }) => ctx.service.state.get(input.store, input.key ?? null)),

  range: procedure
    .input(
      z.object({
        store: storeInput,
        from: keyInput.optional(),
        to: keyInput.optional(),
        limit: limitInput,
      }),
    )
    .query(({ input, ctx }) =>
      ctx.service.state.range(input.store, input.from ?? null, input.to ?? null, input.limit),
    ),

  all: procedure
    .input(z.object({ store: storeInput, limit: limitInput }))
    .query(({ input, ctx }) => ctx.service.state.all(input.store, input.limit)),
});
