// Windowing kinds, mirroring KGroupedStreamImpl#windowedBy, TimeWindowedKStreamImpl,
// SlidingWindowedKStreamImpl, SessionWindowedKStreamImpl and KTableImpl#suppress (Kafka Streams
// 4.1): windowedBy adds no node; the windowed aggregations burn names exactly like their
// non-windowed counterparts (store name first, then the processor) and share their repartition
// logic; suppress names its processor first, then its store.
import type { SerdeName, WindowSpec } from '../schema.js';
import { PlanningError, type PlanBuilder } from './builder.js';
import { singleInput, type Flow, type Planner } from './flow.js';
import { streamAggregation } from './stateful-planners.js';
import { materializedGiven } from './table-stores.js';
import { suppressProblem } from './versioned-plan.js';

const DROPPED: SerdeName = 'json';

/** The window store's default retention (each *WindowedKStreamImpl#materialize). */
export function defaultRetentionMs(window: WindowSpec): number {
  switch (window.type) {
    case 'tumbling':
    case 'hopping':
      return window.sizeMs + window.graceMs;
    case 'sliding':
      return 2 * window.timeDifferenceMs + window.graceMs;
    case 'session':
      return window.gapMs + window.graceMs;
  }
}

function windowingOf(flow: Flow, id: string): NonNullable<Flow['windowing']> {
  if (!flow.windowing)
    throw new Error(`node "${id}" aggregates a windowed stream without windows: validate first`);
  return flow.windowing;
}

/** Puts the windows on the planned node, where the engine reads them. */
export function setWindowing(b: PlanBuilder, name: string, windowing: Flow['windowing']): void {
  const node = b.nodes.get(name);
  if (node && windowing) node.windowing = windowing;
}

/**
 * Materialized#withRetention below the window's minimum fails the DSL call in Kafka Streams
 * (TimeWindowedKStreamImpl / SlidingWindowedKStreamImpl / SessionWindowedKStreamImpl#materialize),
 * with these messages; without a retention the default is used.
 */
function retentionProblem(store: string, window: WindowSpec, retention: number): string | null {
  switch (window.type) {
    case 'tumbling':
    case 'hopping':
      return window.sizeMs + window.graceMs > retention
        ? `The retention period of the window store ${store} must be no smaller than its window size plus the grace period. Got size=[${window.sizeMs}], grace=[${window.graceMs}], retention=[${retention}]`
        : null;
    case 'sliding':
      return 2 * window.timeDifferenceMs + window.graceMs > retention
        ? `The retention period of the window store ${store} must be no smaller than 2 * time difference plus the grace period. Got time difference=[${window.timeDifferenceMs}], grace=[${window.graceMs}], retention=[${retention}]`
        : null;
    case 'session':
      return window.gapMs + window.graceMs > retention
        ? `The retention period of the session store ${store} must be no smaller than the session inactivity gap plus the grace period. Got gap=[${window.gapMs}], grace=[${window.graceMs}], retention=[${retention}]`
        : null;
  }
}

export function markWindowStore(
  b: PlanBuilder,
  store: string,
  window: WindowSpec,
  retentionMs: number | undefined,
): void {
  const pending = b.stores.get(store);
  if (!pending) return;
  pending.type = window.type === 'session' ? 'session' : 'window';
  // The store's key serde stays the record key's: the changelog keys are its bytes followed by
  // the window (WindowKeySchema / SessionKeySchema), as in Kafka Streams.
  const problem = retentionMs === undefined ? null : retentionProblem(store, window, retentionMs);
  if (problem !== null)
    b.conflicts.push(new PlanningError('retention_too_small', problem, pending.modelNodeId));
  pending.retentionMs = retentionMs ?? defaultRetentionMs(window);
  if (window.type === 'sliding') pending.windowSizeMs = window.timeDifferenceMs;
  else if (window.type !== 'session') pending.windowSizeMs = window.sizeMs;
}

type WindowKind =
  'windowedBy' | 'windowedCount' | 'windowedReduce' | 'windowedAggregate' | 'suppress';

