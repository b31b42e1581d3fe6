// Differential tests of KTable operations against Apache Kafka Streams 4.1: toTable, filter /
// filterNot / mapValues (tombstones, old values), table groupBy with adder and subtractor, table
// reduce, topic extractors and a globalTable store: the same output records and store contents.
import type { OracleScenario } from '@streamwright/ks-oracle';
import { differential, doc, e, orders, ordersSource, sink } from './fixtures/dsl-operations.js';

const scenarios: OracleScenario[] = [
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

differential('differential: KTable operations against Apache Kafka Streams', scenarios);
