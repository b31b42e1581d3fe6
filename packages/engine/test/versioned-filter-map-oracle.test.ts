// Versioned semantics of KTable#filter / mapValues (KIP-914) against Apache Kafka Streams 4.1
// (TopologyTestDriver via tools/ks-oracle): Materialized.as(Stores.persistentVersionedKeyValueStore)
// on filter / mapValues, and filters over a versioned table. Same describe(), output records and
// dropped records; the versioned stores answer get / get(asOf) as Kafka's do.
import { type OracleScenario } from '@streamwright/ks-oracle';
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
import {
  countAll,
  countAllEdges,
  doc,
  sink,
  table,
  toStream,
  versioned,
} from './fixtures/versioned-docs.js';

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
