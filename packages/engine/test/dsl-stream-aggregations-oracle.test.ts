// Differential tests of grouped-stream aggregations (groupBy → aggregate / reduce, cogroup) against
// Apache Kafka Streams 4.1: the same output records and the same final store contents.
import type { OracleScenario } from '@streamwright/ks-oracle';
import { differential, doc, e, orders, ordersSource, sink } from './fixtures/dsl-operations.js';

const scenarios: OracleScenario[] = [
  {
    name: 'groupBy → aggregate and reduce (null keys and values dropped, max timestamps)',
    topology: doc(
      'aggregating',
      ['orders', 'totals', 'largest'],
      [
        ordersSource,
        {
          id: 'gb',
          kind: 'groupBy',
          config: { expression: 'value == null ? "none" : value.user' },
        },
        {
          id: 'agg',
          kind: 'aggregate',
          config: { initializer: '0', aggregator: 'agg + value.amount', store: 'totals' },
        },
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'totals', 'json', 'json'),
        { id: 'g2', kind: 'groupByKey', config: {} },
        {
          id: 'red',
          kind: 'reduce',
          config: { expression: 'value.amount > agg.amount ? value : agg' },
        },
        { id: 'ts2', kind: 'toStream', config: {} },
        sink('o2', 'largest'),
      ],
      [
        e('src', 'gb'),
        e('gb', 'agg'),
        e('agg', 'ts'),
        e('ts', 'o'),
        e('src', 'g2'),
        e('g2', 'red'),
        e('red', 'ts2'),
        e('ts2', 'o2'),
      ],
    ),
    inputs: orders,
    outputs: ['totals', 'largest'],
    stores: ['totals'],
  },
  {
    name: 'cogroup of two grouped streams',
    topology: doc(
      'cogrouping',
      ['clicks', 'buys', 'activity'],
      [
        { id: 'clicks', kind: 'source', config: { topic: 'clicks', valueSerde: 'long' } },
        { id: 'buys', kind: 'source', config: { topic: 'buys', valueSerde: 'long' } },
        { id: 'g1', kind: 'groupByKey', config: {} },
        { id: 'g2', kind: 'groupByKey', config: {} },
        {
          id: 'co',
          kind: 'cogroup',
          config: {
            inputs: [
              { port: 'clicks', aggregator: '{"clicks": agg.clicks + value, "buys": agg.buys}' },
              { port: 'buys', aggregator: '{"clicks": agg.clicks, "buys": agg.buys + value}' },
            ],
            initializer: '{"clicks": 0, "buys": 0}',
            store: 'activity',
          },
        },
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'activity'),
      ],
      [
        e('clicks', 'g1'),
        e('buys', 'g2'),
        e('g1', 'co', { toPort: 'clicks' }),
        e('g2', 'co', { toPort: 'buys' }),
        e('co', 'ts'),
        e('ts', 'o'),
      ],
    ),
    inputs: [
      { topic: 'clicks', key: 'ann', value: 1, timestamp: 5 },
      { topic: 'buys', key: 'ann', value: 3, timestamp: 2 },
      { topic: 'clicks', key: 'bob', value: 2, timestamp: 9 },
      { topic: 'buys', key: null, value: 1, timestamp: 10 },
      { topic: 'clicks', key: 'ann', value: 4, timestamp: 7 },
    ],
    outputs: ['activity'],
    stores: ['activity'],
  },
];

differential(
  'differential: KGroupedStream and cogroup aggregations against Apache Kafka Streams',
  scenarios,
);
