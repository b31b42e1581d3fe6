// Versioned semantics of joins and aggregations (KIP-914) against Apache Kafka Streams 4.1
// (TopologyTestDriver via tools/ks-oracle): table–table and foreign-key joins and aggregations of
// tables and streams materialized in versioned stores, and foreign-key joins of versioned tables.
// Same describe(), output records and dropped records.
import { type OracleScenario } from '@streamwright/ks-oracle';
import { compareWithOracle } from './fixtures/oracle-harness.js';
import {
  countAll,
  countAllEdges,
  doc,
  sink,
  table,
  toStream,
  versioned,
} from './fixtures/versioned-docs.js';

// A table–table join materialized in a versioned store over plain tables: a result older than
// the key's latest one is out of order (forwarded, ignored by groupBy).
const versionedJoin = (type: string) =>
  doc(
    [
      table('l'),
      table('r'),
      {
        id: 'j',
        kind: 'tableTableJoin',
        config: {
          type,
          joiner: '(left == null ? 0 : left) * 10 + (right == null ? 0 : right)',
          valueSerde: 'long',
          ...versioned('j', 100),
        },
      },
      toStream('js'),
      sink('out', 'long'),
      ...countAll(''),
    ],
    [
      { from: 'l', to: 'j', toPort: 'left' },
      { from: 'r', to: 'j', toPort: 'right' },
      { from: 'j', to: 'js' },
      { from: 'js', to: 'out' },
      ...countAllEdges('j', ''),
    ],
    ['l', 'r', 'out', 'counts'],
  );

const joinInput = [
  { topic: 'l', key: 'k', value: 1, timestamp: 10 },
  { topic: 'r', key: 'k', value: 2, timestamp: 20 },
  { topic: 'r', key: 'k', value: 5, timestamp: 12 }, // result at 12 < 20: out of order
  { topic: 'l', key: 'x', value: 3, timestamp: 50 },
  { topic: 'r', key: 'x', value: 4, timestamp: 1 },
  { topic: 'l', key: 'k', value: 6, timestamp: 30 },
  { topic: 'r', key: 'k', value: null, timestamp: 35 },
  { topic: 'l', key: 'y', value: 7, timestamp: 2 }, // older than 50 − 100? no: kept
  { topic: 'l', key: 'x', value: null, timestamp: 60 },
];

// Table versioned on both sides of a join: the join of versioned tables ignores their
// out-of-order updates, then a versioned result store.
const joinOfVersioned = doc(
  [
    table('l', 'long', versioned('l-store', 100)),
    table('r', 'long', versioned('r-store', 100)),
    {
      id: 'j',
      kind: 'tableTableJoin',
      config: {
        type: 'outer',
        joiner: '{"l": left, "r": right}',
        ...versioned('j', 5),
      },
    },
    toStream('js'),
    sink('out'),
  ],
  [
    { from: 'l', to: 'j', toPort: 'left' },
    { from: 'r', to: 'j', toPort: 'right' },
    { from: 'j', to: 'js' },
    { from: 'js', to: 'out' },
  ],
  ['l', 'r', 'out'],
);

// Aggregations into versioned stores (history retention 0): a result at a timestamp older than
// the store's observed stream time is not put, so not forwarded.
const tableAggregations = doc(
  [
    table('t', 'json'),
    {
      id: 'g',
      kind: 'tableGroupBy',
      config: { expression: '{"key": value.cat, "value": value.n}', valueSerde: 'long' },
    },
    { id: 'c', kind: 'tableCount', config: versioned('counts-store', 0) },
    toStream('cs'),
    sink('counts', 'long'),
    {
      id: 'r',
      kind: 'tableReduce',
      config: { adder: 'agg + value', subtractor: 'agg - value', ...versioned('sums', 0) },
    },
    toStream('rs'),
    sink('sums', 'long'),
    {
      id: 'a',
      kind: 'tableAggregate',
      config: {
        initializer: '0',
        adder: 'agg + value * 10',
        subtractor: 'agg - value * 10',
        valueSerde: 'long',
        ...versioned('aggs', 20),
      },
    },
    toStream('as'),
    sink('aggs', 'long'),
  ],
  [
    { from: 't', to: 'g' },
    { from: 'g', to: 'c' },
    { from: 'c', to: 'cs' },
    { from: 'cs', to: 'counts' },
    { from: 'g', to: 'r' },
    { from: 'r', to: 'rs' },
    { from: 'rs', to: 'sums' },
    { from: 'g', to: 'a' },
    { from: 'a', to: 'as' },
    { from: 'as', to: 'aggs' },
  ],
  ['t', 'counts', 'sums', 'aggs'],
);

