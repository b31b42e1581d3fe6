// Interactive queries (Kafka Streams' KafkaStreams#store with QueryableStoreTypes.keyValueStore()):
// one read-only view over every local instance of a key-value store, one per task (each holds
// the keys of its partition), or the one instance of a global store. A versioned store also
// answers getAsOf (IQv2's VersionedKeyQuery).
import type { QueryableKeyValueStore } from '../api.js';
import type { KeyValueEntry, KeyValueStore, ValueAndTimestamp } from '../state/key-value-store.js';
import { isVersionedStore } from '../state/versioned-store.js';

export function queryableStore(
  name: string,
  instances: () => KeyValueStore[],
  versioned = false,
): QueryableKeyValueStore {
  const sortedEntries = (): KeyValueEntry[] => {
    const entries: { entry: KeyValueEntry; bytes: Uint8Array }[] = [];
    for (const store of instances()) {
      for (const entry of store.all())
        entries.push({ entry, bytes: store.serializeKey(entry.key) ?? EMPTY });
    }
    entries.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
    return entries.map((e) => e.entry);
  };
  return {
    name,
    get(key: unknown): ValueAndTimestamp | null {
      for (const store of instances()) {
        const found = store.get(key);
        if (found !== undefined) return { value: found.value, timestamp: found.timestamp };
      }
      return null;
    },
    range(from: unknown, to: unknown): KeyValueEntry[] {
      const stores = instances();
      const first = stores[0];
      if (!first) return [];
      // Bounds compare as the store orders keys: by their serialized bytes, both inclusive.
      const lower = from === null || from === undefined ? null : first.serializeKey(from);
      const upper = to === null || to === undefined ? null : first.serializeKey(to);
      return sortedEntries().filter((e) => {
        const bytes = first.serializeKey(e.key) ?? EMPTY;
        return (
          (lower === null || Buffer.compare(bytes, lower) >= 0) &&
          (upper === null || Buffer.compare(bytes, upper) <= 0)
        );
      });
    },
    all: sortedEntries,
    prefixScan(prefix: unknown): KeyValueEntry[] {
      const first = instances()[0];
      if (!first) return [];
      const bytes = first.serializeKey(prefix) ?? EMPTY;
      return sortedEntries().filter((e) => startsWith(first.serializeKey(e.key) ?? EMPTY, bytes));
    },
    approximateNumEntries: () => instances().reduce((n, s) => n + s.approximateNumEntries(), 0),
    ...(versioned
      ? {
          getAsOf(key: unknown, asOf: number) {
            for (const store of instances()) {
              if (!isVersionedStore(store)) continue;
              const found = store.getAsOf(key, asOf);
              if (found !== null) return found;
            }
            return null;
          },
        }
      : {}),
  };
}

const EMPTY = new Uint8Array(0);

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}
