// Tables of windowed aggregations followed by table operations and suppression, against Kafka
// Streams 4.1 (tools/ks-oracle), issue 28:
// - suppress(untilWindowCloses) after a session-windowed aggregation closes a session at its end
//   + inactivity gap + grace (SessionWindowedKStreamImpl gives the suppression the gap on top of
//   the grace), not end + grace;
// - tableFilter / tableFilterNot / tableMapValues after windowedCount / windowedReduce /
//   windowedAggregate keep the windowed key (a following suppress buffers windowed keys);
// - a filter on a windowed table forwards no tombstone when the old and the new value both fail
//   its predicate (the windowed aggregations send old values, KTableFilter then skips it).
import type { OracleScenario } from '@streamwright/ks-oracle';
import { compareWithOracle } from './fixtures/oracle-harness.js';
import { input } from './fixtures/windowed-doc.js';

type Extra = Record<string, unknown>;

/** source → groupByKey → windowedBy → agg → [table op] → [suppress] → toStream → map → sink. */
function doc(
  window: Extra,
  agg: { kind: string; config?: Extra },
  tableOp: { kind: string; config: Extra } | null,
  suppress: boolean,
  valueSerde = 'long',
) {
  const nodes: Extra[] = [
    { id: 'src', kind: 'source', config: { topic: 'clicks' } },
    { id: 'g', kind: 'groupByKey', config: {} },
    { id: 'w', kind: 'windowedBy', config: { window } },
    { id: 'agg', kind: agg.kind, config: agg.config ?? {} },
    ...(tableOp ? [{ id: 'op', ...tableOp }] : []),
    ...(suppress ? [{ id: 'sup', kind: 'suppress', config: { until: 'windowCloses' } }] : []),
    { id: 'ts', kind: 'toStream', config: {} },
    {
      id: 'm',
      kind: 'map',
      config: {
        expression:
          '{"key": key.key + "@" + string(key.start) + "/" + string(key.end), "value": value}',
      },
    },
    { id: 'out', kind: 'sink', config: { topic: 'out', valueSerde } },
  ];
  const chain = nodes.map((n) => n['id'] as string);
  return {
    schemaVersion: 1,
    application: { id: 'windowed-tables' },
    topics: [
      { name: 'clicks', partitions: 1 },
      { name: 'out', partitions: 1 },
    ],
    nodes,
    edges: chain.slice(1).map((to, i) => ({ from: chain[i] as string, to })),
  };
}

// Sessions of gap 300: a (100, 250, 600) is one session by 600 only if the gap bridges it; late
// records bridge sessions that ended more than `grace` ago but less than gap + grace.
const sessionClicks = [
  ['a', 100],
  ['b', 150],
  ['a', 250],
  ['a', 900],
  ['b', 1200],
  ['a', 1800],
  ['a', 1200], // bridges [900] and [1800]: still open for suppression until 1800 + 300 + grace
  ['b', 2600],
  ['a', 2700],
  ['c', 4000],
  ['a', 5000],
  ['c', 9000],
].map(([k, t]) => input(k as string, t as number, { t }));

// Time-window input: three keys, one record every 150 ms, some out of order.
const timeClicks = [
  0, 150, 300, 450, 1200, 600, 1350, 1500, 2100, 900, 2400, 3300, 2800, 4000, 6000,
].map((t, i) => input(['a', 'b', 'c'][i % 3]!, t, { t }));

const sessionWindow = (graceMs: number) => ({ type: 'session', gapMs: 300, graceMs });
const windows: [string, Extra, OracleScenario['inputs']][] = [
  ['tumbling', { type: 'tumbling', sizeMs: 1000, graceMs: 500 }, timeClicks],
  ['hopping', { type: 'hopping', sizeMs: 1000, advanceMs: 500, graceMs: 500 }, timeClicks],
  ['sliding', { type: 'sliding', timeDifferenceMs: 500, graceMs: 500 }, timeClicks],
  ['session', sessionWindow(200), sessionClicks],
];
const aggregations: [string, { kind: string; config?: Extra }, string][] = [
  ['count', { kind: 'windowedCount' }, 'long'],
  ['reduce', { kind: 'windowedReduce', config: { expression: '{"t": agg.t + value.t}' } }, 'json'],
  [
    'aggregate',
    {
      kind: 'windowedAggregate',
      config: { initializer: '0', aggregator: 'agg + value.t', merger: 'agg + value' },
    },
    'json',
  ],
];
// Predicates on the aggregate: a window's first count (1) fails `value >= 2` and so did its (null)
// old value: Kafka Streams' filter, seeing old values, forwards nothing; one blind to them would
// forward a tombstone.
const tableOps = (aggName: string): [string, { kind: string; config: Extra }][] => {
  const v = aggName === 'count' ? 'value' : aggName === 'reduce' ? 'value.t' : 'value';
  const big = aggName === 'count' ? 2 : 1000;
  return [
    ['filter', { kind: 'tableFilter', config: { expression: `${v} >= ${big}` } }],
    ['filterNot', { kind: 'tableFilterNot', config: { expression: `${v} >= ${big}` } }],
    ['mapValues', { kind: 'tableMapValues', config: { expression: `${v} * 10` } }],
  ];
};

const scenarios: OracleScenario[] = [];
for (const grace of [0, 200]) {
  for (const [aggName, agg, valueSerde] of [aggregations[0]!, aggregations[2]!]) {
    scenarios.push({
      name: `session ${aggName} (grace ${grace}) → suppress: closes at end + gap + grace`,
      topology: doc(sessionWindow(grace), agg, null, true, valueSerde),
      inputs: sessionClicks,
      outputs: ['out'],
    });
  }
}
for (const [windowName, window, inputs] of windows) {
  for (const [aggName, agg, valueSerde] of aggregations) {
    // Only session windows take (and need) a merger.
    const { merger: _merger, ...withoutMerger } = agg.config ?? {};
    const aggregation =
      window['type'] === 'session' ? agg : { kind: agg.kind, config: withoutMerger };
    for (const [opName, op] of tableOps(aggName)) {
      for (const suppress of [false, true]) {
        scenarios.push({
          name: `${windowName} ${aggName} → ${opName}${suppress ? ' → suppress' : ''}`,
          topology: doc(
            window,
            aggregation,
            op,
            suppress,
            opName === 'mapValues' ? 'long' : valueSerde,
          ),
          inputs,
          outputs: ['out'],
        });
      }
    }
  }
}

compareWithOracle('windowed tables: table operations and suppression (issue 28)', scenarios);
