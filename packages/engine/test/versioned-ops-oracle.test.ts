// Versioned semantics beyond builder.table / toTable (KIP-914) against Apache Kafka Streams 4.1
// (TopologyTestDriver via tools/ks-oracle): Materialized.as(Stores.persistentVersionedKeyValueStore)
// on KTable#filter / mapValues, table–table joins, foreign-key joins and aggregations of tables
// and streams, and versioned tables read by filters and foreign-key joins. Same describe(), output
// records and dropped records; the versioned stores answer get / get(asOf) as Kafka's do.
import { runOracle, type OracleScenario } from '@streamwright/ks-oracle';
import { validateTopology } from '@streamwright/topology-model';
import { expect, it } from 'vitest';
import {
  Consumed,
  KeyValue,
  Materialized,
  Produced,
  Serdes,
  Stores,
  StreamsBuilder,
} from '../src/index.js';
import { compareWithOracle } from './fixtures/oracle-harness.js';
import { createOracleTestDriver } from './fixtures/oracle-driver.js';

type Node = Record<string, unknown>;
type Edge = { from: string; to: string; toPort?: string };

const doc = (nodes: Node[], edges: Edge[], topics: string[]) => ({
  schemaVersion: 1,
  application: { id: 'versioned-ops' },
  topics: topics.map((name) => ({ name, partitions: 1 })),
  nodes,
  edges,
});

const versioned = (store: string, historyRetentionMs: number) => ({
  store,
  versioned: { historyRetentionMs },
});
const table = (id: string, valueSerde = 'long', extra: Record<string, unknown> = {}) => ({
  id,
  kind: 'table',
  config: { topic: id, valueSerde, ...extra },
});
const toStream = (id: string) => ({ id, kind: 'toStream', config: {} });
const sink = (id: string, valueSerde = 'json') => ({
  id,
  kind: 'sink',
  config: { topic: id, valueSerde },
});
// Counts the keys of a table whose value is not null: groupBy to one key, then count.
const countAll = (prefix: string, extra: Record<string, unknown> = {}): Node[] => [
  {
    id: `${prefix}g`,
    kind: 'tableGroupBy',
    config: { expression: '{"key": "all", "value": value}', valueSerde: 'json' },
  },
  { id: `${prefix}c`, kind: 'tableCount', config: extra },
  toStream(`${prefix}cs`),
  sink('counts', 'long'),
];
const countAllEdges = (from: string, prefix: string): Edge[] => [
  { from, to: `${prefix}g` },
  { from: `${prefix}g`, to: `${prefix}c` },
  { from: `${prefix}c`, to: `${prefix}cs` },
  { from: `${prefix}cs`, to: 'counts' },
];

// A filter without a store over a versioned table: out-of-order updates pass through it (and
// groupBy ignores them); with old values asked for (by the groupBy), an update filtered out
// both before and after is still forwarded, as Kafka's KTableFilter does under versioned semantics.
const filterOverVersioned = doc(
  [
    table('t', 'long', versioned('t-store', 10)),
    { id: 'f', kind: 'tableFilter', config: { expression: 'value > 50' } },
    toStream('fs'),
    sink('out', 'long'),
    ...countAll(''),
  ],
  [
    { from: 't', to: 'f' },
    { from: 'f', to: 'fs' },
    { from: 'fs', to: 'out' },
    ...countAllEdges('f', ''),
  ],
  ['t', 'out', 'counts'],
);

const filterInput = [
  { topic: 't', key: 'a', value: 100, timestamp: 10 },
  { topic: 't', key: 'a', value: 90, timestamp: 5 }, // out of order: passes, not counted
  { topic: 't', key: 'b', value: 7, timestamp: 12 }, // filtered out before and after
  { topic: 't', key: 'a', value: 40, timestamp: 20 }, // filtered out now: a delete
  { topic: 't', key: 'a', value: 60, timestamp: 15 }, // out of order
  { topic: 't', key: 'b', value: 80, timestamp: 18 },
  { topic: 't', key: 'c', value: 99, timestamp: 2 }, // older than 20 − 10: not put
  { topic: 't', key: 'b', value: null, timestamp: 22 }, // tombstone
  { topic: 't', key: 'b', value: null, timestamp: 21 }, // out-of-order tombstone
];

