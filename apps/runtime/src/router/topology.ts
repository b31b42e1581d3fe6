// Validation and description of a topology document, without deploying anything.
import {
  describeTopology,
  exampleTopology,
  exportTopology,
  planTopology,
  validateTopology,
  type TopologyDocument,
} from '@streamwright/topology-model';
import { procedure, router } from '../trpc.js';
import { topologyInput } from './inputs.js';

export const topologyRouter = router({
  validate: procedure.input(topologyInput).mutation(async ({ input, ctx }) => {
    const result = await ctx.service.validateHere(input.topology);
    return result.ok ? { ok: true as const } : { ok: false as const, errors: result.errors };
  }),

  describe: procedure.input(topologyInput).mutation(({ input, ctx }) => {
    const result = ctx.service.validate(input.topology);
    if (!result.ok) return { ok: false as const, errors: result.errors };
    return { ok: true as const, text: describeTopology(planTopology(result.topology)) };
  }),

  example: procedure.query((): TopologyDocument => {
    const result = validateTopology(exampleTopology());
    if (!result.ok)
      throw new Error(`the example topology is invalid: ${JSON.stringify(result.errors)}`);
    return JSON.parse(exportTopology(result.topology)) as TopologyDocument;
  }),
});
