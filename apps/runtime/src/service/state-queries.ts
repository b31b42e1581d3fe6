// The store browser: interactive queries on the running app's key-value stores (Kafka Streams'
// KafkaStreams#store), read-only, with keys as JSON values the store's key serde takes.
import { EngineError, type QueryableKeyValueStore, type StreamsApp } from '@streamwright/engine';
import type { Plan } from '@streamwright/topology-model';
import { RuntimeError } from '../errors.js';
import { jsonSafe } from './json-safe.js';

export interface StoreInfo {
  name: string;
  type: string;
  /** A globalTable's store: every instance holds all of it. */
  global: boolean;
  /** Entries across the app's tasks; null when it cannot be queried (not running, not key-value). */
  entries: number | null;
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
}

export class StateQueries {
  constructor(private readonly current: () => { app: StreamsApp; plan: Plan } | null) {}

  stores(): StoreInfo[] {
    const deployed = this.current();
    if (!deployed) return [];
    const running = deployed.app.state() === 'RUNNING';
    return deployed.plan.stores
      .map((s) => {
        const global = 'global' in s && s.global === true;
        let entries: number | null = null;
        if (running && s.type === 'keyValue') {
          try {
            entries = deployed.app.store(s.name)?.approximateNumEntries() ?? null;
          } catch {
            entries = null; // not queryable here (stream threads in workers)
          }
        }
        return { name: s.name, type: s.type, global, entries };
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(
    store: string,
    key: unknown,
  ): { store: string; key: unknown; found: boolean; value: unknown; timestamp: number | null } {
    const found = byKey(() => this.open(store).get(key), 'key');
    return {
      store,
      key: jsonSafe(key),
      found: found !== null,
      value: found === null ? null : jsonSafe(found.value),
      timestamp: found?.timestamp ?? null,
    };
  }

  range(store: string, from: unknown, to: unknown, limit: number): StoreEntries {
    const opened = this.open(store);
    return limited(
      store,
      byKey(() => opened.range(from ?? null, to ?? null), 'from / to'),
      limit,
    );
  }

  all(store: string, limit: number): StoreEntries {
    return limited(store, this.open(store).all(), limit);
  }

  private open(name: string): QueryableKeyValueStore {
    const deployed = this.current();
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
    if (planned.type !== 'keyValue') {
      throw new RuntimeError(
        'NOT_KEY_VALUE_STORE',
        `store: "${name}" is a ${planned.type} store; get, range and all query key-value stores`,
      );
    }
    let store: QueryableKeyValueStore | null;
    try {
      store = deployed.app.store(name);
    } catch (error) {
      if (error instanceof EngineError && error.code === 'UNSUPPORTED_CONFIG') {
        throw new RuntimeError('INSPECTION_UNAVAILABLE', error.message, { cause: error });
      }
      throw error;
    }
    if (!store)
      throw new RuntimeError('STORE_NOT_FOUND', `store: the application has no store "${name}"`);
    const state = deployed.app.state();
    if (state !== 'RUNNING') {
      throw new RuntimeError(
        'NOT_RUNNING',
        `the application is ${state}: start it to query its stores`,
      );
    }
    return store;
  }
}

/** A key the store's key serde cannot serialize is the caller's mistake, not a crash. */
function byKey<T>(query: () => T, field: string): T {
  try {
    return query();
  } catch (error) {
    if (error instanceof EngineError && error.code === 'SERIALIZATION_FAILED') {
      throw new RuntimeError('BAD_RECORD', `${field}: not a key of this store (${error.message})`, {
        cause: error,
      });
    }
    throw error;
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
