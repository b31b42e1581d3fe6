// Live sampling of the records into and out of a node of the running app.
import { z } from 'zod';
import { sampleNode } from '../service/node-sampler.js';
import { procedure, router } from '../trpc.js';

export const debugRouter = router({
  sample: procedure
    .input(
      z.object({
        /** The designer's node id (a model node). */
        nodeId: z.string().min(1),
        /** The most recent records per direction to return (the node keeps up to 100). */
        limit: z.number().int().min(1).max(100).default(20),
      }),
    )
    .query(({ input, ctx }) => sampleNode(ctx.service.deployed(), input.nodeId, input.limit)),
});
