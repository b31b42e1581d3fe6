// Differential test: our planner + describeTopology against Apache Kafka Streams 4.1 itself
// (tools/ks-oracle builds the equivalent DSL program and prints Topology#describe()).
//
// Counts in these topologies always name their store: the oracle calls
// count(Materialized.with(...)), which burns one more counter value than count() does
// (KGroupedStreamImpl#count(Named, Materialized)); our planner follows count(). The unnamed-store
// naming is checked against Kafka's own tests in src/describe.test.ts.
import { runOracle, type OracleScenario } from '@streamwright/ks-oracle';
import { describe, expect, it } from 'vitest';
import { describeTopology, exampleTopology, planTopology, validateTopology } from '../src/index.js';
import { randomTopology } from './support/random-topology.js';

function ours(doc: unknown): string {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(`invalid test topology: ${JSON.stringify(result.errors)}`);
  return describeTopology(planTopology(result.topology));
}

const handWritten: OracleScenario[] = [
  { name: 'example', topology: exampleTopology(), describeOnly: true },
  {
    name: 'fan-out of three stateless branches',
    describeOnly: true,
    topology: {
      schemaVersion: 1,
      application: { id: 'fan' },
      topics: [
        { name: 'in', partitions: 2 },
        { name: 'a', partitions: 1 },
        { name: 'b', partitions: 1 },
        { name: 'c', partitions: 1 },
      ],
      nodes: [
        { id: 'src', kind: 'source', config: { topic: 'in' } },
        { id: 'p', kind: 'peek', config: {} },
        { id: 'm', kind: 'mapValues', config: { expression: 'value' } },
        { id: 'f', kind: 'filter', config: { expression: 'true' } },
        { id: 'sa', kind: 'sink', config: { topic: 'a' } },
        { id: 'sb', kind: 'sink', config: { topic: 'b' } },
        { id: 'sc', kind: 'sink', config: { topic: 'c' } },
        { id: 'f2', kind: 'filter', config: { expression: 'true' } },
      ],
      edges: [
        { from: 'src', to: 'p' },
        { from: 'src', to: 'm' },
        { from: 'src', to: 'f' },
        { from: 'p', to: 'sa' },
        { from: 'm', to: 'sb' },
        { from: 'f', to: 'f2' },
        { from: 'f2', to: 'sc' },
      ],
    },
  },
  {
    name: 'two sources, two sub-topologies, user names',
    describeOnly: true,
    topology: {
      schemaVersion: 1,
      application: { id: 'two' },
      topics: [
        { name: 'left', partitions: 1 },
        { name: 'right', partitions: 1 },
        { name: 'out', partitions: 1 },
        { name: 'counts', partitions: 1 },
      ],
      nodes: [
        { id: 'r', kind: 'source', name: 'right-source', config: { topic: 'right' } },
        { id: 'l', kind: 'generator', config: { topic: 'left', ratePerSecond: 1, value: 'seq' } },
        { id: 'lf', kind: 'filter', name: 'keep-all', config: { expression: 'true' } },
        { id: 'ls', kind: 'sink', config: { topic: 'out' } },
        { id: 'rg', kind: 'groupByKey', config: {} },
        { id: 'rc', kind: 'count', name: 'count-right', config: { store: 'right-counts' } },
        { id: 'rt', kind: 'toStream', config: {} },
        {
          id: 'rs',
          kind: 'sink',
          name: 'to-counts',
          config: { topic: 'counts', valueSerde: 'long' },
        },
      ],
      edges: [
        { from: 'l', to: 'lf' },
        { from: 'lf', to: 'ls' },
        { from: 'r', to: 'rg' },
        { from: 'rg', to: 'rc' },
        { from: 'rc', to: 'rt' },
        { from: 'rt', to: 'rs' },
      ],
    },
  },
];

const SEEDS = Array.from({ length: 60 }, (_, i) => 1000 + i);

describe('describe() matches Kafka Streams 4.1 (tools/ks-oracle)', () => {
  it(
    'for hand-written topologies and 60 random forests of v1 kinds',
    { timeout: 120_000 },
    async () => {
      const random: OracleScenario[] = SEEDS.map((seed) => ({
        name: `random-${seed}`,
        topology: randomTopology(seed, { namedStores: true }),
        describeOnly: true,
      }));
      const scenarios = [...handWritten, ...random];
      const results = await runOracle(scenarios);
      const mismatches: string[] = [];
      scenarios.forEach((scenario, i) => {
        const expected = results[i];
        if (!expected || expected.error !== undefined || expected.describe === undefined) {
          mismatches.push(`${scenario.name}: oracle failed: ${expected?.error}`);
          return;
        }
        const actual = ours(scenario.topology);
        if (actual !== expected.describe) {
          mismatches.push(
            `${scenario.name}\n--- Kafka Streams\n${expected.describe}\n--- ours\n${actual}`,
          );
        }
      });
      expect(mismatches.slice(0, 3).join('\n\n')).toBe('');
    },
  );
});
