// The store browser's window and session stores: interactive queries through the engine's
// ReadOnlyWindowStore / ReadOnlySessionStore views (StreamsApp#windowStore / #sessionStore),
// across the tasks of every partition, with keys as JSON values the store's key serde takes.
import type {
  QueriedSession,
  QueriedWindow,
  QueriedWindowOfKey,
  StreamsApp,
} from '@streamwright/engine';
import type { Plan } from '@streamwright/topology-model';
import { RuntimeError } from '../errors.js';
import { jsonSafe } from './json-safe.js';
import type { QueryOptions, RoutingContext, ServedTask } from './query-routing.js';
import { byKey, openStore } from './store-access.js';

const EARLIEST = 0;
const LATEST = Number.MAX_SAFE_INTEGER;

export interface WindowRow {
  key: unknown;
  /** The window's start and end (end = start + the store's window size), epoch ms. */
  start: number;
  end: number;
  value: unknown;
  timestamp: number;
}

export interface WindowRows {
  store: string;
  /** A window's end is its start + this (0 where the store does not know its window size). */
  windowSizeMs: number;
  windows: WindowRow[];
  truncated: boolean;
  servedBy?: ServedTask[];
}

export interface SessionRow {
  key: unknown;
  start: number;
  end: number;
  value: unknown;
}

export interface SessionRows {
  store: string;
  sessions: SessionRow[];
  truncated: boolean;
  servedBy?: ServedTask[];
}

export interface WindowQuery {
  /** One key's windows (fetch(key, timeFrom, timeTo)); not with from / to. */
  key?: unknown;
  /** A key range (fetch(keyFrom, keyTo, timeFrom, timeTo)), inclusive; an absent bound is open. */
  from?: unknown;
  to?: unknown;
  /** Window starts, inclusive; default: every window. */
  timeFrom?: number;
  timeTo?: number;
  /** Latest first (backwardFetch / backwardFetchAll). */
  backward?: boolean;
  limit: number;
  /** KIP-535: standbys may answer (see QueryOptions). */
  stale?: boolean;
  /** Forwarded by another instance: answered from this instance's tasks. */
  forwarded?: boolean;
}

export interface SessionQuery {
  key?: unknown;
  from?: unknown;
  to?: unknown;
  /** findSessions' bounds: sessions ending at or after earliestEnd, starting at or before latestStart. */
  earliestEnd?: number;
  latestStart?: number;
  backward?: boolean;
  limit: number;
  /** KIP-535: standbys may answer (see QueryOptions). */
  stale?: boolean;
  /** Forwarded by another instance: answered from this instance's tasks. */
  forwarded?: boolean;
}

const given = (v: unknown): boolean => v !== undefined && v !== null;

function bothKeyForms(q: { key?: unknown; from?: unknown; to?: unknown }): void {
  if (given(q.key) && (given(q.from) || given(q.to)))
    throw new RuntimeError(
      'INVALID_QUERY',
      'key: give either one key or a key range (from / to), not both',
    );
}

function timeRange(from: number, to: number, what: string): void {
  if (from > to)
    throw new RuntimeError('INVALID_QUERY', `${what}: the range is empty (${from} > ${to})`);
}

export class WindowedStateQueries {
  constructor(
    private readonly current: () => { app: StreamsApp; plan: Plan } | null,
    private readonly routing: () => RoutingContext,
  ) {}

  /** fetch(key, time): the key's window starting at `time`. */
  async window(
    store: string,
    key: unknown,
    time: number,
    options: QueryOptions = {},
  ): Promise<{
    store: string;
    key: unknown;
    start: number;
    end: number;
    found: boolean;
    value: unknown;
    timestamp: number | null;
    servedBy?: ServedTask[];
  }> {
    const opened = this.#window(store, options);
    const found = await byKey(
      () => opened.query<{ value: unknown; timestamp: number } | null>('fetch', key, time),
      'key',
    );
    return {
      store,
      key: jsonSafe(key),
      start: time,
      end: time + opened.windowSizeMs,
      found: found !== null,
      value: found === null ? null : jsonSafe(found.value),
      timestamp: found?.timestamp ?? null,
      ...opened.served(),
    };
  }

