// The runtime's tRPC router. The web app imports only its type (`AppRouter`).
import { router } from '../trpc.js';
import { appRouter as applicationRouter } from './app.js';
import { debugRouter } from './debug.js';
import { groupsRouter } from './groups.js';
import { healthProcedure } from './health.js';
import { metricsProcedure } from './metrics.js';
import { previewRouter } from './preview.js';
import { registryRouter } from './registry.js';
import { stateRouter } from './state.js';
import { topicsRouter } from './topics.js';
import { topologyRouter } from './topology.js';
import { workspaceRouter } from './workspace.js';

export const appRouter = router({
  health: healthProcedure,
  topology: topologyRouter,
  app: applicationRouter,
  topics: topicsRouter,
  groups: groupsRouter,
  registry: registryRouter,
  workspace: workspaceRouter,
  preview: previewRouter,
  debug: debugRouter,
  state: stateRouter,
  metrics: metricsProcedure,
});

export type AppRouter = typeof appRouter;
