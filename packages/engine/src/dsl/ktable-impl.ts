// KTable, GlobalKTable and KGroupedTable.
import {
  adapt,
  attach,
  aggregatedTable,
  derive,
  factories,
  joinNode,
  materializedConfig,
  namedAndMaterialized,
  type Origin,
} from './internals.js';
import { foreignKeyJoin, isForeignKeyCall } from './fk-join.js';
import { Materialized, Named, type Grouped, type KeyValue } from './options.js';
import type {
  Aggregator,
  GlobalKTable,
  Initializer,
  KeyValueMapper,
  KGroupedTable,
  KStream,
  KTable,
  Predicate,
  Reducer,
  ValueJoiner,
  ValueMapper,
  ValueTransformerWithKeySupplier,
} from './types.js';
import type { Suppressed } from './window-options.js';

export class KTableImpl<K, V> implements KTable<K, V> {
  constructor(
    readonly origin: Origin,
    readonly storeName: string | null,
  ) {}

  queryableStoreName(): string | null {
    return this.storeName;
  }

  #derived<V2>(
    kind: string,
    logic: unknown,
    wrap: 'keyValue' | 'valueKey',
    a: Named | Materialized<K, V2> | undefined,
    b: Materialized<K, V2> | undefined,
    keepsValueSerde: boolean,
  ): KTable<K, V2> {
    const { name, materialized } = namedAndMaterialized(a, b);
    const node = attach(
      this.origin,
      kind,
      materializedConfig(materialized as Materialized<unknown, unknown> | undefined),
      name,
    );
    node.config['expression'] = this.origin.builder.logic(
      logic as string,
      node.id,
      'expression',
      adapt[wrap] as never,
    );
    const f = materialized?.fields() ?? {};
    return factories.table(
      derive(this.origin, node, {
        keySerde: f.keySerde ?? this.origin.keySerde,
        valueSerde: f.valueSerde ?? (keepsValueSerde ? this.origin.valueSerde : undefined),
      }),
      f.storeName ?? null,
    );
  }

  filter(
    predicate: Predicate<K, V>,
    a?: Named | Materialized<K, V>,
    b?: Materialized<K, V>,
  ): KTable<K, V> {
    return this.#derived('tableFilter', predicate, 'keyValue', a, b, true);
  }

  filterNot(
    predicate: Predicate<K, V>,
    a?: Named | Materialized<K, V>,
    b?: Materialized<K, V>,
  ): KTable<K, V> {
    return this.#derived('tableFilterNot', predicate, 'keyValue', a, b, true);
  }

  mapValues<VR>(
    mapper: ValueMapper<K, V, VR>,
    a?: Named | Materialized<K, VR>,
    b?: Materialized<K, VR>,
  ): KTable<K, VR> {
    return this.#derived('tableMapValues', mapper, 'valueKey', a, b, false);
  }

  transformValues<VR>(
    supplier: ValueTransformerWithKeySupplier<K, V, VR>,
    ...args: (Materialized<K, VR> | Named | string)[]
  ): KTable<K, VR> {
    const materialized = args.find((a): a is Materialized<K, VR> => a instanceof Materialized);
    const named = args.find((a): a is Named => a instanceof Named);
    const stores = args.filter((a): a is string => typeof a === 'string');
    const node = attach(
      this.origin,
      'transformValues',
      {
        ...materializedConfig(materialized as Materialized<unknown, unknown> | undefined),
        stores,
      },
      named?.name,
    );
    node.config['transformer'] = this.origin.builder.transformerRef(supplier, node.id);
    const f = materialized?.fields() ?? {};
    return factories.table(
      derive(this.origin, node, {
        keySerde: f.keySerde ?? this.origin.keySerde,
        valueSerde: f.valueSerde,
      }),
      f.storeName ?? null,
    );
  }

  toStream(named?: Named): KStream<K, V> {
    const node = attach(this.origin, 'toStream', {}, named?.name);
    return factories.stream(
      derive(this.origin, node, {
        keySerde: this.origin.keySerde,
        valueSerde: this.origin.valueSerde,
      }),
    );
  }

  #join<VO, VR>(
    type: 'inner' | 'left' | 'outer',
    other: KTable<K, VO>,
    joiner: unknown,
    a: Named | Materialized<K, VR> | undefined,
    b: Materialized<K, VR> | undefined,
  ): KTable<K, VR> {
    if (!(other instanceof KTableImpl))
      throw new Error('KTable#join: the other side must be a KTable');
    const { name, materialized } = namedAndMaterialized(a, b);
    const { origin } = joinNode(
      this.origin,
      (other as KTableImpl<K, VO>).origin,
      'tableTableJoin',
      { type, ...materializedConfig(materialized as Materialized<unknown, unknown> | undefined) },
      { joiner: [joiner, 'joiner'] },
      name,
    );
    const f = materialized?.fields() ?? {};
    return factories.table(
      { ...origin, keySerde: f.keySerde ?? this.origin.keySerde, valueSerde: f.valueSerde },
      f.storeName ?? null,
    );
  }

  #foreignKeyJoin<VR>(
    type: 'inner' | 'left',
    other: KTable<unknown, unknown>,
    args: unknown[],
  ): KTable<K, VR> {
    if (!(other instanceof KTableImpl))
      throw new Error('KTable#join: the other side of a foreign-key join must be a KTable');
    const { origin, storeName } = foreignKeyJoin(
      this.origin,
      (other as KTableImpl<unknown, unknown>).origin,
      type,
      ...(args as [unknown, unknown, unknown, unknown]),
    );
    return factories.table(origin, storeName);
  }

  // The primary-key form (other, joiner[, Named][, Materialized]) or the foreign-key form
  // (other, foreignKeyExtractor, joiner[, TableJoined][, Materialized]).
  join<VR>(other: KTable<unknown, unknown>, ...args: unknown[]): KTable<K, VR> {
    if (isForeignKeyCall(args[1])) return this.#foreignKeyJoin<VR>('inner', other, args);
    const [joiner, a, b] = args as [unknown, Named | undefined, Materialized<K, VR> | undefined];
    return this.#join<unknown, VR>('inner', other as KTable<K, unknown>, joiner, a, b);
  }

  // The primary-key form (other, joiner[, Named][, Materialized]) or the foreign-key form
  // (other, foreignKeyExtractor, joiner[, TableJoined][, Materialized]).
  leftJoin<VR>(other: KTable<unknown, unknown>, ...args: unknown[]): KTable<K, VR> {
    if (isForeignKeyCall(args[1])) return this.#foreignKeyJoin<VR>('left', other, args);
    const [joiner, a, b] = args as [unknown, Named | undefined, Materialized<K, VR> | undefined];
    return this.#join<unknown, VR>('left', other as KTable<K, unknown>, joiner, a, b);
  }

  outerJoin<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V | null, VO | null, VR>,
    a?: Named | Materialized<K, VR>,
    b?: Materialized<K, VR>,
  ): KTable<K, VR> {
    return this.#join('outer', other, joiner, a, b);
  }

  suppress(suppressed: Suppressed): KTable<K, V> {
    const node = attach(this.origin, 'suppress', { ...suppressed.config }, suppressed.name);
    return factories.table(
      derive(this.origin, node, {
        keySerde: this.origin.keySerde,
        valueSerde: this.origin.valueSerde,
      }),
      null,
    );
  }

  groupBy<KR, VR>(
    selector: KeyValueMapper<K, V, KeyValue<KR, VR>>,
    grouped?: Grouped<KR, VR>,
  ): KGroupedTable<KR, VR> {
    const node = attach(
      this.origin,
      'tableGroupBy',
      { keySerde: grouped?.keySerde?.name, valueSerde: grouped?.valueSerde?.name },
      grouped?.name,
    );
    node.config['expression'] = this.origin.builder.logic(
      selector as string,
      node.id,
      'expression',
      adapt.keyValue as never,
    );
    return factories.groupedTable(
      derive(this.origin, node, { keySerde: grouped?.keySerde, valueSerde: grouped?.valueSerde }),
    );
  }
}

