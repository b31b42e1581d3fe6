// What flows out of a planned model node along its edges: the Kafka Streams DSL object
// (KStream, KGroupedStream, KTable, KGroupedTable, GlobalKTable) as far as naming, repartitioning
// and materialization need to know about it.
import type { FlowType, NodeKind, SerdeName, TopologyNode, WindowSpec } from '../schema.js';
import type { PlanBuilder } from './builder.js';

/** KTableImpl#enableSendingOldValues: may force an upstream KTableSource to materialize. */
export interface TableHandle {
  /**
   * Asks the table to send old values; `force` materializes an upstream source table if needed
   * (KTable#groupBy does). Returns whether old values will be sent.
   */
  enableSendingOldValues(force: boolean): boolean;
}

/** State of one KGroupedStream / KGroupedTable shared by every aggregation of it. */
export interface GroupingState {
  /** A named grouping's repartition source, reused by later aggregations (as Kafka Streams does). */
  repartitionSource?: string;
}

export interface Flow {
  type: FlowType;
  /** The Kafka Streams node the records leave from (for a grouped stream: its upstream node). */
  from: string;
  /** Serdes as Kafka Streams tracks them; `json` where it would fall back to default serdes. */
  keySerde: SerdeName;
  valueSerde: SerdeName;
  /** True once a key-changing operation has run: the next aggregation must repartition first. */
  repartitionRequired: boolean;
  /** Grouped.as(name): the repartition topic's name prefix, when the grouping was named. */
  groupName?: string;
  grouping?: GroupingState;
  table?: TableHandle;
  /** A windowed grouped stream's windows (windowedBy), and a windowed table's (for suppress). */
  windowing?: { window: WindowSpec; emitStrategy: 'onWindowUpdate' | 'onWindowClose' };
}

/** The flows delivered to a node, per input port, in canonical edge order. */
export type Inputs = ReadonlyMap<string, readonly Flow[]>;

/** What a planner returns: one flow for its `out` port, one per port (split), or none. */
export type Outputs = Flow | ReadonlyMap<string, Flow> | null;

export function singleInput(inputs: Inputs, id: string, port = 'in'): Flow {
  const flow = inputs.get(port)?.[0];
  if (!flow)
    throw new Error(
      `node "${id}" has no input on port "${port}": validate the topology before planning it`,
    );
  return flow;
}

/** What a model kind adds to the graph, given the flows delivered to it. */
export type Planner<K extends NodeKind> = (
  node: Extract<TopologyNode, { kind: K }>,
  inputs: Inputs,
  b: PlanBuilder,
) => Outputs;
