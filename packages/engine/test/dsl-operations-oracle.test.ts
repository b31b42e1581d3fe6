// Differential tests for every DSL operation: the same topology document and input run on Apache
// Kafka Streams 4.1 (TopologyTestDriver through tools/ks-oracle) and on our test driver must emit
// the same records (key, value, timestamp, in order) on every output topic, and end with the same
// store contents where a scenario names stores. Inputs include null keys and values and
// out-of-order timestamps, so Kafka Streams' null rules and timestamp choices are exercised.
import { runOracle, type OracleScenario } from '@streamwright/ks-oracle';
import { validateTopology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOracleTestDriver as createTestDriver } from './fixtures/oracle-driver.js';

type Input = { topic: string; key: unknown; value: unknown; timestamp: number };

const doc = (
  id: string,
  topics: string[],
  nodes: unknown[],
  edges: unknown[],
  extra: Record<string, unknown> = {},
) => ({
  schemaVersion: 1,
  application: { id, config: {} },
  topics: topics.map((name) => ({ name, partitions: 1 })),
  nodes,
  edges,
  ...extra,
});
const e = (from: string, to: string, ports: { fromPort?: string; toPort?: string } = {}) => ({
  from,
  to,
  ...ports,
});
const sink = (id: string, topic: string, keySerde = 'string', valueSerde = 'json') => ({
  id,
  kind: 'sink',
  config: { topic, keySerde, valueSerde },
});

const orders: Input[] = [
  { key: 'o1', value: { user: 'ann', amount: 50 }, timestamp: 10 },
  { key: 'o2', value: { user: 'bob', amount: 150 }, timestamp: 30 },
  { key: null, value: { user: 'ann', amount: 70 }, timestamp: 20 },
  { key: 'o4', value: null, timestamp: 40 },
  { key: 'o5', value: { user: 'cid', amount: 300 }, timestamp: 5 },
  { key: 'o6', value: { user: 'bob', amount: 20 }, timestamp: 50 },
  { key: 'o7', value: { user: 'ann', amount: 110 }, timestamp: 45 },
].map((r) => ({ topic: 'orders', ...r }));
const ordersSource = { id: 'src', kind: 'source', config: { topic: 'orders' } };
// Records without a value: CEL on `value.…` would fail, so predicates guard with has()/null checks.
const notNull = 'value != null';