export const windowPlanners: { [K in WindowKind]: Planner<K> } = {
  // KGroupedStream#windowedBy creates no processor and burns no counter value.
  windowedBy: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    b.nodeNames[node.id] ??= [];
    return {
      ...grouped,
      type: 'windowedGrouped',
      windowing: {
        window: node.config.window,
        emitStrategy: node.config.emitStrategy ?? 'onWindowUpdate',
      },
    };
  },

  // count(Materialized) without a store name burns one more store name, as KGroupedStreamImpl.
  windowedCount: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    const windowing = windowingOf(grouped, node.id);
    const c = node.config;
    // Time and session windows' count(Materialized) burns a name (withRetention needs a
    // Materialized too); SlidingWindowedKStreamImpl#count never did.
    const given = materializedGiven(c) || c.retentionMs !== undefined;
    if (given && c.store === undefined && windowing.window.type !== 'sliding')
      b.newStoreName('KSTREAM-AGGREGATE-');
    const store = c.store ?? b.newStoreName('KSTREAM-AGGREGATE-');
    const name = b.nameOrGenerate(node.name, 'KSTREAM-AGGREGATE-');
    const serdes = { keySerde: c.keySerde ?? grouped.keySerde, valueSerde: 'long' as const };
    const flow = streamAggregation(b, node, grouped, store, name, c, serdes);
    markWindowStore(b, store, windowing.window, c.retentionMs);
    setWindowing(b, name, windowing);
    return { ...flow, windowing };
  },

  windowedReduce: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    const windowing = windowingOf(grouped, node.id);
    const c = node.config;
    const store = c.store ?? b.newStoreName('KSTREAM-REDUCE-');
    const name = b.nameOrGenerate(node.name, 'KSTREAM-REDUCE-');
    const serdes = {
      keySerde: c.keySerde ?? grouped.keySerde,
      valueSerde: c.valueSerde ?? grouped.valueSerde,
    };
    const flow = streamAggregation(b, node, grouped, store, name, c, serdes);
    markWindowStore(b, store, windowing.window, c.retentionMs);
    setWindowing(b, name, windowing);
    return { ...flow, windowing };
  },

  windowedAggregate: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    const windowing = windowingOf(grouped, node.id);
    const c = node.config;
    const store = c.store ?? b.newStoreName('KSTREAM-AGGREGATE-');
    const name = b.nameOrGenerate(node.name, 'KSTREAM-AGGREGATE-');
    const serdes = {
      keySerde: c.keySerde ?? grouped.keySerde,
      valueSerde: c.valueSerde ?? DROPPED,
    };
    const flow = streamAggregation(b, node, grouped, store, name, c, serdes);
    markWindowStore(b, store, windowing.window, c.retentionMs);
    setWindowing(b, name, windowing);
    return { ...flow, windowing };
  },

  // KTableImpl#suppress: `<name>` or KTABLE-SUPPRESS-N, then `<name>-store` or
  // KTABLE-SUPPRESS-STATE-STORE-N (an in-memory, logged buffer); the parent sends old values.
  suppress: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    const name = node.name ?? b.nameOrGenerate(undefined, 'KTABLE-SUPPRESS-');
    const store =
      node.name !== undefined ? `${node.name}-store` : b.newStoreName('KTABLE-SUPPRESS-');
    inFlow.table?.enableSendingOldValues(true);
    const problem = suppressProblem(b, inFlow.from);
    if (problem !== null)
      b.conflicts.push(new PlanningError('suppress_of_versioned_table', problem, node.id));
    b.addProcessor(name, 'suppress', [inFlow.from], node.id, { modelNode: node, stores: [store] });
    const serdes = { keySerde: inFlow.keySerde, valueSerde: inFlow.valueSerde };
    const pending = b.addStore(
      {
        name: store,
        ...serdes,
        logging: true,
        caching: false,
        storeType: 'inMemory',
        global: false,
        materialized: true,
      },
      node.id,
    );
    pending.type = 'suppression';
    setWindowing(b, name, inFlow.windowing);
    return {
      type: 'table',
      from: name,
      ...serdes,
      repartitionRequired: false,
      ...(inFlow.windowing ? { windowing: inFlow.windowing } : {}),
    };
  },
};