const aggregationInput = [
  { topic: 't', key: 'x', value: { cat: 'A', n: 1 }, timestamp: 10 },
  { topic: 't', key: 'y', value: { cat: 'B', n: 2 }, timestamp: 20 },
  { topic: 't', key: 'z', value: { cat: 'C', n: 3 }, timestamp: 5 }, // C is new, at 5 < 20
  { topic: 't', key: 'w', value: { cat: 'C', n: 4 }, timestamp: 25 },
  { topic: 't', key: 'x', value: { cat: 'B', n: 5 }, timestamp: 12 },
  { topic: 't', key: 'y', value: null, timestamp: 30 },
];

const streamAggregations = doc(
  [
    { id: 's', kind: 'source', config: { topic: 's', valueSerde: 'long' } },
    { id: 'g', kind: 'groupByKey', config: {} },
    { id: 'c', kind: 'count', config: versioned('stream-counts', 0) },
    toStream('cs'),
    sink('counts', 'long'),
    { id: 'r', kind: 'reduce', config: { expression: 'agg + value', ...versioned('reduced', 5) } },
    toStream('rs'),
    sink('sums', 'long'),
  ],
  [
    { from: 's', to: 'g' },
    { from: 'g', to: 'c' },
    { from: 'c', to: 'cs' },
    { from: 'cs', to: 'counts' },
    { from: 'g', to: 'r' },
    { from: 'r', to: 'rs' },
    { from: 'rs', to: 'sums' },
  ],
  ['s', 'counts', 'sums'],
);

const streamInput = [
  { topic: 's', key: 'a', value: 1, timestamp: 10 },
  { topic: 's', key: 'b', value: 2, timestamp: 3 }, // new key older than 10: count not put
  { topic: 's', key: 'a', value: 3, timestamp: 4 }, // aggregate keeps max(ts) = 10
  { topic: 's', key: 'b', value: 4, timestamp: 7 },
  { topic: 's', key: 'c', value: 5, timestamp: 20 },
  { topic: 's', key: 'b', value: 6, timestamp: 21 },
];

// Foreign-key joins of versioned tables: out-of-order updates of either table are dropped
// (SubscriptionSendProcessorSupplier on the left, ForeignTableJoinProcessorSupplier on the right).
const fkOfVersioned = (type: string) =>
  doc(
    [
      table('orders', 'json', versioned('orders-store', 100)),
      table('items', 'long', versioned('items-store', 100)),
      {
        id: 'j',
        kind: 'foreignKeyJoin',
        config: {
          type,
          foreignKeyExtractor: 'value.item',
          joiner: '{"qty": left.qty, "price": right}',
        },
      },
      toStream('js'),
      sink('out'),
    ],
    [
      { from: 'orders', to: 'j', toPort: 'left' },
      { from: 'items', to: 'j', toPort: 'right' },
      { from: 'j', to: 'js' },
      { from: 'js', to: 'out' },
    ],
    ['orders', 'items', 'out'],
  );

