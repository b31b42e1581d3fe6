// Which subscriptions a foreign key has: Kafka's ForeignTableJoinProcessor range-scans its
// subscription store from the key's CombinedKey prefix ({int32 length}{fk bytes}); the engine's
// key-value stores are hash maps, so each task keeps, beside its subscription store, the store's
// keys grouped by that prefix. A right-side update then visits only its own subscriptions (in key
// byte order, as the range scan returns them), never the whole store.
//
// The index is built from the store's contents on first use, which is after restoration (a task
// restores its stores before it processes anything), and then follows every put and delete the
// receive processor makes, the only writer of the store.
import { Buffer } from 'node:buffer';
import type { KeyValueStore } from '../state/key-value-store.js';
import { splitCombinedKey } from './fk-wire.js';

const latin1 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

export class SubscriptionIndex {
  /** prefix (latin1) → the full combined keys (latin1) under it. */
  readonly #byPrefix = new Map<string, Set<string>>();

  add(key: Uint8Array): void {
    const prefix = prefixOf(key);
    let keys = this.#byPrefix.get(prefix);
    if (!keys) this.#byPrefix.set(prefix, (keys = new Set()));
    keys.add(latin1(key));
  }

  remove(key: Uint8Array): void {
    const prefix = prefixOf(key);
    const keys = this.#byPrefix.get(prefix);
    if (!keys) return;
    keys.delete(latin1(key));
    if (keys.size === 0) this.#byPrefix.delete(prefix);
  }

  /**
   * The combined keys starting with `prefix`, in unsigned byte order (latin1 text compares code
   * unit by code unit, i.e. byte by byte, shorter first: exactly Bytes' order).
   */
  prefixScan(prefix: Uint8Array): Uint8Array[] {
    const keys = this.#byPrefix.get(latin1(prefix));
    if (!keys) return [];
    return [...keys]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((k) => Buffer.from(k, 'latin1'));
  }

  get size(): number {
    let n = 0;
    for (const keys of this.#byPrefix.values()) n += keys.size;
    return n;
  }
}

function prefixOf(key: Uint8Array): string {
  const { foreignKey } = splitCombinedKey(key);
  return latin1(key.subarray(0, 4 + foreignKey.length));
}

const indexes = new WeakMap<KeyValueStore, SubscriptionIndex>();

/** The index of a task's subscription store (one per store object, so per task). */
export function subscriptionIndex(store: KeyValueStore): SubscriptionIndex {
  let index = indexes.get(store);
  if (!index) {
    index = new SubscriptionIndex();
    for (const entry of store.all()) index.add(entry.key as Uint8Array);
    indexes.set(store, index);
  }
  return index;
}
