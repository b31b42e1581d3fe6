// TimeWindowedKStream and SessionWindowedKStream: KGroupedStream#windowedBy(...). windowedBy adds
// no processor in Kafka Streams, so its document node is written with each aggregation (carrying
// the window and the emit strategy chosen by then).
import type { WindowSpec } from '@streamwright/topology-model';
import {
  aggregationNode,
  attach,
  derive,
  factories,
  type adapt,
  type Origin,
} from './internals.js';
import type { Materialized, Named } from './options.js';
import type {
  Aggregator,
  Initializer,
  KTable,
  Merger,
  Reducer,
  SessionWindowedKStream,
  TimeWindowedKStream,
  Windowed,
} from './types.js';
import { EmitStrategy } from './window-options.js';

type Logic = Record<string, [unknown, keyof typeof adapt]>;

class WindowedKStreamBase<K, V> {
  constructor(
    readonly origin: Origin,
    readonly window: WindowSpec,
    readonly strategy: EmitStrategy = EmitStrategy.onWindowUpdate(),
  ) {}

  protected aggregation<VA>(
    kind: string,
    a: Named | Materialized<K, VA> | undefined,
    b: Materialized<K, VA> | undefined,
    logic: Logic,
    valueSerde: boolean,
  ): KTable<Windowed<K>, VA> {
    const windowed = attach(this.origin, 'windowedBy', {
      window: this.window,
      emitStrategy: this.strategy.type === 'onWindowUpdate' ? undefined : this.strategy.type,
    });
    const { origin, storeName } = aggregationNode(
      derive(this.origin, windowed, { keySerde: this.origin.keySerde }),
      kind,
      a as Named | Materialized<unknown, VA> | undefined,
      b as Materialized<unknown, VA> | undefined,
      logic,
      { valueSerde, retention: true },
    );
    // The table's keys are windowed: the grouped key serde no longer describes them.
    return factories.table({ ...origin, keySerde: undefined }, storeName);
  }

  count(a?: Named | Materialized<K, number>, b?: Materialized<K, number>) {
    return this.aggregation<number>('windowedCount', a, b, {}, false);
  }

  reduce(reducer: Reducer<V>, a?: Named | Materialized<K, V>, b?: Materialized<K, V>) {
    return this.aggregation<V>('windowedReduce', a, b, { expression: [reducer, 'reducer'] }, true);
  }
}

export class TimeWindowedKStreamImpl<K, V>
  extends WindowedKStreamBase<K, V>
  implements TimeWindowedKStream<K, V>
{
  emitStrategy(strategy: EmitStrategy): TimeWindowedKStream<K, V> {
    return new TimeWindowedKStreamImpl(this.origin, this.window, strategy);
  }

  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    a?: Named | Materialized<K, VA>,
    b?: Materialized<K, VA>,
  ): KTable<Windowed<K>, VA> {
    return this.aggregation(
      'windowedAggregate',
      a,
      b,
      { initializer: [initializer, 'initializer'], aggregator: [aggregator, 'aggregator'] },
      true,
    );
  }
}

export class SessionWindowedKStreamImpl<K, V>
  extends WindowedKStreamBase<K, V>
  implements SessionWindowedKStream<K, V>
{
  emitStrategy(strategy: EmitStrategy): SessionWindowedKStream<K, V> {
    return new SessionWindowedKStreamImpl(this.origin, this.window, strategy);
  }

  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    sessionMerger: Merger<K, VA>,
    a?: Named | Materialized<K, VA>,
    b?: Materialized<K, VA>,
  ): KTable<Windowed<K>, VA> {
    return this.aggregation(
      'windowedAggregate',
      a,
      b,
      {
        initializer: [initializer, 'initializer'],
        aggregator: [aggregator, 'aggregator'],
        merger: [sessionMerger, 'merger'],
      },
      true,
    );
  }
}
