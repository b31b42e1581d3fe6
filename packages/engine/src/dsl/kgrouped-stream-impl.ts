// KGroupedStream and CogroupedKStream.
import {
  adapt,
  aggregatedTable,
  derive,
  factories,
  materializedConfig,
  namedAndMaterialized,
  type Origin,
} from './internals.js';
import type { Materialized, Named } from './options.js';
import { SessionWindows, SlidingWindows, TimeWindows } from './window-options.js';
import { SessionWindowedKStreamImpl, TimeWindowedKStreamImpl } from './windowed-stream-impl.js';
import type { WindowSpec } from '@streamwright/topology-model';
import type {
  Aggregator,
  CogroupedKStream,
  Initializer,
  KGroupedStream,
  KTable,
  Merger,
  Reducer,
  SessionWindowedCogroupedKStream,
  SessionWindowedKStream,
  TimeWindowedCogroupedKStream,
  TimeWindowedKStream,
  Windowed,
} from './types.js';

export class KGroupedStreamImpl<K, V> implements KGroupedStream<K, V> {
  constructor(readonly origin: Origin) {}

  count(a?: Named | Materialized<K, number>, b?: Materialized<K, number>): KTable<K, number> {
    return aggregatedTable(this.origin, 'count', a, b, {}, false);
  }

  reduce(
    reducer: Reducer<V>,
    a?: Named | Materialized<K, V>,
    b?: Materialized<K, V>,
  ): KTable<K, V> {
    return aggregatedTable(this.origin, 'reduce', a, b, { expression: [reducer, 'reducer'] }, true);
  }

  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    a?: Named | Materialized<K, VA>,
    b?: Materialized<K, VA>,
  ): KTable<K, VA> {
    return aggregatedTable(
      this.origin,
      'aggregate',
      a,
      b,
      { initializer: [initializer, 'initializer'], aggregator: [aggregator, 'aggregator'] },
      true,
    );
  }

  cogroup<VA>(aggregator: Aggregator<K, V, VA>): CogroupedKStream<K, VA> {
    return factories.cogrouped<K, VA>({ origin: this.origin, aggregator });
  }

  windowedBy(windows: TimeWindows | SlidingWindows): TimeWindowedKStream<K, V>;
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
  windowedBy(
    windows: TimeWindows | SlidingWindows | SessionWindows,
  ): TimeWindowedKStream<K, V> | SessionWindowedKStream<K, V> {
    if (windows instanceof SessionWindows)
      return new SessionWindowedKStreamImpl<K, V>(this.origin, windows.spec());
    if (windows instanceof TimeWindows || windows instanceof SlidingWindows)
      return new TimeWindowedKStreamImpl<K, V>(this.origin, windows.spec());
    throw new Error('windowedBy takes TimeWindows, SlidingWindows or SessionWindows');
  }
}

/** The cogroup node is written at aggregate(): one input port per cogrouped stream, in call order. */
export class CogroupedKStreamImpl<K, VA> implements CogroupedKStream<K, VA> {
  readonly #inputs: { origin: Origin; aggregator: unknown }[];

  constructor(first: { origin: Origin; aggregator: unknown }) {
    this.#inputs = [first];
  }

  cogroup<V>(
    grouped: KGroupedStream<K, V>,
    aggregator: Aggregator<K, V, VA>,
  ): CogroupedKStream<K, VA> {
    const origin = (grouped as KGroupedStreamImpl<K, V>).origin;
    if (this.#inputs.some((i) => i.origin.node === origin.node))
      throw new Error('cogroup: this grouped stream is already part of the cogroup');
    this.#inputs.push({ origin, aggregator });
    return this;
  }

  aggregate(
    initializer: Initializer<VA>,
    a?: Named | Materialized<K, VA>,
    b?: Materialized<K, VA>,
  ): KTable<K, VA> {
    return this.build(initializer, a, b, null, null) as KTable<K, VA>;
  }

  /** CogroupedKStream#windowedBy: the windows become the cogroup node's `window`. */
  windowedBy(windows: TimeWindows | SlidingWindows): TimeWindowedCogroupedKStream<K, VA>;
  windowedBy(windows: SessionWindows): SessionWindowedCogroupedKStream<K, VA>;
  windowedBy(
    windows: TimeWindows | SlidingWindows | SessionWindows,
  ): TimeWindowedCogroupedKStream<K, VA> | SessionWindowedCogroupedKStream<K, VA> {
    if (windows instanceof SessionWindows) {
      const window = windows.spec();
      const session: SessionWindowedCogroupedKStream<K, VA> = {
        aggregate: (initializer, merger, a, b) =>
          this.build(initializer, a, b, window, merger) as KTable<Windowed<K>, VA>,
      };
      return session;
    }
    if (windows instanceof TimeWindows || windows instanceof SlidingWindows) {
      const window = windows.spec();
      const timed: TimeWindowedCogroupedKStream<K, VA> = {
        aggregate: (initializer, a, b) =>
          this.build(initializer, a, b, window, null) as KTable<Windowed<K>, VA>,
      };
      return timed;
    }
    throw new Error('windowedBy takes TimeWindows, SlidingWindows or SessionWindows');
  }

  private build(
    initializer: Initializer<VA>,
    a: Named | Materialized<K, VA> | undefined,
    b: Materialized<K, VA> | undefined,
    window: WindowSpec | null,
    merger: Merger<K, VA> | null,
  ): KTable<unknown, VA> {
    const { name, materialized } = namedAndMaterialized(a, b);
    const first = this.#inputs[0]!.origin;
    const m = materialized as Materialized<unknown, unknown> | undefined;
    const node = first.builder.addNode(
      'cogroup',
      materializedConfig(m, true, { versioned: window === null }),
      name,
    );
    const inputs = this.#inputs.map(({ origin, aggregator }, i) => {
      const port = `in${i + 1}`;
      first.builder.connect(origin.node, node, { toPort: port });
      return {
        port,
        aggregator: first.builder.logic(
          aggregator as string,
          node.id,
          `aggregator-${i + 1}`,
          adapt.aggregator as never,
        ),
      };
    });
    node.config['inputs'] = inputs;
    node.config['initializer'] = first.builder.logic(
      initializer as string,
      node.id,
      'initializer',
      adapt.initializer as never,
    );
    const f = materialized?.fields() ?? {};
    if (window !== null) {
      node.config['window'] = window;
      if (merger !== null)
        node.config['merger'] = first.builder.logic(
          merger as string,
          node.id,
          'merger',
          adapt.merger as never,
        );
      if (f.retentionMs !== undefined) node.config['retentionMs'] = f.retentionMs;
    } else if (f.retentionMs !== undefined) {
      throw new Error(
        'cogroup: Materialized#withRetention applies to window and session stores only',
      );
    }
    return factories.table(
      derive(first, node, {
        // A windowed table's keys are windowed: the grouped key serde no longer describes them.
        keySerde: window === null ? (f.keySerde ?? first.keySerde) : undefined,
        valueSerde: f.valueSerde,
      }),
      f.storeName ?? null,
    );
  }
}
