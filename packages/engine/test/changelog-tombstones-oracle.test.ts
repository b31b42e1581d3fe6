// Key-value stores' changelog records (key, value, timestamp) against Apache Kafka Streams 4.1
// (TopologyTestDriver via tools/ks-oracle, reading the changelog topics raw): a materialized
// table source deleting keys, a KGroupedTable count going down to zero and a KGroupedTable reduce
// whose subtractor yields null. Kafka logs a tombstone with the timestamp of the record being
// processed (ChangeLoggingKeyValueBytesStore#log with the record context's timestamp), not the
// aggregate's max timestamp nor the wall clock; the inputs arrive out of order so the two differ.
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import { planTopology, validateTopology } from '@streamwright/topology-model';
import { Buffer } from 'node:buffer';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOracleTestDriver } from './fixtures/oracle-driver.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'tombstones' },
  topics: ['users', 'per-city', 'ages'].map((name) => ({ name, partitions: 1 })),
  nodes: [
    { id: 'users', kind: 'table', config: { topic: 'users', store: 'users-store' } },
    {
      id: 'byCity',
      kind: 'tableGroupBy',
      config: { expression: '{"key": value.city, "value": value}', keySerde: 'string' },
    },
    { id: 'cnt', kind: 'tableCount', config: { store: 'per-city' } },
    { id: 'ts', kind: 'toStream', config: {} },
    {
      id: 'o',
      kind: 'sink',
      config: { topic: 'per-city', keySerde: 'string', valueSerde: 'long' },
    },
    {
      id: 'byCity2',
      kind: 'tableGroupBy',
      config: {
        expression: '{"key": value.city, "value": value.age}',
        keySerde: 'string',
        valueSerde: 'long',
      },
    },
    {
      id: 'sum',
      kind: 'tableReduce',
      config: {
        adder: 'agg + value',
        subtractor: 'agg - value == 0 ? null : agg - value',
        store: 'ages',
      },
    },
    { id: 'ts2', kind: 'toStream', config: {} },
    { id: 'o2', kind: 'sink', config: { topic: 'ages', keySerde: 'string', valueSerde: 'long' } },
  ],
  edges: [
    ['users', 'byCity'],
    ['byCity', 'cnt'],
    ['cnt', 'ts'],
    ['ts', 'o'],
    ['users', 'byCity2'],
    ['byCity2', 'sum'],
    ['sum', 'ts2'],
    ['ts2', 'o2'],
  ].map(([from, to]) => ({ from: from!, to: to! })),
};

const inputs = [
  { key: 'u1', value: { city: 'oslo', age: 30 }, timestamp: 100 },
  { key: 'u2', value: { city: 'oslo', age: 20 }, timestamp: 50 },
  { key: 'u1', value: { city: 'rome', age: 30 }, timestamp: 60 },
  // oslo's sum goes to null (a tombstone in `ages`), its count to 0; u2's tombstone in users-store.
  { key: 'u2', value: null, timestamp: 40 },
  { key: 'u3', value: { city: 'rome', age: 10 }, timestamp: 200 },
  { key: 'u1', value: null, timestamp: 70 },
  { key: 'u3', value: { city: 'oslo', age: 10 }, timestamp: 90 },
  // Deleting a key the table never had: Kafka still logs a tombstone.
  { key: 'u9', value: null, timestamp: 80 },
].map((r) => ({ topic: 'users', ...r }));

function changelogTopics(): string[] {
  const result = validateTopology(topology);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const topics = planTopology(result.topology)
    .internalTopics.map((t) => t.name)
    .filter((n) => n.endsWith('-changelog'))
    .sort();
  expect(topics).toEqual([
    'tombstones-ages-changelog',
    'tombstones-per-city-changelog',
    'tombstones-users-store-changelog',
  ]);
  return topics;
}

const hex = (bytes: Uint8Array | null) =>
  bytes === null ? null : Buffer.from(bytes).toString('hex');

describe("key-value stores' changelog tombstones against Kafka Streams 4.1", () => {
  const topics = changelogTopics();
  let expected: OracleResult;
  beforeAll(async () => {
    const scenario: OracleScenario = {
      name: 'changelog tombstones',
      topology,
      inputs,
      rawOutputs: topics,
    };
    [expected] = (await runOracle([scenario])) as [OracleResult];
  }, 300_000);

  it('writes the same changelog records (key, value, timestamp), tombstones at the deleting record’s time', () => {
    expect(expected.error, 'the scenario failed on Kafka Streams').toBeUndefined();
    const result = validateTopology(topology);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const driver = createOracleTestDriver(result.topology);
    for (const r of inputs) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    for (const t of topics) {
      const kafka = (expected.rawOutputs?.[t] ?? []).map((r) => ({
        key: r.key === null ? null : Buffer.from(r.key, 'base64').toString('hex'),
        value: r.value === null ? null : Buffer.from(r.value, 'base64').toString('hex'),
        timestamp: r.timestamp,
      }));
      const ours = driver.readRawOutput(t).map((r) => ({
        key: hex(r.key),
        value: hex(r.value),
        timestamp: r.timestamp,
      }));
      expect(
        kafka.some((r) => r.value === null),
        `${t} has tombstones on Kafka`,
      ).toBe(t !== 'tombstones-per-city-changelog');
      expect(ours, t).toEqual(kafka);
    }
    driver.close();
  });
});
