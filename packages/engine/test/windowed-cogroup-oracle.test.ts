// Windowed cogroup (CogroupedKStream#windowedBy, issue 28) against Kafka Streams 4.1
// (tools/ks-oracle): time (tumbling, hopping), sliding and session windows, with and without
// grace, a repartitioned input, named nodes and stores, and suppression after it. Compared:
// describe() byte for byte, every output record, dropped records.
import type { OracleScenario } from '@streamwright/ks-oracle';
import { compareWithOracle } from './fixtures/oracle-harness.js';

type Extra = Record<string, unknown>;

/**
 * clicks → groupByKey ─┐
 * views → groupBy ─────┴→ cogroup(window) [→ suppress] → toStream → map(window into text) → sink.
 * The groupBy re-keys (to the value's `u`), so that input goes through a repartition topic.
 */
function doc(
  cogroup: Extra,
  options: { name?: string; suppress?: Extra; viewsGroupName?: string; rekey?: boolean } = {},
) {
  const rekey = options.rekey ?? true;
  const nodes: Extra[] = [
    { id: 'clicks', kind: 'source', config: { topic: 'clicks' } },
    { id: 'views', kind: 'source', config: { topic: 'views' } },
    { id: 'gc', kind: 'groupByKey', config: {} },
    rekey
      ? {
          id: 'gv',
          kind: 'groupBy',
          config: { expression: 'value.u', keySerde: 'string' },
          ...(options.viewsGroupName ? { name: options.viewsGroupName } : {}),
        }
      : { id: 'gv', kind: 'groupByKey', config: {} },
    {
      id: 'co',
      kind: 'cogroup',
      ...(options.name ? { name: options.name } : {}),
      config: {
        inputs: [
          { port: 'clicks', aggregator: '{"c": agg.c + value.n, "v": agg.v}' },
          { port: 'views', aggregator: '{"c": agg.c, "v": agg.v + 1}' },
        ],
        initializer: '{"c": 0, "v": 0}',
        ...cogroup,
      },
    },
    ...(options.suppress ? [{ id: 'sup', kind: 'suppress', config: options.suppress }] : []),
    { id: 'ts', kind: 'toStream', config: {} },
    {
      id: 'm',
      kind: 'map',
      config: {
        expression:
          '{"key": key.key + "@" + string(key.start) + "/" + string(key.end), "value": value}',
      },
    },
    { id: 'out', kind: 'sink', config: { topic: 'out' } },
  ];
  const tail = nodes.slice(4).map((n) => n['id'] as string);
  return {
    schemaVersion: 1,
    application: { id: 'windowed-cogroup' },
    topics: ['clicks', 'views', 'out'].map((name) => ({ name, partitions: 1 })),
    nodes,
    edges: [
      { from: 'clicks', to: 'gc' },
      { from: 'views', to: 'gv' },
      { from: 'gc', to: 'co', toPort: 'clicks' },
      { from: 'gv', to: 'co', toPort: 'views' },
      ...tail.slice(1).map((to, i) => ({ from: tail[i] as string, to })),
    ],
  };
}

const click = (key: string, timestamp: number, n = 1) => ({
  topic: 'clicks',
  key,
  value: { n },
  timestamp,
});
const view = (user: string, timestamp: number) => ({
  topic: 'views',
  key: `page-${timestamp % 3}`,
  value: { u: user },
  timestamp,
});

// Both inputs, interleaved, out of order, and late: each aggregator has its own observed stream
// time in Kafka Streams (one KStreamWindowAggregate per input), so a view at 300 after clicks up
// to 2600 is not late for the views' aggregator.
const timeInputs = [
  click('a', 100),
  view('a', 150),
  click('b', 200, 2),
  click('a', 950),
  view('b', 1000),
  click('a', 1400, 3),
  view('a', 1100),
  click('b', 2600),
  view('a', 300),
  click('a', 500), // late for the clicks' aggregator with grace 0 and 500 (stream time 2600)
  view('b', 2700),
  click('a', 2300),
  view('a', 4000),
  click('b', 6000),
  view('b', 3300),
];
// Sessions of gap 300: late records bridge sessions that ended less than gap + grace ago.
const sessionInputs = [
  click('a', 100),
  view('a', 250),
  click('b', 150),
  click('a', 900),
  view('b', 1200),
  click('a', 1800),
  view('a', 1200), // bridges [900] and [1800] of key a
  click('b', 2600),
  view('a', 2700),
  click('c', 4000),
  view('a', 1500),
  click('a', 5000),
  view('c', 9000),
  click('c', 9100),
];

const session = (graceMs: number) => ({ type: 'session', gapMs: 300, graceMs });
const windows: [string, Extra, OracleScenario['inputs']][] = [
  ['tumbling', { type: 'tumbling', sizeMs: 1000 }, timeInputs],
  ['tumbling grace 500', { type: 'tumbling', sizeMs: 1000, graceMs: 500 }, timeInputs],
  ['hopping', { type: 'hopping', sizeMs: 1000, advanceMs: 500, graceMs: 200 }, timeInputs],
  ['sliding', { type: 'sliding', timeDifferenceMs: 500 }, timeInputs],
  ['sliding grace 500', { type: 'sliding', timeDifferenceMs: 500, graceMs: 500 }, timeInputs],
  ['session', session(0), sessionInputs],
  ['session grace 200', session(200), sessionInputs],
];
const merger = '{"c": agg.c + value.c, "v": agg.v + value.v}';
const configOf = (window: Extra): Extra =>
  window['type'] === 'session' ? { window, merger } : { window };

const scenarios: OracleScenario[] = [];
for (const [label, window, inputs] of windows) {
  scenarios.push({
    name: `${label}: generated names`,
    topology: doc(configOf(window)),
    inputs,
    outputs: ['out'],
  });
  scenarios.push({
    name: `${label}: named cogroup, named store, named grouping`,
    topology: doc(
      { ...configOf(window), store: 'co-store' },
      { name: 'totals', viewsGroupName: 'by-user' },
    ),
    inputs,
    outputs: ['out'],
  });
  scenarios.push({
    name: `${label}: suppress until the windows close`,
    topology: doc(configOf(window), { suppress: { until: 'windowCloses' }, rekey: false }),
    inputs,
    outputs: ['out'],
  });
}
scenarios.push({
  name: 'tumbling: retention and in-memory store',
  topology: doc({
    window: { type: 'tumbling', sizeMs: 1000, graceMs: 100 },
    retentionMs: 5000,
    storeType: 'inMemory',
  }),
  inputs: timeInputs,
  outputs: ['out'],
});

compareWithOracle('windowed cogroup against Kafka Streams (issue 28)', scenarios);
