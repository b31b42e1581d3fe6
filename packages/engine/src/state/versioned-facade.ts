// The Processor API's VersionedKeyValueStore over the engine's versioned store. Kafka Streams
// refuses null keys with "key cannot be null"; so does this view. Records come back as Kafka
// 4.1's MeteredVersionedKeyValueStore returns them: value and timestamp, without validTo (only
// put's return value tells a version's validTo), checked against Kafka Streams 4.1.
import type { VersionedKeyValueStore, VersionedRecord } from '../papi/types.js';
import type { InMemoryVersionedKeyValueStore } from './versioned-store.js';

function checkKey(key: unknown): void {
  if (key === null || key === undefined) throw new TypeError('key cannot be null');
}

function plain<V>(record: VersionedRecord<unknown> | null): VersionedRecord<V> | null {
  return record === null ? null : { value: record.value as V, timestamp: record.timestamp };
}

export function versionedStoreFacade<K, V>(
  store: InMemoryVersionedKeyValueStore,
): VersionedKeyValueStore<K, V> {
  return {
    name: store.name,
    put(key, value, timestamp) {
      checkKey(key);
      return store.putVersion(key, value, timestamp);
    },
    delete(key, timestamp) {
      checkKey(key);
      return plain(store.deleteVersion(key, timestamp));
    },
    get(key: K, asOfTimestamp?: number): VersionedRecord<V> | null {
      checkKey(key);
      return plain(
        asOfTimestamp === undefined ? store.getLatest(key) : store.getAsOf(key, asOfTimestamp),
      );
    },
  };
}
