// Differential tests of joins: the same topology document and input run on Apache Kafka Streams
// 4.1 (TopologyTestDriver via tools/ks-oracle) and on our test driver must give the same output
// records (key, value, timestamp, in order), the same dropped-records total and describe() text.
import type { OracleScenario } from '@streamwright/ks-oracle';
import { compareWithOracle } from './fixtures/oracle-harness.js';

type Node = Record<string, unknown>;
type Edge = { from: string; to: string; toPort?: string };

const doc = (nodes: Node[], edges: Edge[], topics: string[]) => ({
  schemaVersion: 1,
  application: { id: 'joins' },
  topics: topics.map((name) => ({ name, partitions: 1 })),
  nodes,
  edges,
});

const streamTable = (type: string) =>
  doc(
    [
      { id: 'orders', kind: 'source', config: { topic: 'orders' } },
      { id: 'users', kind: 'table', config: { topic: 'users' } },
      { id: 'j', kind: 'streamTableJoin', config: { type, joiner: '{"o": left, "u": right}' } },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    [
      { from: 'orders', to: 'j', toPort: 'left' },
      { from: 'users', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
    ['orders', 'users', 'out'],
  );

const streamStream = (type: string, window = { beforeMs: 1000, afterMs: 1000, graceMs: 500 }) =>
  doc(
    [
      { id: 'a', kind: 'source', config: { topic: 'a' } },
      { id: 'b', kind: 'source', config: { topic: 'b' } },
      {
        id: 'j',
        kind: 'streamStreamJoin',
        config: { type, joiner: '{"l": left, "r": right}', window },
      },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    [
      { from: 'a', to: 'j', toPort: 'left' },
      { from: 'b', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
    ['a', 'b', 'out'],
  );

const tableTable = (type: string) =>
  doc(
    [
      { id: 'a', kind: 'table', config: { topic: 'a' } },
      { id: 'b', kind: 'table', config: { topic: 'b' } },
      { id: 'j', kind: 'tableTableJoin', config: { type, joiner: '{"l": left, "r": right}' } },
      { id: 'ts', kind: 'toStream', config: {} },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    [
      { from: 'a', to: 'j', toPort: 'left' },
      { from: 'b', to: 'j', toPort: 'right' },
      { from: 'j', to: 'ts' },
      { from: 'ts', to: 'out' },
    ],
    ['a', 'b', 'out'],
  );

const streamGlobal = (type: string) =>
  doc(
    [
      { id: 'orders', kind: 'source', config: { topic: 'orders' } },
      { id: 'items', kind: 'globalTable', config: { topic: 'items' } },
      {
        id: 'j',
        kind: 'streamGlobalTableJoin',
        config: { type, keySelector: 'value.item', joiner: '{"o": left, "i": right}' },
      },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    [
      { from: 'orders', to: 'j', toPort: 'left' },
      { from: 'items', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
    ['orders', 'items', 'out'],
  );

type Row = [string, string | null, unknown, number];
const rows = (list: Row[]) =>
  list.map(([topic, key, v, timestamp]) => ({
    topic,
    key,
    value: v === null ? null : { v },
    timestamp,
  }));

// Stream side: a record before the table has the key, a null key, a table tombstone, then a key
// the table never had.
const streamTableInput = rows([
  ['orders', 'u1', 1, 0],
  ['users', 'u1', 'A', 10],
  ['orders', 'u1', 2, 20],
  ['orders', null, 3, 30],
  ['users', 'u1', null, 40],
  ['orders', 'u1', 4, 50],
  ['orders', 'u2', 5, 60],
  ['orders', 'u2', null, 70],
]);
// Stream–stream: a match within the window, an unmatched left record whose window closes later,
// a right record outside the window, a record exactly at the window bound (after = 1000), a late
// record, out-of-order input, and a null key.
const streamStreamInput = rows([
  ['a', 'k', 1, 1000],
  ['b', 'k', 2, 1500],
  ['a', 'x', 3, 2000],
  ['b', 'x', 33, 3000],
  ['b', 'k', 4, 5000],
  ['a', 'k', 5, 9000],
  ['a', 'k', 6, 4000],
  ['b', null, 7, 9500],
  ['b', 'y', 8, 12000],
  ['a', 'y', 9, 11000],
  ['a', 'z', 10, 20000],
]);
// Table–table: either side triggers, tombstones on both sides.
const tableTableInput = rows([
  ['a', 'k', 1, 0],
  ['b', 'k', 2, 10],
  ['a', 'x', 3, 20],
  ['b', 'k', null, 30],
  ['a', 'k', 5, 40],
  ['b', 'y', 6, 50],
  ['a', 'x', null, 60],
  ['b', 'k', 7, 70],
  ['a', 'k', null, 80],
]);
const globalInput = [
  { topic: 'items', key: 'i1', value: { origin: 'SH' }, timestamp: 0 },
  { topic: 'orders', key: 'o1', value: { item: 'i1' }, timestamp: 10 },
  { topic: 'orders', key: 'o2', value: { item: 'i9' }, timestamp: 20 },
  { topic: 'orders', key: null, value: { item: 'i1' }, timestamp: 30 },
  { topic: 'items', key: 'i9', value: { origin: 'BJ' }, timestamp: 40 },
  { topic: 'orders', key: 'o3', value: { item: 'i9' }, timestamp: 50 },
];

// A re-keyed stream (repartitioned: Kafka names the join after the repartition's three nodes)
// joined with a table read through unmaterialized filter and mapValues (KTableFilter /
// KTableMapValues value getters: a filtered-out user is missing, others are mapped).
const rekeyedThroughGetters = (type: string) =>
  doc(
    [
      { id: 'orders', kind: 'source', config: { topic: 'orders' } },
      { id: 'byUser', kind: 'selectKey', config: { expression: 'value.user' } },
      { id: 'users', kind: 'table', config: { topic: 'users' } },
      { id: 'adults', kind: 'tableFilter', config: { expression: 'value.age >= 18' } },
      { id: 'names', kind: 'tableMapValues', config: { expression: 'value.name' } },
      {
        id: 'j',
        kind: 'streamTableJoin',
        config: { type, joiner: '{"o": left, "u": right}', keySerde: 'string' },
      },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    [
      { from: 'orders', to: 'byUser' },
      { from: 'byUser', to: 'j', toPort: 'left' },
      { from: 'users', to: 'adults' },
      { from: 'adults', to: 'names' },
      { from: 'names', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
    ['orders', 'users', 'out'],
  );
const rekeyedInput = [
  { topic: 'users', key: 'u1', value: { name: 'Ann', age: 30 }, timestamp: 0 },
  { topic: 'users', key: 'u2', value: { name: 'Bo', age: 12 }, timestamp: 1 },
  { topic: 'orders', key: 'o1', value: { user: 'u1' }, timestamp: 10 },
  { topic: 'orders', key: 'o2', value: { user: 'u2' }, timestamp: 20 },
  { topic: 'orders', key: 'o3', value: { user: 'u3' }, timestamp: 30 },
  { topic: 'users', key: 'u2', value: { name: 'Bo', age: 18 }, timestamp: 40 },
  { topic: 'users', key: 'u1', value: { name: 'Ann', age: 17 }, timestamp: 41 },
  { topic: 'orders', key: 'o4', value: { user: 'u2' }, timestamp: 50 },
  { topic: 'orders', key: 'o5', value: { user: 'u1' }, timestamp: 60 },
];

// Table–table joins whose sides are read through filter and mapValues getters (each side looks
// the other up through the other's KTableFilter / KTableMapValues getters).
const tableTableThroughGetters = (type: string) =>
  doc(
    [
      { id: 'users', kind: 'table', config: { topic: 'users' } },
      { id: 'adults', kind: 'tableFilter', config: { expression: 'value.age >= 18' } },
      { id: 'names', kind: 'tableMapValues', config: { expression: 'value.name' } },
      { id: 'accounts', kind: 'table', config: { topic: 'accounts' } },
      { id: 'open', kind: 'tableFilterNot', config: { expression: 'value.closed' } },
      { id: 'j', kind: 'tableTableJoin', config: { type, joiner: '{"l": left, "r": right}' } },
      { id: 'ts', kind: 'toStream', config: {} },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    [
      { from: 'users', to: 'adults' },
      { from: 'adults', to: 'names' },
      { from: 'names', to: 'j', toPort: 'left' },
      { from: 'accounts', to: 'open' },
      { from: 'open', to: 'j', toPort: 'right' },
      { from: 'j', to: 'ts' },
      { from: 'ts', to: 'out' },
    ],
    ['users', 'accounts', 'out'],
  );
const tableTableGetterInput = [
  { topic: 'users', key: 'u1', value: { name: 'Ann', age: 30 }, timestamp: 0 },
  { topic: 'users', key: 'u2', value: { name: 'Bo', age: 12 }, timestamp: 1 },
  { topic: 'accounts', key: 'u1', value: { closed: false, n: 1 }, timestamp: 2 },
  { topic: 'accounts', key: 'u2', value: { closed: false, n: 2 }, timestamp: 3 },
  { topic: 'accounts', key: 'u3', value: { closed: true, n: 3 }, timestamp: 4 },
  { topic: 'users', key: 'u3', value: { name: 'Cy', age: 40 }, timestamp: 5 },
  { topic: 'users', key: 'u2', value: { name: 'Bo', age: 18 }, timestamp: 6 },
  { topic: 'accounts', key: 'u1', value: { closed: true, n: 1 }, timestamp: 7 },
  { topic: 'users', key: 'u1', value: { name: 'Ann', age: 31 }, timestamp: 8 },
];

const scenarios: OracleScenario[] = [
  ...['inner', 'left', 'outer'].map((t) => ({
    name: `table–table ${t}, both sides through filter / mapValues getters`,
    topology: tableTableThroughGetters(t),
    inputs: tableTableGetterInput,
    outputs: ['out'],
  })),
  ...['inner', 'left'].map((t) => ({
    name: `stream–table ${t}, re-keyed, through a table filter and mapValues`,
    topology: rekeyedThroughGetters(t),
    inputs: rekeyedInput,
    outputs: ['out'],
  })),
  ...['inner', 'left'].map((t) => ({
    name: `stream–table ${t}`,
    topology: streamTable(t),
    inputs: streamTableInput,
    outputs: ['out'],
  })),
  ...['inner', 'left', 'outer'].map((t) => ({
    name: `stream–stream ${t}`,
    topology: streamStream(t),
    inputs: streamStreamInput,
    outputs: ['out'],
  })),
  {
    name: 'stream–stream left, asymmetric window',
    topology: streamStream('left', { beforeMs: 0, afterMs: 2000, graceMs: 0 }),
    inputs: streamStreamInput,
    outputs: ['out'],
  },
  ...['inner', 'left', 'outer'].map((t) => ({
    name: `table–table ${t}`,
    topology: tableTable(t),
    inputs: tableTableInput,
    outputs: ['out'],
  })),
  ...['inner', 'left'].map((t) => ({
    name: `stream–globalTable ${t}`,
    topology: streamGlobal(t),
    inputs: globalInput,
    outputs: ['out'],
  })),
];

compareWithOracle('joins vs Apache Kafka Streams 4.1', scenarios);
