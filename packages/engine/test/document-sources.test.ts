// Topology-document features of sources and serdes: Avro serdes named in the document, sources
// reading several topics or a pattern, and per-source timestamp extractors — the last two run on
// Kafka Streams 4.1 itself (tools/ks-oracle) and compared record by record.
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import { validateTopology, type Topology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { avroSerde, Consumed, Produced, Serdes, StreamsBuilder } from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';

function valid(doc: unknown): Topology {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

const orderSchema = {
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'long' },
  ],
};

describe('Avro serdes in topology JSON', () => {
  it('decodes Avro at the source, filters on its fields with CEL and encodes Avro at the sink', () => {
    const avro = { type: 'avro', schema: orderSchema };
    const topology = valid({
      schemaVersion: 1,
      application: { id: 'avro-doc' },
      topics: [
        { name: 'orders', partitions: 1 },
        { name: 'large', partitions: 1 },
      ],
      nodes: [
        { id: 'in', kind: 'source', config: { topic: 'orders', valueSerde: avro } },
        { id: 'f', kind: 'filter', config: { expression: 'value.amount > 10' } },
        { id: 'out', kind: 'sink', config: { topic: 'large', valueSerde: avro } },
      ],
      edges: [
        { from: 'in', to: 'f' },
        { from: 'f', to: 'out' },
      ],
    });
    const driver = createTestDriver(topology);
    const serde = avroSerde(orderSchema);
    // Bytes as a Java producer with the same writer schema would write them.
    driver.pipeRawInput(
      'orders',
      new TextEncoder().encode('k1'),
      serde.serialize({ id: 'a', amount: 5 }),
      1,
    );
    driver.pipeRawInput(
      'orders',
      new TextEncoder().encode('k2'),
      serde.serialize({ id: 'b', amount: 50 }),
      2,
    );
    expect(driver.readOutput('large').map((r) => [r.key, r.value, r.timestamp])).toEqual([
      ['k2', { id: 'b', amount: 50 }, 2],
    ]);
    driver.close();
  });
});

const topics = (...names: string[]) => names.map((name) => ({ name, partitions: 1 }));

function pipeline(
  id: string,
  source: Record<string, unknown>,
  declared: string[],
  kind = 'source',
) {
  const nodes: unknown[] = [{ id: 'in', kind, config: source }];
  const edges: unknown[] = [];
  if (kind === 'table') {
    nodes.push({ id: 'ts', kind: 'toStream', config: {} });
    edges.push({ from: 'in', to: 'ts' }, { from: 'ts', to: 'out' });
  } else edges.push({ from: 'in', to: 'out' });
  nodes.push({ id: 'out', kind: 'sink', config: { topic: 'out' } });
  return {
    schemaVersion: 1,
    application: { id },
    topics: topics(...declared, 'out'),
    nodes,
    edges,
  };
}

const scenarios: OracleScenario[] = [
  {
    name: 'a list source reads every listed topic, in timestamp order per task',
    topology: pipeline('list', { topics: ['b', 'a'] }, ['a', 'b']),
    inputs: [
      { topic: 'a', key: 'k1', value: { n: 1 }, timestamp: 10 },
      { topic: 'b', key: 'k2', value: { n: 2 }, timestamp: 5 },
      { topic: 'a', key: 'k3', value: { n: 3 }, timestamp: 20 },
    ],
    outputs: ['out'],
  },
  {
    name: 'a pattern source reads the declared topics whose whole name matches',
    topology: pipeline('pattern', { topicPattern: 'orders-[a-z]+' }, [
      'orders-eu',
      'orders-us',
      'orders-1',
    ]),
    inputs: [
      { topic: 'orders-eu', key: 'a', value: 1, timestamp: 1 },
      { topic: 'orders-us', key: 'b', value: 2, timestamp: 2 },
    ],
    outputs: ['out'],
  },
  {
    name: 'a source timestamp expression sets the record timestamps',
    topology: pipeline('ts-expr', { topic: 'a', timestampExtractor: { expression: 'value.t' } }, [
      'a',
    ]),
    inputs: [
      { topic: 'a', key: 'x', value: { t: 1000 }, timestamp: 1 },
      { topic: 'a', key: 'y', value: { t: 500 }, timestamp: 2 },
      { topic: 'a', key: 'z', value: { t: 2500 }, timestamp: 3 },
    ],
    outputs: ['out'],
  },
  {
    name: 'a table timestamp expression sets the timestamps of its changes',
    topology: pipeline(
      'ts-table',
      { topic: 'a', timestampExtractor: { expression: 'value.t + 1' } },
      ['a'],
      'table',
    ),
    inputs: [
      { topic: 'a', key: 'x', value: { t: 41 }, timestamp: 7 },
      { topic: 'a', key: 'x', value: { t: 99 }, timestamp: 8 },
    ],
    outputs: ['out'],
  },
];

