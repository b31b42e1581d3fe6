// KStream: each call adds one node to the document, fed by this stream's node.
import type { FixedKeyProcessorSupplier, ProcessorSupplier } from '../papi/types.js';
import {
  adapt,
  attach,
  derive,
  factories,
  joinNode,
  materializedConfig,
  namedAndMaterialized,
  type Origin,
} from './internals.js';
import {
  Named,
  type Grouped,
  type KeyValue,
  type Materialized,
  type Printed,
  type Produced,
  type Repartitioned,
} from './options.js';
import type {
  Branched as BranchedOptions,
  BranchedKStream,
  ForeachAction,
  KeyValueMapper,
  KGroupedStream,
  KStream,
  KTable,
  Predicate,
  TopicNameExtractor,
  ValueMapper,
} from './types.js';
import { GlobalKTableImpl, KTableImpl } from './ktable-impl.js';
import { JoinWindows, type Joined, type StreamJoined } from './window-options.js';

export class KStreamImpl<K, V> implements KStream<K, V> {
  constructor(readonly origin: Origin) {}

  #next<K2, V2>(
    kind: string,
    config: Record<string, unknown>,
    named: Named | undefined,
    serdes: { key: boolean; value: boolean },
  ): KStream<K2, V2> {
    const node = attach(this.origin, kind, config, named?.name);
    return factories.stream<K2, V2>(
      derive(this.origin, node, {
        keySerde: serdes.key ? this.origin.keySerde : undefined,
        valueSerde: serdes.value ? this.origin.valueSerde : undefined,
      }),
    );
  }

  /** Adds a node whose logic field needs the node id (function names derive from it). */
  #withLogic<K2, V2>(
    kind: string,
    logic: unknown,
    wrap: keyof typeof adapt,
    named: Named | undefined,
    serdes: { key: boolean; value: boolean },
  ): KStream<K2, V2> {
    const stream = this.#next<K2, V2>(kind, {}, named, serdes);
    const node = (stream as KStreamImpl<K2, V2>).origin.node;
    node.config['expression'] = this.origin.builder.logic(
      logic as string,
      node.id,
      'expression',
      adapt[wrap] as never,
    );
    return stream;
  }

  filter(predicate: Predicate<K, V>, named?: Named): KStream<K, V> {
    return this.#withLogic('filter', predicate, 'keyValue', named, { key: true, value: true });
  }

  filterNot(predicate: Predicate<K, V>, named?: Named): KStream<K, V> {
    return this.#withLogic('filterNot', predicate, 'keyValue', named, { key: true, value: true });
  }

  selectKey<KR>(mapper: KeyValueMapper<K, V, KR>, named?: Named): KStream<KR, V> {
    return this.#withLogic('selectKey', mapper, 'keyValue', named, { key: false, value: true });
  }

  map<KR, VR>(mapper: KeyValueMapper<K, V, KeyValue<KR, VR>>, named?: Named): KStream<KR, VR> {
    return this.#withLogic('map', mapper, 'keyValue', named, { key: false, value: false });
  }

  mapValues<VR>(mapper: ValueMapper<K, V, VR>, named?: Named): KStream<K, VR> {
    return this.#withLogic('mapValues', mapper, 'valueKey', named, { key: true, value: false });
  }

  flatMap<KR, VR>(
    mapper: KeyValueMapper<K, V, Iterable<KeyValue<KR, VR>>>,
    named?: Named,
  ): KStream<KR, VR> {
    return this.#withLogic('flatMap', mapper, 'keyValue', named, { key: false, value: false });
  }

  flatMapValues<VR>(mapper: ValueMapper<K, V, Iterable<VR>>, named?: Named): KStream<K, VR> {
    return this.#withLogic('flatMapValues', mapper, 'valueKey', named, { key: true, value: false });
  }

  peek(action: ForeachAction<K, V>, named?: Named): KStream<K, V> {
    const stream = this.#next<K, V>('peek', {}, named, { key: true, value: true });
    const node = (stream as KStreamImpl<K, V>).origin.node;
    node.config['action'] = this.origin.builder.functionRef(
      action,
      node.id,
      'action',
      adapt.keyValue(action as never),
    );
    return stream;
  }

  foreach(action: ForeachAction<K, V>, named?: Named): void {
    const node = attach(this.origin, 'foreach', {}, named?.name);
    node.config['action'] = this.origin.builder.functionRef(
      action,
      node.id,
      'action',
      adapt.keyValue(action as never),
    );
  }

  print(printed: Printed<K, V>, named?: Named): void {
    const node = attach(this.origin, 'print', { label: printed.label }, named?.name);
    if (printed.mapper !== undefined)
      node.config['mapper'] = this.origin.builder.logic(
        printed.mapper as string,
        node.id,
        'mapper',
        adapt.keyValue as never,
      );
  }

  split(named?: Named): BranchedKStream<K, V> {
    const node = attach(this.origin, 'split', { branches: [] }, named?.name);
    return new BranchedKStreamImpl<K, V>(
      derive(this.origin, node, {
        keySerde: this.origin.keySerde,
        valueSerde: this.origin.valueSerde,
      }),
      named?.name ?? '',
    );
  }

  merge(other: KStream<K, V>, named?: Named): KStream<K, V> {
    const node = attach(this.origin, 'merge', {}, named?.name);
    const from = (other as KStreamImpl<K, V>).origin;
    if (from.builder !== this.origin.builder)
      throw new Error('merge: both streams must come from the same StreamsBuilder');
    from.builder.connect(from.node, node, from.port === undefined ? {} : { fromPort: from.port });
    return factories.stream(derive(this.origin, node));
  }

  repartition(repartitioned?: Repartitioned<K, V>): KStream<K, V> {
    const node = attach(
      this.origin,
      'repartition',
      {
        partitions: repartitioned?.partitions,
        keySerde: repartitioned?.keySerde?.name,
        valueSerde: repartitioned?.valueSerde?.name,
      },
      repartitioned?.name,
    );
    return factories.stream(
      derive(this.origin, node, {
        keySerde: repartitioned?.keySerde ?? this.origin.keySerde,
        valueSerde: repartitioned?.valueSerde ?? this.origin.valueSerde,
      }),
    );
  }

  to(topic: string | TopicNameExtractor<K, V>, produced?: Produced<K, V>): void {
    // As KStreamImpl#to: serdes not given in Produced are the stream's, when it knows them.
    const key = produced?.keySerde ?? this.origin.keySerde;
    const keySerde = key?.name;
    const valueSerde = (produced?.valueSerde ?? this.origin.valueSerde)?.name;
    const node = attach(
      this.origin,
      'sink',
      {
        topic: typeof topic === 'string' ? topic : undefined,
        keySerde,
        valueSerde,
        ...key?.windowed,
      },
      produced?.name,
    );
    if (typeof topic === 'function') {
      node.config['topicExtractor'] = this.origin.builder.functionRef(
        topic,
        node.id,
        'topicExtractor',
        adapt.topicExtractor(topic as never),
      );
    } else if (typeof topic === 'object') {
      node.config['topicExtractor'] = topic.cel;
    }
  }

  toTable(a?: Named | Materialized<K, V>, b?: Materialized<K, V>): KTable<K, V> {
    const { name, materialized } = namedAndMaterialized(a, b);
    const node = attach(
      this.origin,
      'toTable',
      materializedConfig(materialized as Materialized<unknown, unknown> | undefined),
      name,
    );
    const f = materialized?.fields() ?? {};
    return factories.table(
      derive(this.origin, node, {
        keySerde: f.keySerde ?? this.origin.keySerde,
        valueSerde: f.valueSerde ?? this.origin.valueSerde,
      }),
      f.storeName ?? null,
    );
  }

  /**
   * join / leftJoin / outerJoin, by the other side's kind: a KStream (JoinWindows, StreamJoined),
   * a KTable (Joined) or a GlobalKTable (key selector, joiner, Named).
   */
  #join(type: 'inner' | 'left' | 'outer', other: unknown, a: unknown, b: unknown, c: unknown) {
    const method = type === 'inner' ? 'join' : `${type}Join`;
    if (other instanceof KStreamImpl) {
      if (!(b instanceof JoinWindows))
        throw new Error(
          `KStream#${method}(KStream, joiner, JoinWindows[, StreamJoined]): JoinWindows missing`,
        );
      const joined = c as StreamJoined<unknown, unknown, unknown> | undefined;
      const { origin } = joinNode(
        this.origin,
        other.origin,
        'streamStreamJoin',
        { type, window: b.spec(), ...joined?.documentFields() },
        { joiner: [a, 'joiner'] },
        joined?.name,
      );
      return factories.stream(origin);
    }
    if (type === 'outer') throw new Error('KStream#outerJoin takes a KStream');
    if (other instanceof KTableImpl) {
      const joined = b as Joined<unknown, unknown, unknown> | undefined;
      const { origin } = joinNode(
        this.origin,
        other.origin,
        'streamTableJoin',
        {
          type,
          keySerde: joined?.keySerde?.name,
          valueSerde: joined?.valueSerde?.name,
          gracePeriodMs: joined?.gracePeriodMs,
        },
        { joiner: [a, 'joiner'] },
        joined?.name,
      );
      return factories.stream(origin);
    }
    if (other instanceof GlobalKTableImpl) {
      const { origin } = joinNode(
        this.origin,
        other.origin,
        'streamGlobalTableJoin',
        { type },
        { keySelector: [a, 'keyValue'], joiner: [b, 'joiner'] },
        (c as Named | undefined)?.name,
      );
      return factories.stream(origin);
    }
    throw new Error(`KStream#${method}: the other side must be a KStream, KTable or GlobalKTable`);
  }

  join(other: unknown, a: unknown, b?: unknown, c?: unknown): never {
    return this.#join('inner', other, a, b, c) as never;
  }

  leftJoin(other: unknown, a: unknown, b?: unknown, c?: unknown): never {
    return this.#join('left', other, a, b, c) as never;
  }

  outerJoin(other: unknown, a: unknown, b?: unknown, c?: unknown): never {
    return this.#join('outer', other, a, b, c) as never;
  }

  groupByKey(grouped?: Grouped<K, V>): KGroupedStream<K, V> {
    const keySerde = grouped?.keySerde ?? this.origin.keySerde;
    const valueSerde = grouped?.valueSerde ?? this.origin.valueSerde;
    const node = attach(
      this.origin,
      'groupByKey',
      { keySerde: grouped?.keySerde?.name, valueSerde: grouped?.valueSerde?.name },
      grouped?.name,
    );
    return factories.groupedStream(derive(this.origin, node, { keySerde, valueSerde }));
  }

  groupBy<KR>(selector: KeyValueMapper<K, V, KR>, grouped?: Grouped<KR, V>): KGroupedStream<KR, V> {
    const node = attach(
      this.origin,
      'groupBy',
      { keySerde: grouped?.keySerde?.name, valueSerde: grouped?.valueSerde?.name },
      grouped?.name,
    );
    node.config['expression'] = this.origin.builder.logic(
      selector as string,
      node.id,
      'expression',
      adapt.keyValue as never,
    );
    return factories.groupedStream(
      derive(this.origin, node, {
        keySerde: grouped?.keySerde,
        valueSerde: grouped?.valueSerde ?? this.origin.valueSerde,
      }),
    );
  }

  process<KOut, VOut>(
    supplier: ProcessorSupplier<K, V, KOut, VOut>,
    ...stores: (string | Named)[]
  ): KStream<KOut, VOut> {
    return this.#process('process', supplier, stores, { key: false, value: false });
  }

  processValues<VOut>(
    supplier: FixedKeyProcessorSupplier<K, V, VOut>,
    ...stores: (string | Named)[]
  ): KStream<K, VOut> {
    return this.#process('processValues', supplier, stores, { key: true, value: false });
  }

  #process<K2, V2>(
    kind: string,
    supplier: () => unknown,
    args: (string | Named)[],
    serdes: { key: boolean; value: boolean },
  ): KStream<K2, V2> {
    const named = args.find((a): a is Named => a instanceof Named);
    const stores = args.filter((a): a is string => typeof a === 'string');
    const stream = this.#next<K2, V2>(kind, { stores }, named, serdes);
    const node = (stream as KStreamImpl<K2, V2>).origin.node;
    node.config['processor'] = this.origin.builder.processorRef(supplier, node.id);
    return stream;
  }
}

