// Differential tests of the stateless KStream operations and of repartitioning: the same topology
// document and input run on Apache Kafka Streams 4.1 (TopologyTestDriver through tools/ks-oracle)
// and on our test driver must emit the same records (key, value, timestamp, in order). Inputs
// include null keys and values and out-of-order timestamps, so Kafka Streams' null rules and
// timestamp choices are exercised.
import type { OracleScenario } from '@streamwright/ks-oracle';
import {
  differential,
  doc,
  e,
  notNull,
  orders,
  ordersSource,
  sink,
} from './fixtures/dsl-operations.js';

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
];

differential('differential: KStream operations against Apache Kafka Streams', scenarios);
