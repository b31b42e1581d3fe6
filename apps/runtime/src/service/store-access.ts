// Opening a running app's store for a state query, and the runtime errors for why it cannot be
// (state-queries.ts for key-value stores, windowed-state-queries.ts for window and session ones).
import { EngineError, type StreamsApp } from '@streamwright/engine';
import type { Plan, StorePlan } from '@streamwright/topology-model';
import { RuntimeError } from '../errors.js';
import {
  routedQuery,
  servedTasks,
  type QueryOptions,
  type RoutingContext,
  type ServedTask,
} from './query-routing.js';

type Deployed = { app: StreamsApp; plan: Plan };
const QUERIES = {
  keyValue: { code: 'NOT_KEY_VALUE_STORE', what: 'a keyValue store' },
  window: { code: 'NOT_WINDOW_STORE', what: 'a window store' },
  session: { code: 'NOT_SESSION_STORE', what: 'a session store' },
} as const;
// A refused query names what the store does answer, so the next try is the right one.
const ANSWERS: Record<StorePlan['type'], string> = {
  keyValue: 'query it with get, range, prefix or all',
  window: 'query it with window or windows',
  session: 'query it with session or sessions',
  suppression: 'a suppression buffer is not queryable',
  timeOrderedBuffer: "a join's grace buffer is not queryable",
};

/** An interactive query on the opened store: a method of its queryable view and its arguments. */
export type StoreQuery = <T>(method: string, ...args: unknown[]) => Promise<T>;

/**
 * The running app's store `name` of `type` (its plan, and a function querying it through
 * StreamsApp#queryStore, whatever num.stream.threads is); a RuntimeError saying why not.
 */
export function openStore(
  current: () => Deployed | null,
  name: string,
  type: keyof typeof QUERIES,
  routing?: { ctx: RoutingContext; options: QueryOptions },
): { planned: StorePlan; query: StoreQuery; served: () => { servedBy?: ServedTask[] } } {
  const deployed = current();
  if (!deployed)
    throw new RuntimeError('NOT_DEPLOYED', 'nothing is deployed: deploy a topology first');
  const planned = deployed.plan.stores.find((s) => s.name === name);
  if (!planned) {
    const known = deployed.plan.stores.map((s) => s.name).join(', ') || 'none';
    throw new RuntimeError(
      'STORE_NOT_FOUND',
      `store: the application has no store "${name}" (stores: ${known})`,
    );
  }
  if (planned.type !== type) {
    throw new RuntimeError(
      QUERIES[type].code,
      `store: "${name}" is a ${planned.type} store, not ${QUERIES[type].what}: ${ANSWERS[planned.type]}`,
    );
  }
  const state = deployed.app.state();
  // Across instances (Kafka), a rebalance is no reason to refuse: the tasks that are not ready
  // answer MIGRATING, the others answer.
  const routed = routing !== undefined && routing.ctx.ownServer !== null;
  if (state !== 'RUNNING' && !(routed && state === 'REBALANCING')) {
    throw new RuntimeError(
      'NOT_RUNNING',
      `the application is ${state}: start it to query its stores`,
    );
  }
  const app = deployed.app;
  const served: ServedTask[] = [];
  return {
    planned,
    query: async <T>(method: string, ...args: unknown[]): Promise<T> =>
      (routing === undefined
        ? await app.queryStore(name, type, method, args)
        : await routedQuery(
            app,
            routing.ctx,
            planned,
            type,
            method,
            args,
            routing.options,
            served,
          )) as T,
    // KIP-535: with stale reads, the answer names who answered each task and its lag.
    served: () => (routing?.options.stale === true ? { servedBy: servedTasks(served) } : {}),
  };
}

/** A key the store's key serde cannot serialize is the caller's mistake, not a crash. */
export async function byKey<T>(query: () => Promise<T>, field: string): Promise<T> {
  try {
    return await query();
  } catch (error) {
    if (error instanceof EngineError && error.code === 'SERIALIZATION_FAILED') {
      throw new RuntimeError('BAD_RECORD', `${field}: not a key of this store (${error.message})`, {
        cause: error,
      });
    }
    throw error;
  }
}
