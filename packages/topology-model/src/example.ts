// The topology `npm start` deploys: generated orders, a stateless branch (filter → mapValues →
// sink) and a stateful one (groupByKey → count → toStream → sink), on bounded-retention topics.
import { SCHEMA_VERSION, type TopologyDocumentInput } from './schema.js';

// One hour or 64 MiB per partition, whichever comes first: the demo never fills the disk.
const boundedRetention = { 'retention.ms': 3_600_000, 'retention.bytes': 67_108_864 };

export function exampleTopology(): TopologyDocumentInput {
  return {
    schemaVersion: SCHEMA_VERSION,
    application: {
      id: 'streamwright-example',
      config: {
        'processing.guarantee': 'at_least_once',
        'commit.interval.ms': 1000,
        'num.stream.threads': 1,
      },
    },
    topics: [
      { name: 'orders', partitions: 3, config: { ...boundedRetention } },
      { name: 'large-orders', partitions: 3, config: { ...boundedRetention } },
      { name: 'orders-per-user', partitions: 3, config: { ...boundedRetention } },
    ],
    nodes: [
      {
        id: 'generator',
        kind: 'generator',
        config: {
          topic: 'orders',
          ratePerSecond: 20,
          key: '"u" + string(seq % 7)',
          value:
            '{"user": "u" + string(seq % 7), "amount": (seq * 37) % 250, "item": "i" + string(seq % 5)}',
          keySerde: 'string',
          valueSerde: 'json',
        },
      },
      { id: 'filterLarge', kind: 'filter', config: { expression: 'value.amount > 100' } },
      {
        id: 'markBig',
        kind: 'mapValues',
        config: {
          expression: '{"user": value.user, "amount": value.amount, "big": value.amount > 200}',
        },
      },
      {
        id: 'toLargeOrders',
        kind: 'sink',
        config: { topic: 'large-orders', keySerde: 'string', valueSerde: 'json' },
      },
      { id: 'groupByUser', kind: 'groupByKey', config: {} },
      { id: 'countPerUser', kind: 'count', config: { store: 'orders-per-user' } },
      { id: 'countsToStream', kind: 'toStream', config: {} },
      {
        id: 'toOrdersPerUser',
        kind: 'sink',
        config: { topic: 'orders-per-user', keySerde: 'string', valueSerde: 'long' },
      },
    ],
    edges: [
      { from: 'generator', fromPort: 'out', to: 'filterLarge', toPort: 'in' },
      { from: 'filterLarge', fromPort: 'out', to: 'markBig', toPort: 'in' },
      { from: 'markBig', fromPort: 'out', to: 'toLargeOrders', toPort: 'in' },
      { from: 'generator', fromPort: 'out', to: 'groupByUser', toPort: 'in' },
      { from: 'groupByUser', fromPort: 'out', to: 'countPerUser', toPort: 'in' },
      { from: 'countPerUser', fromPort: 'out', to: 'countsToStream', toPort: 'in' },
      { from: 'countsToStream', fromPort: 'out', to: 'toOrdersPerUser', toPort: 'in' },
    ],
    layout: {
      nodes: {
        generator: { x: 0, y: 160 },
        filterLarge: { x: 260, y: 40 },
        markBig: { x: 520, y: 40 },
        toLargeOrders: { x: 780, y: 40 },
        groupByUser: { x: 260, y: 280 },
        countPerUser: { x: 520, y: 280 },
        countsToStream: { x: 780, y: 280 },
        toOrdersPerUser: { x: 1040, y: 280 },
      },
    },
  };
}
