import { VERSION } from '../version.js';
import { procedure } from '../trpc.js';

export const healthProcedure = procedure.query(({ ctx }) => ({
  ok: true as const,
  version: VERSION,
  backend: ctx.service.backend.kind,
}));
