// Differential tests: the same topology document and input run on Apache Kafka Streams 4.1
// (TopologyTestDriver, through tools/ks-oracle) and on our test driver must give the same output
// records — key, value and timestamp, in order, per output topic.
import { runOracle, type OracleScenario } from '@streamwright/ks-oracle';
import { validateTopology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import { createOracleTestDriver as createTestDriver } from './fixtures/oracle-driver.js';

const countDocument = {
  schemaVersion: 1,
  application: { id: 'counting', config: {} },
  topics: [
    { name: 'words', partitions: 1 },
    { name: 'counts', partitions: 1 },
  ],
  nodes: [
    {
      id: 'src',
      kind: 'source',
      config: { topic: 'words', keySerde: 'string', valueSerde: 'string' },
    },
    { id: 'g', kind: 'groupByKey', config: {} },
    { id: 'c', kind: 'count', config: { store: 'count' } },
    { id: 't', kind: 'toStream', config: {} },
    { id: 'o', kind: 'sink', config: { topic: 'counts', keySerde: 'string', valueSerde: 'long' } },
  ],
  edges: [
    { from: 'src', to: 'g' },
    { from: 'g', to: 'c' },
    { from: 'c', to: 't' },
    { from: 't', to: 'o' },
  ],
};

const statelessDocument = {
  schemaVersion: 1,
  application: { id: 'shaping', config: {} },
  topics: [
    { name: 'orders', partitions: 1 },
    { name: 'big', partitions: 1 },
    { name: 'all', partitions: 1 },
  ],
  nodes: [
    { id: 'src', kind: 'source', config: { topic: 'orders' } },
    { id: 'f', kind: 'filter', config: { expression: 'value.amount > 100 && value.user != "u3"' } },
    {
      id: 'm',
      kind: 'mapValues',
      config: { expression: '{"user": value.user, "total": value.amount * 2}' },
    },
    { id: 'big', kind: 'sink', config: { topic: 'big' } },
    { id: 'p', kind: 'peek', config: {} },
    { id: 'all', kind: 'sink', config: { topic: 'all' } },
  ],
  edges: [
    { from: 'src', to: 'f' },
    { from: 'f', to: 'm' },
    { from: 'm', to: 'big' },
    { from: 'src', to: 'p' },
    { from: 'p', to: 'all' },
  ],
};

const scenarios: OracleScenario[] = [
  {
    // The input of KGroupedStreamImplTest#shouldCountAndMaterializeResults, out of timestamp order.
    name: 'count',
    topology: countDocument,
    inputs: [
      ['1', 'A', 5],
      ['2', 'B', 1],
      ['1', 'C', 3],
      ['1', 'D', 10],
      ['3', 'E', 8],
      ['3', 'F', 9],
      ['3', null, 10],
      [null, 'G', 11],
    ].map(([key, value, timestamp]) => ({
      topic: 'words',
      key,
      value,
      timestamp: timestamp as number,
    })),
    outputs: ['counts'],
  },
  {
    name: 'filter-mapValues-peek',
    topology: statelessDocument,
    inputs: Array.from({ length: 12 }, (_, i) => ({
      topic: 'orders',
      key: `o${i}`,
      value: { user: `u${i % 4}`, amount: 40 * i },
      timestamp: 1000 + ((i * 7) % 5),
    })),
    outputs: ['big', 'all'],
  },
];

function ours(
  scenario: OracleScenario,
): Record<string, { key: unknown; value: unknown; timestamp: number }[]> {
  const result = validateTopology(scenario.topology);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const driver = createTestDriver(result.topology);
  for (const r of scenario.inputs ?? []) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
  return Object.fromEntries(
    (scenario.outputs ?? []).map((topic) => [
      topic,
      driver.readOutput(topic).map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
    ]),
  );
}

describe('differential: our engine vs Apache Kafka Streams', () => {
  it('gives the same output records for count and for filter / mapValues / peek', async () => {
    const expected = await runOracle(scenarios);
    for (const [i, scenario] of scenarios.entries()) {
      const reference = expected[i]!;
      expect(reference.error, `${scenario.name} failed on Kafka Streams`).toBeUndefined();
      expect(Object.values(reference.outputs ?? {}).every((records) => records.length > 0)).toBe(
        true,
      );
      expect(ours(scenario), scenario.name).toEqual(reference.outputs);
    }
  }, 300_000);
});
