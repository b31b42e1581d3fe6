// Interactive queries across the instances of one application on Kafka (Kafka Streams'
// queryMetadataForKey / streamsMetadataForStore, KIP-535): a key's query goes to the instance that
// runs its task (application.server, from the group's assignment); a range or all() query goes to
// every instance, each answering from its own tasks, and the parts merge into the order one
// instance holding every task would answer in. A task that no instance runs right now (a
// rebalance moves it, or its new owner still restores it) makes the query MIGRATING: never a
// wrong or empty answer. Peers answer through `state.peer` (peer-client.ts), which never forwards.
import type { AnsweredTask, StoreQueryPart, StreamsApp } from '@streamwright/engine';
import type { StorePlan } from '@streamwright/topology-model';
import { RUNTIME_ERRORS, RuntimeError, type RuntimeErrorCode } from '../errors.js';
import { jsonSafe } from './json-safe.js';
import { PeerQueryError, PeerUnreachableError, type PeerClient } from './peer-client.js';

export type StoreType = 'keyValue' | 'window' | 'session';

/** How a state query is answered: from where, and whether standbys may answer. */
export interface QueryOptions {
  /** KIP-535: a standby (or this instance's standby) may answer; each task's lag is reported. */
  stale?: boolean;
  /** A query another instance forwarded: answered here, from this instance's tasks only. */
  forwarded?: boolean;
}

/** One task that answered a query: on which instance, as active or standby, and its lag. */
export interface ServedTask extends AnsweredTask {
  /** The instance's application.server. */
  host: string;
}

/** The methods of the queryable views a state query may run (nothing else reaches a peer). */
export const QUERY_METHODS = new Set([
  'get',
  'getAsOf',
  'range',
  'prefixScan',
  'all',
  'approximateNumEntries',
  'fetch',
  'backwardFetch',
  'fetchAll',
  'backwardFetchAll',
  'fetchSession',
  'findSessions',
  'backwardFindSessions',
]);

/** Reads of one key (its first argument): answered by the instance running the key's task. */
function isKeyRead(type: StoreType, method: string, args: unknown[]): boolean {
  switch (method) {
    case 'get':
    case 'getAsOf':
    case 'fetchSession':
      return true;
    case 'fetch':
    case 'backwardFetch':
      return type === 'window' && args.length <= 3;
    case 'findSessions':
    case 'backwardFindSessions':
      return args.length === 3;
    default:
      return false;
  }
}

export interface RoutingContext {
  /** This instance's application.server, or null when queries are not routed (embedded log). */
  ownServer: string | null;
  peers: PeerClient;
}

/**
 * Runs `method(args)` on store `planned` across the application's instances. `served` collects
 * the tasks that answered (reported with `stale`).
 */
