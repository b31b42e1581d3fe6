// A foreign-key join's internal topics byte for byte against Apache Kafka Streams 4.1
// (TopologyTestDriver via tools/ks-oracle, which reads them with byte-array deserializers): the
// registration topic (key = foreign key bytes, value = SubscriptionWrapper v1 with the Murmur3
// hash of the left value), the response topic (key = left key bytes, value =
// SubscriptionResponseWrapper v0), the subscription store's changelog (key = CombinedKey bytes)
// and the output, for JSON tables and for tables with bytes, long and string serdes, and with
// upgrade.from 3.3 or older set.
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import { planTopology, validateTopology } from '@streamwright/topology-model';
import { Buffer } from 'node:buffer';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOracleTestDriver } from './fixtures/oracle-driver.js';

type Serde = 'json' | 'string' | 'long' | 'bytes';

const fkJoin = (
  serdes: { leftKey: Serde; leftValue: Serde; rightKey: Serde; rightValue: Serde },
  config: Record<string, unknown>,
  appConfig: Record<string, string> = {},
) => ({
  schemaVersion: 1,
  application: { id: 'wire', config: appConfig },
  topics: ['orders', 'products', 'out'].map((t) => ({ name: t, partitions: 1 })),
  nodes: [
    {
      id: 'orders',
      kind: 'table',
      config: { topic: 'orders', keySerde: serdes.leftKey, valueSerde: serdes.leftValue },
    },
    {
      id: 'products',
      kind: 'table',
      config: { topic: 'products', keySerde: serdes.rightKey, valueSerde: serdes.rightValue },
    },
    { id: 'j', kind: 'foreignKeyJoin', config },
    { id: 't', kind: 'toStream', config: {} },
    {
      id: 'out',
      kind: 'sink',
      config: { topic: 'out', keySerde: serdes.leftKey, valueSerde: 'json' },
    },
  ],
  edges: [
    { from: 'orders', to: 'j', toPort: 'left' },
    { from: 'products', to: 'j', toPort: 'right' },
    { from: 'j', to: 't' },
    { from: 't', to: 'out' },
  ],
});

const rec = (topic: string, key: unknown, value: unknown, timestamp: number) => ({
  topic,
  key,
  value,
  timestamp,
});

const jsonStory = [
  rec('products', 'p1', { name: 'apple' }, 1000),
  rec('orders', 'o1', { product: 'p1', qty: 1 }, 2000),
  rec('orders', 'o2', { product: 'p1', qty: 2 }, 2100),
  rec('orders', 'o3', { product: 'p9', qty: 3 }, 2200),
  rec('products', 'p1', { name: 'green apple' }, 3000),
  rec('orders', 'o1', { product: 'p2', qty: 1 }, 3100),
  rec('orders', 'o4', { qty: 4 }, 3200),
  rec('orders', 'o2', null, 3300),
  rec('products', 'p1', null, 3400),
  rec('products', 'p9', { name: 'fig' }, 3500),
];

const b64 = (text: string) => Buffer.from(text).toString('base64');
// Left keys are raw bytes (base64 in the oracle's JSON), foreign keys longs, right values strings.
const bytesStory = [
  rec('products', 7, 'seven', 1000),
  rec('orders', b64('\u0001a'), { product: 7, qty: 1 }, 2000),
  rec('orders', b64('\u0001b'), { product: 7, qty: 2 }, 2100),
  rec('orders', b64('\u0000'), { product: 8, qty: 3 }, 2200),
  rec('products', 8, 'eight', 2300),
  rec('products', 7, 'SEVEN', 3000),
  rec('orders', b64('\u0001a'), { product: 8, qty: 5 }, 3100),
  rec('orders', b64('\u0001b'), null, 3200),
  rec('products', 8, null, 3300),
];

