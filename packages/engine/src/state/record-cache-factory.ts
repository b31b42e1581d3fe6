// Which of a task's stores get a record cache (state/record-cache.ts), and how the cache names
// and sizes their entries: Kafka Streams caches the DSL's key-value, window and session stores
// materialized with caching (Materialized's default) when `statestore.cache.max.bytes` > 0. A
// window store's cache entry is the key and the window start (CachingWindowStore keys by both);
// a session store's the key and the session's bounds. Stores without processors that forward
// through a cache (Processor API stores, join buffers, suppression buffers) get none.
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import type { EngineStoreSpec } from './store-factory.js';
import { storeKeyFunction } from './store-key.js';
import { NamedCache, type ThreadCache } from './record-cache.js';

/** Kafka's window key suffix: the start (int64) and a sequence number (int32). */
const WINDOW_KEY_SUFFIX = 12;
/** Kafka's session key suffix: the end and the start (int64 each). */
const SESSION_KEY_SUFFIX = 16;

interface WindowedKeyLike {
  key: unknown;
  start: number;
  end: number;
}

export function createRecordCache(
  spec: EngineStoreSpec & { caching?: boolean; global?: boolean },
  threadCache: ThreadCache,
): NamedCache | null {
  if (spec.caching !== true || spec.global === true || spec.outerJoin !== undefined) return null;
  const keySerde = getSerde(spec.keySerde);
  const valueSerde = getSerde(spec.valueSerde);
  const storeKey = storeKeyFunction(spec.keySerde, keySerde);
  const keyBytes = byteSize(keySerde);
  const valueBytes = byteSize(valueSerde);
  switch (spec.type ?? 'keyValue') {
    case 'keyValue':
      return new NamedCache(
        spec.name,
        threadCache,
        storeKey,
        (key, value) => keyBytes(key) + valueBytes(value),
      );
    case 'window':
      if (spec.retainDuplicates === true) return null;
      // Found by window start, then by the record key's store key (record-cache.ts).
      return new NamedCache(
        spec.name,
        threadCache,
        (wk) => storeKey((wk as WindowedKeyLike).key),
        (wk, value) =>
          keyBytes((wk as WindowedKeyLike).key) + WINDOW_KEY_SUFFIX + valueBytes(value),
        (wk) => (wk as WindowedKeyLike).start,
      );
    case 'session':
      return new NamedCache(
        spec.name,
        threadCache,
        (wk) => {
          const w = wk as WindowedKeyLike;
          return `${storeKey(w.key)}@${w.start}@${w.end}`;
        },
        (wk, value) =>
          keyBytes((wk as WindowedKeyLike).key) + SESSION_KEY_SUFFIX + valueBytes(value),
      );
    case 'suppression':
    case 'timeOrderedBuffer':
      return null;
  }
}

/**
 * How many bytes a value serializes to. Fixed-width serdes answer without serializing (the cache
 * sizes every entry it takes: a windowed count's key and count made two typed arrays per window
 * only to be measured); a value they would refuse is serialized, so it throws as before.
 */
function byteSize(serde: Serde<unknown>): (value: unknown) => number {
  const measured = (value: unknown): number =>
    value === null ? 0 : (serde.serialize(value)?.byteLength ?? 0);
  switch (serde.name) {
    case 'integer':
      return (v) => (typeof v === 'number' && (v | 0) === v ? 4 : measured(v));
    case 'long':
      return (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? 8 : measured(v));
    case 'double':
      return (v) => (typeof v === 'number' ? 8 : measured(v));
    default:
      return measured;
  }
}
