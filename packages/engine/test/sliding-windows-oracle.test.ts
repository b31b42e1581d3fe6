// Sliding-window aggregations (SlidingWindows, KStreamSlidingWindowAggregate) on Kafka Streams
// 4.1 and on ours: same describe(), same output records in order, same dropped-records total.
import type { OracleScenario } from '@streamwright/ks-oracle';
import { compareWithOracle } from './fixtures/oracle-harness.js';
import { input, windowedDoc } from './fixtures/windowed-doc.js';

const sliding = (timeDifferenceMs: number, graceMs?: number) =>
  graceMs === undefined
    ? { type: 'sliding', timeDifferenceMs }
    : { type: 'sliding', timeDifferenceMs, graceMs };

// In order, one key: records exactly d apart share a window (inclusive bounds), a record d + 1
// later does not; a record at the same timestamp as an earlier one.
const inOrder = [10000, 12000, 15000, 15000, 20001, 21000, 30000].map((t) => input('k', t));
// Out of order across two keys, with late records within and beyond grace, a null key and a
// null value (dropped), and early records (before the time difference: the [0, d] window).
const outOfOrder = [
  input('a', 1000),
  input('b', 3000),
  input('a', 4000),
  input('a', 2500),
  input('b', 12000),
  input('a', 9000),
  input(null, 9500),
  input('a', 7000),
  input('b', 8000),
  input('a', 20000),
  input('a', 14000),
  input('a', 10000),
  input('b', 16000, null),
  input('b', 17000),
  input('a', 11999),
  input('b', 25000),
  input('a', 12000),
];
// Grace boundaries for d = 5 s, grace = 2 s: after stream time 20 s the close time is 18 s; a
// record at 12 s is dropped (its right window would end at 12 + 1 + 5 = 18 s ≤ 18 s), one at
// 12.001 s is kept but its left window [7.001 s, 12.001 s] has closed (only open windows update).
const graceEdges = [
  input('g', 10000),
  input('g', 20000),
  input('g', 12000),
  input('g', 12001),
  input('g', 13000),
  input('g', 15000),
  input('g', 16000),
  input('g', 18000),
  input('g', 22000),
  input('g', 17000),
];
const early = [0, 3000, 1000, 6000, 4000, 2000, 5000, 11000, 500].map((t) => input('e', t));

const scenarios: OracleScenario[] = [
  {
    name: 'sliding count, d 5 s, no grace, in order (inclusive bounds)',
    topology: windowedDoc(sliding(5000), { kind: 'windowedCount' }),
    inputs: inOrder,
    outputs: ['out'],
  },
  {
    name: 'sliding count, d 5 s, grace 3 s, out of order, null key and value',
    topology: windowedDoc(sliding(5000, 3000), { kind: 'windowedCount' }),
    inputs: outOfOrder,
    outputs: ['out'],
  },
  {
    name: 'sliding count, d 5 s, grace 2 s: exactly at the grace end',
    topology: windowedDoc(sliding(5000, 2000), { kind: 'windowedCount' }),
    inputs: graceEdges,
    outputs: ['out'],
  },
  {
    name: 'sliding count: early records (before the time difference)',
    topology: windowedDoc(sliding(5000, 10000), { kind: 'windowedCount' }),
    inputs: early,
    outputs: ['out'],
  },
  {
    name: 'sliding count with Materialized serdes and retention (no extra store name)',
    topology: windowedDoc(sliding(5000, 1000), {
      kind: 'windowedCount',
      config: { keySerde: 'string', retentionMs: 20000 },
    }),
    inputs: inOrder,
    outputs: ['out'],
  },
  {
    name: 'sliding reduce',
    topology: windowedDoc(
      sliding(4000, 6000),
      { kind: 'windowedReduce', config: { expression: '{"t": agg.t + value.t}' } },
      { valueSerde: 'json' },
    ),
    inputs: [...outOfOrder, ...early],
    outputs: ['out'],
  },
  {
    name: 'sliding aggregate, named store',
    topology: windowedDoc(sliding(3000, 1000), {
      kind: 'windowedAggregate',
      config: { initializer: '0', aggregator: 'agg + value.t', store: 'sums' },
    }),
    inputs: [...inOrder, ...graceEdges.map((r) => ({ ...r, key: 'k' }))],
    outputs: ['out'],
  },
  {
    name: 'sliding count, emit on window close',
    topology: windowedDoc(
      sliding(5000, 2000),
      { kind: 'windowedCount' },
      { windowedBy: { emitStrategy: 'onWindowClose' } },
    ),
    inputs: [
      ...early,
      input('k', 10000),
      input('e', 30000),
      input('k', 31000),
      input('k', 60000),
      input('z', 90000),
    ],
    outputs: ['out'],
  },
  {
    name: 'sliding count, emit on window close, first look at a record with nothing closed',
    topology: windowedDoc(
      sliding(5000, 2000),
      { kind: 'windowedCount' },
      { windowedBy: { emitStrategy: 'onWindowClose' } },
    ),
    inputs: [10000, 11000, 12000, 13000, 30000, 60000].map((t) => input('k', t)),
    outputs: ['out'],
  },
  {
    name: 'sliding count, emit on window close, closes in quick succession',
    topology: windowedDoc(
      sliding(5000, 2000),
      { kind: 'windowedCount' },
      { windowedBy: { emitStrategy: 'onWindowClose' } },
    ),
    inputs: [10000, 16000, 14500, 17000, 22000].map((t) => input('k', t)),
    outputs: ['out'],
  },
  {
    name: 'sliding count then suppress untilWindowCloses',
    topology: windowedDoc(
      sliding(5000, 2000),
      { kind: 'windowedCount' },
      { suppress: { until: 'windowCloses' } },
    ),
    inputs: [...inOrder, input('k', 60000)],
    outputs: ['out'],
  },
];

compareWithOracle('sliding-window aggregations vs Apache Kafka Streams 4.1', scenarios);
