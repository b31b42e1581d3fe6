// Differential test of the foreign-key join's plan: describe() of our planner against Apache
// Kafka Streams 4.1's (tools/ks-oracle runs KTable#join / leftJoin(other, extractor, joiner,
// TableJoined[, Materialized])), plus the internal topics and stores Kafka generates for it.
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeTopology, planTopology, validateTopology } from '../src/index.js';

const fkDoc = (config: Record<string, unknown>, name?: string, after = false) => ({
  schemaVersion: 1,
  application: { id: 'shop' },
  topics: ['orders', 'products', 'out'].map((t) => ({ name: t, partitions: 2 })),
  nodes: [
    { id: 'o', kind: 'table', config: { topic: 'orders' } },
    { id: 'p', kind: 'table', config: { topic: 'products' } },
    {
      id: 'j',
      kind: 'foreignKeyJoin',
      ...(name === undefined ? {} : { name }),
      config: {
        foreignKeyExtractor: 'value.product',
        joiner: '{"o": left, "p": right}',
        ...config,
      },
    },
    ...(after ? [{ id: 'f', kind: 'tableFilter', config: { expression: 'true' } }] : []),
    { id: 't', kind: 'toStream', config: {} },
    { id: 'out', kind: 'sink', config: { topic: 'out' } },
  ],
  edges: [
    { from: 'o', to: 'j', toPort: 'left' },
    { from: 'p', to: 'j', toPort: 'right' },
    ...(after
      ? [
          { from: 'j', to: 'f' },
          { from: 'f', to: 't' },
        ]
      : [{ from: 'j', to: 't' }]),
    { from: 't', to: 'out' },
  ],
});

const scenarios: OracleScenario[] = [
  { name: 'inner join, generated names', topology: fkDoc({}) },
  { name: 'left join named by TableJoined.as', topology: fkDoc({ type: 'left' }, 'fk') },
  { name: 'queryable result store', topology: fkDoc({ store: 'enriched' }) },
  { name: 'Materialized without a name', topology: fkDoc({ keySerde: 'string' }) },
  { name: 'followed by a table filter', topology: fkDoc({ type: 'left' }, undefined, true) },
].map((s) => ({ ...s, describeOnly: true }));

function plan(doc: unknown) {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return planTopology(result.topology);
}

describe('foreignKeyJoin describe() against Kafka Streams 4.1', () => {
  let expected: OracleResult[];
  beforeAll(async () => {
    expected = await runOracle(scenarios);
  }, 300_000);
  for (const [i, s] of scenarios.entries()) {
    it(s.name, () => {
      expect(expected[i]!.error).toBeUndefined();
      expect(describeTopology(plan(s.topology))).toBe(expected[i]!.describe);
    });
  }
});

describe('foreignKeyJoin internal topics and stores', () => {
  it("names Kafka's registration and response topics and the subscription store", () => {
    const p = plan(fkDoc({}));
    expect(p.internalTopics.map((t) => t.name)).toEqual([
      'shop-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic',
      'shop-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic',
      'shop-orders-STATE-STORE-0000000000-changelog',
      'shop-products-STATE-STORE-0000000003-changelog',
      'shop-KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010-changelog',
    ]);
    expect(p.stores.map((s) => s.name)).toEqual([
      'orders-STATE-STORE-0000000000',
      'products-STATE-STORE-0000000003',
      'KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010',
    ]);
  });

  it('refuses a join without a foreign-key extractor, saying where', () => {
    const doc = fkDoc({});
    delete (doc.nodes[2]!.config as Record<string, unknown>)['foreignKeyExtractor'];
    const result = validateTopology(doc);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toContain('nodes[2].config.foreignKeyExtractor');
  });
});