const scenarios: OracleScenario[] = [
  {
    name: 'filterNot, map, selectKey, flatMap, flatMapValues',
    topology: doc(
      'stateless',
      ['orders', 'small', 'by-user', 'pieces', 'amounts'],
      [
        ordersSource,
        {
          id: 'notBig',
          kind: 'filterNot',
          config: { expression: `${notNull} && value.amount > 100` },
        },
        {
          id: 'rekey',
          kind: 'map',
          config: { expression: '{"key": value == null ? "none" : value.user, "value": key}' },
        },
        {
          id: 'byUser',
          kind: 'selectKey',
          config: { expression: 'value == null ? "none" : value.user' },
        },
        {
          id: 'split',
          kind: 'flatMap',
          config: { expression: '[{"key": key, "value": 1}, {"key": "all", "value": 2}]' },
        },
        {
          id: 'twice',
          kind: 'flatMapValues',
          config: { expression: 'value == null ? [] : [value.amount, value.amount * 2]' },
        },
        sink('o1', 'small'),
        sink('o2', 'by-user'),
        sink('o3', 'pieces'),
        sink('o4', 'amounts'),
      ],
      [
        e('src', 'notBig'),
        e('notBig', 'rekey'),
        e('rekey', 'o1'),
        e('src', 'byUser'),
        e('byUser', 'o2'),
        e('src', 'split'),
        e('split', 'o3'),
        e('src', 'twice'),
        e('twice', 'o4'),
      ],
    ),
    inputs: orders,
    outputs: ['small', 'by-user', 'pieces', 'amounts'],
  },
  {
    name: 'split with named and default branches, merge, peek, print, foreach',
    topology: doc(
      'branching',
      ['orders', 'big', 'mid', 'rest', 'merged'],
      [
        ordersSource,
        {
          id: 'sp',
          kind: 'split',
          name: 'route-',
          config: {
            branches: [
              { name: 'big', predicate: `${notNull} && value.amount > 100` },
              { predicate: `${notNull} && value.amount > 40` },
            ],
            defaultBranch: {},
          },
        },
        sink('big', 'big'),
        sink('mid', 'mid'),
        sink('rest', 'rest'),
        { id: 'm', kind: 'merge', config: {} },
        { id: 'p', kind: 'peek', config: {} },
        sink('merged', 'merged'),
        { id: 'fe', kind: 'foreach', config: {} },
        { id: 'pr', kind: 'print', config: { label: 'orders' } },
      ],
      [
        e('src', 'sp'),
        e('sp', 'big', { fromPort: 'big' }),
        e('sp', 'mid', { fromPort: '2' }),
        e('sp', 'rest', { fromPort: '0' }),
        e('sp', 'm', { fromPort: 'big' }),
        e('sp', 'm', { fromPort: '0' }),
        e('m', 'p'),
        e('p', 'merged'),
        e('src', 'fe'),
        e('src', 'pr'),
      ],
    ),
    inputs: orders,
    outputs: ['big', 'mid', 'rest', 'merged'],
  },
  {
    name: 'selectKey → groupByKey → count through a repartition topic; repartition()',
    topology: doc(
      'repartitioning',
      ['orders', 'counts', 'moved'],
      [
        ordersSource,
        {
          id: 'byUser',
          kind: 'selectKey',
          config: { expression: 'value == null ? "none" : value.user' },
        },
        { id: 'g', kind: 'groupByKey', config: {} },
        { id: 'c', kind: 'count', config: {} },
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'counts', 'json', 'long'),
        { id: 'rp', kind: 'repartition', name: 'moved', config: {} },
        sink('o2', 'moved'),
      ],
      [
        e('src', 'byUser'),
        e('byUser', 'g'),
        e('g', 'c'),
        e('c', 'ts'),
        e('ts', 'o'),
        e('src', 'rp'),
        e('rp', 'o2'),
      ],
    ),
    inputs: orders,
    outputs: ['counts', 'moved'],
  },
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
  {
    name: 'toTable, KTable filter (tombstones) and mapValues, toStream',
    topology: doc(
      'tables',
      ['orders', 'table-out', 'big-out', 'mapped-out'],
      [
        ordersSource,
        { id: 'tt', kind: 'toTable', config: { store: 'latest' } },
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'table-out'),
        { id: 'f', kind: 'tableFilter', config: { expression: 'value.amount > 60' } },
        { id: 'ts2', kind: 'toStream', config: {} },
        sink('o2', 'big-out'),
        { id: 'mv', kind: 'tableMapValues', config: { expression: 'value.user' } },
        { id: 'ts3', kind: 'toStream', config: {} },
        sink('o3', 'mapped-out'),
      ],
      [
        e('src', 'tt'),
        e('tt', 'ts'),
        e('ts', 'o'),
        e('tt', 'f'),
        e('f', 'ts2'),
        e('ts2', 'o2'),
        e('tt', 'mv'),
        e('mv', 'ts3'),
        e('ts3', 'o3'),
      ],
    ),
    inputs: [
      ...orders,
      { topic: 'orders', key: 'o1', value: { user: 'ann', amount: 90 }, timestamp: 60 },
      { topic: 'orders', key: 'o2', value: { user: 'bob', amount: 10 }, timestamp: 55 },
      { topic: 'orders', key: 'o1', value: null, timestamp: 70 },
    ],
    outputs: ['table-out', 'big-out', 'mapped-out'],
    stores: ['latest'],
  },
  {
    name: 'table → filterNot → groupBy → count / aggregate with adder and subtractor (old values through the filter)',
    topology: doc(
      'table-aggregations',
      ['users', 'per-city', 'ages'],
      [
        { id: 'users', kind: 'table', config: { topic: 'users' } },
        { id: 'adults', kind: 'tableFilterNot', config: { expression: 'value.age < 18' } },
        {
          id: 'byCity',
          kind: 'tableGroupBy',
          config: { expression: '{"key": value.city, "value": value}', keySerde: 'string' },
        },
        { id: 'cnt', kind: 'tableCount', config: { store: 'per-city' } },
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'per-city', 'string', 'long'),
        {
          id: 'byCity2',
          kind: 'tableGroupBy',
          config: {
            expression: '{"key": value.city, "value": value.age}',
            keySerde: 'string',
            valueSerde: 'long',
          },
        },
        {
          id: 'sum',
          kind: 'tableAggregate',
          config: {
            initializer: '0',
            adder: 'agg + value',
            subtractor: 'agg - value',
            store: 'ages',
          },
        },
        { id: 'ts2', kind: 'toStream', config: {} },
        sink('o2', 'ages', 'string', 'json'),
      ],
      [
        e('users', 'adults'),
        e('adults', 'byCity'),
        e('byCity', 'cnt'),
        e('cnt', 'ts'),
        e('ts', 'o'),
        e('users', 'byCity2'),
        e('byCity2', 'sum'),
        e('sum', 'ts2'),
        e('ts2', 'o2'),
      ],
    ),
    inputs: [
      { key: 'u1', value: { city: 'oslo', age: 30 }, timestamp: 10 },
      { key: 'u2', value: { city: 'rome', age: 15 }, timestamp: 20 },
      { key: 'u3', value: { city: 'oslo', age: 40 }, timestamp: 15 },
      { key: 'u1', value: { city: 'rome', age: 31 }, timestamp: 30 },
      { key: 'u2', value: { city: 'rome', age: 19 }, timestamp: 25 },
      { key: 'u3', value: null, timestamp: 40 },
      { key: null, value: { city: 'oslo', age: 50 }, timestamp: 41 },
      { key: 'u1', value: { city: 'rome', age: 32 }, timestamp: 35 },
    ].map((r) => ({ topic: 'users', ...r })),
    outputs: ['per-city', 'ages'],
    stores: ['per-city', 'ages'],
  },
  {
    name: 'table reduce with adder and subtractor, sink with a topic extractor',
    topology: doc(
      'table-reduce',
      ['scores', 'even', 'odd'],
      [
        { id: 'scores', kind: 'table', config: { topic: 'scores', valueSerde: 'long' } },
        {
          id: 'gb',
          kind: 'tableGroupBy',
          config: {
            expression: '{"key": "all", "value": value}',
            keySerde: 'string',
            valueSerde: 'long',
          },
        },
        {
          id: 'r',
          kind: 'tableReduce',
          config: { adder: 'agg + value', subtractor: 'agg - value' },
        },
        { id: 'ts', kind: 'toStream', config: {} },
        {
          id: 'o',
          kind: 'sink',
          config: {
            topicExtractor: 'value % 2 == 0 ? "even" : "odd"',
            keySerde: 'string',
            valueSerde: 'long',
          },
        },
      ],
      [e('scores', 'gb'), e('gb', 'r'), e('r', 'ts'), e('ts', 'o')],
    ),
    inputs: [
      ['a', 1, 1],
      ['b', 2, 2],
      ['a', 5, 3],
      ['c', 5, 4],
      ['b', null, 5],
    ].map(([key, value, timestamp]) => ({
      topic: 'scores',
      key,
      value,
      timestamp: timestamp as number,
    })),
    outputs: ['even', 'odd'],
  },
  {
    name: 'old values from a stream aggregation and from materialized KTable filter / mapValues into table groupBy',
    topology: doc(
      'old-values',
      ['words', 'users', 'distinct', 'cities'],
      [
        { id: 'words', kind: 'source', config: { topic: 'words', valueSerde: 'string' } },
        { id: 'g', kind: 'groupByKey', config: {} },
        { id: 'c', kind: 'count', config: { store: 'word-counts' } },
        {
          id: 'all',
          kind: 'tableGroupBy',
          config: {
            expression: '{"key": "all", "value": value}',
            keySerde: 'string',
            valueSerde: 'long',
          },
        },
        { id: 'n', kind: 'tableCount', config: { store: 'distinct' } },
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'distinct', 'string', 'long'),
        { id: 'users', kind: 'table', config: { topic: 'users' } },
        {
          id: 'adults',
          kind: 'tableFilter',
          config: { expression: 'value.age >= 18', store: 'adults' },
        },
        {
          id: 'city',
          kind: 'tableMapValues',
          config: { expression: 'value.city', store: 'city-of' },
        },
        {
          id: 'byCity',
          kind: 'tableGroupBy',
          config: {
            expression: '{"key": value, "value": key}',
            keySerde: 'string',
            valueSerde: 'string',
          },
        },
        { id: 'perCity', kind: 'tableCount', config: { store: 'per-city' } },
        { id: 'ts2', kind: 'toStream', config: {} },
        sink('o2', 'cities', 'string', 'long'),
      ],
      [
        e('words', 'g'),
        e('g', 'c'),
        e('c', 'all'),
        e('all', 'n'),
        e('n', 'ts'),
        e('ts', 'o'),
        e('users', 'adults'),
        e('adults', 'city'),
        e('city', 'byCity'),
        e('byCity', 'perCity'),
        e('perCity', 'ts2'),
        e('ts2', 'o2'),
      ],
    ),
    inputs: [
      ...['a', 'b', 'a', 'c', 'a'].map((key, i) => ({
        topic: 'words',
        key,
        value: 'x',
        timestamp: i,
      })),
      { topic: 'users', key: 'u1', value: { age: 30, city: 'oslo' }, timestamp: 1 },
      { topic: 'users', key: 'u2', value: { age: 10, city: 'oslo' }, timestamp: 2 },
      { topic: 'users', key: 'u1', value: { age: 31, city: 'rome' }, timestamp: 3 },
      { topic: 'users', key: 'u2', value: { age: 18, city: 'rome' }, timestamp: 4 },
      { topic: 'users', key: 'u1', value: { age: 12, city: 'rome' }, timestamp: 5 },
    ],
    outputs: ['distinct', 'cities'],
    stores: ['distinct', 'per-city', 'adults'],
  },
  {
    name: 'globalTable store',
    topology: doc(
      'global',
      ['countries'],
      [{ id: 'g', kind: 'globalTable', config: { topic: 'countries', store: 'countries-store' } }],
      [],
    ),
    inputs: [
      { topic: 'countries', key: 'no', value: { name: 'Norway' }, timestamp: 1 },
      { topic: 'countries', key: 'it', value: { name: 'Italy' }, timestamp: 2 },
      { topic: 'countries', key: 'no', value: { name: 'Noreg' }, timestamp: 3 },
      { topic: 'countries', key: 'it', value: null, timestamp: 4 },
    ],
    outputs: [],
    stores: ['countries-store'],
  },
];

