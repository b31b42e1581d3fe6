// KTable#transformValues against Apache Kafka Streams 4.1 (TopologyTestDriver via tools/ks-oracle,
// which runs the same named transformers: fixtures/value-transformers.ts and
// ValueTransformers.java): the same describe() (KTABLE-TRANSFORMVALUES-… names, connected stores),
// output records and dropped records. A tombstone reaches the transformer as null; with old values
// (a groupBy downstream) an unmaterialized node transforms the old value too, after the new one;
// a materialized one reads it from its store and logs to its changelog; joins read an
// unmaterialized node through a transformer of their own (KTableTransformValuesGetter), which
// also sees keys the table does not have (as null, with timestamp -1).
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import { validateTopology } from '@streamwright/topology-model';
import { Buffer } from 'node:buffer';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareWithOracle } from './fixtures/oracle-harness.js';
import { createOracleTestDriver } from './fixtures/oracle-driver.js';
import { valueTransformers } from './fixtures/value-transformers.js';
import {
  Consumed,
  KeyValue,
  Named,
  Produced,
  Serdes,
  Stores,
  StreamsBuilder,
} from '../src/index.js';

type Node = Record<string, unknown>;

type EdgeSpec = [string, string] | [string, string, string];
const doc = (nodes: Node[], edges: EdgeSpec[], extra: Record<string, unknown> = {}) => {
  const topics = new Set<string>();
  for (const n of nodes) {
    const topic = (n['config'] as { topic?: string }).topic;
    if (topic !== undefined) topics.add(topic);
  }
  return {
    schemaVersion: 1,
    application: { id: 'transform-values' },
    topics: [...topics].map((name) => ({ name, partitions: 1 })),
    nodes,
    edges: edges.map(([from, to, toPort]) => ({ from, to, ...(toPort ? { toPort } : {}) })),
    ...extra,
  };
};
const table = (id: string, extra: Record<string, unknown> = {}): Node => ({
  id,
  kind: 'table',
  config: { topic: id, valueSerde: 'string', ...extra },
});
const transform = (id: string, transformer: string, extra: Record<string, unknown> = {}): Node => ({
  id,
  kind: 'transformValues',
  config: { transformer, ...extra },
});
const toStream = (id: string): Node => ({ id, kind: 'toStream', config: {} });
const sink = (id: string, valueSerde = 'json'): Node => ({
  id,
  kind: 'sink',
  config: { topic: id, valueSerde },
});
// groupBy to one key, then count: the table's keys whose value is not null.
const countAll = (from: string): { nodes: Node[]; edges: [string, string][] } => ({
  nodes: [
    {
      id: 'g',
      kind: 'tableGroupBy',
      config: { expression: '{"key": "all", "value": value}', valueSerde: 'json' },
    },
    { id: 'c', kind: 'tableCount', config: {} },
    toStream('cs'),
    sink('counts', 'long'),
  ],
  edges: [
    [from, 'g'],
    ['g', 'c'],
    ['c', 'cs'],
    ['cs', 'counts'],
  ],
});
const callsStore = { name: 'calls', type: 'keyValue', keySerde: 'string', valueSerde: 'long' };

const tableInput = [
  { topic: 't', key: 'a', value: 'x', timestamp: 10 },
  { topic: 't', key: 'b', value: 'y', timestamp: 20 },
  { topic: 't', key: 'a', value: 'z', timestamp: 15 },
  { topic: 't', key: 'a', value: null, timestamp: 30 }, // tombstone
  { topic: 't', key: 'c', value: null, timestamp: 40 }, // tombstone of a key never seen
  { topic: 't', key: 'b', value: 'w', timestamp: 50 },
];

const counted = countAll('tv');
const materialized = countAll('tv');
const streamInput = [
  { topic: 't', key: 'a', value: 'x', timestamp: 10 },
  { topic: 's', key: 'a', value: 1, timestamp: 11 },
  { topic: 's', key: 'q', value: 2, timestamp: 12 }, // no row in the table
  { topic: 't', key: 'a', value: null, timestamp: 13 },
  { topic: 's', key: 'a', value: 3, timestamp: 14 },
];

