import { VERSION } from '../version.js';
import { procedure } from '../trpc.js';

export const healthProcedure = procedure.query(() => ({
  ok: true as const,
  version: VERSION,
  backend: 'embedded' as const,
}));