// A filter materialized in a versioned store over a plain table: the filter's store decides
// what is the latest version (an update older than the filter's history is not forwarded).
const versionedFilter = doc(
  [
    table('t'),
    { id: 'f', kind: 'tableFilter', config: { expression: 'value > 50', ...versioned('f', 10) } },
    toStream('fs'),
    sink('out', 'long'),
    ...countAll(''),
  ],
  [
    { from: 't', to: 'f' },
    { from: 'f', to: 'fs' },
    { from: 'fs', to: 'out' },
    ...countAllEdges('f', ''),
  ],
  ['t', 'out', 'counts'],
);

const plainInput = [
  { topic: 't', key: 'a', value: 100, timestamp: 10 },
  { topic: 't', key: 'a', value: 90, timestamp: 5 }, // out of order for the filter's store
  { topic: 't', key: 'a', value: 60, timestamp: 20 },
  { topic: 't', key: 'a', value: 70, timestamp: 8 }, // older than 20 − 10: not put, not forwarded
  { topic: 't', key: 'b', value: 7, timestamp: 12 }, // filtered out before and after: skipped
  { topic: 't', key: 'b', value: 77, timestamp: 14 },
  { topic: 't', key: 'a', value: 30, timestamp: 25 }, // filtered out: a tombstone version
  { topic: 't', key: 'b', value: null, timestamp: 13 }, // out-of-order tombstone
];

const filterGets = [
  { store: 'f', key: 'a' },
  { store: 'f', key: 'a', asOf: 22 },
  { store: 'f', key: 'a', asOf: 16 },
  { store: 'f', key: 'b' },
  { store: 'f', key: 'b', asOf: 13 },
  { store: 'f', key: 'b', asOf: 20 },
];

// mapValues materialized in a versioned store, read by a stream–table join as of each order's
// time, and by toStream.
const versionedMapValues = doc(
  [
    { id: 'orders', kind: 'source', config: { topic: 'orders', valueSerde: 'long' } },
    table('prices'),
    {
      id: 'm',
      kind: 'tableMapValues',
      config: { expression: 'value * 2', valueSerde: 'long', ...versioned('m', 100) },
    },
    toStream('ms'),
    sink('log', 'long'),
    {
      id: 'j',
      kind: 'streamTableJoin',
      config: { type: 'left', joiner: '{"qty": left, "price": right}' },
    },
    sink('out'),
  ],
  [
    { from: 'prices', to: 'm' },
    { from: 'm', to: 'ms' },
    { from: 'ms', to: 'log' },
    { from: 'orders', to: 'j', toPort: 'left' },
    { from: 'm', to: 'j', toPort: 'right' },
    { from: 'j', to: 'out' },
  ],
  ['orders', 'prices', 'log', 'out'],
);

const mapValuesInput = [
  { topic: 'prices', key: 'a', value: 1, timestamp: 10 },
  { topic: 'prices', key: 'a', value: 3, timestamp: 30 },
  { topic: 'prices', key: 'a', value: 2, timestamp: 20 }, // out of order: history
  { topic: 'orders', key: 'a', value: 1, timestamp: 25 }, // joins the version at 20
  { topic: 'orders', key: 'a', value: 2, timestamp: 35 },
  { topic: 'orders', key: 'a', value: 3, timestamp: 15 },
  { topic: 'prices', key: 'a', value: null, timestamp: 40 },
  { topic: 'orders', key: 'a', value: 4, timestamp: 45 },
  { topic: 'orders', key: 'a', value: 5, timestamp: 31 },
];

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

