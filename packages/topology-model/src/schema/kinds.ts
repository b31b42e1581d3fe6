// The node kinds: config schema, ports, what flows out, palette category and label. Kinds are
// described once here; validation, connection checks, planning and the designer derive from it.
import type { z } from 'zod';
import * as c from './kind-configs.js';
import { foreignKeyJoinNodeKinds } from './fk-join-kind.js';
import { joinNodeKinds } from './join-kinds.js';
import { windowNodeKinds } from './window-kinds.js';

/**
 * What flows along an edge: Kafka Streams' DSL abstractions. (Windowed grouped streams arrive
 * with windowing; a globalTable is consumed by stream–globalTable joins.)
 */
export type FlowType =
  'stream' | 'grouped' | 'windowedGrouped' | 'table' | 'groupedTable' | 'globalTable';

export interface InputPortSpec {
  port: string;
  accepts: FlowType;
  /** Several edges may enter this port (merge: at least two); otherwise exactly one. */
  multiple?: boolean;
}

export interface NodeKindSpec {
  config: z.ZodType;
  /**
   * Input ports and the flow type each accepts. Empty for sources. Kinds with `configPorts`
   * derive (some of) their ports from the config: use `inputPortsOf` / `outputPortsOf`.
   */
  inputs: readonly InputPortSpec[];
  /** The flow type of every output port, or null for terminal nodes (sinks, foreach, print). */
  output: FlowType | null;
  /**
   * `outputs`: one output port per branch (split); `inputs`: one input port per entry of
   * `config.inputs` (cogroup). Absent: the static `inputs` and a single output port `out`.
   */
  configPorts?: 'inputs' | 'outputs';
  category: 'sources' | 'stateless' | 'stateful' | 'sinks';
  label: string;
}

const streamIn = [{ port: 'in', accepts: 'stream' }] as const;
const groupedIn = [{ port: 'in', accepts: 'grouped' }] as const;
const tableIn = [{ port: 'in', accepts: 'table' }] as const;
const groupedTableIn = [{ port: 'in', accepts: 'groupedTable' }] as const;

