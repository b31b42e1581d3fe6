// Shared plumbing of the DSL implementation: where a DSL object's records leave from, the serdes
// it knows, argument parsing of Kafka's overloads, and late-bound constructors (so that KStream,
// KTable and the grouped objects can create each other without import cycles).
import type { LogicFunction } from '../processor/registries.js';
import type { DocNode, DocumentBuilder } from './document-builder.js';
import { Materialized, Named } from './options.js';
import type { DslSerde } from './serdes.js';
import type { CogroupedKStream, KGroupedStream, KGroupedTable, KStream, KTable } from './types.js';

/** Where a DSL object's records come from: a node and (for split branches) its output port. */
export interface Origin {
  builder: DocumentBuilder;
  node: DocNode;
  port?: string;
  keySerde?: DslSerde<unknown> | undefined;
  valueSerde?: DslSerde<unknown> | undefined;
}

export interface Factories {
  stream<K, V>(origin: Origin): KStream<K, V>;
  table<K, V>(origin: Origin, queryableStoreName: string | null): KTable<K, V>;
  groupedStream<K, V>(origin: Origin): KGroupedStream<K, V>;
  groupedTable<K, V>(origin: Origin): KGroupedTable<K, V>;
  cogrouped<K, VA>(first: { origin: Origin; aggregator: unknown }): CogroupedKStream<K, VA>;
}

/** Filled in by streams-builder.ts, which imports every implementation. */
export const factories = {} as Factories;

/** Adds a node fed by `from` (its records, on its port). */
export function attach(
  from: Origin,
  kind: string,
  config: Record<string, unknown>,
  name?: string,
): DocNode {
  const node = from.builder.addNode(kind, config, name);
  from.builder.connect(from.node, node, from.port === undefined ? {} : { fromPort: from.port });
  return node;
}

export function derive(
  from: Origin,
  node: DocNode,
  serdes: {
    keySerde?: DslSerde<unknown> | undefined;
    valueSerde?: DslSerde<unknown> | undefined;
  } = {},
): Origin {
  return { builder: from.builder, node, keySerde: serdes.keySerde, valueSerde: serdes.valueSerde };
}

/** Kafka's `(Named)`, `(Materialized)` and `(Named, Materialized)` overloads. */
export function namedAndMaterialized<K, V>(
  a: Named | Materialized<K, V> | undefined,
  b: Materialized<K, V> | undefined,
): { name: string | undefined; materialized: Materialized<K, V> | undefined } {
  if (a instanceof Materialized) return { name: undefined, materialized: a };
  return { name: a instanceof Named ? a.name : undefined, materialized: b };
}

/** The document's Materialized fields (store, serdes, logging, caching, storeType). */
export function materializedConfig(
  m: Materialized<unknown, unknown> | undefined,
  withValueSerde = true,
): Record<string, unknown> {
  if (!m) return {};
  const f = m.fields();
  return {
    store: f.storeName,
    keySerde: f.keySerde?.name,
    valueSerde: withValueSerde ? f.valueSerde?.name : undefined,
    logging: f.logging,
    caching: f.caching,
    storeType: f.storeType,
  };
}

// Adapters from Kafka's parameter order to the engine's variables object.
type Vars = {
  key: unknown;
  value: unknown;
  agg: unknown;
  timestamp: number;
  headers: Record<string, string>;
};
const asVars = (vars: never): Vars => vars as unknown as Vars;

export const adapt = {
  keyValue:
    (fn: (key: never, value: never) => unknown): LogicFunction =>
    (vars) => {
      const v = asVars(vars);
      return fn(v.key as never, v.value as never);
    },
  valueKey:
    (fn: (value: never, key: never) => unknown): LogicFunction =>
    (vars) => {
      const v = asVars(vars);
      return fn(v.value as never, v.key as never);
    },
  initializer:
    (fn: () => unknown): LogicFunction =>
    () =>
      fn(),
  aggregator:
    (fn: (key: never, value: never, agg: never) => unknown): LogicFunction =>
    (vars) => {
      const v = asVars(vars);
      return fn(v.key as never, v.value as never, v.agg as never);
    },
  reducer:
    (fn: (agg: never, value: never) => unknown): LogicFunction =>
    (vars) => {
      const v = asVars(vars);
      return fn(v.agg as never, v.value as never);
    },
  topicExtractor:
    (fn: (key: never, value: never, context: never) => unknown): LogicFunction =>
    (vars) => {
      const v = asVars(vars);
      return fn(
        v.key as never,
        v.value as never,
        { timestamp: v.timestamp, headers: v.headers } as never,
      );
    },
};
