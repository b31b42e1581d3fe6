// Grouping, aggregation and table kinds, mirroring KStreamImpl#groupBy/groupByKey/toTable,
// KGroupedStreamImpl + GroupedStreamAggregateBuilder, CogroupedKStreamImpl +
// CogroupedStreamAggregateBuilder, InternalStreamsBuilder#table/globalTable, KTableImpl and
// KGroupedTableImpl (Kafka Streams 4.1). Counter values are burnt in exactly the order those
// classes burn them: that order is what makes generated names match.
import type { SerdeName, TopologyNode } from '../schema.js';
import type { PlanBuilder } from './builder.js';
import { singleInput, type Flow, type Inputs, type Planner } from './flow.js';
import {
  AGGREGATE_HANDLE,
  DROPPED,
  declareStore,
  derivedTableHandle,
  materializedGiven,
  sourceTableHandle,
  type MaterializedConfig,
} from './table-stores.js';

/**
 * GroupedStreamAggregateBuilder#build: the repartition (when the grouping follows a key change)
 * goes between the grouped stream's node and the aggregation; a named grouping's repartition is
 * created once and reused by later aggregations, which still burn its three names.
 */
function aggregationParent(
  b: PlanBuilder,
  node: TopologyNode,
  grouped: Flow,
  store: string,
): string {
  if (!grouped.repartitionRequired) return grouped.from;
  const state = (grouped.grouping ??= {});
  if (grouped.groupName !== undefined && state.repartitionSource !== undefined) {
    b.burnRepartitionNames();
    b.readRepartition(state.repartitionSource, node.id);
    return state.repartitionSource;
  }
  const source = b.repartition(grouped.groupName ?? store, grouped.from, node.id, {
    keySerde: grouped.keySerde,
    valueSerde: grouped.valueSerde,
  });
  state.repartitionSource = source;
  return source;
}

/** Shared with the windowed aggregations (window-planners.ts). */
export function streamAggregation(
  b: PlanBuilder,
  node: TopologyNode,
  grouped: Flow,
  store: string,
  name: string,
  config: MaterializedConfig,
  serdes: { keySerde: SerdeName; valueSerde: SerdeName },
): Flow {
  const parent = aggregationParent(b, node, grouped, store);
  b.addProcessor(name, node.kind, [parent], node.id, {
    modelNode: node,
    stores: [store],
    ...serdes,
  });
  declareStore(b, node, store, config, serdes);
  return {
    type: 'table',
    from: name,
    ...serdes,
    repartitionRequired: false,
    table: AGGREGATE_HANDLE,
  };
}

/**
 * KGroupedTableImpl#doAggregate: store name first (by the caller), then `-sink`, `-source` and
 * the processor name; the repartition topic (no filter node) is the grouping's name or the
 * store's, plus `-repartition`.
 */
function tableAggregation(
  b: PlanBuilder,
  node: TopologyNode,
  grouped: Flow,
  store: string,
  prefix: string,
  config: MaterializedConfig,
  serdes: { keySerde: SerdeName; valueSerde: SerdeName },
): Flow {
  const sink = b.suffixOrGenerate(node.name, '-sink', 'KSTREAM-SINK-');
  const source = b.suffixOrGenerate(node.name, '-source', 'KSTREAM-SOURCE-');
  const name = b.nameOrGenerate(node.name, prefix);
  const state = (grouped.grouping ??= {});
  let parent = state.repartitionSource;
  if (parent === undefined || grouped.groupName === undefined) {
    b.groupedTableRepartition(
      `${grouped.groupName ?? store}-repartition`,
      sink,
      source,
      grouped.from,
      node.id,
      {
        keySerde: grouped.keySerde,
        valueSerde: grouped.valueSerde,
      },
    );
    parent = state.repartitionSource = source;
  }
  b.addProcessor(name, node.kind, [parent], node.id, {
    modelNode: node,
    stores: [store],
    ...serdes,
  });
  declareStore(b, node, store, config, serdes);
  return {
    type: 'table',
    from: name,
    ...serdes,
    repartitionRequired: false,
    table: AGGREGATE_HANDLE,
  };
}

