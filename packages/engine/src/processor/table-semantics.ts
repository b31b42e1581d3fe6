// What each planned op is to the KTable machinery: whether and how it sends old values
// (send-old-values.ts) and whether its output is a versioned table (versioned-semantics.ts).
// One entry per op (a `Record<PlannedOp, …>`): a new node kind fails
// typecheck here until it says what it is (docs/ARCHITECTURE.md, "How to add a node kind").
import type { PlannedOp } from '@streamwright/topology-model';

/**
 * KTableImpl#enableSendingOldValues, by processor:
 * - `none`: not a table processor (streams, sinks, the join's stream sides): it cannot send them;
 * - `materializedSource`: a table source, toTable, a foreign-key join's result: sends them when
 *   materialized or when forced to materialize;
 * - `storeOrParent`: KTableFilter / KTableMapValues: from its own store when materialized, else
 *   by asking its parent;
 * - `transformValues`: KTableTransformValues: its own store (not its connected ones) or its parent;
 * - `always`: aggregations (windowed too): their processors always can;
 * - `joinMerger`: KTableKTableJoinMerger: forces both joined tables;
 * - `suppress`: KTableSuppressProcessorSupplier: forces its parent, always sends them;
 * - `cogroupMerge`: KTablePassThrough over every cogrouped aggregator.
 */
export type OldValuesRole =
  | 'none'
  | 'materializedSource'
  | 'storeOrParent'
  | 'transformValues'
  | 'always'
  | 'joinMerger'
  | 'suppress'
  | 'cogroupMerge';

/**
 * InternalStreamsBuilder#enableVersionedSemantics, by processor: is the output a versioned table?
 * - `ownStore`: when its own store is versioned (no store of its own: not versioned);
 * - `ownStoreOrParent`: its own store when it has one, else its parent's (filter, mapValues,
 *   groupBy without a store);
 * - `parent`: always its parent's (a cogroup's merge is the table of the aggregators' store);
 * - `never`: a table–table join's JOINTHIS / JOINOTHER processors (Kafka sets their
 *   outputVersioned to false).
 */
export type VersionedRole = 'ownStore' | 'ownStoreOrParent' | 'parent' | 'never';

export interface TableSemantics {
  oldValues: OldValuesRole;
  versioned: VersionedRole;
}

/** A stream-side processor (or one that is never a table's parent). */
const STREAM: TableSemantics = { oldValues: 'none', versioned: 'ownStore' };
const AGGREGATION: TableSemantics = { oldValues: 'always', versioned: 'ownStore' };
const TABLE_SOURCE: TableSemantics = { oldValues: 'materializedSource', versioned: 'ownStore' };
const DERIVED_TABLE: TableSemantics = { oldValues: 'storeOrParent', versioned: 'ownStoreOrParent' };

export const tableSemantics: Record<PlannedOp, TableSemantics> = {
  // sources and the nodes the planner adds around them
  generator: STREAM,
  source: STREAM,
  'table-source': STREAM,
  'repartition-source': STREAM,
  'repartition-sink': STREAM,
  table: TABLE_SOURCE,
  globalTable: TABLE_SOURCE,
  toTable: TABLE_SOURCE,
  // stateless stream operations
  filter: STREAM,
  filterNot: STREAM,
  map: STREAM,
  mapValues: STREAM,
  selectKey: STREAM,
  flatMap: STREAM,
  flatMapValues: STREAM,
  peek: STREAM,
  split: STREAM,
  'split-branch': STREAM,
  merge: STREAM,
  repartition: STREAM,
  groupByKey: STREAM,
  groupBy: STREAM,
  process: STREAM,
  processValues: STREAM,
  sink: STREAM,
  foreach: STREAM,
  print: STREAM,
  toStream: STREAM,
  // table operations
  tableFilter: DERIVED_TABLE,
  tableFilterNot: DERIVED_TABLE,
  tableMapValues: DERIVED_TABLE,
  transformValues: { oldValues: 'transformValues', versioned: 'ownStore' },
  tableGroupBy: { oldValues: 'none', versioned: 'ownStoreOrParent' },
  suppress: { oldValues: 'suppress', versioned: 'ownStore' },
  // aggregations
  count: AGGREGATION,
  reduce: AGGREGATION,
  aggregate: AGGREGATION,
  'cogroup-aggregate': AGGREGATION,
  cogroup: { oldValues: 'cogroupMerge', versioned: 'parent' },
  tableCount: AGGREGATION,
  tableReduce: AGGREGATION,
  tableAggregate: AGGREGATION,
  windowedBy: STREAM,
  windowedCount: AGGREGATION,
  windowedReduce: AGGREGATION,
  windowedAggregate: AGGREGATION,
  // joins
  streamStreamJoin: STREAM,
  streamTableJoin: STREAM,
  streamGlobalTableJoin: STREAM,
  'join-window': STREAM,
  tableTableJoin: { oldValues: 'none', versioned: 'never' },
  'join-merge': { oldValues: 'joinMerger', versioned: 'ownStore' },
  foreignKeyJoin: STREAM,
  'fk-subscription-send': STREAM,
  'fk-subscription-receive': STREAM,
  'fk-subscription-join': STREAM,
  'fk-foreign-join': STREAM,
  'fk-response-join': STREAM,
  'fk-result': TABLE_SOURCE,
};
