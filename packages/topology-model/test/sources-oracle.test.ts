// Sources reading several topics (StreamsBuilder#stream(Collection)) or a Pattern, and per-source
// timestamp extractors: describe() against Apache Kafka Streams 4.1 (tools/ks-oracle).
import { runOracle, type OracleScenario } from '@streamwright/ks-oracle';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeTopology,
  planTopology,
  taskIdsFor,
  validateTopology,
  type Topology,
  type TopologyDocumentInput,
} from '../src/index.js';

function valid(doc: unknown): Topology {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(`invalid test topology: ${JSON.stringify(result.errors)}`);
  return result.topology;
}

const topics = (...names: string[]) => names.map((name) => ({ name, partitions: 1 }));

const scenarios: { name: string; topology: TopologyDocumentInput }[] = [
  {
    name: 'a list of topics prints as a HashSet',
    topology: {
      schemaVersion: 1,
      application: { id: 'multi' },
      topics: topics('orders-eu', 'orders-us', 'b', 'a', 'zeta', 'out'),
      nodes: [
        {
          id: 's',
          kind: 'source',
          config: { topics: ['zeta', 'orders-us', 'b', 'a', 'orders-eu'] },
        },
        { id: 'f', kind: 'filter', config: { expression: 'true' } },
        { id: 'k', kind: 'sink', config: { topic: 'out' } },
      ],
      edges: [
        { from: 's', to: 'f' },
        { from: 'f', to: 'k' },
      ],
    },
  },
  {
    name: 'a pattern prints as the pattern; a named list source next to it',
    topology: {
      schemaVersion: 1,
      application: { id: 'pattern' },
      topics: topics('clicks-1', 'clicks-2', 'views', 'other', 'out'),
      nodes: [
        { id: 'p', kind: 'source', config: { topicPattern: 'clicks-[0-9]+' } },
        {
          id: 'l',
          kind: 'source',
          name: 'views-and-other',
          config: { topics: ['views', 'other'] },
        },
        { id: 'm', kind: 'merge', config: {} },
        { id: 'k', kind: 'sink', config: { topic: 'out' } },
      ],
      edges: [
        { from: 'p', to: 'm' },
        { from: 'l', to: 'm' },
        { from: 'm', to: 'k' },
      ],
    },
  },
  {
    name: 'a grouped aggregation over a pattern and a timestamp extractor',
    topology: {
      schemaVersion: 1,
      application: { id: 'pattern-count' },
      topics: topics('in-a', 'in-b', 'out'),
      nodes: [
        {
          id: 'p',
          kind: 'source',
          config: { topicPattern: 'in-.*', timestampExtractor: { expression: 'value.t' } },
        },
        { id: 'sel', kind: 'selectKey', config: { expression: 'string(value.user)' } },
        { id: 'g', kind: 'groupByKey', config: {} },
        { id: 'c', kind: 'count', config: {} },
        { id: 'ts', kind: 'toStream', config: {} },
        { id: 'k', kind: 'sink', config: { topic: 'out', valueSerde: 'long' } },
      ],
      edges: [
        { from: 'p', to: 'sel' },
        { from: 'sel', to: 'g' },
        { from: 'g', to: 'c' },
        { from: 'c', to: 'ts' },
        { from: 'ts', to: 'k' },
      ],
    },
  },
];

describe('multi-topic and pattern sources vs Kafka Streams 4.1', () => {
  it('describe() is byte-identical to Kafka Streams for each scenario', async () => {
    const oracle = await runOracle(
      scenarios.map((s): OracleScenario => ({ ...s, describeOnly: true })),
    );
    for (const [i, s] of scenarios.entries()) {
      const expected = oracle[i];
      expect(expected?.error, s.name).toBeUndefined();
      expect(describeTopology(planTopology(valid(s.topology))), s.name).toBe(expected?.describe);
    }
  }, 120_000);

  it('plans the declared topics a pattern matches as the source topics (tasks follow them)', () => {
    const plan = planTopology(valid(scenarios[1]?.topology));
    const source = plan.subtopologies[0]?.nodes.find((n) => n.topicPattern !== undefined);
    expect(source?.topicPattern).toBe('clicks-[0-9]+');
    expect([...(source?.topics ?? [])].sort()).toEqual(['clicks-1', 'clicks-2']);
    expect(plan.subtopologies[0]?.sourceTopics).toEqual(['clicks-1', 'clicks-2', 'other', 'views']);
    // Kafka Streams: the task count is the largest partition count among the source topics.
    const tasks = taskIdsFor(plan, { 'clicks-1': 1, 'clicks-2': 3, views: 2, other: 1, out: 1 });
    expect(tasks.map((t) => t.taskId)).toEqual(['0_0', '0_1', '0_2']);
  });
});

describe('random topic lists and patterns vs Kafka Streams 4.1', () => {
  it('describe() matches for 60 random multi-topic and pattern sources feeding a merge', async () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9._-]{0,11}$/);
    const docs = fc
      .sample(
        fc.record({
          listed: fc.uniqueArray(name, { minLength: 1, maxLength: 12 }),
          patterned: fc.uniqueArray(name, { minLength: 0, maxLength: 4 }),
          named: fc.boolean(),
        }),
        { numRuns: 60, seed: 4242 },
      )
      .map(({ listed, patterned, named }, i) => {
        // Pattern topics get a prefix no listed topic has, so the two sources never overlap.
        const matched = patterned.map((t) => `zz-${t}`);
        const declared = [...listed, ...matched];
        const doc = {
          schemaVersion: 1,
          application: { id: `random-${i}` },
          topics: topics(...declared, 'sink-out'),
          nodes: [
            {
              id: 'l',
              kind: 'source',
              ...(named ? { name: 'listed' } : {}),
              config: { topics: listed },
            },
            { id: 'p', kind: 'source', config: { topicPattern: 'zz-.*' } },
            { id: 'm', kind: 'merge', config: {} },
            { id: 'k', kind: 'sink', config: { topic: 'sink-out' } },
          ],
          edges: [
            { from: 'l', to: 'm' },
            { from: 'p', to: 'm' },
            { from: 'm', to: 'k' },
          ],
        };
        return { name: `random ${i}`, topology: doc, describeOnly: true } satisfies OracleScenario;
      });
    const oracle = await runOracle(docs);
    for (const [i, d] of docs.entries()) {
      expect(oracle[i]?.error, d.name).toBeUndefined();
      expect(describeTopology(planTopology(valid(d.topology))), d.name).toBe(oracle[i]?.describe);
    }
  }, 180_000);
});
