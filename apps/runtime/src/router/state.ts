// The store browser: interactive queries on the running app's key-value, window and session stores.
import { z } from 'zod';
import { intInRange } from '../input-issues.js';
import { procedure, router } from '../trpc.js';

const storeInput = z.string().min(1).max(249);
const limitInput = intInRange(1, 1000).default(100);
/** A key as the store's key serde takes it: a JSON value (text for string keys). */
const keyInput = z.unknown();
/** A time in epoch milliseconds. */
const timeInput = intInRange(0, Number.MAX_SAFE_INTEGER);

export const stateRouter = router({
  stores: procedure.query(({ ctx }) => ctx.service.state.stores()),

  get: procedure
    .input(
      z.object({
        store: storeInput,
        key: keyInput,
        /** Versioned stores: the version valid at this time (epoch ms) instead of the latest. */
        asOf: z.number().int().optional(),
      }),
    )
    .query(({ input, ctx }) => ctx.service.state.get(input.store, input.key ?? null, input.asOf)),

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

  /** Entries whose serialized key starts with `prefix` serialized by the store's key serde. */
  prefix: procedure
    .input(z.object({ store: storeInput, prefix: keyInput, limit: limitInput }))
    .query(({ input, ctx }) =>
      ctx.service.state.prefix(input.store, input.prefix ?? null, input.limit),
    ),

  all: procedure
    .input(z.object({ store: storeInput, limit: limitInput }))
    .query(({ input, ctx }) => ctx.service.state.all(input.store, input.limit)),

  /** ReadOnlyWindowStore#fetch(key, time). */
  window: procedure
    .input(z.object({ store: storeInput, key: keyInput, time: timeInput }))
    .query(({ input, ctx }) =>
      ctx.service.state.windowed.window(input.store, input.key ?? null, input.time),
    ),

  /** fetch(key, from, to) / fetch(keyFrom, keyTo, from, to) / fetchAll, and backward*. */
  windows: procedure
    .input(
      z.object({
        store: storeInput,
        key: keyInput.optional(),
        from: keyInput.optional(),
        to: keyInput.optional(),
        timeFrom: timeInput.optional(),
        timeTo: timeInput.optional(),
        backward: z.boolean().default(false),
        limit: limitInput,
      }),
    )
    .query(({ input, ctx }) => ctx.service.state.windowed.windows(input.store, input)),

  /** ReadOnlySessionStore#fetchSession(key, start, end). */
  session: procedure
    .input(z.object({ store: storeInput, key: keyInput, start: timeInput, end: timeInput }))
    .query(({ input, ctx }) =>
      ctx.service.state.windowed.session(input.store, input.key ?? null, input.start, input.end),
    ),

  /** findSessions(key | keyFrom, keyTo, earliestEnd, latestStart) and backwardFindSessions. */
  sessions: procedure
    .input(
      z.object({
        store: storeInput,
        key: keyInput.optional(),
        from: keyInput.optional(),
        to: keyInput.optional(),
        earliestEnd: timeInput.optional(),
        latestStart: timeInput.optional(),
        backward: z.boolean().default(false),
        limit: limitInput,
      }),
    )
    .query(({ input, ctx }) => ctx.service.state.windowed.sessions(input.store, input)),
});