const scenarios: OracleScenario[] = [
  {
    name: 'upperCase, unmaterialized, to a stream: a tombstone reaches the transformer as null',
    topology: doc(
      [table('t'), transform('tv', 'upperCase'), toStream('ts'), sink('out')],
      [
        ['t', 'tv'],
        ['tv', 'ts'],
        ['ts', 'out'],
      ],
    ),
    inputs: tableInput,
    outputs: ['out'],
  },
  {
    name: 'stamped: the context’s timestamp, and a tombstone transformed into a value',
    topology: doc(
      [
        table('t'),
        transform('tv', 'stamped', { valueSerde: 'string' }),
        toStream('ts'),
        sink('out', 'string'),
      ],
      [
        ['t', 'tv'],
        ['tv', 'ts'],
        ['ts', 'out'],
      ],
    ),
    inputs: tableInput,
    outputs: ['out'],
  },
  {
    name: 'runningCount with a connected store, named, groupBy + count below: old values transformed too',
    topology: doc(
      [
        table('t'),
        {
          ...transform('tv', 'runningCount', { stores: ['calls'], params: { store: 'calls' } }),
          name: 'counting',
        },
        toStream('ts'),
        sink('out'),
        ...counted.nodes,
      ],
      [['t', 'tv'], ['tv', 'ts'], ['ts', 'out'], ...counted.edges],
      { stores: [callsStore] },
    ),
    inputs: tableInput,
    outputs: ['out', 'counts'],
  },
  {
    name: 'materialized in a store (old values from it), with a connected store, groupBy + count below',
    topology: doc(
      [
        table('t'),
        transform('tv', 'runningCount', {
          stores: ['calls'],
          params: { store: 'calls' },
          store: 'counted',
          valueSerde: 'string',
        }),
        toStream('ts'),
        sink('out', 'string'),
        ...materialized.nodes,
      ],
      [['t', 'tv'], ['tv', 'ts'], ['ts', 'out'], ...materialized.edges],
      { stores: [callsStore] },
    ),
    inputs: tableInput,
    outputs: ['out', 'counts'],
    stores: ['counted', 'calls'],
  },
  {
    name: 'Materialized without a name: no store, no name burnt, serdes kept',
    topology: doc(
      [
        table('t'),
        transform('tv', 'upperCase', { valueSerde: 'string', keySerde: 'string' }),
        transform('tv2', 'upperCase'),
        toStream('ts'),
        sink('out'),
      ],
      [
        ['t', 'tv'],
        ['tv', 'tv2'],
        ['tv2', 'ts'],
        ['ts', 'out'],
      ],
    ),
    inputs: tableInput,
    outputs: ['out'],
  },
  ...(['inner', 'left'] as const).map((type) => ({
    name: `stream–table ${type} join through an unmaterialized transformValues (stamped: a missing row is transformed too)`,
    topology: doc(
      [
        table('t'),
        transform('tv', 'stamped', { valueSerde: 'string' }),
        { id: 's', kind: 'source', config: { topic: 's', valueSerde: 'long' } },
        {
          id: 'j',
          kind: 'streamTableJoin',
          config: { type, joiner: '{"left": left, "right": right}' },
        },
        sink('out'),
      ],
      [
        ['s', 'j', 'left'],
        ['t', 'tv'],
        ['tv', 'j', 'right'],
        ['j', 'out'],
      ],
      {},
    ),
    inputs: streamInput,
    outputs: ['out'],
  })),
  {
    name: 'stream–table join through an unmaterialized upperCase',
    topology: {
      ...doc(
        [
          table('t'),
          transform('tv', 'upperCase'),
          { id: 's', kind: 'source', config: { topic: 's', valueSerde: 'long' } },
          {
            id: 'j',
            kind: 'streamTableJoin',
            config: { type: 'left', joiner: '{"left": left, "right": right}' },
          },
          sink('out'),
        ],
        [
          ['s', 'j', 'left'],
          ['t', 'tv'],
          ['tv', 'j', 'right'],
          ['j', 'out'],
        ],
      ),
    },
    inputs: streamInput,
    outputs: ['out'],
  },
  ...(['inner', 'left', 'outer'] as const).map((type) => ({
    name: `table–table ${type} join reading an unmaterialized transformValues on either side`,
    topology: doc(
      [
        table('l'),
        table('r'),
        transform('lt', 'upperCase'),
        transform('rt', 'stamped', { valueSerde: 'string' }),
        {
          id: 'j',
          kind: 'tableTableJoin',
          config: { type, joiner: '{"left": left, "right": right}' },
        },
        toStream('js'),
        sink('out'),
      ],
      [
        ['l', 'lt'],
        ['r', 'rt'],
        ['lt', 'j', 'left'],
        ['rt', 'j', 'right'],
        ['j', 'js'],
        ['js', 'out'],
      ] as EdgeSpec[],
    ),
    inputs: [
      { topic: 'l', key: 'a', value: 'x', timestamp: 10 },
      { topic: 'r', key: 'a', value: 'p', timestamp: 20 },
      { topic: 'l', key: 'b', value: 'y', timestamp: 5 },
      { topic: 'r', key: 'a', value: null, timestamp: 30 },
      { topic: 'r', key: 'c', value: 'q', timestamp: 40 },
      { topic: 'l', key: 'a', value: null, timestamp: 50 },
    ],
    outputs: ['out'],
  })),
  {
    name: 'a stream–table join reads a versioned table through transformValues as of each record',
    topology: doc(
      [
        table('t', { store: 't-store', versioned: { historyRetentionMs: 100 } }),
        transform('tv', 'upperCase'),
        { id: 's', kind: 'source', config: { topic: 's', valueSerde: 'long' } },
        {
          id: 'j',
          kind: 'streamTableJoin',
          config: { type: 'left', joiner: '{"left": left, "right": right}' },
        },
        sink('out'),
      ],
      [
        ['s', 'j', 'left'],
        ['t', 'tv'],
        ['tv', 'j', 'right'],
        ['j', 'out'],
      ],
    ),
    inputs: [
      { topic: 't', key: 'a', value: 'x', timestamp: 10 },
      { topic: 't', key: 'a', value: 'y', timestamp: 30 },
      { topic: 's', key: 'a', value: 1, timestamp: 20 },
      { topic: 's', key: 'a', value: 2, timestamp: 35 },
      { topic: 's', key: 'a', value: 3, timestamp: 5 },
    ],
    outputs: ['out'],
  },
  {
    name: 'transformValues materialized in a versioned store: out-of-order and expired updates',
    topology: doc(
      [
        table('t'),
        transform('tv', 'upperCase', {
          store: 'upper',
          valueSerde: 'string',
          versioned: { historyRetentionMs: 10 },
        }),
        toStream('ts'),
        sink('out', 'string'),
        ...countAll('tv').nodes,
      ],
      [['t', 'tv'], ['tv', 'ts'], ['ts', 'out'], ...countAll('tv').edges],
    ),
    inputs: [
      { topic: 't', key: 'a', value: 'x', timestamp: 10 },
      { topic: 't', key: 'a', value: 'y', timestamp: 30 },
      { topic: 't', key: 'a', value: 'z', timestamp: 25 }, // out of order: history
      { topic: 't', key: 'b', value: 'w', timestamp: 12 }, // older than 30 − 10: not put
      { topic: 't', key: 'a', value: null, timestamp: 40 },
    ],
    outputs: ['out', 'counts'],
  },
  ...(['inner', 'left'] as const).map((type) => ({
    name: `foreign-key ${type} join of two unmaterialized transformValues (both read through getters)`,
    topology: doc(
      [
        table('orders'),
        table('products'),
        transform('ot', 'upperCase'),
        transform('pt', 'stamped', { valueSerde: 'string' }),
        {
          id: 'j',
          kind: 'foreignKeyJoin',
          config: {
            type,
            foreignKeyExtractor: 'value',
            joiner: '{"order": left, "product": right}',
          },
        },
        toStream('js'),
        sink('out'),
      ],
      [
        ['orders', 'ot'],
        ['products', 'pt'],
        ['ot', 'j', 'left'],
        ['pt', 'j', 'right'],
        ['j', 'js'],
        ['js', 'out'],
      ],
    ),
    inputs: [
      { topic: 'products', key: 'P1', value: 'apple', timestamp: 1000 },
      { topic: 'products', key: 'P2', value: 'pear', timestamp: 1100 },
      { topic: 'orders', key: 'o1', value: 'p1', timestamp: 1200 },
      { topic: 'orders', key: 'o2', value: 'p3', timestamp: 1300 }, // no product P3
      { topic: 'products', key: 'P1', value: null, timestamp: 1400 },
      { topic: 'orders', key: 'o2', value: 'p2', timestamp: 1500 },
      { topic: 'orders', key: 'o1', value: null, timestamp: 1600 },
    ],
    outputs: ['out'],
  })),
];