// The designer's story (e2e/specs/versioned-operations.spec.ts builds this document in the
// designer and checks the deployed app against these results): a filter of a plain price table,
// materialized in a versioned store, fed out-of-order and expired updates.
export const designerStory = {
  topology: {
    schemaVersion: 1,
    application: { id: 'versioned-filter-app' },
    topics: ['vf-prices', 'vf-cheap'].map((name) => ({ name, partitions: 1 })),
    nodes: [
      {
        id: 'prices',
        kind: 'table',
        config: { topic: 'vf-prices', timestampExtractor: { expression: 'value.ts' } },
      },
      {
        id: 'cheap',
        kind: 'tableFilter',
        config: {
          expression: 'value.price < 100',
          store: 'cheap-prices',
          versioned: { historyRetentionMs: 1000 },
        },
      },
      toStream('changes'),
      { id: 'out', kind: 'sink', config: { topic: 'vf-cheap' } },
    ],
    edges: [
      { from: 'prices', to: 'cheap' },
      { from: 'cheap', to: 'changes' },
      { from: 'changes', to: 'out' },
    ],
  },
  inputs: [
    [50, 1000],
    [70, 3000],
    [60, 2000], // out of order: history, forwarded
    [150, 4000], // filtered out: a tombstone version
    [40, 2500], // older than 4000 − 1000: not put, not forwarded
  ].map(([price, ts]) => ({
    topic: 'vf-prices',
    key: 'widget',
    value: { price, ts },
    timestamp: 0,
  })),
  gets: [
    { store: 'cheap-prices', key: 'widget' },
    { store: 'cheap-prices', key: 'widget', asOf: 3500 },
    { store: 'cheap-prices', key: 'widget', asOf: 3000 },
    { store: 'cheap-prices', key: 'widget', asOf: 2500 },
  ],
};