type StatefulKind =
  | 'table'
  | 'globalTable'
  | 'groupByKey'
  | 'groupBy'
  | 'count'
  | 'reduce'
  | 'aggregate'
  | 'toTable'
  | 'toStream'
  | 'tableFilter'
  | 'tableFilterNot'
  | 'tableMapValues'
  | 'transformValues'
  | 'tableGroupBy'
  | 'tableCount'
  | 'tableReduce'
  | 'tableAggregate';

function tableFilterLike(prefix: string, mapsValues: boolean) {
  return (
    node: TopologyNode & { kind: 'tableFilter' | 'tableFilterNot' | 'tableMapValues' },
    inputs: Inputs,
    b: PlanBuilder,
  ): Flow => {
    const inFlow = singleInput(inputs, node.id);
    const config = node.config;
    // KTableImpl#doFilter / doMapValues: an unnamed Materialized still burns a store name, first.
    if (materializedGiven(config) && config.store === undefined) b.newStoreName(prefix);
    const name = b.nameOrGenerate(node.name, prefix);
    const keySerde = config.keySerde ?? inFlow.keySerde;
    const valueSerde = config.valueSerde ?? (mapsValues ? DROPPED : inFlow.valueSerde);
    const queryable = config.store !== undefined;
    b.addProcessor(name, node.kind, [inFlow.from], node.id, {
      modelNode: node,
      stores: queryable ? [config.store as string] : [],
    });
    if (queryable) declareStore(b, node, config.store as string, config, { keySerde, valueSerde });
    return {
      type: 'table',
      from: name,
      keySerde,
      valueSerde,
      repartitionRequired: false,
      table: derivedTableHandle(inFlow.table, queryable),
      // A windowed table stays windowed (its keys are Windowed<K>): a following suppress buffers
      // windowed keys and waits for the windows to close.
      ...(inFlow.windowing ? { windowing: inFlow.windowing } : {}),
    };
  };
}