compareWithOracle(
  'KTable#transformValues (Kafka Streams 4.1)',
  scenarios,
  (expected) => {
    it('every scenario writes records to every output topic on Kafka Streams (no vacuous match)', () => {
      for (const [i, r] of expected().entries())
        for (const topic of scenarios[i]!.outputs ?? [])
          expect(r.outputs?.[topic]?.length, `${scenarios[i]!.name}: ${topic}`).toBeGreaterThan(0);
    });
    it('what Kafka Streams does, as these tests pin it: a join finds a row the table lacks when the transformer makes one of null', () => {
      // KTableTransformValuesGetter#get: transform(key, null) for a missing row, at timestamp -1.
      expect(expected()[5]?.outputs?.['out']?.map((r) => r.value)).toEqual([
        { left: 1, right: 'x@10' },
        { left: 2, right: 'gone@-1' },
        { left: 3, right: 'gone@-1' },
      ]);
      // With old values asked for (groupBy), the unmaterialized node transforms the old value
      // after the new one: the second update of `a` is the third call.
      expect(expected()[2]?.outputs?.['out']?.[2]).toEqual({
        key: 'a',
        value: 'z#3',
        timestamp: 15,
      });
      expect(expected()[3]?.outputs?.['out']?.[2]).toEqual({
        key: 'a',
        value: 'z#2',
        timestamp: 15,
      });
    });

    it('the DSL: KTable#transformValues(supplier, Named, storeName) builds the same topology and output', () => {
      const reference = expected()[2]!;
      const builder = new StreamsBuilder();
      builder.addStateStore(
        Stores.keyValueStoreBuilder(
          Stores.persistentKeyValueStore('calls'),
          Serdes.String(),
          Serdes.Long(),
        ),
      );
      const runningCount = () => valueTransformers['runningCount']!({ store: 'calls' });
      const counting = builder
        .table('t', Consumed.with(Serdes.String(), Serdes.String()))
        .transformValues(runningCount, Named.as('counting'), 'calls');
      counting
        .groupBy((_k: string, v: unknown) => KeyValue.pair('all', v))
        .count()
        .toStream()
        .to('counts', Produced.with(Serdes.String(), Serdes.Long()));
      counting.toStream().to('out');
      const built = builder.build({ applicationId: 'transform-values' });
      expect(built.describe()).toBe(reference.describe);
      const driver = createOracleTestDriver(built);
      for (const r of scenarios[2]!.inputs ?? [])
        driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
      const read = (topic: string) =>
        driver.readOutput(topic).map(({ key, value, timestamp }) => ({ key, value, timestamp }));
      const out = { out: read('out'), counts: read('counts') };
      driver.close();
      expect(out).toEqual(reference.outputs);
    });
    it('the materialized node’s store and its connected store end as Kafka’s', () => {
      const reference = expected()[3]!;
      expect(reference.error).toBeUndefined();
      const result = validateTopology(scenarios[3]!.topology);
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      const driver = createOracleTestDriver(result.topology, { valueTransformers });
      for (const r of scenarios[3]!.inputs ?? [])
        driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
      const dump = (name: string) =>
        driver
          .getKeyValueStore(name)
          .all()
          .map((e) => [e.key, e.value]);
      const mine = { counted: dump('counted'), calls: dump('calls') };
      driver.close();
      expect(mine).toEqual(reference.stores);
      expect(reference.stores?.['calls']?.length).toBeGreaterThan(0);
    });
  },
  { valueTransformers },
);

