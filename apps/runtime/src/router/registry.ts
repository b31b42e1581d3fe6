// The names of the operator's processors and functions, for the designer's palette. Only names:
// code is registered by the operator at start, never through the API (docs/SECURITY.md).
import { registryNames } from '../service/code-module.js';
import { procedure, router } from '../trpc.js';

export const registryRouter = router({
  list: procedure.query(({ ctx }) => registryNames(ctx.service.code)),
});
