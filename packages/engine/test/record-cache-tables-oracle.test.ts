// The record cache in front of the other KTable stores Kafka Streams caches: materialized KTable
// filter / mapValues (KTableFilter / KTableMapValues through TimestampedTupleForwarder), table
// aggregations (KTableAggregate / KTableReduce: count, reduce, aggregate after groupBy) and
// cogroups (one cached store shared by each input's KStreamAggregate). TopologyTestDriver commits
// after every record, so the cache's flush is visible only where Kafka's CachingKeyValueStore
// differs from an uncached store: a key that was never in the store and is "deleted" forwards
// nothing, and the old value of a new key is the store's (null), not an initializer's result.
// Every expected output is Kafka Streams' own (tools/ks-oracle, cache on in both).
import type { OracleScenario } from '@streamwright/ks-oracle';
import { compareWithOracle } from './fixtures/oracle-harness.js';

const CACHE_ON = { 'statestore.cache.max.bytes': 10_485_760 };
const doc = (
  id: string,
  topics: string[],
  nodes: unknown[],
  edges: [string, string, string?][],
) => ({
  schemaVersion: 1,
  application: { id, config: CACHE_ON },
  topics: topics.map((name) => ({ name, partitions: 1 })),
  nodes,
  edges: edges.map(([from, to, toPort]) => ({ from, to, ...(toPort ? { toPort } : {}) })),
});
const sink = (id: string, topic: string, valueSerde = 'json') => ({
  id,
  kind: 'sink',
  config: { topic, keySerde: 'string', valueSerde },
});
const users = [
  { topic: 'users', key: 'u1', value: { age: 30, city: 'oslo' }, timestamp: 1 },
  { topic: 'users', key: 'u2', value: { age: 10, city: 'oslo' }, timestamp: 2 },
  { topic: 'users', key: 'u1', value: { age: 31, city: 'rome' }, timestamp: 3 },
  { topic: 'users', key: 'u2', value: { age: 18, city: 'rome' }, timestamp: 4 },
  { topic: 'users', key: 'u1', value: { age: 12, city: 'rome' }, timestamp: 5 },
  { topic: 'users', key: 'u3', value: { age: 5, city: 'oslo' }, timestamp: 6 },
  { topic: 'users', key: 'u3', value: null, timestamp: 7 },
  { topic: 'users', key: 'u2', value: null, timestamp: 8 },
];

