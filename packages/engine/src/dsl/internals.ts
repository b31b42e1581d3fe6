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

/**
 * The document's Materialized fields (store, serdes, logging, caching, storeType, versioned).
 * Every key-value materialization takes a versioned supplier, as in Kafka Streams 4.1; window and
 * session stores (`versioned: false`) do not.
 */
export function materializedConfig(
  m: Materialized<unknown, unknown> | undefined,
  withValueSerde = true,
  options: { versioned?: boolean } = {},
): Record<string, unknown> {
  if (!m) return {};
  const f = m.fields();
  if (f.versioned !== undefined && options.versioned === false)
    throw new Error(
      `Materialized.as(a versioned store) is a key-value store; windowed aggregations need a window or session store (store ${f.storeName})`,
    );
  return {
    ...(f.versioned === undefined ? {} : { versioned: f.versioned }),
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
  /** Kafka's Merger(key, aggregate1, aggregate2): `agg` is the earlier session's. */
  merger:
    (fn: (key: never, agg1: never, agg2: never) => unknown): LogicFunction =>
    (vars) => {
      const v = asVars(vars);
      return fn(v.key as never, v.agg as never, v.value as never);
    },
  /**
   * Kafka's ValueJoiner(value, otherValue), or ValueJoinerWithKey(readOnlyKey, value, otherValue)
   * for a function of three parameters: the joiner variables `key`, `left` and `right`.
   */
  joiner: (fn: (...args: never[]) => unknown): LogicFunction => {
    const withKey = fn.length >= 3;
    return (vars) => {
      const v = vars as unknown as { key: unknown; left: unknown; right: unknown };
      return withKey
        ? fn(v.key as never, v.left as never, v.right as never)
        : fn(v.left as never, v.right as never);
    };
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

/**
 * An aggregation node (count / reduce / aggregate, grouped or windowed, of streams and tables):
 * its Materialized fields (plus `extra` config), its logic fields, and the resulting table.
 */
export function aggregationNode<VA>(
  from: Origin,
  kind: string,
  a: Named | Materialized<unknown, VA> | undefined,
  b: Materialized<unknown, VA> | undefined,
  logic: Record<string, [unknown, keyof typeof adapt]>,
  options: { valueSerde: boolean; retention?: boolean },
): { node: DocNode; origin: Origin; storeName: string | null } {
  const { name, materialized } = namedAndMaterialized(a, b);
  const m = materialized as Materialized<unknown, unknown> | undefined;
  const config = materializedConfig(m, options.valueSerde, {
    versioned: options.retention !== true,
  });
  const f = materialized?.fields() ?? {};
  if (options.retention === true) config['retentionMs'] = f.retentionMs;
  else if (f.retentionMs !== undefined)
    throw new Error(
      `${kind}: Materialized#withRetention applies to window and session stores only`,
    );
  const node = attach(from, kind, config, name);
  for (const [field, [fn, wrap]] of Object.entries(logic))
    node.config[field] = from.builder.logic(fn as string, node.id, field, adapt[wrap] as never);
  return {
    node,
    origin: derive(from, node, { keySerde: f.keySerde ?? from.keySerde, valueSerde: f.valueSerde }),
    storeName: f.storeName ?? null,
  };
}

/** A grouped stream's or table's count / reduce / aggregate: its aggregation node's table. */
export function aggregatedTable<K, VA>(
  from: Origin,
  kind: string,
  a: Named | Materialized<K, VA> | undefined,
  b: Materialized<K, VA> | undefined,
  logic: Record<string, [unknown, keyof typeof adapt]>,
  valueSerde: boolean,
): KTable<K, VA> {
  const { origin, storeName } = aggregationNode(
    from,
    kind,
    a as Named | Materialized<unknown, VA> | undefined,
    b as Materialized<unknown, VA> | undefined,
    logic,
    { valueSerde },
  );
  return factories.table(origin, storeName);
}

/**
 * A join node: `left` (this) on the port `left`, `other` on `right`, the joiner (and further
 * logic fields) registered under the node's id. The result keeps the left side's key serde.
 */
export function joinNode(
  left: Origin,
  right: Origin,
  kind: string,
  config: Record<string, unknown>,
  logic: Record<string, [unknown, keyof typeof adapt]>,
  name: string | undefined,
): { node: DocNode; origin: Origin } {
  if (right.builder !== left.builder)
    throw new Error(`${kind}: both sides must come from the same StreamsBuilder`);
  const node = left.builder.addNode(kind, config, name);
  const port = (o: Origin) => (o.port === undefined ? {} : { fromPort: o.port });
  left.builder.connect(left.node, node, { ...port(left), toPort: 'left' });
  left.builder.connect(right.node, node, { ...port(right), toPort: 'right' });
  for (const [field, [fn, wrap]] of Object.entries(logic))
    node.config[field] = left.builder.logic(fn as string, node.id, field, adapt[wrap] as never);
  return { node, origin: derive(left, node, { keySerde: left.keySerde }) };
}