export async function routedQuery(
  app: StreamsApp,
  ctx: RoutingContext,
  planned: StorePlan,
  type: StoreType,
  method: string,
  args: unknown[],
  options: QueryOptions,
  served: ServedTask[],
): Promise<unknown> {
  const own = ctx.ownServer;
  const name = planned.name;
  // Not distributed (embedded log), or a global store (every instance holds all of it).
  if (own === null || planned.global === true) return app.queryStore(name, type, method, args);
  const stale = options.stale === true;
  const ask = async (
    host: string,
    tasks: readonly string[] | undefined,
  ): Promise<{ parts: StoreQueryPart[]; tasks: AnsweredTask[] }> =>
    host === own
      ? app.queryLocalStore(name, type, method, args, {
          ...(tasks === undefined ? {} : { tasks }),
          stale,
        })
      : ctx.peers
          .query(host, {
            store: name,
            type,
            method,
            args,
            ...(tasks === undefined ? {} : { tasks: [...tasks] }),
            stale,
          })
          .catch((error: unknown) => {
            // The peer's own refusal (a key its serde rejects, …) is the caller's answer.
            if (!(error instanceof PeerQueryError)) throw error;
            const code = error.runtimeCode;
            throw new RuntimeError(
              code !== null && code in RUNTIME_ERRORS ? (code as RuntimeErrorCode) : 'PEER_FAILED',
              error.message,
              { cause: error },
            );
          });

  // Forwarded here: this instance's share only (a forwarded query is never forwarded again).
  if (options.forwarded === true) {
    const local = await ask(own, undefined);
    served.push(...local.tasks.map((t) => ({ ...t, host: own })));
    return app.mergeStoreParts(name, type, method, args, local.parts);
  }

  if (isKeyRead(type, method, args)) {
    const metadata = await app.queryMetadataForKey(name, args[0]);
    if (metadata === null) return app.queryStore(name, type, method, args);
    const taskId = `${planned.subtopology}_${metadata.partition}`;
    const candidates = metadata.activeHost === null ? [] : [metadata.activeHost];
    if (stale) {
      // KIP-535: this instance's own copy first (no hop), then the active, then other standbys.
      if (metadata.standbyHosts.includes(own)) candidates.unshift(own);
      candidates.push(...metadata.standbyHosts);
    }
    const unreachable: string[] = [];
    for (const host of [...new Set(candidates)]) {
      let got;
      try {
        got = await ask(host, [taskId]);
      } catch (error) {
        if (!(error instanceof PeerUnreachableError)) throw error;
        unreachable.push(`${host} (${error.message})`);
        continue;
      }
      const answered = got.tasks.find((t) => t.taskId === taskId);
      if (answered === undefined) continue; // restoring there, or moved meanwhile
      served.push({ ...answered, host });
      return app.mergeStoreParts(name, type, method, args, got.parts);
    }
    throw migrating(
      name,
      `the key ${JSON.stringify(jsonSafe(args[0]))} is in task ${taskId}, which ${
        metadata.activeHost === null
          ? 'no instance runs right now'
          : `instance ${metadata.activeHost} is not ready to answer for yet`
      }`,
      unreachable,
      stale,
    );
  }

  // Range, all() and counts: every task once, from its active (or with stale, a standby).
  const taskIds = (await app.storeTaskIds(name)) ?? [];
  const hosts = app.streamsMetadataForStore(name) ?? [];
  const byHost = new Map<string, string[]>();
  const missing: string[] = [];
  for (const task of taskIds) {
    const active = hosts.find((h) => h.activeTasks.includes(task))?.host;
    let host = active;
    if (stale) {
      // KIP-535: this instance's own copy first (no hop, and no wait on a lost active).
      const standbys = hosts.filter((h) => h.standbyTasks.includes(task)).map((h) => h.host);
      if (standbys.includes(own)) host = own;
      else host ??= standbys[0];
    }
    if (host === undefined) missing.push(task);
    else byHost.set(host, [...(byHost.get(host) ?? []), task]);
  }
  if (missing.length > 0)
    throw migrating(name, `no instance runs task ${missing.join(', ')} right now`, [], stale);
  const answers = await Promise.all(
    [...byHost].map(async ([host, tasks]) => {
      try {
        return { host, tasks, got: await ask(host, tasks) };
      } catch (error) {
        if (error instanceof PeerUnreachableError)
          throw migrating(
            name,
            `instance ${host} (tasks ${tasks.join(', ')}) did not answer`,
            [`${host} (${error.message})`],
            stale,
          );
        throw error;
      }
    }),
  );
  const parts: StoreQueryPart[] = [];
  for (const { host, tasks, got } of answers) {
    const notReady = tasks.filter((t) => !got.tasks.some((a) => a.taskId === t));
    if (notReady.length > 0)
      throw migrating(
        name,
        `instance ${host} is not ready to answer for task ${notReady.join(', ')} yet`,
        [],
        stale,
      );
    served.push(...got.tasks.filter((t) => tasks.includes(t.taskId)).map((t) => ({ ...t, host })));
    parts.push(...got.parts);
  }
  return app.mergeStoreParts(name, type, method, args, parts);
}

function migrating(
  store: string,
  why: string,
  unreachable: string[],
  stale: boolean,
): RuntimeError {
  const peers = unreachable.length > 0 ? `; unreachable: ${unreachable.join(', ')}` : '';
  const hint = stale
    ? 'retry once the rebalance is over'
    : 'retry once the rebalance is over, or ask with stale reads to let a standby answer';
  return new RuntimeError(
    'MIGRATING',
    `store "${store}" is migrating: ${why} (a rebalance is moving it)${peers}; ${hint}`,
  );
}

/** Served tasks sorted for the answer, one entry per task. */
export function servedTasks(served: ServedTask[]): ServedTask[] {
  const seen = new Map<string, ServedTask>();
  for (const s of served) seen.set(s.taskId, s);
  return [...seen.values()].sort((a, b) =>
    a.taskId.localeCompare(b.taskId, 'en', { numeric: true }),
  );
}