const scenarios: OracleScenario[] = [
  {
    name: "the designer's story: a versioned filter of a price table",
    topology: designerStory.topology,
    inputs: designerStory.inputs,
    outputs: ['vf-cheap'],
    versionedGets: designerStory.gets,
  },
  {
    name: 'a filter over a versioned table passes out-of-order updates and forwards double deletes',
    topology: filterOverVersioned,
    inputs: filterInput,
    outputs: ['out', 'counts'],
  },
  {
    name: 'filter materialized in a versioned store: out-of-order and expired updates',
    topology: versionedFilter,
    inputs: plainInput,
    outputs: ['out', 'counts'],
    versionedGets: filterGets,
  },
  {
    name: 'mapValues materialized in a versioned store, joined as of each stream record',
    topology: versionedMapValues,
    inputs: mapValuesInput,
    outputs: ['log', 'out'],
  },
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

compareWithOracle('versioned operations (Kafka Streams 4.1)', scenarios, (expected) => {
  it("the designer's story: the versioned filter's store answers as Kafka Streams' does", () => {
    const reference = expected()[0]!;
    expect(reference.error).toBeUndefined();
    const result = validateTopology(designerStory.topology);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const driver = createOracleTestDriver(result.topology);
    for (const r of designerStory.inputs) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    const store = driver.getVersionedKeyValueStore('cheap-prices');
    const mine = designerStory.gets.map((q) =>
      q.asOf === undefined ? store.get(q.key) : store.get(q.key, q.asOf),
    );
    driver.close();
    expect(mine).toEqual(reference.versionedGets);
    // What e2e/specs/versioned-operations.spec.ts expects of the deployed app.
    expect(reference.outputs?.['vf-cheap']?.map((r) => r.value)).toEqual([
      { price: 50, ts: 1000 },
      { price: 70, ts: 3000 },
      { price: 60, ts: 2000 },
      null,
    ]);
    expect(reference.versionedGets).toEqual([
      null,
      { value: { price: 70, ts: 3000 }, timestamp: 3000 },
      { value: { price: 70, ts: 3000 }, timestamp: 3000 },
      null,
    ]);
  });

  it("a versioned filter's store answers get and get(asOf) as Kafka Streams' does", () => {
    const reference = expected()[2]!;
    expect(reference.error).toBeUndefined();
    const result = validateTopology(versionedFilter);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const driver = createOracleTestDriver(result.topology);
    for (const r of plainInput) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    const store = driver.getVersionedKeyValueStore('f');
    const mine = filterGets.map((q) =>
      q.asOf === undefined ? store.get(q.key) : store.get(q.key, q.asOf),
    );
    driver.close();
    expect(mine).toEqual(reference.versionedGets);
  });

  it('the DSL: KTable#filter(predicate, Materialized.as(a versioned store)) gives the same output', () => {
    const reference = expected()[2]!;
    const builder = new StreamsBuilder();
    const filtered = builder
      .table('t', Consumed.with(Serdes.String(), Serdes.Long()))
      .filter(
        (_k: string, v: number) => v > 50,
        Materialized.as<string, number>(Stores.persistentVersionedKeyValueStore('f', 10)),
      );
    filtered.toStream().to('out', Produced.with(Serdes.String(), Serdes.Long()));
    filtered
      .groupBy((_k: string, v: number) => KeyValue.pair('all', v))
      .count()
      .toStream()
      .to('counts', Produced.with(Serdes.String(), Serdes.Long()));
    const built = builder.build({ applicationId: 'versioned-ops' });
    expect(built.topology.nodes[1]?.config).toMatchObject({
      store: 'f',
      versioned: { historyRetentionMs: 10 },
    });
    const driver = createOracleTestDriver(built);
    for (const r of plainInput) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    const read = (topic: string) =>
      driver.readOutput(topic).map(({ key, value, timestamp }) => ({ key, value, timestamp }));
    const out = { out: read('out'), counts: read('counts') };
    driver.close();
    expect(out).toEqual(reference.outputs);
  });
});

// suppress() of a versioned table: Kafka Streams refuses it when building (KTableImpl#suppress
// for a versioned table itself, InternalStreamsBuilder#enableVersionedSemantics below one).
const suppressed = (between: Node[]) =>
  doc(
    [
      table('t', 'long', versioned('t-store', 10)),
      ...between,
      { id: 's', kind: 'suppress', config: { until: 'timeLimit', timeLimitMs: 1000 } },
      toStream('ss'),
      sink('out', 'long'),
    ],
    [
      ...[{ id: 't' }, ...between].map((n, i, all) => ({
        from: n.id as string,
        to: (all[i + 1]?.id as string | undefined) ?? 's',
      })),
      { from: 's', to: 'ss' },
      { from: 'ss', to: 'out' },
    ],
    ['t', 'out'],
  );

it('suppress() of a versioned table, or below one, is refused with Kafka Streams’ messages', async () => {
  const direct = suppressed([]);
  const inherited = suppressed([{ id: 'f', kind: 'tableFilter', config: { expression: 'true' } }]);
  const notVersioned = suppressed([
    { id: 'f', kind: 'tableFilter', config: { expression: 'true', store: 'plain' } },
  ]);
  const reference = await runOracle([
    { name: 'direct', topology: direct, describeOnly: true },
    { name: 'inherited', topology: inherited, describeOnly: true },
    { name: 'not versioned', topology: notVersioned, describeOnly: true },
  ]);
  const mine = [direct, inherited, notVersioned].map((d) => {
    const result = validateTopology(d);
    return result.ok ? null : result.errors.map((e) => [e.path, e.code, e.message]);
  });
  const message = (i: number) => reference[i]?.error?.replace(/^TopologyException: /, '');
  expect(mine).toEqual([
    [['nodes[1]', 'suppress_of_versioned_table', message(0)]],
    [['nodes[2]', 'suppress_of_versioned_table', message(1)]],
    null,
  ]);
  expect(message(0)).toBe(
    'Invalid topology: suppress() is only supported for non-versioned KTables',
  );
  expect(reference[2]?.error).toBeUndefined();
}, 300_000);