const fkInput = [
  { topic: 'items', key: 'i1', value: 100, timestamp: 10 },
  { topic: 'orders', key: 'o1', value: { item: 'i1', qty: 1 }, timestamp: 20 },
  { topic: 'items', key: 'i1', value: 50, timestamp: 5 }, // out of order (right): dropped
  { topic: 'orders', key: 'o1', value: { item: 'i2', qty: 9 }, timestamp: 15 }, // (left): dropped
  { topic: 'items', key: 'i2', value: 200, timestamp: 30 },
  { topic: 'items', key: 'i1', value: 110, timestamp: 30 },
  { topic: 'orders', key: 'o2', value: { item: 'i2', qty: 2 }, timestamp: 40 },
  { topic: 'orders', key: 'o1', value: { item: 'i2', qty: 3 }, timestamp: 45 },
  { topic: 'items', key: 'i2', value: null, timestamp: 25 }, // out-of-order tombstone: dropped
  { topic: 'orders', key: 'o2', value: null, timestamp: 35 }, // out-of-order tombstone: dropped
  { topic: 'items', key: 'i2', value: null, timestamp: 50 },
  { topic: 'orders', key: 'o1', value: null, timestamp: 55 },
];

// A foreign-key join whose result is materialized in a versioned store, over plain tables.
const fkVersionedResult = doc(
  [
    table('orders', 'json'),
    table('items'),
    {
      id: 'j',
      kind: 'foreignKeyJoin',
      config: {
        type: 'left',
        foreignKeyExtractor: 'value.item',
        joiner: '{"qty": left.qty, "price": right}',
        ...versioned('fk-result', 10),
      },
    },
    toStream('js'),
    sink('out'),
    ...countAll(''),
  ],
  [
    { from: 'orders', to: 'j', toPort: 'left' },
    { from: 'items', to: 'j', toPort: 'right' },
    { from: 'j', to: 'js' },
    { from: 'js', to: 'out' },
    ...countAllEdges('j', ''),
  ],
  ['orders', 'items', 'out', 'counts'],
);

const fkPlainInput = [
  { topic: 'items', key: 'i1', value: 100, timestamp: 10 },
  { topic: 'orders', key: 'o1', value: { item: 'i1', qty: 1 }, timestamp: 20 },
  { topic: 'orders', key: 'o1', value: { item: 'i1', qty: 2 }, timestamp: 15 }, // out of order
  { topic: 'orders', key: 'o2', value: { item: 'i1', qty: 3 }, timestamp: 30 },
  { topic: 'orders', key: 'o1', value: { item: 'i1', qty: 4 }, timestamp: 12 }, // expired
  { topic: 'items', key: 'i1', value: null, timestamp: 40 },
];

const scenarios: OracleScenario[] = [
  ...['inner', 'left', 'outer'].map((type) => ({
    name: `table–table ${type} join materialized in a versioned store`,
    topology: versionedJoin(type),
    inputs: joinInput,
    outputs: ['out', 'counts'],
  })),
  {
    name: 'outer join of versioned tables into a versioned store',
    topology: joinOfVersioned,
    inputs: [
      { topic: 'l', key: 'k', value: 1, timestamp: 10 },
      { topic: 'r', key: 'k', value: 2, timestamp: 20 },
      { topic: 'l', key: 'k', value: 3, timestamp: 5 }, // out of order: dropped
      { topic: 'l', key: 'm', value: 4, timestamp: 8 },
      { topic: 'r', key: 'm', value: 5, timestamp: 30 },
      { topic: 'r', key: 'k', value: null, timestamp: 40 },
      { topic: 'l', key: 'n', value: 6, timestamp: 12 }, // new key, older than 40 − 5: not put
    ],
    outputs: ['out'],
  },
  {
    name: 'table count / reduce / aggregate in versioned stores',
    topology: tableAggregations,
    inputs: aggregationInput,
    outputs: ['counts', 'sums', 'aggs'],
  },
  {
    name: 'stream count / reduce in versioned stores',
    topology: streamAggregations,
    inputs: streamInput,
    outputs: ['counts', 'sums'],
  },
  ...['inner', 'left'].map((type) => ({
    name: `foreign-key ${type} join of versioned tables drops their out-of-order updates`,
    topology: fkOfVersioned(type),
    inputs: fkInput,
    outputs: ['out'],
  })),
  {
    name: 'foreign-key join materialized in a versioned store',
    topology: fkVersionedResult,
    inputs: fkPlainInput,
    outputs: ['out', 'counts'],
  },
];

compareWithOracle('versioned joins and aggregations (Kafka Streams 4.1)', scenarios);
