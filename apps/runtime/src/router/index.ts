// The runtime's tRPC router. The web app imports only its type (`AppRouter`).
import { router } from '../trpc.js';
import { appRouter as applicationRouter } from './app.js';
import { groupsRouter } from './groups.js';
import { healthProcedure } from './health.js';
import { metricsProcedure } from './metrics.js';
import { registryRouter } from './registry.js';
import { topicsRouter } from './topics.js';
import { topologyRouter } from './topology.js';

export const appRouter = router({
  health: healthProcedure,
  topology: topologyRouter,
  app: applicationRouter,
  topics: topicsRouter,
  groups: groupsRouter,
  registry: registryRouter,
  metrics: metricsProcedure,
});

export type AppRouter = typeof appRouter;
