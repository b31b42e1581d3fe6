// Kafka Streams' TimestampedTupleForwarder: how a KTable-producing processor with a store passes
// its Change(new, old) on. Without a record cache it forwards at once; with one (the store is
// materialized with caching and `statestore.cache.max.bytes` > 0) it only tells the cache, which
// forwards the latest change per key at the next commit or eviction (state/record-cache.ts).
import type { Headers } from '../backend-spi.js';
import type { NamedCache } from '../state/record-cache.js';
import type { CacheWriter } from '../state/window-store.js';
import {
  PUT_RETURN_CODE_NOT_PUT,
  PUT_RETURN_CODE_VALID_TO_UNDEFINED,
  type InMemoryVersionedKeyValueStore,
} from '../state/versioned-store.js';
import type { ProcessorContext } from './processor-context.js';
import type { ProcessorNode } from './processor-node.js';
import { Change } from './record.js';

export type ChangeForwarder = (
  key: unknown,
  newValue: unknown,
  /** The old value to forward without a cache (e.g. the initializer's result for a new key). */
  oldValue: unknown,
  /** The store's value before this update (null: none): the cache's old value. */
  before: unknown,
  timestamp: number,
  headers: Headers,
  /**
   * The timestamp of the record being processed, when it is not `timestamp` (a session's update
   * is forwarded at the session end): what the cache's changelog write of a tombstone or of a
   * session carries (Kafka's cache entry keeps the record context).
   */
  contextTimestamp?: number,
) => void;

export function changeForwarder(
  ctx: ProcessorContext,
  storeName: string | null,
  sendOldValues: boolean,
): ChangeForwarder {
  const cache = storeName === null ? null : ctx.recordCache(storeName);
  if (cache === null) {
    return (key, newValue, oldValue, _before, timestamp, headers) => {
      // Nothing downstream (a count whose table is only queried): no record to build.
      if (ctx.currentNode!.children.length === 0) return;
      ctx.forward({
        key,
        value: new Change(newValue, sendOldValues ? oldValue : null),
        timestamp,
        headers,
      });
    };
  }
  let owner: ProcessorNode | null = null;
  const listen = (node: ProcessorNode, target: NamedCache): void => {
    owner = node;
    target.setListener((key, newValue, oldValue, timestamp, headers) => {
      if (owner!.children.length === 0) return;
      ctx.runAs(owner!, timestamp, () =>
        ctx.forward({
          key,
          value: new Change(newValue, sendOldValues ? oldValue : null),
          timestamp,
          headers,
        }),
      );
    });
  };
  return (key, newValue, _oldValue, before, timestamp, headers, contextTimestamp) => {
    const node = ctx.currentNode!;
    // Nothing downstream: the cache would never forward anything (unless its hit ratio is
    // measured or it writes its store's changelog, the updates need not go through it).
    if (node.children.length === 0 && cache.metrics === null && cache.writer === null) return;
    if (owner === null) listen(node, cache);
    cache.put(key, before, newValue, timestamp, headers, contextTimestamp ?? timestamp);
  };
}

/**
 * A windowed aggregation's store with a record cache logs what the cache flushes instead of each
 * put (Kafka's CachingWindowStore / CachingSessionStore over the change-logging store). Called
 * from the processor's init, before its first put; not for aggregations that emit on window
 * close, whose updates do not go through the cache.
 */
export function logThroughRecordCache(
  ctx: ProcessorContext,
  storeName: string,
  store: { logThroughCache(): CacheWriter },
): void {
  const cache = ctx.recordCache(storeName);
  if (cache !== null && cache.writer === null) cache.writer = store.logThroughCache();
}

/**
 * KeyValueStoreWrapper#put then TimestampedTupleForwarder#maybeForward over a versioned store
 * (KIP-914; versioned stores have no record cache): a put older than the store's observed stream
 * time − history retention is not stored and nothing is forwarded; an out-of-order one (older
 * than the key's latest version) is stored as history and forwarded marked as not the latest,
 * which table–table joins, foreign-key joins and groupBy then ignore.
 */
export function putVersionAndForward(
  ctx: ProcessorContext,
  store: InMemoryVersionedKeyValueStore,
  sendOldValues: boolean,
  key: unknown,
  newValue: unknown,
  oldValue: unknown,
  timestamp: number,
  headers: Headers,
): void {
  const validTo = store.putVersion(key, newValue, timestamp);
  if (validTo === PUT_RETURN_CODE_NOT_PUT) return;
  if (ctx.currentNode!.children.length === 0) return;
  ctx.forward({
    key,
    value: new Change(
      newValue ?? null,
      sendOldValues ? (oldValue ?? null) : null,
      validTo === PUT_RETURN_CODE_VALID_TO_UNDEFINED,
    ),
    timestamp,
    headers,
  });
}
