// Interactive queries that reach stream threads in worker threads: the main thread sends each
// worker one StoreQuery, the worker runs it on the view over its own tasks' stores (the same
// queryable views the in-process path uses) and answers with the result and, for range reads,
// each row's serialized key; the main thread merges the answers into what one view over every
// instance would return (the same order as the single-thread path).
import type {
  AnsweredTask,
  QueryScope,
  StoreQueryPart,
  QueryableKeyValueStore,
  QueryableSessionStore,
  QueryableWindowStore,
} from '../api.js';
import { isKeyValueStore } from '../state/store-factory.js';
import { SegmentedSessionStore } from '../state/session-store.js';
import type { TaskStateStore } from '../state/task-store.js';
import { SegmentedWindowStore } from '../state/window-store.js';
import { queryableStore } from './queryable-store.js';
import { queryableSessionStore, queryableWindowStore } from './queryable-windowed-stores.js';
import {
  MEMORY_ORDER,
  sortSessionRows,
  sortWindowRows,
  type WindowedOrders,
} from './windowed-store-order.js';

export type StoreQueryType = 'keyValue' | 'window' | 'session';

export interface StoreQuery {
  store: string;
  type: StoreQueryType;
  /** A method of the queryable view (get, range, all, getAsOf, fetch, findSessions, …). */
  method: string;
  args: unknown[];
  versioned: boolean;
  windowSizeMs: number;
  /** Window and session stores: the orders of range reads (windowed-store-order.ts). */
  orders?: WindowedOrders;
  /**
   * Only these tasks' stores, for a query routed across instances (StreamsApp#queryLocalStore):
   * running actives, and with `stale` standbys too (KIP-535). Absent: every task's stores.
   */
  scope?: QueryScope;
}

export type StoreQueryAnswer = StoreQueryPart;

interface ScopedActive {
  id: string;
  state: string;
  stores: readonly TaskStateStore[];
}
interface ScopedStandby {
  id: string;
  lag: number;
  stores: readonly TaskStateStore[];
}

/**
 * The stores a scoped query reads on one thread: its running actives of the asked tasks (a
 * restoring active is migrating: its store is not whole yet), and with `stale` its standbys of
 * tasks no running active here answers. With the tasks that answered.
 */
export function scopedStores(
  scope: QueryScope,
  actives: Iterable<ScopedActive>,
  standbys: Iterable<ScopedStandby>,
): { stores: TaskStateStore[]; tasks: AnsweredTask[] } {
  const asked = scope.tasks === undefined ? null : new Set(scope.tasks);
  const stores: TaskStateStore[] = [];
  const tasks: AnsweredTask[] = [];
  for (const t of actives) {
    if (t.state !== 'RUNNING' || (asked !== null && !asked.has(t.id))) continue;
    stores.push(...t.stores);
    tasks.push({ taskId: t.id, standby: false, lag: 0 });
  }
  if (scope.stale === true)
    for (const s of standbys) {
      if ((asked !== null && !asked.has(s.id)) || tasks.some((t) => t.taskId === s.id)) continue;
      stores.push(...s.stores);
      tasks.push({ taskId: s.id, standby: true, lag: s.lag });
    }
  return { stores, tasks };
}

// Backward reads are the forward read reversed (as in the views): merged forward, then reversed.
const FORWARD: Record<string, string> = {
  backwardFetch: 'fetch',
  backwardFetchAll: 'fetchAll',
  backwardAll: 'all',
  backwardFindSessions: 'findSessions',
};

/** The forward method a worker runs for `query.method`, and whether the merge reverses it. */
export function forwardQuery(query: StoreQuery): { query: StoreQuery; reverse: boolean } {
  const forward = FORWARD[query.method];
  return forward === undefined
    ? { query, reverse: false }
    : { query: { ...query, method: forward }, reverse: true };
}

type View = Record<string, (...args: unknown[]) => unknown>;

