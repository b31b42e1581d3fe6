// Versioned tables (KIP-889 stores, KIP-914 DSL semantics) against Apache Kafka Streams 4.1
// (TopologyTestDriver via tools/ks-oracle): the same document and input must give the same
// describe(), output records and dropped records, and the versioned store must answer
// get(key) / get(key, asOf) as Kafka's RocksDBVersionedStore does after the same puts.
import { runOracle, type OracleScenario } from '@streamwright/ks-oracle';
import { describeTopology, planTopology, validateTopology } from '@streamwright/topology-model';
import { expect, it } from 'vitest';
import {
  Consumed,
  Materialized,
  Produced,
  PUT_RETURN_CODE_NOT_PUT,
  PUT_RETURN_CODE_VALID_TO_UNDEFINED,
  Serdes,
  Stores,
  StreamsBuilder,
  type StreamRecord,
  type VersionedKeyValueStore,
} from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';
import { compareWithOracle } from './fixtures/oracle-harness.js';
import { createOracleTestDriver } from './fixtures/oracle-driver.js';

type Node = Record<string, unknown>;
type Edge = { from: string; to: string; toPort?: string };

const doc = (nodes: Node[], edges: Edge[], topics: string[], stores: unknown[] = []) => ({
  schemaVersion: 1,
  application: { id: 'versioned' },
  topics: topics.map((name) => ({ name, partitions: 1 })),
  stores,
  nodes,
  edges,
});

const versionedTable = (
  id: string,
  topic: string,
  historyRetentionMs = 10,
  valueSerde = 'long',
) => ({
  id,
  kind: 'table',
  config: { topic, valueSerde, store: `${id}-store`, versioned: { historyRetentionMs } },
});

// A versioned table's toStream: what KTableSource forwards (out-of-order updates included,
// expired ones not).
const tableToStream = doc(
  [
    versionedTable('prices', 'prices'),
    { id: 'ts', kind: 'toStream', config: {} },
    { id: 'out', kind: 'sink', config: { topic: 'out', valueSerde: 'long' } },
  ],
  [
    { from: 'prices', to: 'ts' },
    { from: 'ts', to: 'out' },
  ],
  ['prices', 'out'],
);

const priceUpdates = [
  { topic: 'prices', key: 'a', value: 100, timestamp: 10 },
  { topic: 'prices', key: 'a', value: 90, timestamp: 5 }, // out of order, within retention
  { topic: 'prices', key: 'b', value: 7, timestamp: 12 },
  { topic: 'prices', key: 'a', value: 110, timestamp: 20 },
  { topic: 'prices', key: 'a', value: 95, timestamp: 8 }, // older than 20 − 10: not put
  { topic: 'prices', key: 'a', value: 105, timestamp: 15 }, // out of order, within retention
  { topic: 'prices', key: 'b', value: null, timestamp: 18 }, // tombstone
  { topic: 'prices', key: 'a', value: 111, timestamp: 20 }, // same timestamp: replaces
  { topic: 'prices', key: null, value: 1, timestamp: 21 }, // null key: dropped
  { topic: 'prices', key: 'c', value: 3, timestamp: 2 }, // a new key, but expired
];

const gets = [
  { store: 'prices-store', key: 'a' },
  { store: 'prices-store', key: 'a', asOf: 25 },
  { store: 'prices-store', key: 'a', asOf: 19 },
  { store: 'prices-store', key: 'a', asOf: 15 },
  { store: 'prices-store', key: 'a', asOf: 12 },
  { store: 'prices-store', key: 'a', asOf: 10 },
  { store: 'prices-store', key: 'a', asOf: 9 }, // older than stream time − retention
  { store: 'prices-store', key: 'b' },
  { store: 'prices-store', key: 'b', asOf: 17 },
  { store: 'prices-store', key: 'b', asOf: 18 },
  { store: 'prices-store', key: 'c' },
  { store: 'prices-store', key: 'z', asOf: 20 },
];