export const statefulPlanners: { [K in StatefulKind]: Planner<K> } = {
  // StreamsBuilder#table: store name (`<topic>-STATE-STORE-N` unless named), then the source
  // (`<name>-source`) and the KTABLE-SOURCE processor (`<name>`).
  table: (node, _inputs, b) => {
    const c = node.config;
    const store = c.store ?? b.newStoreName(`${c.topic}-`);
    const sourceName = b.suffixOrGenerate(node.name, '-source', 'KSTREAM-SOURCE-');
    const name = b.nameOrGenerate(node.name, 'KTABLE-SOURCE-');
    const serdes = { keySerde: c.keySerde, valueSerde: c.valueSerde };
    b.addSource(sourceName, 'table-source', [c.topic], node.id, { modelNode: node, ...serdes });
    b.addProcessor(name, 'table', [sourceName], node.id, {
      modelNode: node,
      stores: [store],
      ...serdes,
    });
    const pending = declareStore(b, node, store, c, serdes, {
      materialized: c.store !== undefined,
      ...(b.reuseSourceTopics ? { sourceTopic: c.topic } : {}),
    });
    return {
      type: 'table',
      from: name,
      ...serdes,
      repartitionRequired: false,
      table: sourceTableHandle(pending),
    };
  },

  globalTable: (node, _inputs, b) => {
    const c = node.config;
    const store = c.store ?? b.newStoreName(`${c.topic}-`);
    const sourceName = b.suffixOrGenerate(node.name, '-source', 'KSTREAM-SOURCE-');
    const name = b.nameOrGenerate(node.name, 'KTABLE-SOURCE-');
    const serdes = { keySerde: c.keySerde, valueSerde: c.valueSerde };
    b.addSource(sourceName, 'table-source', [c.topic], node.id, {
      modelNode: node,
      global: true,
      ...serdes,
    });
    b.addProcessor(name, 'globalTable', [sourceName], node.id, {
      modelNode: node,
      stores: [store],
      global: true,
      ...serdes,
    });
    declareStore(b, node, store, {}, serdes, { global: true });
    return { type: 'globalTable', from: name, ...serdes, repartitionRequired: false };
  },

  // KStreamImpl#groupByKey creates no processor and burns no counter value.
  groupByKey: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    b.nodeNames[node.id] ??= [];
    const grouped: Flow = {
      type: 'grouped',
      from: inFlow.from,
      keySerde: node.config.keySerde ?? inFlow.keySerde,
      valueSerde: node.config.valueSerde ?? inFlow.valueSerde,
      repartitionRequired: inFlow.repartitionRequired,
      grouping: {},
    };
    if (node.name !== undefined) grouped.groupName = node.name;
    return grouped;
  },

  // KStreamImpl#groupBy: a key-selecting KSTREAM-KEY-SELECT node named after the grouping.
  groupBy: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    const name = b.nameOrGenerate(node.name, 'KSTREAM-KEY-SELECT-');
    b.addProcessor(name, 'groupBy', [inFlow.from], node.id, { modelNode: node });
    const grouped: Flow = {
      type: 'grouped',
      from: name,
      keySerde: node.config.keySerde ?? DROPPED,
      valueSerde: node.config.valueSerde ?? inFlow.valueSerde,
      repartitionRequired: true,
      grouping: {},
    };
    if (node.name !== undefined) grouped.groupName = node.name;
    return grouped;
  },

  // KGroupedStreamImpl#count: count(Materialized) without a store name burns one more value
  // ("we used to burn a topology name here"); count() / count(Named) do not.
  count: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    const c = node.config;
    if (materializedGiven(c) && c.store === undefined) b.newStoreName('KSTREAM-AGGREGATE-');
    const store = c.store ?? b.newStoreName('KSTREAM-AGGREGATE-');
    const name = b.nameOrGenerate(node.name, 'KSTREAM-AGGREGATE-');
    const serdes = { keySerde: c.keySerde ?? grouped.keySerde, valueSerde: 'long' as const };
    return streamAggregation(b, node, grouped, store, name, c, serdes);
  },

  reduce: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    const c = node.config;
    const store = c.store ?? b.newStoreName('KSTREAM-REDUCE-');
    const name = b.nameOrGenerate(node.name, 'KSTREAM-REDUCE-');
    const serdes = {
      keySerde: c.keySerde ?? grouped.keySerde,
      valueSerde: c.valueSerde ?? grouped.valueSerde,
    };
    return streamAggregation(b, node, grouped, store, name, c, serdes);
  },

  aggregate: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    const c = node.config;
    const store = c.store ?? b.newStoreName('KSTREAM-AGGREGATE-');
    const name = b.nameOrGenerate(node.name, 'KSTREAM-AGGREGATE-');
    const serdes = {
      keySerde: c.keySerde ?? grouped.keySerde,
      valueSerde: c.valueSerde ?? DROPPED,
    };
    return streamAggregation(b, node, grouped, store, name, c, serdes);
  },

  // KStreamImpl#toTable: name first, then the store name (always: it passes Materialized.with),
  // then a repartition named after the node if the key changed before.
  toTable: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    const c = node.config;
    const name = b.nameOrGenerate(node.name, 'KSTREAM-TOTABLE-');
    const store = c.store ?? b.newStoreName('KSTREAM-TOTABLE-');
    const serdes = {
      keySerde: c.keySerde ?? inFlow.keySerde,
      valueSerde: c.valueSerde ?? inFlow.valueSerde,
    };
    const parent = inFlow.repartitionRequired
      ? b.repartition(name, inFlow.from, node.id, serdes)
      : inFlow.from;
    b.addProcessor(name, 'toTable', [parent], node.id, {
      modelNode: node,
      stores: [store],
      ...serdes,
    });
    const pending = declareStore(b, node, store, c, serdes, {
      materialized: c.store !== undefined,
    });
    return {
      type: 'table',
      from: name,
      ...serdes,
      repartitionRequired: false,
      table: sourceTableHandle(pending),
    };
  },

  toStream: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    const name = b.nameOrGenerate(node.name, 'KTABLE-TOSTREAM-');
    b.addProcessor(name, 'toStream', [inFlow.from], node.id, { modelNode: node });
    return {
      type: 'stream',
      from: name,
      keySerde: inFlow.keySerde,
      valueSerde: inFlow.valueSerde,
      repartitionRequired: false,
    };
  },

  tableFilter: tableFilterLike('KTABLE-FILTER-', false),
  tableFilterNot: tableFilterLike('KTABLE-FILTER-', false),
  tableMapValues: tableFilterLike('KTABLE-MAPVALUES-', true),

  // KTableImpl#doTransformValues: its MaterializedInternal is made without the builder, so an
  // unnamed Materialized burns no store name and materializes nothing (only a named one does).
  // TableProcessorNode connects the named state stores, then adds the result's store.
  transformValues: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    const c = node.config;
    const name = b.nameOrGenerate(node.name, 'KTABLE-TRANSFORMVALUES-');
    const keySerde = c.keySerde ?? inFlow.keySerde;
    const valueSerde = c.valueSerde ?? DROPPED;
    const queryable = c.store !== undefined;
    b.addProcessor(name, node.kind, [inFlow.from], node.id, {
      modelNode: node,
      stores: [...c.stores, ...(queryable ? [c.store as string] : [])],
    });
    if (queryable) declareStore(b, node, c.store as string, c, { keySerde, valueSerde });
    return {
      type: 'table',
      from: name,
      keySerde,
      valueSerde,
      repartitionRequired: false,
      table: derivedTableHandle(inFlow.table, queryable),
    };
  },

  // KTableImpl#groupBy: a KTABLE-SELECT node (named after the grouping); the aggregation
  // subtracts old values, so the parent must send them (materializing a source table).
  tableGroupBy: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    const name = b.nameOrGenerate(node.name, 'KTABLE-SELECT-');
    b.addProcessor(name, 'tableGroupBy', [inFlow.from], node.id, { modelNode: node });
    inFlow.table?.enableSendingOldValues(true);
    const grouped: Flow = {
      type: 'groupedTable',
      from: name,
      keySerde: node.config.keySerde ?? DROPPED,
      valueSerde: node.config.valueSerde ?? DROPPED,
      repartitionRequired: true,
      grouping: {},
    };
    if (node.name !== undefined) grouped.groupName = node.name;
    return grouped;
  },

  tableCount: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    const c = node.config;
    const store = c.store ?? b.newStoreName('KTABLE-AGGREGATE-');
    const serdes = { keySerde: c.keySerde ?? grouped.keySerde, valueSerde: 'long' as const };
    return tableAggregation(b, node, grouped, store, 'KTABLE-AGGREGATE-', c, serdes);
  },

  // KGroupedTableImpl#reduce generates its store name with the AGGREGATE prefix.
  tableReduce: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    const c = node.config;
    const store = c.store ?? b.newStoreName('KTABLE-AGGREGATE-');
    const serdes = {
      keySerde: c.keySerde ?? grouped.keySerde,
      valueSerde: c.valueSerde ?? grouped.valueSerde,
    };
    return tableAggregation(b, node, grouped, store, 'KTABLE-REDUCE-', c, serdes);
  },

  tableAggregate: (node, inputs, b) => {
    const grouped = singleInput(inputs, node.id);
    const c = node.config;
    const store = c.store ?? b.newStoreName('KTABLE-AGGREGATE-');
    const serdes = {
      keySerde: c.keySerde ?? grouped.keySerde,
      valueSerde: c.valueSerde ?? DROPPED,
    };
    return tableAggregation(b, node, grouped, store, 'KTABLE-AGGREGATE-', c, serdes);
  },
};