function ours(scenario: OracleScenario) {
  const result = validateTopology(scenario.topology);
  if (!result.ok) throw new Error(`${scenario.name}: ${JSON.stringify(result.errors)}`);
  const driver = createTestDriver(result.topology, { printLine: () => undefined });
  for (const r of scenario.inputs ?? []) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
  const outputs = Object.fromEntries(
    (scenario.outputs ?? []).map((topic) => [
      topic,
      driver.readOutput(topic).map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
    ]),
  );
  const stores = Object.fromEntries(
    (scenario.stores ?? []).map((name) => {
      const entries = driver.getKeyValueStore(name).all();
      // Kafka's stores iterate in serialized-key order; string keys here, so plain order.
      return [
        name,
        entries
          .map((x) => [x.key, x.value])
          .sort(([a], [b]) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)),
      ];
    }),
  );
  return { outputs, stores, errors: driver.errors() };
}

describe('differential: every DSL operation against Apache Kafka Streams', () => {
  const expected = new Map<string, Awaited<ReturnType<typeof runOracle>>[number]>();
  beforeAll(async () => {
    for (const [i, r] of (await runOracle(scenarios)).entries())
      expected.set(scenarios[i]!.name, r);
  }, 300_000);

  it.each(scenarios.map((s) => [s.name, s] as const))('%s', (_name, scenario) => {
    const reference = expected.get(scenario.name)!;
    expect(reference.error, 'failed on Kafka Streams').toBeUndefined();
    // Every output topic and store got something, so no comparison passes vacuously.
    expect(Object.values(reference.outputs ?? {}).every((records) => records.length > 0)).toBe(
      true,
    );
    expect(Object.values(reference.stores ?? {}).every((entries) => entries.length > 0)).toBe(true);
    const got = ours(scenario);
    expect(got.errors).toEqual([]);
    expect(got.outputs).toEqual(reference.outputs);
    if (scenario.stores) expect(got.stores).toEqual(reference.stores);
  });
});