/** On the thread that owns the stores: the query run on the view over `stores`. */
export function answerStoreQuery(query: StoreQuery, stores: TaskStateStore[]): StoreQueryAnswer {
  const mine = stores.filter((s) => s.name === query.store);
  let view: QueryableKeyValueStore | QueryableWindowStore | QueryableSessionStore;
  let keyOf: (row: unknown) => unknown;
  let serialize: (key: unknown) => Uint8Array | null;
  if (query.type === 'keyValue') {
    const kv = mine.filter(isKeyValueStore);
    view = queryableStore(query.store, () => kv, query.versioned);
    keyOf = (row) => (row as { key: unknown }).key;
    serialize = (k) => kv[0]?.serializeKey(k) ?? null;
  } else if (query.type === 'window') {
    const ws = mine.filter((s): s is SegmentedWindowStore => s instanceof SegmentedWindowStore);
    view = queryableWindowStore(query.store, query.windowSizeMs, () => ws, query.orders);
    keyOf = (row) => (row as { key: { key: unknown } }).key.key;
    serialize = (k) => ws[0]?.serializeKey(k) ?? null;
  } else {
    const ss = mine.filter((s): s is SegmentedSessionStore => s instanceof SegmentedSessionStore);
    view = queryableSessionStore(query.store, () => ss, query.orders?.keyRange);
    keyOf = (row) => (row as { key: { key: unknown } }).key.key;
    serialize = (k) => ss[0]?.serializeKey(k) ?? null;
  }
  const method = (view as unknown as View)[query.method];
  if (typeof method !== 'function')
    throw new TypeError(`interactive query: ${query.type} stores have no method ${query.method}`);
  const value = method.apply(view, query.args);
  return {
    value,
    keys: isRangeRead(query) ? (value as unknown[]).map((r) => serialize(keyOf(r))) : null,
  };
}

/** Reads whose rows come from every instance (ordered by key), not from the one holding a key. */
function isRangeRead(query: StoreQuery): boolean {
  const n = query.args.length;
  switch (query.method) {
    case 'range':
    case 'prefixScan':
    case 'all':
    case 'fetchAll':
      return true;
    case 'fetch':
      return query.type === 'window' ? n === 4 : n === 2;
    case 'findSessions':
      return n === 4;
    default:
      return false;
  }
}

const EMPTY = new Uint8Array(0);

/** On the main thread: the workers' answers (in thread order) as one view's result. */
export function mergeStoreAnswers(
  query: StoreQuery,
  answers: StoreQueryAnswer[],
  reverse: boolean,
): unknown {
  let merged: unknown;
  if (isRangeRead(query)) {
    const rows: { row: unknown; key: Uint8Array }[] = [];
    for (const a of answers)
      (a.value as unknown[]).forEach((row, i) => rows.push({ row, key: a.keys?.[i] ?? EMPTY }));
    const bytes = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(a, b);
    // The views' orders: key-value by key; windows and sessions as windowed-store-order.ts.
    // A window store's key-range fetch has its own order (a time-ordered store's index).
    const orders = query.orders;
    const keyRange = query.type !== 'window' || query.method === 'fetch';
    const order = (keyRange ? orders?.keyRange : orders?.scan) ?? MEMORY_ORDER;
    const w = (r: unknown): { start: number; end: number } =>
      (r as { key: { start: number; end: number } }).key;
    if (query.type === 'keyValue') rows.sort((a, b) => bytes(a.key, b.key));
    else if (query.type === 'window')
      sortWindowRows(order, rows, (r) => ({ key: r.key, start: w(r.row).start }));
    else
      sortSessionRows(order, rows, (r) => ({
        key: r.key,
        start: w(r.row).start,
        end: w(r.row).end,
      }));
    merged = rows.map((r) => r.row);
  } else if (query.method === 'approximateNumEntries') {
    merged = answers.reduce((n, a) => n + (a.value as number), 0);
  } else {
    // A key lives in one task: the first instance that has it answers.
    const found = answers.find((a) =>
      Array.isArray(a.value) ? a.value.length > 0 : a.value !== null && a.value !== undefined,
    );
    merged = found?.value ?? answers[0]?.value ?? null;
  }
  return reverse ? (merged as unknown[]).reverse() : merged;
}
