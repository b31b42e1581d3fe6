// Differential tests of foreign-key joins whose tables pass through unmaterialized tableFilter /
// tableFilterNot / tableMapValues nodes: Kafka Streams (KTableImpl#doJoinOnForeignKey) reads
// both sides through their value getters, so the subscription join sees the right table as
// filtered / mapped, and the response resolver compares the hash of the left value as filtered /
// mapped (a row the filter drops is gone: the delete resolves to a tombstone). The same document
// and input run on Apache Kafka Streams 4.1 (tools/ks-oracle) and on our test driver.
import type { OracleScenario } from '@streamwright/ks-oracle';
import { compareWithOracle } from './fixtures/oracle-harness.js';

type Step = { id: string; kind: string; expression: string };

/** orders (→ left steps) ⋈fk products (→ right steps) → toStream → out. */
function fkJoin(options: {
  left?: Step[];
  right?: Step[];
  type?: 'inner' | 'left';
  extractor: string;
  joiner: string;
}) {
  const left = options.left ?? [];
  const right = options.right ?? [];
  const chain = (from: string, steps: Step[], port: 'left' | 'right') => {
    const ids = [from, ...steps.map((s) => s.id)];
    return [
      ...ids.slice(1).map((to, i) => ({ from: ids[i]!, to })),
      { from: ids[ids.length - 1]!, to: 'j', toPort: port },
    ];
  };
  return {
    schemaVersion: 1,
    application: { id: 'fkg' },
    topics: ['orders', 'products', 'out'].map((t) => ({ name: t, partitions: 1 })),
    nodes: [
      { id: 'orders', kind: 'table', config: { topic: 'orders' } },
      { id: 'products', kind: 'table', config: { topic: 'products' } },
      ...[...left, ...right].map((s) => ({
        id: s.id,
        kind: s.kind,
        config: { expression: s.expression },
      })),
      {
        id: 'j',
        kind: 'foreignKeyJoin',
        config: {
          type: options.type ?? 'inner',
          foreignKeyExtractor: options.extractor,
          joiner: options.joiner,
        },
      },
      { id: 't', kind: 'toStream', config: {} },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    edges: [
      ...chain('orders', left, 'left'),
      ...chain('products', right, 'right'),
      { from: 'j', to: 't' },
      { from: 't', to: 'out' },
    ],
  };
}

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

/**
 * Orders carry `sku` and `qty`, products `name` and `stock`. Left filters keep `qty < 10`, right
 * filters `stock > 0`: rows move in and out of both filters, tombstones on both sides.
 */
const story = [
  product('p1', { name: 'apple', stock: 5 }, 1000),
  product('p2', { name: 'pear', stock: 0 }, 1100),
  order('o1', { sku: 'p1', qty: 1 }, 2000),
  // Filtered out on the left from the start: never subscribes.
  order('o2', { sku: 'p1', qty: 20 }, 2100),
  // Subscribes to a product the right filter hides.
  order('o3', { sku: 'p2', qty: 3 }, 2200),
  // o1 leaves the left filter: Kafka sends a subscription removal, resolved as a delete.
  order('o1', { sku: 'p1', qty: 15 }, 2300),
  // A right update fans out to the subscribers the left filter let through.
  product('p1', { name: 'green apple', stock: 4 }, 2400),
  // o1 comes back, o2 enters the filter.
  order('o1', { sku: 'p1', qty: 3 }, 2500),
  order('o2', { sku: 'p1', qty: 2 }, 2600),
  // p2 enters the right filter: o3 joins; then p1 leaves it.
  product('p2', { name: 'nashi', stock: 7 }, 2700),
  product('p1', { name: 'green apple', stock: 0 }, 2800),
  // An FK change while the old product is filtered out, then an update filtered out on both.
  order('o2', { sku: 'p2', qty: 4 }, 2900),
  order('o3', { sku: 'p1', qty: 30 }, 3000),
  // p1 is back; its tombstone; an order tombstone; a tombstone of a filtered-out order.
  product('p1', { name: 'red apple', stock: 9 }, 3100),
  product('p1', null, 3200),
  order('o2', null, 3300),
  order('o3', null, 3400),
  // A product update that stays filtered out, and o1 moving to p2.
  product('p3', { name: 'fig', stock: 0 }, 3500),
  order('o1', { sku: 'p2', qty: 5 }, 3600),
  product('p2', null, 3700),
];

const bySku = 'value.sku';
const joinSku = '{"qty": left.qty, "name": right.name}';
const leftJoinSku = '{"qty": left.qty, "name": right == null ? null : right.name}';
const cheap: Step = { id: 'cheap', kind: 'tableFilter', expression: 'value.qty < 10' };
const inStock: Step = { id: 'inStock', kind: 'tableFilter', expression: 'value.stock > 0' };
// Left values reshaped: the extractor and the joiner only see the mapped field names.
const reshape: Step = {
  id: 'reshape',
  kind: 'tableMapValues',
  expression: '{"item": value.sku, "n": value.qty}',
};
const label: Step = {
  id: 'label',
  kind: 'tableMapValues',
  expression: '{"label": value.name, "stock": value.stock}',
};

const scenarios: OracleScenario[] = [
  {
    name: 'left tableFilter, inner join: a row leaving the filter is deleted, tombstones',
    topology: fkJoin({ left: [cheap], extractor: bySku, joiner: joinSku }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'left tableFilter, left join',
    topology: fkJoin({ left: [cheap], type: 'left', extractor: bySku, joiner: leftJoinSku }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'left tableMapValues, inner join: the extractor and the resolver see the mapped value',
    topology: fkJoin({
      left: [reshape],
      extractor: 'value.item',
      joiner: '{"n": left.n, "name": right.name}',
    }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'left tableMapValues, left join',
    topology: fkJoin({
      left: [reshape],
      type: 'left',
      extractor: 'value.item',
      joiner: '{"n": left.n, "name": right == null ? null : right.name}',
    }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'right tableFilter, inner join: a hidden product does not answer new subscriptions',
    topology: fkJoin({ right: [inStock], extractor: bySku, joiner: joinSku }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'right tableFilter, left join: a hidden product answers with null',
    topology: fkJoin({ right: [inStock], type: 'left', extractor: bySku, joiner: leftJoinSku }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'right tableMapValues, inner and left join see the mapped product',
    topology: fkJoin({
      right: [label],
      type: 'left',
      extractor: bySku,
      joiner: '{"qty": left.qty, "label": right == null ? null : right.label}',
    }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'right tableMapValues, inner join',
    topology: fkJoin({
      right: [label],
      extractor: bySku,
      joiner: '{"qty": left.qty, "label": right.label}',
    }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'chains on both sides (filterNot + mapValues left, mapValues + filter right), inner',
    topology: fkJoin({
      left: [{ id: 'big', kind: 'tableFilterNot', expression: 'value.qty >= 10' }, reshape],
      right: [label, { id: 'stocked', kind: 'tableFilter', expression: 'value.stock > 0' }],
      extractor: 'value.item',
      joiner: '{"n": left.n, "label": right.label}',
    }),
    inputs: story,
    outputs: ['out'],
  },
  {
    name: 'chains on both sides, left join',
    topology: fkJoin({
      left: [{ id: 'big', kind: 'tableFilterNot', expression: 'value.qty >= 10' }, reshape],
      right: [label, { id: 'stocked', kind: 'tableFilter', expression: 'value.stock > 0' }],
      type: 'left',
      extractor: 'value.item',
      joiner: '{"n": left.n, "label": right == null ? null : right.label}',
    }),
    inputs: story,
    outputs: ['out'],
  },
];

compareWithOracle(
  'foreign-key joins reading their tables through filter / mapValues getters (Kafka Streams 4.1)',
  scenarios,
);
