// The seed's KStream vs KTable example. The expected records are Apache Kafka Streams' own
// output for the same topology and input (tools/ks-oracle runs it on TopologyTestDriver), never
// a snapshot of ours; both the topology JSON and the DSL program must reproduce them exactly.
import { readFileSync } from 'node:fs';
import { createTestDriver, type BuiltTopology } from '@streamwright/engine';
import { runOracle, type OracleRecord, type OracleScenario } from '@streamwright/ks-oracle';
import { validateTopology, type Topology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECORDS, streamSum, tableSum } from '../kstream-vs-ktable/sum-by-key.js';

const json = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`../kstream-vs-ktable/${file}`, import.meta.url), 'utf8'));
const inputs = RECORDS.map(([key, value], i) => ({
  topic: 'scores',
  key,
  value,
  timestamp: 1000 * (i + 1),
}));

const cases = [
  { name: 'stream', file: 'stream-sum.topology.json', output: 'stream-sums', dsl: streamSum },
  { name: 'table', file: 'table-sum.topology.json', output: 'table-sums', dsl: tableSum },
] as const;

function run(topology: Topology | BuiltTopology, output: string): OracleRecord[] {
  const driver = createTestDriver(topology);
  for (const r of inputs) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
  return driver
    .readOutput(output)
    .map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp }));
}

function validated(doc: unknown): Topology {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

describe('KStream vs KTable: the five records summed by key', () => {
  const expected = new Map<string, OracleRecord[]>();

  beforeAll(async () => {
    const scenarios: OracleScenario[] = cases.map((c) => ({
      name: c.name,
      topology: json(c.file),
      inputs,
      outputs: [c.output],
    }));
    for (const [i, result] of (await runOracle(scenarios)).entries()) {
      expect(result.error, `${cases[i]!.name} on Kafka Streams`).toBeUndefined();
      expected.set(cases[i]!.name, result.outputs?.[cases[i]!.output] ?? []);
    }
  }, 300_000);

  it('Kafka Streams ends where the seed says: stream Jack 4, Lily 7, Mike 4; table Mike 4, Jack 3, Lily 5', () => {
    const last = (records: OracleRecord[]) =>
      Object.fromEntries(records.map((r) => [r.key, r.value]));
    expect(last(expected.get('stream')!)).toEqual({ Jack: 4, Lily: 7, Mike: 4 });
    expect(last(expected.get('table')!)).toEqual({ Mike: 4, Jack: 3, Lily: 5 });
  });

  it.each(cases)(
    '$name: the topology JSON emits exactly Kafka Streams’ records',
    ({ name, file, output }) => {
      expect(run(validated(json(file)), output)).toEqual(expected.get(name));
    },
  );

  it.each(cases)(
    '$name: the DSL program emits exactly Kafka Streams’ records',
    ({ name, output, dsl }) => {
      expect(run(dsl(), output)).toEqual(expected.get(name));
    },
  );

  it('the DSL programs describe() like the JSON documents', () => {
    for (const c of cases) {
      const fromJson = createTestDriver(validated(json(c.file))).plan;
      const fromDsl = createTestDriver(c.dsl()).plan;
      expect(fromDsl.subtopologies.map((s) => s.nodes.map((n) => [n.name, n.op]))).toEqual(
        fromJson.subtopologies.map((s) => s.nodes.map((n) => [n.name, n.op])),
      );
    }
  });
});
