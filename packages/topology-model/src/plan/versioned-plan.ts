// A versioned key-value store's plan (KIP-889): its history retention and segment interval, the
// interval defaulting as Stores.persistentVersionedKeyValueStore(name, historyRetention) does.
import type { StorePlan } from '../plan-types.js';
import type { PendingStore, PlanBuilder } from './builder.js';

/** RocksDbVersionedKeyValueBytesStoreSupplier's default segment interval for a history retention. */
export function defaultSegmentIntervalMs(historyRetentionMs: number): number {
  if (historyRetentionMs <= 60_000) return Math.max(Math.floor(historyRetentionMs / 3), 2_000);
  if (historyRetentionMs <= 300_000) return Math.max(Math.floor(historyRetentionMs / 5), 20_000);
  if (historyRetentionMs <= 3_600_000) return Math.max(Math.floor(historyRetentionMs / 12), 60_000);
  return Math.max(Math.floor(historyRetentionMs / 24), 300_000);
}

export function versionedPlan(c: {
  historyRetentionMs?: number | undefined;
  segmentIntervalMs?: number | undefined;
}): NonNullable<StorePlan['versioned']> {
  const historyRetentionMs = c.historyRetentionMs ?? 0;
  return {
    historyRetentionMs,
    segmentIntervalMs: c.segmentIntervalMs ?? defaultSegmentIntervalMs(historyRetentionMs),
  };
}

/**
 * KeyValueStoreMaterializer: a versioned supplier builds a VersionedKeyValueStoreBuilder, which
 * has no caching layer (caching asked for is left off, as Kafka Streams does).
 */
export function applyVersioned(
  pending: PendingStore,
  config: {
    versioned?: { historyRetentionMs: number; segmentIntervalMs?: number | undefined } | undefined;
  },
): void {
  if (config.versioned === undefined) return;
  pending.versioned = versionedPlan(config.versioned);
  pending.caching = false;
}

const PASSING_ON = new Set(['tableFilter', 'tableFilterNot', 'tableMapValues']);

/**
 * InternalStreamsBuilder#isVersionedOrVersionedUpstream for a table node: its own store decides
 * (a versioned one, or not), an unmaterialized filter / mapValues / transformValues passes its
 * parent's on (checked against Kafka Streams 4.1 for transformValues), a
 * cogroup's merge its aggregators' store; anything else (an unmaterialized join's merger too) is
 * not versioned.
 */
export function tableOutputVersioned(b: PlanBuilder, name: string): boolean {
  const node = b.nodes.get(name);
  if (!node) return false;
  if (node.op === 'cogroup') return tableOutputVersioned(b, node.parents[0] ?? '');
  // transformValues: only its own store decides (its connected stores are the transformer's).
  if (node.modelNode?.kind === 'transformValues') {
    const own = node.modelNode.config.store;
    return own === undefined
      ? tableOutputVersioned(b, node.parents[0] ?? '')
      : b.stores.get(own)?.versioned !== undefined;
  }
  if (node.stores.length === 0)
    return PASSING_ON.has(node.op) && tableOutputVersioned(b, node.parents[0] ?? '');
  return node.stores.some((s) => b.stores.get(s)?.versioned !== undefined);
}

/**
 * KTableImpl#suppress and InternalStreamsBuilder#enableVersionedSemantics refuse to suppress a
 * versioned table, with these messages (TopologyException's "Invalid topology: " prefix).
 */
export function suppressProblem(b: PlanBuilder, parent: string): string | null {
  if (!tableOutputVersioned(b, parent)) return null;
  const node = b.nodes.get(parent);
  const direct =
    node !== undefined &&
    (node.modelNode?.kind === 'transformValues'
      ? node.modelNode.config.store !== undefined
      : node.stores.length > 0 || node.op === 'cogroup');
  return direct
    ? 'Invalid topology: suppress() is only supported for non-versioned KTables'
    : 'Invalid topology: suppress() is only supported for non-versioned KTables (note that version semantics might be inherited from upstream)';
}
