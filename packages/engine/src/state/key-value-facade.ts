// The Processor API's KeyValueStore over the engine's timestamped in-memory store. Order follows
// Kafka Streams' in-memory store: keys compare by their serialized bytes (lexicographic, unsigned).
// Writes take the timestamp of the record (or punctuation) being processed, which is also what
// Kafka Streams writes to the changelog.
import { Buffer } from 'node:buffer';
import type { KeyValue, KeyValueStore } from '../papi/types.js';
import type { KeyValueStore as EngineStore } from './key-value-store.js';

export function keyValueStoreFacade<K, V>(
  store: EngineStore,
  keyBytes: (key: unknown) => Uint8Array | null,
  timestamp: () => number,
): KeyValueStore<K, V> {
  const sorted = (): { bytes: Buffer; entry: KeyValue<K, V> }[] =>
    store
      .all()
      .map((e) => ({
        bytes: toBuffer(keyBytes(e.key)),
        entry: { key: e.key as K, value: e.value as V },
      }))
      .sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  const inRange = (from: K | null, to: K | null) => {
    const lo = from === null ? null : toBuffer(keyBytes(from));
    const hi = to === null ? null : toBuffer(keyBytes(to));
    // Kafka Streams returns nothing (and logs a warning) for a range whose from > to.
    if (lo !== null && hi !== null && Buffer.compare(lo, hi) > 0) return [];
    return sorted()
      .filter(
        ({ bytes }) =>
          (lo === null || Buffer.compare(bytes, lo) >= 0) &&
          (hi === null || Buffer.compare(bytes, hi) <= 0),
      )
      .map((x) => x.entry);
  };
  const get = (key: K): V | null => (store.get(key)?.value as V | undefined) ?? null;
  const put = (key: K, value: V | null): void => {
    if (value === null || value === undefined) store.delete(key, timestamp());
    else store.put(key, value, timestamp());
  };
  return {
    name: store.name,
    get,
    put,
    putIfAbsent(key, value) {
      const old = get(key);
      if (old === null) put(key, value);
      return old;
    },
    putAll(entries) {
      for (const [k, v] of entries) put(k, v);
    },
    delete(key) {
      const old = get(key);
      store.delete(key, timestamp());
      return old;
    },
    range: inRange,
    reverseRange: (from, to) => inRange(from, to).reverse(),
    all: () => sorted().map((x) => x.entry),
    reverseAll: () =>
      sorted()
        .map((x) => x.entry)
        .reverse(),
    prefixScan(prefix, prefixSerializer) {
      const p = toBuffer(prefixSerializer(prefix));
      return sorted()
        .filter(({ bytes }) => bytes.length >= p.length && bytes.subarray(0, p.length).equals(p))
        .map((x) => x.entry);
    },
    approximateNumEntries: () => store.approximateNumEntries(),
  };
}

function toBuffer(bytes: Uint8Array | null): Buffer {
  return bytes === null
    ? Buffer.alloc(0)
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