describe('a materialized transformValues’ changelog against Kafka Streams 4.1', () => {
  const scenario = scenarios[3]!;
  const topics = ['transform-values-counted-changelog', 'transform-values-calls-changelog'];
  let expected: OracleResult;
  beforeAll(async () => {
    [expected] = (await runOracle([{ ...scenario, rawOutputs: topics }])) as [OracleResult];
  }, 300_000);

  it('writes the same changelog records (key, value, timestamp), tombstones included', () => {
    expect(expected.error).toBeUndefined();
    const result = validateTopology(scenario.topology);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const driver = createOracleTestDriver(result.topology, { valueTransformers });
    for (const r of scenario.inputs ?? []) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    const hex = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));
    for (const t of topics) {
      const kafka = (expected.rawOutputs?.[t] ?? []).map((r) => ({
        key: r.key === null ? null : Buffer.from(r.key, 'base64').toString('hex'),
        value: r.value === null ? null : Buffer.from(r.value, 'base64').toString('hex'),
        timestamp: r.timestamp,
      }));
      expect(kafka.length, t).toBeGreaterThan(0);
      const ours = driver.readRawOutput(t).map((r) => ({
        key: hex(r.key),
        value: hex(r.value),
        timestamp: r.timestamp,
      }));
      expect(ours, t).toEqual(kafka);
    }
    expect(
      (expected.rawOutputs?.[topics[0]!] ?? []).some((r) => r.value === null),
      'the result changelog has a tombstone',
    ).toBe(true);
    driver.close();
  });
});