const streamTable = (type: string, historyRetentionMs = 10) =>
  doc(
    [
      { id: 'orders', kind: 'source', config: { topic: 'orders', valueSerde: 'long' } },
      versionedTable('prices', 'prices', historyRetentionMs),
      {
        id: 'j',
        kind: 'streamTableJoin',
        config: { type, joiner: '{"qty": left, "price": right}' },
      },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    [
      { from: 'orders', to: 'j', toPort: 'left' },
      { from: 'prices', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
    ['orders', 'prices', 'out'],
  );

// Table updates first, then orders in and out of time order: each joins the price valid then.
const joinInput = [
  { topic: 'prices', key: 'a', value: 100, timestamp: 10 },
  { topic: 'prices', key: 'a', value: 120, timestamp: 30 },
  { topic: 'prices', key: 'a', value: 110, timestamp: 20 },
  { topic: 'prices', key: 'b', value: 5, timestamp: 25 },
  { topic: 'orders', key: 'a', value: 1, timestamp: 35 },
  { topic: 'orders', key: 'a', value: 2, timestamp: 22 },
  { topic: 'orders', key: 'a', value: 3, timestamp: 12 }, // before stream time − retention
  { topic: 'orders', key: 'a', value: 4, timestamp: 30 },
  { topic: 'orders', key: 'a', value: 5, timestamp: 29 },
  { topic: 'orders', key: 'b', value: 6, timestamp: 24 }, // before b's first version
  { topic: 'orders', key: 'b', value: 7, timestamp: 40 },
  { topic: 'prices', key: 'a', value: null, timestamp: 36 },
  { topic: 'orders', key: 'a', value: 8, timestamp: 37 }, // after the tombstone
  { topic: 'orders', key: 'a', value: 9, timestamp: 33 }, // before it
  { topic: 'orders', key: 'c', value: 10, timestamp: 40 },
  { topic: 'orders', key: 'a', value: null, timestamp: 40 }, // null value: dropped
];

const tableTable = (type: string) =>
  doc(
    [
      versionedTable('l', 'l', 100),
      versionedTable('r', 'r', 100),
      { id: 'j', kind: 'tableTableJoin', config: { type, joiner: '{"l": left, "r": right}' } },
      { id: 'ts', kind: 'toStream', config: {} },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    [
      { from: 'l', to: 'j', toPort: 'left' },
      { from: 'r', to: 'j', toPort: 'right' },
      { from: 'j', to: 'ts' },
      { from: 'ts', to: 'out' },
    ],
    ['l', 'r', 'out'],
  );

const tableTableInput = [
  { topic: 'l', key: 'k', value: 1, timestamp: 10 },
  { topic: 'r', key: 'k', value: 2, timestamp: 20 },
  { topic: 'l', key: 'k', value: 3, timestamp: 5 }, // out of order: no join result
  { topic: 'r', key: 'k', value: 4, timestamp: 15 }, // out of order: no join result
  { topic: 'l', key: 'k', value: 5, timestamp: 30 },
  { topic: 'r', key: 'k', value: null, timestamp: 25 }, // out-of-order tombstone
  { topic: 'r', key: 'k', value: null, timestamp: 40 },
];

const groupByCount = doc(
  [
    versionedTable('t', 't', 100, 'json'),
    {
      id: 'g',
      kind: 'tableGroupBy',
      config: { expression: '{"key": value.cat, "value": value.n}', valueSerde: 'long' },
    },
    { id: 'c', kind: 'tableCount', config: {} },
    { id: 'ts', kind: 'toStream', config: {} },
    { id: 'out', kind: 'sink', config: { topic: 'out', valueSerde: 'long' } },
  ],
  [
    { from: 't', to: 'g' },
    { from: 'g', to: 'c' },
    { from: 'c', to: 'ts' },
    { from: 'ts', to: 'out' },
  ],
  ['t', 'out'],
);

const processWithVersionedStore = doc(
  [
    { id: 'in', kind: 'source', config: { topic: 'in' } },
    { id: 'p', kind: 'process', config: { processor: 'history', stores: ['history'] } },
    { id: 'out', kind: 'sink', config: { topic: 'out' } },
  ],
  [
    { from: 'in', to: 'p' },
    { from: 'p', to: 'out' },
  ],
  ['in', 'out'],
  [{ name: 'history', type: 'versioned', historyRetentionMs: 60_000 }],
);

// KStream#toTable(Materialized.as(versioned supplier)): the same table source semantics, and a
// stream–table join reading it as of each order's time.
const toTableJoin = doc(
  [
    { id: 'orders', kind: 'source', config: { topic: 'orders', valueSerde: 'long' } },
    { id: 'updates', kind: 'source', config: { topic: 'prices', valueSerde: 'long' } },
    {
      id: 'tt',
      kind: 'toTable',
      config: { store: 'tt-store', versioned: { historyRetentionMs: 10 } },
    },
    { id: 'changes', kind: 'toStream', config: {} },
    { id: 'log', kind: 'sink', config: { topic: 'log', valueSerde: 'long' } },
    {
      id: 'j',
      kind: 'streamTableJoin',
      config: { type: 'left', joiner: '{"qty": left, "price": right}' },
    },
    { id: 'out', kind: 'sink', config: { topic: 'out' } },
  ],
  [
    { from: 'updates', to: 'tt' },
    { from: 'tt', to: 'changes' },
    { from: 'changes', to: 'log' },
    { from: 'orders', to: 'j', toPort: 'left' },
    { from: 'tt', to: 'j', toPort: 'right' },
    { from: 'j', to: 'out' },
  ],
  ['orders', 'prices', 'log', 'out'],
);

const scenarios: OracleScenario[] = [
  {
    name: 'versioned table source: out-of-order updates forwarded, expired ones not, null keys dropped',
    topology: tableToStream,
    inputs: priceUpdates,
    outputs: ['out'],
    versionedGets: gets,
  },
  ...['inner', 'left'].map((type) => ({
    name: `stream–table ${type} join reads the versioned table as of the stream record's time`,
    topology: streamTable(type),
    inputs: joinInput,
    outputs: ['out'],
  })),
  {
    name: 'stream–table join with history retention 0: only the latest version is ever there',
    topology: streamTable('left', 0),
    inputs: joinInput,
    outputs: ['out'],
  },
  ...['inner', 'left', 'outer'].map((type) => ({
    name: `table–table ${type} join of versioned tables ignores out-of-order updates`,
    topology: tableTable(type),
    inputs: tableTableInput,
    outputs: ['out'],
  })),
  {
    name: 'toTable with a versioned store: table source semantics and as-of joins',
    topology: toTableJoin,
    inputs: joinInput,
    outputs: ['log', 'out'],
  },
  {
    name: 'groupBy + count over a versioned table ignores out-of-order updates',
    topology: groupByCount,
    inputs: [
      { topic: 't', key: 'x', value: { cat: 'A', n: 1 }, timestamp: 10 },
      { topic: 't', key: 'x', value: { cat: 'B', n: 1 }, timestamp: 5 },
      { topic: 't', key: 'y', value: { cat: 'B', n: 1 }, timestamp: 12 },
      { topic: 't', key: 'x', value: { cat: 'B', n: 1 }, timestamp: 20 },
      { topic: 't', key: 'y', value: null, timestamp: 11 },
    ],
    outputs: ['out'],
  },
];

compareWithOracle('versioned tables and stores (Kafka Streams 4.1)', scenarios, (expected) => {
  it('the versioned store answers get(key) and get(key, asOf) as Kafka Streams does', () => {
    const reference = expected()[0]!;
    expect(reference.error).toBeUndefined();
    const result = validateTopology(tableToStream);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const driver = createOracleTestDriver(result.topology);
    for (const r of priceUpdates) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    const store = driver.getVersionedKeyValueStore('prices-store');
    const mine = gets.map((q) =>
      q.asOf === undefined ? store.get(q.key) : store.get(q.key, q.asOf),
    );
    driver.close();
    expect(mine).toEqual(reference.versionedGets);
  });

  it('the DSL (Materialized.as(Stores.persistentVersionedKeyValueStore)) builds the same table and output', () => {
    const reference = expected()[0]!;
    const builder = new StreamsBuilder();
    builder
      .table(
        'prices',
        Consumed.with(Serdes.String(), Serdes.Long()),
        Materialized.as<string, number>(
          Stores.persistentVersionedKeyValueStore('prices-store', 10),
        ),
      )
      .toStream()
      .to('out', Produced.with(Serdes.String(), Serdes.Long()));
    const built = builder.build({ applicationId: 'versioned' });
    expect(built.topology.nodes[0]?.config).toMatchObject(
      versionedTable('prices', 'prices').config,
    );
    const driver = createOracleTestDriver(built);
    for (const r of priceUpdates) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    const out = driver
      .readOutput('out')
      .map(({ key, value, timestamp }) => ({ key, value, timestamp }));
    driver.close();
    expect(out).toEqual(reference.outputs?.['out']);
  });

  it('a processor with Stores.versionedKeyValueStoreBuilder: the same puts give the same answers', () => {
    const reference = expected()[0]!;
    const builder = new StreamsBuilder();
    builder.addStateStore(
      Stores.versionedKeyValueStoreBuilder(
        Stores.persistentVersionedKeyValueStore('prices-store', 10),
        Serdes.String(),
        Serdes.Long(),
      ),
    );
    const codes: number[] = [];
    let answers: unknown[] = [];
    builder.stream('prices', Consumed.with(Serdes.String(), Serdes.Long())).process(() => {
      let store: VersionedKeyValueStore<string, number>;
      return {
        init: (ctx) => void (store = ctx.getStateStore('prices-store')),
        process(r: StreamRecord<string | null, number | null>) {
          // KTableSource skips null keys before the store (the store would refuse them).
          if (r.key === null) return;
          codes.push(store.put(r.key, r.value, r.timestamp));
          answers = gets.map((q) =>
            q.asOf === undefined ? store.get(q.key) : store.get(q.key, q.asOf),
          );
        },
      };
    }, 'prices-store');
    const driver = createTestDriver(builder.build({ applicationId: 'versioned' }));
    for (const r of priceUpdates) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    driver.close();
    expect(answers).toEqual(reference.versionedGets);
    // validTo of each put (KIP-889): -1 for a new latest version, the next version's timestamp
    // for an older one, PUT_RETURN_CODE_NOT_PUT when older than stream time − retention.
    expect(codes).toEqual([
      PUT_RETURN_CODE_VALID_TO_UNDEFINED,
      10,
      PUT_RETURN_CODE_VALID_TO_UNDEFINED,
      PUT_RETURN_CODE_VALID_TO_UNDEFINED,
      PUT_RETURN_CODE_NOT_PUT,
      20,
      PUT_RETURN_CODE_VALID_TO_UNDEFINED,
      PUT_RETURN_CODE_VALID_TO_UNDEFINED,
      PUT_RETURN_CODE_NOT_PUT,
    ]);
  });
});

it('a document versioned store connected to a processor: describe() and its changelog as Kafka Streams', async () => {
  const [reference] = await runOracle([
    { name: 'process + versioned store', topology: processWithVersionedStore, describeOnly: true },
  ]);
  expect(reference?.error).toBeUndefined();
  const result = validateTopology(processWithVersionedStore);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const plan = planTopology(result.topology);
  expect(describeTopology(plan)).toBe(reference?.describe);
  // VersionedChangelogTopicConfig: compacted, min.compaction.lag.ms = history retention + 1 day.
  const changelog = plan.internalTopics.find((t) => t.name === 'versioned-history-changelog');
  expect(changelog?.config).toMatchObject({
    'cleanup.policy': 'compact',
    'min.compaction.lag.ms': String(60_000 + 86_400_000),
  });
  expect(plan.stores.find((s) => s.name === 'history')).toMatchObject({
    versioned: { historyRetentionMs: 60_000, segmentIntervalMs: 20_000 },
    caching: false,
  });
}, 300_000);