export class GlobalKTableImpl<K, V> implements GlobalKTable<K, V> {
  declare readonly __types?: [K, V];
  constructor(
    readonly origin: Origin,
    readonly storeName: string | null,
  ) {}

  queryableStoreName(): string | null {
    return this.storeName;
  }
}

export class KGroupedTableImpl<K, V> implements KGroupedTable<K, V> {
  constructor(readonly origin: Origin) {}

  count(a?: Named | Materialized<K, number>, b?: Materialized<K, number>): KTable<K, number> {
    return aggregatedTable(this.origin, 'tableCount', a, b, {}, false);
  }

  reduce(
    adder: Reducer<V>,
    subtractor: Reducer<V>,
    a?: Named | Materialized<K, V>,
    b?: Materialized<K, V>,
  ): KTable<K, V> {
    return aggregatedTable(
      this.origin,
      'tableReduce',
      a,
      b,
      { adder: [adder, 'reducer'], subtractor: [subtractor, 'reducer'] },
      true,
    );
  }

  aggregate<VA>(
    initializer: Initializer<VA>,
    adder: Aggregator<K, V, VA>,
    subtractor: Aggregator<K, V, VA>,
    a?: Named | Materialized<K, VA>,
    b?: Materialized<K, VA>,
  ): KTable<K, VA> {
    return aggregatedTable(
      this.origin,
      'tableAggregate',
      a,
      b,
      {
        initializer: [initializer, 'initializer'],
        adder: [adder, 'aggregator'],
        subtractor: [subtractor, 'aggregator'],
      },
      true,
    );
  }
}
