// Differential tests of foreign-key table–table joins (KTable#join / leftJoin(other,
// foreignKeyExtractor, joiner)): the same document and input on Apache Kafka Streams 4.1
// (TopologyTestDriver via tools/ks-oracle) and on our test driver must give the same describe(),
// output records (key, value, timestamp, in order) and dropped-records total.
import type { OracleScenario } from '@streamwright/ks-oracle';
import { compareWithOracle } from './fixtures/oracle-harness.js';

const fkJoin = (config: Record<string, unknown>, name?: string) => ({
  schemaVersion: 1,
  application: { id: 'fk' },
  topics: ['orders', 'products', 'out'].map((t) => ({ name: t, partitions: 1 })),
  nodes: [
    { id: 'orders', kind: 'table', config: { topic: 'orders' } },
    { id: 'products', kind: 'table', config: { topic: 'products' } },
    {
      id: 'j',
      kind: 'foreignKeyJoin',
      ...(name === undefined ? {} : { name }),
      config: {
        foreignKeyExtractor: '"product" in value ? value.product : null',
        joiner: '{"qty": left.qty, "product": right}',
        ...config,
      },
    },
    { id: 't', kind: 'toStream', config: {} },
    { id: 'out', kind: 'sink', config: { topic: 'out' } },
  ],
  edges: [
    { from: 'orders', to: 'j', toPort: 'left' },
    { from: 'products', to: 'j', toPort: 'right' },
    { from: 'j', to: 't' },
    { from: 't', to: 'out' },
  ],
});

const order = (key: string, value: unknown, timestamp: number) => ({
  topic: 'orders',
  key,
  value,
  timestamp,
});
const product = (key: string, value: unknown, timestamp: number) => ({
  topic: 'products',
  key,
  value,
  timestamp,
});

/** FK changes, a right update fanning out to several left keys, deletes on both sides, null FK. */
const story = [
  product('p1', { name: 'apple' }, 1000),
  product('p2', { name: 'pear' }, 1100),
  order('o1', { product: 'p1', qty: 1 }, 2000),
  order('o2', { product: 'p1', qty: 2 }, 2100),
  order('o3', { product: 'p2', qty: 3 }, 2200),
  // A right update answers every subscriber of p1, in key order.
  product('p1', { name: 'green apple' }, 3000),
  // The same value again: still forwarded (Kafka does not compare values here).
  product('p1', { name: 'green apple' }, 3050),
  // o1 moves to p2: unsubscribed from p1, subscribed to p2.
  order('o1', { product: 'p2', qty: 1 }, 3100),
  // An update of o1 that keeps its foreign key.
  order('o1', { product: 'p2', qty: 5 }, 3200),
  // o4 references a product that does not exist yet, o5 has no foreign key at all.
  order('o4', { product: 'p9', qty: 4 }, 3300),
  order('o5', { qty: 6 }, 3400),
  product('p9', { name: 'fig' }, 3500),
  // Deletes: a left record, then a right record with two subscribers.
  order('o2', null, 3600),
  product('p2', null, 3700),
  // o3's value changes while its product is gone; then the product comes back (earlier time).
  order('o3', { product: 'p2', qty: 30 }, 3800),
  product('p2', { name: 'nashi' }, 3750),
  // o5 gets a foreign key, o4 loses it.
  order('o5', { product: 'p1', qty: 6 }, 3900),
  order('o4', { qty: 4 }, 4000),
  // Deleting keys nobody knows and an order tombstone for an order that never joined.
  order('o9', null, 4100),
  product('p8', null, 4200),
  order('o4', null, 4300),
];

const scenarios: OracleScenario[] = [
  {
    name: 'inner foreign-key join: FK changes, fan-out, deletes on both sides, null FK',
    topology: fkJoin({}),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'left foreign-key join emits (v, null) without a match',
    topology: fkJoin({ type: 'left' }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'named left join with a queryable result store',
    topology: fkJoin({ type: 'left', store: 'enriched' }, 'enrich'),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'extractor over the key and value, inner join with a materialized result',
    topology: fkJoin({
      foreignKeyExtractor: 'key == "o3" ? "p1" : ("product" in value ? value.product : null)',
      store: 'res',
    }),
    inputs: story,
    outputs: ['out'],
  },
];

compareWithOracle('foreign-key table–table joins against Kafka Streams 4.1', scenarios);
