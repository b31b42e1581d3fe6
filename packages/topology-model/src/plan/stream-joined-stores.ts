// The stores of a stream–stream join as StreamJoined decides them (KStreamImplJoin#join,
// StreamJoinedStoreFactory, OuterStreamJoinStoreFactory; Kafka Streams 3.9 / 4.1):
// - names: a store supplier's own name; else `<storeName><suffix>-store` with the suffix
//   `-this-join` / `-outer-this-join` (outer joins) and `-other-join` / `-outer-other-join`
//   (left and outer joins); else `<JOINTHIS / JOINOTHER name>-store`. The outer store of left /
//   outer joins: `<this supplier's name | storeName>-left-shared-join-store` (left) or
//   `-outer-shared-join-store` (outer), else `KSTREAM-OUTERSHARED-<n>-store`;
// - types: a supplier's own type; else withDslStoreSuppliers; else `default.dsl.store`. The outer
//   store takes withDslStoreSuppliers, else the this-side supplier's type, else the default;
// - logging: a supplier's store is always logged with Kafka's default windowed changelog config
//   (Stores.windowStoreBuilder ignores StreamJoined's logging); the others follow
//   withLoggingEnabled(config) / withLoggingDisabled(), the window stores with
//   `cleanup.policy: delete` over the given config (they keep duplicates: nothing to compact).
import type { StreamStreamJoinConfig } from '../schema/join-kinds.js';
import type { WindowStoreSupplierSpec } from '../schema/stream-joined.js';
import type { PendingStore } from './builder.js';

type StoreFields = Pick<
  PendingStore,
  'name' | 'logging' | 'storeType' | 'storeTypeExplicit' | 'changelogConfig'
>;

export interface StreamJoinedStores {
  thisStore: StoreFields;
  otherStore: StoreFields;
  /** Left and outer joins only. */
  outerStore: StoreFields | null;
}

function fromSupplier(s: WindowStoreSupplierSpec): StoreFields {
  return { name: s.name, logging: true, storeType: s.type, storeTypeExplicit: true };
}

export function streamJoinedStores(
  c: StreamStreamJoinConfig,
  /** KSTREAM-JOINTHIS- / OUTERTHIS- and JOINOTHER- / OUTEROTHER- generated names. */
  generated: { joinThis: string; joinOther: string },
): StreamJoinedStores {
  const leftOuter = c.type !== 'inner';
  const rightOuter = c.type === 'outer';
  const logging = c.logging ?? true;
  const typeOf = (supplierType?: 'inMemory' | 'persistent'): Omit<StoreFields, 'name'> => {
    const explicit =
      c.dslStoreSuppliers === undefined
        ? supplierType
        : c.dslStoreSuppliers === 'in_memory'
          ? 'inMemory'
          : 'persistent';
    return {
      logging,
      storeType: explicit ?? 'persistent',
      ...(explicit === undefined ? {} : { storeTypeExplicit: true }),
    };
  };
  const windowStore = (suffix: string, generatedName: string): StoreFields => ({
    name: `${c.storeName === undefined ? generatedName : c.storeName + suffix}-store`,
    ...typeOf(),
    ...(logging ? { changelogConfig: { ...c.logConfig, 'cleanup.policy': 'delete' } } : {}),
  });
  const thisStore =
    c.thisStoreSupplier === undefined
      ? windowStore(rightOuter ? '-outer-this-join' : '-this-join', generated.joinThis)
      : fromSupplier(c.thisStoreSupplier);
  const otherStore =
    c.otherStoreSupplier === undefined
      ? windowStore(leftOuter ? '-outer-other-join' : '-other-join', generated.joinOther)
      : fromSupplier(c.otherStoreSupplier);
  if (!leftOuter) return { thisStore, otherStore, outerStore: null };
  const suffix = rightOuter ? '-outer-shared-join' : '-left-shared-join';
  const base = c.thisStoreSupplier?.name ?? c.storeName;
  const outerName =
    base === undefined
      ? `KSTREAM-OUTERSHARED-${generated.joinThis.slice(-10)}-store`
      : `${base}${suffix}-store`;
  const outerStore: StoreFields = {
    name: outerName,
    ...typeOf(c.thisStoreSupplier?.type),
    ...(logging && c.logConfig !== undefined ? { changelogConfig: { ...c.logConfig } } : {}),
  };
  return { thisStore, otherStore, outerStore };
}
