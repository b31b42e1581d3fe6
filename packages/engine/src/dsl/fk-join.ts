// KTable#join / leftJoin(other, foreignKeyExtractor, joiner[, TableJoined][, Materialized]): the
// document's `foreignKeyJoin` node (docs/WINDOWS_AND_JOINS.md).
import { joinNode, materializedConfig, type Origin } from './internals.js';
import { Materialized } from './options.js';
import { TableJoined } from './table-joined.js';

/** Whether a KTable#join / leftJoin call is the foreign-key form (the joiner comes third). */
export function isForeignKeyCall(third: unknown): boolean {
  return typeof third === 'string' || typeof third === 'function';
}

export function foreignKeyJoin(
  left: Origin,
  right: Origin,
  type: 'inner' | 'left',
  extractor: unknown,
  joiner: unknown,
  a: unknown,
  b: unknown,
): { origin: Origin; storeName: string | null } {
  const method = type === 'left' ? 'KTable#leftJoin' : 'KTable#join';
  if (a !== undefined && !(a instanceof TableJoined) && !(a instanceof Materialized))
    throw new Error(`${method}: the fourth argument must be a TableJoined or a Materialized`);
  if (b !== undefined && !(b instanceof Materialized))
    throw new Error(`${method}: the fifth argument must be a Materialized`);
  const materialized = (a instanceof Materialized ? a : b) as
    Materialized<unknown, unknown> | undefined;
  const joined = a instanceof TableJoined ? a : undefined;
  const name = joined?.name;
  // Kafka's Function<V, KO> (one parameter) sees only the value; BiFunction<K, V, KO> both.
  const extract =
    typeof extractor === 'function' && extractor.length < 2
      ? (_key: unknown, value: unknown) => (extractor as (v: unknown) => unknown)(value)
      : extractor;
  const { node, origin } = joinNode(
    left,
    right,
    'foreignKeyJoin',
    { type, ...materializedConfig(materialized) },
    { foreignKeyExtractor: [extract, 'keyValue'], joiner: [joiner, 'joiner'] },
    name,
  );
  // Partitioners are trusted code: registered by name, as processors are; the document names them.
  for (const field of ['partitioner', 'otherPartitioner'] as const) {
    const partitioner = joined?.[field] ?? null;
    if (partitioner === null) continue;
    if (typeof partitioner !== 'function')
      throw new Error(`${method}: TableJoined's ${field} must be a function`);
    node.config[field] = left.builder.partitionerRef(partitioner, node.id, field);
  }
  const f = materialized?.fields() ?? {};
  return {
    origin: { ...origin, keySerde: f.keySerde ?? left.keySerde, valueSerde: f.valueSerde },
    storeName: f.storeName ?? null,
  };
}