const scenarios: OracleScenario[] = [
  {
    name: 'cache on: materialized filter and mapValues forward no tombstone for a key they never held',
    topology: doc(
      'cached-filter',
      ['users', 'adults', 'cities'],
      [
        { id: 'users', kind: 'table', config: { topic: 'users' } },
        {
          id: 'adults',
          kind: 'tableFilter',
          config: { expression: 'value.age >= 18', store: 'adults' },
        },
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'adults'),
        {
          id: 'city',
          kind: 'tableMapValues',
          config: { expression: 'value.city', store: 'city-of' },
        },
        { id: 'ts2', kind: 'toStream', config: {} },
        sink('o2', 'cities', 'string'),
      ],
      [
        ['users', 'adults'],
        ['adults', 'ts'],
        ['ts', 'o'],
        ['adults', 'city'],
        ['city', 'ts2'],
        ['ts2', 'o2'],
      ],
    ),
    inputs: users,
    outputs: ['adults', 'cities'],
  },
  {
    name: 'cache on: filter → mapValues → groupBy → count (old values through cached stores)',
    topology: doc(
      'cached-table-count',
      ['users', 'per-city'],
      [
        { id: 'users', kind: 'table', config: { topic: 'users' } },
        {
          id: 'adults',
          kind: 'tableFilterNot',
          config: { expression: 'value.age < 18', store: 'adults' },
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
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'per-city', 'long'),
      ],
      [
        ['users', 'adults'],
        ['adults', 'city'],
        ['city', 'byCity'],
        ['byCity', 'perCity'],
        ['perCity', 'ts'],
        ['ts', 'o'],
      ],
    ),
    inputs: users,
    outputs: ['per-city'],
  },
  {
    name: 'cache on: table aggregate and reduce, then a second groupBy sees their cached old values',
    topology: doc(
      'cached-table-aggregates',
      ['people', 'ages', 'total'],
      [
        { id: 'people', kind: 'table', config: { topic: 'people' } },
        {
          id: 'byTeam',
          kind: 'tableGroupBy',
          config: {
            expression: '{"key": value.team, "value": value.age}',
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
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'ages', 'long'),
        {
          id: 'all',
          kind: 'tableGroupBy',
          config: {
            expression: '{"key": "all", "value": value}',
            keySerde: 'string',
            valueSerde: 'long',
          },
        },
        {
          id: 'total',
          kind: 'tableReduce',
          config: { adder: 'agg + value', subtractor: 'agg - value', store: 'total' },
        },
        { id: 'ts2', kind: 'toStream', config: {} },
        sink('o2', 'total', 'long'),
      ],
      [
        ['people', 'byTeam'],
        ['byTeam', 'sum'],
        ['sum', 'ts'],
        ['ts', 'o'],
        ['sum', 'all'],
        ['all', 'total'],
        ['total', 'ts2'],
        ['ts2', 'o2'],
      ],
    ),
    inputs: [
      { topic: 'people', key: 'p1', value: { team: 'red', age: 30 }, timestamp: 1 },
      { topic: 'people', key: 'p2', value: { team: 'red', age: 20 }, timestamp: 2 },
      { topic: 'people', key: 'p3', value: { team: 'blue', age: 40 }, timestamp: 3 },
      { topic: 'people', key: 'p1', value: { team: 'blue', age: 31 }, timestamp: 4 },
      { topic: 'people', key: 'p2', value: null, timestamp: 5 },
      { topic: 'people', key: 'p9', value: null, timestamp: 6 },
    ],
    outputs: ['ages', 'total'],
  },
  {
    name: 'cache on: cogroup, whose new keys have a null old value downstream',
    topology: doc(
      'cached-cogroup',
      ['clicks', 'buys', 'activity', 'all-clicks'],
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
        {
          id: 'all',
          kind: 'tableGroupBy',
          config: {
            expression: '{"key": "all", "value": value.clicks}',
            keySerde: 'string',
            valueSerde: 'long',
          },
        },
        {
          // Counts the adds and subtractions it sees: an old value of a new key shows up here.
          id: 'sum',
          kind: 'tableAggregate',
          config: {
            initializer: '{"adds": 0, "subs": 0}',
            adder: '{"adds": agg.adds + 1, "subs": agg.subs}',
            subtractor: '{"adds": agg.adds, "subs": agg.subs + 1}',
            caching: false,
          },
        },
        { id: 'ts2', kind: 'toStream', config: {} },
        sink('o2', 'all-clicks'),
      ],
      [
        ['clicks', 'g1'],
        ['buys', 'g2'],
        ['g1', 'co', 'clicks'],
        ['g2', 'co', 'buys'],
        ['co', 'ts'],
        ['ts', 'o'],
        ['co', 'all'],
        ['all', 'sum'],
        ['sum', 'ts2'],
        ['ts2', 'o2'],
      ],
    ),
    inputs: [
      { topic: 'clicks', key: 'ann', value: 1, timestamp: 5 },
      { topic: 'buys', key: 'ann', value: 3, timestamp: 2 },
      { topic: 'clicks', key: 'bob', value: 2, timestamp: 9 },
      { topic: 'buys', key: 'cid', value: 1, timestamp: 10 },
      { topic: 'clicks', key: 'ann', value: 4, timestamp: 7 },
    ],
    outputs: ['activity', 'all-clicks'],
  },
];

const joinOf = (type: string) => ({
  name: `cache on: materialized ${type} table–table join (a null result never stored forwards nothing)`,
  topology: doc(
    `cached-${type}-join`,
    ['a', 'b', 'out'],
    [
      { id: 'a', kind: 'table', config: { topic: 'a' } },
      { id: 'b', kind: 'table', config: { topic: 'b' } },
      {
        id: 'j',
        kind: 'tableTableJoin',
        config: { type, joiner: '{"l": left, "r": right}', store: 'joined' },
      },
      { id: 'ts', kind: 'toStream', config: {} },
      sink('o', 'out'),
    ],
    [
      ['a', 'j', 'left'],
      ['b', 'j', 'right'],
      ['j', 'ts'],
      ['ts', 'o'],
    ],
  ),
  inputs: [
    { topic: 'a', key: 'k1', value: { v: 1 }, timestamp: 1 },
    { topic: 'b', key: 'k2', value: { v: 2 }, timestamp: 2 },
    { topic: 'b', key: 'k1', value: { v: 3 }, timestamp: 3 },
    { topic: 'a', key: 'k1', value: { v: 4 }, timestamp: 4 },
    { topic: 'b', key: 'k1', value: null, timestamp: 5 },
    { topic: 'a', key: 'k3', value: null, timestamp: 6 },
    { topic: 'b', key: 'k2', value: null, timestamp: 7 },
    { topic: 'a', key: 'k1', value: null, timestamp: 8 },
  ],
  outputs: ['out'],
});
scenarios.push(joinOf('inner'), joinOf('left'), joinOf('outer'));

compareWithOracle(
  'record cache on KTable filter/mapValues, table aggregations and cogroup vs Apache Kafka Streams 4.1',
  scenarios,
);
