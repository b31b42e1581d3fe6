// Differential test: our planner + describeTopology against Apache Kafka Streams 4.1 itself
// (tools/ks-oracle builds the equivalent DSL program and prints Topology#describe()).
//
// Three sets: hand-written v1 topologies, one hand-picked program per DSL operation
// (test/support/dsl-scenarios.ts), and random topologies over every kind generated with
// fast-check (test/support/random-dsl.ts). A random document that validation refuses only for
// a naming conflict (duplicate_name / duplicate_store) must make Kafka Streams refuse it too.
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeTopology, exampleTopology, planTopology, validateTopology } from '../src/index.js';
import { dslScenarios } from './support/dsl-scenarios.js';
import { randomDslTopology } from './support/random-dsl.js';
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

/** Mismatches between our describe() and Kafka Streams' for each scenario, as readable text. */
function mismatches(scenarios: OracleScenario[], results: OracleResult[]): string[] {
  const out: string[] = [];
  scenarios.forEach((scenario, i) => {
    const expected = results[i];
    const validation = validateTopology(scenario.topology);
    if (!validation.ok) {
      const conflictsOnly = validation.errors.every(
        (e) => e.code === 'duplicate_name' || e.code === 'duplicate_store',
      );
      if (!conflictsOnly)
        out.push(`${scenario.name}: invalid: ${JSON.stringify(validation.errors)}`);
      else if (expected?.error === undefined)
        out.push(
          `${scenario.name}: we refuse ${JSON.stringify(validation.errors)}, Kafka Streams builds it`,
        );
      return;
    }
    if (!expected || expected.error !== undefined || expected.describe === undefined) {
      out.push(
        `${scenario.name}: oracle failed: ${expected?.error}\n${JSON.stringify(scenario.topology)}`,
      );
      return;
    }
    const actual = ours(scenario.topology);
    if (actual !== expected.describe) {
      out.push(
        `${scenario.name}\n--- Kafka Streams\n${expected.describe}\n--- ours\n${actual}\n--- document\n${JSON.stringify(scenario.topology)}`,
      );
    }
  });
  return out;
}

describe('describe() matches Kafka Streams 4.1 (tools/ks-oracle)', () => {
  it(
    'for hand-written v1 topologies and 60 random forests of v1 kinds',
    { timeout: 120_000 },
    async () => {
      const random: OracleScenario[] = Array.from({ length: 60 }, (_, i) => ({
        name: `random-${1000 + i}`,
        topology: randomTopology(1000 + i, { namedStores: i % 2 === 0 }),
        describeOnly: true,
      }));
      const scenarios = [...handWritten, ...random];
      const results = await runOracle(scenarios);
      expect(mismatches(scenarios, results).slice(0, 3).join('\n\n')).toBe('');
    },
  );

  it('for one hand-picked program per DSL operation', { timeout: 120_000 }, async () => {
    const scenarios = dslScenarios.map((s) => ({ ...s, describeOnly: true }));
    const results = await runOracle(scenarios);
    expect(mismatches(scenarios, results).slice(0, 3).join('\n\n')).toBe('');
  });

  it('for 200 random topologies over every kind (fast-check)', { timeout: 240_000 }, async () => {
    const seeds = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), {
      numRuns: 200,
      seed: 4_1_1,
    });
    const scenarios = seeds.map((seed) => ({
      name: `random-dsl-${seed}`,
      topology: randomDslTopology(seed),
      describeOnly: true,
    }));
    const results = await runOracle(scenarios);
    expect(mismatches(scenarios, results).slice(0, 3).join('\n\n')).toBe('');
  });
});