  async windows(store: string, q: WindowQuery): Promise<WindowRows> {
    bothKeyForms(q);
    const opened = this.#window(store, q);
    const timeFrom = q.timeFrom ?? EARLIEST;
    const timeTo = q.timeTo ?? LATEST;
    timeRange(timeFrom, timeTo, 'timeFrom / timeTo');
    let rows: WindowRow[];
    if (given(q.key)) {
      const found = await byKey(
        () =>
          opened.query<QueriedWindowOfKey[]>(
            q.backward ? 'backwardFetch' : 'fetch',
            q.key,
            timeFrom,
            timeTo,
          ),
        'key',
      );
      rows = found.map((w) => ({
        key: q.key,
        start: w.key,
        end: w.key + opened.windowSizeMs,
        value: w.value,
        timestamp: w.timestamp,
      }));
    } else {
      const from = q.from ?? null;
      const to = q.to ?? null;
      const found = await byKey(() => {
        if (from === null && to === null)
          return opened.query<QueriedWindow[]>(
            q.backward ? 'backwardFetchAll' : 'fetchAll',
            timeFrom,
            timeTo,
          );
        return opened.query<QueriedWindow[]>(
          q.backward ? 'backwardFetch' : 'fetch',
          from,
          to,
          timeFrom,
          timeTo,
        );
      }, 'from / to');
      rows = found.map((w) => ({ ...w.key, value: w.value, timestamp: w.timestamp }));
    }
    return {
      store,
      windowSizeMs: opened.windowSizeMs,
      windows: rows.slice(0, q.limit).map((w) => ({
        key: jsonSafe(w.key),
        start: w.start,
        end: w.end,
        value: jsonSafe(w.value),
        timestamp: w.timestamp,
      })),
      truncated: rows.length > q.limit,
      ...opened.served(),
    };
  }

  /** fetchSession(key, start, end): exactly that session's aggregate. */
  async session(
    store: string,
    key: unknown,
    start: number,
    end: number,
    options: QueryOptions = {},
  ): Promise<{
    store: string;
    key: unknown;
    start: number;
    end: number;
    found: boolean;
    value: unknown;
    servedBy?: ServedTask[];
  }> {
    const opened = this.#session(store, options);
    const value = await byKey(() => opened.query<unknown>('fetchSession', key, start, end), 'key');
    return {
      store,
      key: jsonSafe(key),
      start,
      end,
      found: value !== null && value !== undefined,
      value: jsonSafe(value),
      ...opened.served(),
    };
  }

  async sessions(store: string, q: SessionQuery): Promise<SessionRows> {
    bothKeyForms(q);
    const opened = this.#session(store, q);
    const earliestEnd = q.earliestEnd ?? EARLIEST;
    const latestStart = q.latestStart ?? LATEST;
    const method = q.backward ? 'backwardFindSessions' : 'findSessions';
    const found = given(q.key)
      ? await byKey(
          () => opened.query<QueriedSession[]>(method, q.key, earliestEnd, latestStart),
          'key',
        )
      : await byKey(
          () =>
            opened.query<QueriedSession[]>(
              method,
              q.from ?? null,
              q.to ?? null,
              earliestEnd,
              latestStart,
            ),
          'from / to',
        );
    return {
      store,
      sessions: found.slice(0, q.limit).map((s) => ({
        key: jsonSafe(s.key.key),
        start: s.key.start,
        end: s.key.end,
        value: jsonSafe(s.value),
      })),
      truncated: found.length > q.limit,
      ...opened.served(),
    };
  }

  /** The window store, and its window size (a window's end is its start + this). */
  #window(name: string, options: QueryOptions) {
    const opened = openStore(this.current, name, 'window', this.#routed(options));
    const windowSizeMs = opened.planned.windowSizeMs ?? opened.planned.windowStore?.sizeMs ?? 0;
    return { ...opened, windowSizeMs };
  }

  #session(name: string, options: QueryOptions) {
    return openStore(this.current, name, 'session', this.#routed(options));
  }

  #routed(options: QueryOptions) {
    const { stale, forwarded } = options;
    return {
      ctx: this.routing(),
      options: {
        ...(stale === undefined ? {} : { stale }),
        ...(forwarded === undefined ? {} : { forwarded }),
      },
    };
  }
}
