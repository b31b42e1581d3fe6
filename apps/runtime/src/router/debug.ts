// Live sampling of the records into and out of a node of the running app, and its breakpoints.
import { z } from 'zod';
import { intInRange } from '../input-issues.js';
import {
  debugView,
  removeBreakpoint,
  resume,
  setBreakpoint,
  step,
} from '../service/breakpoints.js';
import { sampleNode } from '../service/node-sampler.js';
import { procedure, router } from '../trpc.js';

export const debugRouter = router({
  sample: procedure
    .input(
      z.object({
        /** The designer's node id (a model node). */
        nodeId: z.string().min(1),
        /** The most recent records per direction to return (the node keeps up to 100). */
        limit: intInRange(1, 100).default(20),
      }),
    )
    .query(({ input, ctx }) => sampleNode(ctx.service.deployed(), input.nodeId, input.limit)),
  /** The breakpoints and, when paused, the record, node and state it is paused at. */
  breakpoints: procedure.query(({ ctx }) => debugView(ctx.service.deployed())),
  setBreakpoint: procedure
    .input(
      z.object({
        nodeId: z.string().min(1),
        /** CEL over key, value, timestamp, headers (a bool); empty or absent: every record. */
        condition: z.string().max(10_000).optional(),
      }),
    )
    .mutation(({ input, ctx }) => setBreakpoint(ctx.service.deployed(), input)),
  removeBreakpoint: procedure
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ input, ctx }) => removeBreakpoint(ctx.service.deployed(), input.id)),
  /** To the next node the paused record reached; past the last, until the next record arrives. */
  step: procedure.mutation(({ ctx }) => step(ctx.service.deployed())),
  resume: procedure.mutation(({ ctx }) => resume(ctx.service.deployed())),
});
