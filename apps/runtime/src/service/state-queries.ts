// The store browser: interactive queries on the running app's key-value stores (Kafka Streams'
// KafkaStreams#store), read-only, with keys as JSON values the store's key serde takes.
import type { LocalStoreAnswer, StreamsApp } from '@streamwright/engine';
import type { Plan } from '@streamwright/topology-model';
import { RuntimeError } from '../errors.js';
import { jsonSafe } from './json-safe.js';
import type { QueryOptions, RoutingContext, ServedTask } from './query-routing.js';
import { byKey, openStore } from './store-access.js';
import { WindowedStateQueries } from './windowed-state-queries.js';

export interface StoreInfo {
  name: string;
  type: string;
  /** A globalTable's store: every instance holds all of it. */
  global: boolean;
  /**
   * Entries (windows, sessions) across the app's tasks; null when it cannot be queried (not
   * running, a suppression buffer).
   */
  entries: number | null;
  /** A versioned key-value store (KIP-889): get takes `asOf`. */
  versioned?: { historyRetentionMs: number };
}

export interface StoreEntry {
  key: unknown;
  value: unknown;
  timestamp: number;
}

export interface StoreEntries {
  store: string;
  entries: StoreEntry[];
  /** More entries matched than `limit`. */
  truncated: boolean;
  /** With stale reads (KIP-535): the instance and task that answered, and its lag. */
  servedBy?: ServedTask[];
}

type ValueAndTimestamp = { value: unknown; timestamp: number };
type VersionedRecord = { value: unknown; timestamp: number; validTo: number | null };

export class StateQueries {
  /** Window and session stores (windowed-state-queries.ts). */
  readonly windowed: WindowedStateQueries;

  constructor(
    private readonly current: () => { app: StreamsApp; plan: Plan } | null,
    /** Where other instances answer (null ownServer: this instance holds every task). */
    private readonly routing: () => RoutingContext,
  ) {
    this.windowed = new WindowedStateQueries(current, routing);
  }

  async stores(): Promise<StoreInfo[]> {
    const deployed = this.current();
    if (!deployed) return [];
    const running = deployed.app.state() === 'RUNNING';
    const infos = await Promise.all(
      deployed.plan.stores.map(async (s) => {
        const global = 'global' in s && s.global === true;
        let entries: number | null = null;
        if (running && s.type !== 'suppression' && s.type !== 'timeOrderedBuffer') {
          try {
            const type = s.type === 'window' || s.type === 'session' ? s.type : 'keyValue';
            const counted = await openStore(this.current, s.name, type, {
              ctx: this.routing(),
              options: {},
            }).query('approximateNumEntries');
            entries = typeof counted === 'number' ? counted : null;
          } catch {
            entries = null; // not queryable (stopped meanwhile)
          }
        }
        return {
          name: s.name,
          type: s.type,
          global,
          entries,
          ...(s.versioned === undefined
            ? {}
            : { versioned: { historyRetentionMs: s.versioned.historyRetentionMs } }),
        };
      }),
    );
    return infos.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The latest value, or with `asOf` (versioned stores) the version valid then and its validTo. */
  async get(
    store: string,
    key: unknown,
    asOf?: number,
    options: QueryOptions = {},
  ): Promise<{
    store: string;
    key: unknown;
    found: boolean;
    value: unknown;
    timestamp: number | null;
    validTo?: number | null;
    servedBy?: ServedTask[];
  }> {
    const opened = this.open(store, options);
    if (asOf !== undefined) {
      if (opened.planned.versioned === undefined)
        throw new RuntimeError(
          'NOT_VERSIONED_STORE',
          `asOf: "${store}" is not a versioned store; only versioned stores keep older values`,
        );
      const version = await byKey(
        () => opened.query<VersionedRecord | null>('getAsOf', key, asOf),
        'key',
      );
      return {
        store,
        key: jsonSafe(key),
        found: version !== null,
        value: version === null ? null : jsonSafe(version.value),
        timestamp: version?.timestamp ?? null,
        validTo: version?.validTo ?? null,
        ...opened.served(),
      };
    }
    const found = await byKey(() => opened.query<ValueAndTimestamp | null>('get', key), 'key');
    return {
      store,
      key: jsonSafe(key),
      found: found !== null,
      value: found === null ? null : jsonSafe(found.value),
      timestamp: found?.timestamp ?? null,
      ...opened.served(),
    };
  }

  async range(
    store: string,
    from: unknown,
    to: unknown,
    limit: number,
    options: QueryOptions = {},
  ): Promise<StoreEntries> {
    const opened = this.open(store, options);
    return {
      ...limited(
        store,
        await byKey(
          () => opened.query<StoreEntry[]>('range', from ?? null, to ?? null),
          'from / to',
        ),
        limit,
      ),
      ...opened.served(),
    };
  }

  /** ReadOnlyKeyValueStore#prefixScan with the store's key serde as the prefix serializer. */
  async prefix(
    store: string,
    prefix: unknown,
    limit: number,
    options: QueryOptions = {},
  ): Promise<StoreEntries> {
    const opened = this.open(store, options);
    return {
      ...limited(
        store,
        await byKey(() => opened.query<StoreEntry[]>('prefixScan', prefix), 'prefix'),
        limit,
      ),
      ...opened.served(),
    };
  }

  async all(store: string, limit: number, options: QueryOptions = {}): Promise<StoreEntries> {
    const opened = this.open(store, options);
    return {
      ...limited(store, await opened.query<StoreEntry[]>('all'), limit),
      ...opened.served(),
    };
  }

  /** `state.peer`: this instance's share of a query another instance routes (query-routing.ts). */
  async peer(q: {
    store: string;
    type: 'keyValue' | 'window' | 'session';
    method: string;
    args: unknown[];
    tasks?: string[] | undefined;
    stale: boolean;
  }): Promise<LocalStoreAnswer> {
    // The same refusals as a query here (no app, no such store, another type, not running).
    openStore(this.current, q.store, q.type, {
      ctx: this.routing(),
      options: { forwarded: true },
    });
    const app = this.current()!.app;
    return byKey(
      () =>
        app.queryLocalStore(q.store, q.type, q.method, q.args, {
          ...(q.tasks === undefined ? {} : { tasks: q.tasks }),
          stale: q.stale,
        }),
      'key',
    );
  }

  private open(name: string, options: QueryOptions) {
    return openStore(this.current, name, 'keyValue', { ctx: this.routing(), options });
  }
}

function limited(store: string, entries: StoreEntry[], limit: number): StoreEntries {
  return {
    store,
    entries: entries.slice(0, limit).map((e) => ({
      key: jsonSafe(e.key),
      value: jsonSafe(e.value),
      timestamp: e.timestamp,
    })),
    truncated: entries.length > limit,
  };
}