/** split(): branches are recorded on the split node; each branch's stream leaves on its port. */
export class BranchedKStreamImpl<K, V> implements BranchedKStream<K, V> {
  readonly #branches = new Map<string, KStream<K, V>>();
  #done = false;

  constructor(
    private readonly origin: Origin,
    private readonly prefix: string,
  ) {}

  branch(predicate: Predicate<K, V>, branched?: BranchedOptions<K, V>): BranchedKStream<K, V> {
    this.#open();
    const config = this.origin.node.config as { branches: { name?: string; predicate: unknown }[] };
    const index = config.branches.length + 1;
    const entry: { name?: string; predicate: unknown } = {
      predicate: this.origin.builder.logic(
        predicate as string,
        this.origin.node.id,
        `branch-${index}`,
        adapt.keyValue as never,
      ),
    };
    if (branched?.name !== undefined) entry.name = branched.name;
    config.branches.push(entry);
    this.#add(branched?.name ?? String(index), branched);
    return this;
  }

  defaultBranch(branched?: BranchedOptions<K, V>): Map<string, KStream<K, V>> {
    this.#open();
    const defaultBranch: { name?: string } = {};
    if (branched?.name !== undefined) defaultBranch.name = branched.name;
    this.origin.node.config['defaultBranch'] = defaultBranch;
    this.#add(branched?.name ?? '0', branched);
    return this.#finish();
  }

