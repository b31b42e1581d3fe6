// The store browser: interactive queries on the running app's key-value, window and session stores.
import { z } from 'zod';
import { intInRange } from '../input-issues.js';
import { TRPCError } from '@trpc/server';
import { procedure, router } from '../trpc.js';
import { encodeParts, type PeerWireAnswer } from '../service/peer-client.js';
import { QUERY_METHODS, type QueryOptions } from '../service/query-routing.js';

const storeInput = z.string().min(1).max(249);
const limitInput = intInRange(1, 1000).default(100);
/** A key as the store's key serde takes it: a JSON value (text for string keys). */
const keyInput = z.unknown();
/** A time in epoch milliseconds. */
const timeInput = intInRange(0, Number.MAX_SAFE_INTEGER);
/**
 * KIP-535 stale reads: a standby replica may answer (when the active is migrating or on
 * another instance), and the answer's servedBy names each task's instance and lag.
 */
const staleInput = z.boolean().optional();

/** The query options of a procedure's call: stale reads, and whether a peer forwarded it. */
function routing(stale: boolean | undefined, forwarded: boolean | undefined): QueryOptions {
  return {
    ...(stale === undefined ? {} : { stale }),
    ...(forwarded === true ? { forwarded } : {}),
  };
}

export const stateRouter = router({
  stores: procedure.query(({ ctx }) => ctx.service.state.stores()),

  get: procedure
    .input(
      z.object({
        store: storeInput,
        key: keyInput,
        /** Versioned stores: the version valid at this time (epoch ms) instead of the latest. */
        asOf: z.number().int().optional(),
        stale: staleInput,
      }),
    )
    .query(({ input, ctx }) =>
      ctx.service.state.get(
        input.store,
        input.key ?? null,
        input.asOf,
        routing(input.stale, ctx.forwarded),
      ),
    ),

  range: procedure
    .input(
      z.object({
        store: storeInput,
        from: keyInput.optional(),
        to: keyInput.optional(),
        limit: limitInput,
        stale: staleInput,
      }),
    )
    .query(({ input, ctx }) =>
      ctx.service.state.range(
        input.store,
        input.from ?? null,
        input.to ?? null,
        input.limit,
        routing(input.stale, ctx.forwarded),
      ),
    ),

  /** Entries whose serialized key starts with `prefix` serialized by the store's key serde. */
  prefix: procedure
    .input(z.object({ store: storeInput, prefix: keyInput, limit: limitInput, stale: staleInput }))
    .query(({ input, ctx }) =>
      ctx.service.state.prefix(
        input.store,
        input.prefix ?? null,
        input.limit,
        routing(input.stale, ctx.forwarded),
      ),
    ),

  all: procedure
    .input(z.object({ store: storeInput, limit: limitInput, stale: staleInput }))
    .query(({ input, ctx }) =>
      ctx.service.state.all(input.store, input.limit, routing(input.stale, ctx.forwarded)),
    ),

  /** ReadOnlyWindowStore#fetch(key, time). */
  window: procedure
    .input(z.object({ store: storeInput, key: keyInput, time: timeInput, stale: staleInput }))
    .query(({ input, ctx }) =>
      ctx.service.state.windowed.window(
        input.store,
        input.key ?? null,
        input.time,
        routing(input.stale, ctx.forwarded),
      ),
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
        stale: staleInput,
      }),
    )
    .query(({ input, ctx }) =>
      ctx.service.state.windowed.windows(input.store, {
        ...input,
        ...routing(input.stale, ctx.forwarded),
      }),
    ),

  /** ReadOnlySessionStore#fetchSession(key, start, end). */
  session: procedure
    .input(
      z.object({
        store: storeInput,
        key: keyInput,
        start: timeInput,
        end: timeInput,
        stale: staleInput,
      }),
    )
    .query(({ input, ctx }) =>
      ctx.service.state.windowed.session(
        input.store,
        input.key ?? null,
        input.start,
        input.end,
        routing(input.stale, ctx.forwarded),
      ),
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
        stale: staleInput,
      }),
    )
    .query(({ input, ctx }) =>
      ctx.service.state.windowed.sessions(input.store, {
        ...input,
        ...routing(input.stale, ctx.forwarded),
      }),
    ),

  /**
   * Internal: another instance of the application asks for this instance's share of a state
   * query (its running actives of `tasks`, and with `stale` its standbys), to merge with the
   * other instances'. Only a forwarded request (the forwarded header) is answered; it never
   * forwards again.
   */
  peer: procedure
    .input(
      z.object({
        store: storeInput,
        type: z.enum(['keyValue', 'window', 'session']),
        method: z.string().refine((m) => QUERY_METHODS.has(m), 'not a state query method'),
        args: z.array(z.unknown()).max(6),
        tasks: z.array(z.string().max(64)).max(100_000).optional(),
        stale: z.boolean().default(false),
      }),
    )
    .query(async ({ input, ctx }): Promise<PeerWireAnswer> => {
      if (ctx.forwarded !== true)
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: 'state.peer answers instances of the application only (forwarded queries)',
        });
      const answer = await ctx.service.state.peer(input);
      return { parts: encodeParts(answer.parts), tasks: answer.tasks };
    }),
});