function ours(
  scenario: OracleScenario,
): Record<string, { key: unknown; value: unknown; timestamp: number }[]> {
  const driver = createTestDriver(valid(scenario.topology));
  for (const r of scenario.inputs ?? []) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
  const out = Object.fromEntries(
    (scenario.outputs ?? []).map((t) => [
      t,
      driver.readOutput(t).map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
    ]),
  );
  driver.close();
  return out;
}

describe('several topics, patterns and per-source timestamp extractors vs Kafka Streams 4.1', () => {
  const expected = new Map<string, OracleResult>();
  beforeAll(async () => {
    for (const [i, r] of (await runOracle(scenarios)).entries())
      expected.set(scenarios[i]!.name, r);
  }, 120_000);

  for (const scenario of scenarios) {
    it(scenario.name, () => {
      const oracle = expected.get(scenario.name);
      expect(oracle?.error).toBeUndefined();
      expect(oracle?.outputs?.['out']?.length).toBe(scenario.inputs?.length);
      expect(ours(scenario)).toEqual(oracle?.outputs);
    });
  }
});

describe("a source's own extractor replaces the application's", () => {
  const doc = (own: unknown) =>
    valid({
      ...pipeline(
        'own',
        { topic: 'a', ...(own === undefined ? {} : { timestampExtractor: own }) },
        ['a'],
      ),
      application: {
        id: 'own',
        config: {
          'default.timestamp.extractor.expression': 'value.t',
          'default.timestamp.extractor': 'LogAndSkipOnInvalidTimestamp',
        },
      },
    });
  const run = (own: unknown) => {
    const driver = createTestDriver(doc(own), { now: () => 123_456 });
    driver.pipeInput('a', 'k', { t: 50 }, 7);
    driver.pipeInput('a', 'k', { t: -1 }, 8);
    const out = driver.readOutput('out').map((r) => r.timestamp);
    const dropped = driver.metrics().tasks['0_0']!['dropped-records-total'];
    driver.close();
    return { out, dropped };
  };

  it('record: the record timestamps, even with an application-wide expression', () => {
    expect(run('record')).toEqual({ out: [7, 8], dropped: 0 });
  });
  it('wallclock: the wall-clock time when the record is read', () => {
    expect(run('wallclock')).toEqual({ out: [123_456, 123_456], dropped: 0 });
  });
  it("an expression keeps the application's rule for invalid results (here: skip and count)", () => {
    expect(run({ expression: 'value.t * 2' })).toEqual({ out: [100], dropped: 1 });
    expect(run(undefined)).toEqual({ out: [50], dropped: 1 });
  });
});

describe('the DSL writes the same sources', () => {
  it('stream(list) and stream(RegExp) describe like Kafka Streams and export topics / topicPattern', async () => {
    const builder = new StreamsBuilder();
    builder.stream(['zeta', 'orders-us', 'b', 'a', 'orders-eu']).filter('true').to('out');
    const list = builder.build({ applicationId: 'multi' });
    const [kafka] = await runOracle([
      { name: 'dsl list', topology: list.topology, describeOnly: true },
    ]);
    expect(list.describe()).toBe(kafka?.describe);
    expect(list.topology.nodes[0]?.config).toMatchObject({
      topics: ['zeta', 'orders-us', 'b', 'a', 'orders-eu'],
    });

    const patterned = new StreamsBuilder();
    patterned.stream(/clicks-[0-9]+/).to('out');
    const built = patterned.build({
      applicationId: 'p',
      topics: [
        { name: 'clicks-1', partitions: 2 },
        { name: 'views', partitions: 1 },
      ],
    });
    expect(built.describe()).toContain('Source: KSTREAM-SOURCE-0000000000 (topics: clicks-[0-9]+)');
    expect(built.topology.nodes[0]?.config).toMatchObject({ topicPattern: 'clicks-[0-9]+' });
    expect(() => patterned.stream(/x/i)).toThrow(/takes no flags/);
  }, 120_000);

  it("Consumed.withTimestampExtractor sets the source's extractor", () => {
    const builder = new StreamsBuilder();
    builder
      .stream(
        'a',
        Consumed.with(Serdes.String(), Serdes.Json<{ t: number }>()).withTimestampExtractor({
          expression: 'value.t',
        }),
      )
      .to('out', Produced.with(Serdes.String(), Serdes.Json()));
    const driver = createTestDriver(builder.build({ applicationId: 'dsl-ts' }));
    driver.pipeInput('a', 'k', { t: 4242 }, 1);
    expect(driver.readOutput('out').map((r) => r.timestamp)).toEqual([4242]);
    driver.close();
  });
});