const plain = {
  leftKey: 'string',
  leftValue: 'json',
  rightKey: 'string',
  rightValue: 'json',
} as const;
const cases: { name: string; topology: ReturnType<typeof fkJoin>; inputs: typeof jsonStory }[] = [
  {
    name: 'inner join of JSON tables',
    topology: fkJoin(plain, {
      foreignKeyExtractor: '"product" in value ? value.product : null',
      joiner: '{"qty": left.qty, "product": right}',
    }),
    inputs: jsonStory,
  },
  {
    name: 'left join of JSON tables',
    topology: fkJoin(plain, {
      type: 'left',
      foreignKeyExtractor: '"product" in value ? value.product : null',
      joiner: '{"qty": left.qty, "product": right}',
    }),
    inputs: jsonStory,
  },
  {
    name: 'left join: bytes left keys, long foreign keys, string right values',
    topology: fkJoin(
      { leftKey: 'bytes', leftValue: 'json', rightKey: 'long', rightValue: 'string' },
      {
        type: 'left',
        foreignKeyExtractor: 'value.product',
        joiner: '{"qty": left.qty, "name": right}',
      },
    ),
    inputs: bytesStory,
  },
  // upgrade.from 3.3 or older: Kafka's SubscriptionWrapperSerde would write version 0 wrappers,
  // but Kafka Streams 4.1 never configures that serde with the application's config, so version
  // 1 wrappers are what it writes, and what we write.
  ...['3.3', '2.4'].map((upgradeFrom) => ({
    name: `left join with upgrade.from ${upgradeFrom} (still version 1 wrappers)`,
    topology: fkJoin(
      plain,
      {
        type: 'left',
        foreignKeyExtractor: '"product" in value ? value.product : null',
        joiner: '{"qty": left.qty, "product": right}',
      },
      { 'upgrade.from': upgradeFrom },
    ),
    inputs: jsonStory,
  })),
];

/** The topics compared: both internal topics, the subscription changelog and the output. */
function wireTopics(topology: unknown): string[] {
  const result = validateTopology(topology);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const plan = planTopology(result.topology);
  const internal = plan.internalTopics
    .map((t) => t.name)
    .filter((n) => n.includes('FK-JOIN-SUBSCRIPTION'))
    .sort();
  expect(internal).toHaveLength(3); // registration, response, subscription store changelog
  return [...internal, 'out'];
}

const hex = (b64text: string | null) =>
  b64text === null ? null : Buffer.from(b64text, 'base64').toString('hex');

function runOurs(c: (typeof cases)[number], topics: string[]) {
  const result = validateTopology(c.topology);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const driver = createOracleTestDriver(result.topology);
  const serdeOf = (topic: string) =>
    c.topology.nodes.find((n) => (n.config as { topic?: string }).topic === topic)!.config as {
      keySerde: Serde;
    };
  for (const r of c.inputs) {
    const key =
      serdeOf(r.topic).keySerde === 'bytes' ? Buffer.from(r.key as string, 'base64') : r.key;
    driver.pipeInput(r.topic, key, r.value, r.timestamp);
  }
  const out = Object.fromEntries(
    topics.map((t) => [
      t,
      driver.readRawOutput(t).map((r) => ({
        key: r.key === null ? null : Buffer.from(r.key).toString('hex'),
        value: r.value === null ? null : Buffer.from(r.value).toString('hex'),
        timestamp: r.timestamp,
      })),
    ]),
  );
  driver.close();
  return out;
}

describe('foreign-key join wire formats against Kafka Streams 4.1', () => {
  const topics = cases.map((c) => wireTopics(c.topology));
  let expected: OracleResult[];
  beforeAll(async () => {
    const scenarios: OracleScenario[] = cases.map((c, i) => ({
      name: c.name,
      topology: c.topology,
      inputs: c.inputs,
      rawOutputs: topics[i]!,
    }));
    expected = await runOracle(scenarios);
  }, 300_000);

  for (const [i, c] of cases.entries()) {
    it(`${c.name}: the same bytes on every internal topic and the output`, () => {
      const reference = expected[i]!;
      expect(reference.error, `${c.name} failed on Kafka Streams`).toBeUndefined();
      const kafka = Object.fromEntries(
        topics[i]!.map((t) => [
          t,
          (reference.rawOutputs?.[t] ?? []).map((r) => ({
            key: hex(r.key),
            value: hex(r.value),
            timestamp: r.timestamp,
          })),
        ]),
      );
      const ours = runOurs(c, topics[i]!);
      for (const t of topics[i]!) {
        expect(kafka[t]!.length, `${t} has records on Kafka`).toBeGreaterThan(0);
        expect(ours[t], t).toEqual(kafka[t]);
      }
    });
  }
});

it('refuses an upgrade.from Kafka Streams does not know, with its ConfigException message', async () => {
  const topology = fkJoin(
    plain,
    { foreignKeyExtractor: 'value.product', joiner: 'left' },
    { 'upgrade.from': '3.11' },
  );
  const [reference] = await runOracle([{ name: 'bad upgrade.from', topology, inputs: [] }]);
  const result = validateTopology(topology);
  expect(result.ok).toBe(false);
  const issue = result.ok ? undefined : result.errors[0];
  expect(issue?.path).toBe('application.config["upgrade.from"]');
  expect(reference?.error).toBe(`ConfigException: ${issue?.message}`);
}, 300_000);
