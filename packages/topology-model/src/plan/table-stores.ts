// The store and old-value handles the table and aggregation planners share: how a DSL call's
// Materialized becomes a store (KTableImpl / MaterializedInternal), and which table nodes can send
// old values (KTableSource, KTableFilter / KTableMapValues, the aggregations).
import {
  MATERIALIZED_OPTIONS,
  type SerdeName,
  type StoreSpec,
  type TopologyNode,
} from '../schema.js';
import type { PendingStore, PlanBuilder } from './builder.js';
import type { TableHandle } from './flow.js';
import { applyVersioned } from './versioned-plan.js';

export type MaterializedConfig = {
  store?: string | undefined;
  keySerde?: SerdeName | undefined;
  valueSerde?: SerdeName | undefined;
  logging?: boolean | undefined;
  caching?: boolean | undefined;
  storeType?: StoreSpec['storeType'] | undefined;
  versioned?: { historyRetentionMs: number; segmentIntervalMs?: number | undefined } | undefined;
};

/** Whether the equivalent DSL call passes a Materialized at all (some calls then burn a name). */
export function materializedGiven(config: MaterializedConfig): boolean {
  return config.store !== undefined || MATERIALIZED_OPTIONS.some((k) => config[k] !== undefined);
}

export const DROPPED: SerdeName = 'json';

export function declareStore(
  b: PlanBuilder,
  node: TopologyNode,
  name: string,
  config: MaterializedConfig,
  serdes: { keySerde: SerdeName; valueSerde: SerdeName },
  options: { materialized?: boolean; sourceTopic?: string; global?: boolean } = {},
): PendingStore {
  const store: Omit<PendingStore, 'modelNodeId'> = {
    name,
    ...serdes,
    logging: options.global ? false : (config.logging ?? true),
    caching: config.caching ?? true,
    storeType: config.storeType ?? 'persistent',
    global: options.global ?? false,
    materialized: options.materialized ?? true,
  };
  if (options.sourceTopic !== undefined) store.sourceTopicChangelog = options.sourceTopic;
  const pending = b.addStore(store, node.id);
  applyVersioned(pending, config);
  return pending;
}

/** A KTableSource (table(), toTable()): materialized when named, or when forced downstream. */
export function sourceTableHandle(store: PendingStore): TableHandle {
  return {
    enableSendingOldValues(force) {
      if (!force && !store.materialized) return false;
      store.materialized = true;
      return true;
    },
  };
}

/** Aggregation results always have their store, so they can always send old values. */
export const AGGREGATE_HANDLE: TableHandle = { enableSendingOldValues: () => true };

/** KTableFilter / KTableMapValues: their own store if queryable, else ask the parent. */
export function derivedTableHandle(
  parent: TableHandle | undefined,
  queryable: boolean,
): TableHandle {
  let sending = false;
  return {
    enableSendingOldValues(force) {
      if (queryable) return (sending = true);
      if (parent?.enableSendingOldValues(force)) sending = true;
      return sending;
    },
  };
}
