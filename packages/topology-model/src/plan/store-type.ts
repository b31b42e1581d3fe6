// Which kind of store a planned store is once `default.dsl.store` is known: the one rule the
// engine's store factory and the tests share.
import type { StorePlan } from '../plan-types.js';

/**
 * `inMemory` stays in memory; `persistent` is persistent under `default.dsl.store: rocksDB`
 * (Kafka's default) and in memory under `in_memory`, unless a store supplier chose it
 * (`storeTypeExplicit`: StreamJoined's store suppliers, withDslStoreSuppliers).
 */
export function effectiveStoreType(
  store: Pick<StorePlan, 'storeType' | 'storeTypeExplicit'>,
  defaultDslStore: 'rocksDB' | 'in_memory',
): 'persistent' | 'inMemory' {
  if (store.storeType === 'inMemory') return 'inMemory';
  return store.storeTypeExplicit === true || defaultDslStore === 'rocksDB'
    ? 'persistent'
    : 'inMemory';
}
