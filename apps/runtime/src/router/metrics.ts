// One multiplexed stream of status and metrics: a browser holds few connections per host, so the
// UI subscribes once instead of once per node.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LiveView } from '../service/runtime-service.js';
import { procedure } from '../trpc.js';

export const METRICS_INTERVAL_MS = 1000;

export const metricsProcedure = procedure.subscription(async function* ({ ctx, signal: request }) {
  const signal = request ? AbortSignal.any([request, ctx.shutdown]) : ctx.shutdown;
  while (!signal.aborted) {
    const view: LiveView = ctx.service.live();
    yield view;
    try {
      await sleep(METRICS_INTERVAL_MS, undefined, { signal });
    } catch {
      return; // aborted: the client went away or the server is closing
    }
  }
});