  noDefaultBranch(): Map<string, KStream<K, V>> {
    this.#open();
    return this.#finish();
  }

  #open(): void {
    if (this.#done)
      throw new Error(
        'split: the branches are already final (defaultBranch / noDefaultBranch was called)',
      );
  }

  #add(port: string, branched: BranchedOptions<K, V> | undefined): void {
    const stream = factories.stream<K, V>({ ...this.origin, port });
    const chained = branched?.chain ? branched.chain(stream) : stream;
    // Kafka: withConsumer branches are not in the map; withFunction ones map to the result.
    if (chained !== undefined) this.#branches.set(this.prefix + port, chained);
  }

  #finish(): Map<string, KStream<K, V>> {
    this.#done = true;
    return new Map(this.#branches);
  }
}

export const Branched = {
  as: <K, V>(name: string): BranchedOptions<K, V> => ({ name }),
  withFunction: <K, V>(
    chain: (stream: KStream<K, V>) => KStream<K, V>,
    name?: string,
  ): BranchedOptions<K, V> => (name === undefined ? { chain } : { chain, name }),
  withConsumer: <K, V>(
    consume: (stream: KStream<K, V>) => void,
    name?: string,
  ): BranchedOptions<K, V> => {
    const chain = (s: KStream<K, V>): void => consume(s);
    return name === undefined ? { chain } : { chain, name };
  },
};