/** The order here is the palette's order within a category. */
export const nodeKinds = {
  generator: {
    config: c.generatorConfigSchema,
    inputs: [],
    output: 'stream',
    category: 'sources',
    label: 'Generator',
  },
  source: {
    config: c.sourceConfigSchema,
    inputs: [],
    output: 'stream',
    category: 'sources',
    label: 'Source',
  },
  table: {
    config: c.tableConfigSchema,
    inputs: [],
    output: 'table',
    category: 'sources',
    label: 'Table',
  },
  globalTable: {
    config: c.globalTableConfigSchema,
    inputs: [],
    output: 'globalTable',
    category: 'sources',
    label: 'Global table',
  },
  filter: {
    config: c.filterConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Filter',
  },
  filterNot: {
    config: c.filterNotConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Filter not',
  },
  map: {
    config: c.mapConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Map',
  },
  mapValues: {
    config: c.mapValuesConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Map values',
  },
  selectKey: {
    config: c.selectKeyConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Select key',
  },
  flatMap: {
    config: c.flatMapConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Flat map',
  },
  flatMapValues: {
    config: c.flatMapValuesConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Flat map values',
  },
  peek: {
    config: c.peekConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Peek',
  },
  split: {
    config: c.splitConfigSchema,
    inputs: streamIn,
    output: 'stream',
    configPorts: 'outputs',
    category: 'stateless',
    label: 'Split',
  },
  merge: {
    config: c.mergeConfigSchema,
    inputs: [{ port: 'in', accepts: 'stream', multiple: true }],
    output: 'stream',
    category: 'stateless',
    label: 'Merge',
  },
  repartition: {
    config: c.repartitionConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateless',
    label: 'Repartition',
  },
  tableFilter: {
    config: c.tableFilterConfigSchema,
    inputs: tableIn,
    output: 'table',
    category: 'stateless',
    label: 'Filter (table)',
  },
  tableFilterNot: {
    config: c.tableFilterConfigSchema,
    inputs: tableIn,
    output: 'table',
    category: 'stateless',
    label: 'Filter not (table)',
  },
  tableMapValues: {
    config: c.tableMapValuesConfigSchema,
    inputs: tableIn,
    output: 'table',
    category: 'stateless',
    label: 'Map values (table)',
  },
  transformValues: {
    config: c.transformValuesConfigSchema,
    inputs: tableIn,
    output: 'table',
    category: 'stateful',
    label: 'Transform values (table)',
  },
  toStream: {
    config: c.toStreamConfigSchema,
    inputs: tableIn,
    output: 'stream',
    category: 'stateless',
    label: 'To stream',
  },
  groupByKey: {
    config: c.groupByKeyConfigSchema,
    inputs: streamIn,
    output: 'grouped',
    category: 'stateful',
    label: 'Group by key',
  },
  groupBy: {
    config: c.groupByConfigSchema,
    inputs: streamIn,
    output: 'grouped',
    category: 'stateful',
    label: 'Group by',
  },
  count: {
    config: c.countConfigSchema,
    inputs: groupedIn,
    output: 'table',
    category: 'stateful',
    label: 'Count',
  },
  reduce: {
    config: c.reduceConfigSchema,
    inputs: groupedIn,
    output: 'table',
    category: 'stateful',
    label: 'Reduce',
  },
  aggregate: {
    config: c.aggregateConfigSchema,
    inputs: groupedIn,
    output: 'table',
    category: 'stateful',
    label: 'Aggregate',
  },
  cogroup: {
    config: c.cogroupConfigSchema,
    inputs: [],
    output: 'table',
    configPorts: 'inputs',
    category: 'stateful',
    label: 'Cogroup',
  },
  toTable: {
    config: c.toTableConfigSchema,
    inputs: streamIn,
    output: 'table',
    category: 'stateful',
    label: 'To table',
  },
  tableGroupBy: {
    config: c.tableGroupByConfigSchema,
    inputs: tableIn,
    output: 'groupedTable',
    category: 'stateful',
    label: 'Group by (table)',
  },
  tableCount: {
    config: c.tableCountConfigSchema,
    inputs: groupedTableIn,
    output: 'table',
    category: 'stateful',
    label: 'Count (table)',
  },
  tableReduce: {
    config: c.tableReduceConfigSchema,
    inputs: groupedTableIn,
    output: 'table',
    category: 'stateful',
    label: 'Reduce (table)',
  },
  tableAggregate: {
    config: c.tableAggregateConfigSchema,
    inputs: groupedTableIn,
    output: 'table',
    category: 'stateful',
    label: 'Aggregate (table)',
  },
  ...windowNodeKinds,
  ...joinNodeKinds,
  ...foreignKeyJoinNodeKinds,
  process: {
    config: c.processConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateful',
    label: 'Process',
  },
  processValues: {
    config: c.processValuesConfigSchema,
    inputs: streamIn,
    output: 'stream',
    category: 'stateful',
    label: 'Process values',
  },
  sink: {
    config: c.sinkConfigSchema,
    inputs: streamIn,
    output: null,
    category: 'sinks',
    label: 'Sink',
  },
  foreach: {
    config: c.foreachConfigSchema,
    inputs: streamIn,
    output: null,
    category: 'sinks',
    label: 'For each',
  },
  print: {
    config: c.printConfigSchema,
    inputs: streamIn,
    output: null,
    category: 'sinks',
    label: 'Print',
  },
} as const satisfies Record<string, NodeKindSpec>;

export type NodeKind = keyof typeof nodeKinds;
export const nodeKindNames = Object.keys(nodeKinds) as NodeKind[];

export type NodeConfigOf<K extends NodeKind> = z.output<(typeof nodeKinds)[K]['config']>;

/** A node with its config already validated against its kind. */
export type TopologyNode = {
  [K in NodeKind]: { id: string; kind: K; name?: string | undefined; config: NodeConfigOf<K> };
}[NodeKind];
