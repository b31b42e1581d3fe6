// Stream–table joins with a grace period (Joined#withGracePeriod, KIP-923) against Apache Kafka
// Streams 4.1 (TopologyTestDriver via tools/ks-oracle): the same document and input must give the
// same describe() (the join processor lists its `<name>-Buffer` store), the same output records
// in the same order, the same dropped records, the same bytes in the buffer's changelog, and the
// same refusals (a table that is not versioned, a history retention shorter than the grace).
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import { describeTopology, planTopology, validateTopology } from '@streamwright/topology-model';
import { Buffer } from 'node:buffer';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Consumed,
  Joined,
  Materialized,
  Produced,
  Serdes,
  Stores,
  StreamsBuilder,
} from '../src/index.js';
import { runOurs } from './fixtures/oracle-harness.js';
import { createOracleTestDriver } from './fixtures/oracle-driver.js';

type Input = { topic: string; key: unknown; value: unknown; timestamp: number };

interface JoinOptions {
  type: 'inner' | 'left';
  graceMs: number;
  historyRetentionMs?: number;
  versioned?: boolean;
  name?: string;
}

const joinDoc = (o: JoinOptions) => ({
  schemaVersion: 1,
  application: { id: 'grace' },
  topics: ['orders', 'prices', 'out'].map((name) => ({ name, partitions: 1 })),
  nodes: [
    { id: 'orders', kind: 'source', config: { topic: 'orders', valueSerde: 'long' } },
    {
      id: 'prices',
      kind: 'table',
      config: {
        topic: 'prices',
        valueSerde: 'long',
        store: 'prices-store',
        ...(o.versioned === false
          ? {}
          : { versioned: { historyRetentionMs: o.historyRetentionMs ?? 100 } }),
      },
    },
    {
      id: 'j',
      kind: 'streamTableJoin',
      ...(o.name === undefined ? {} : { name: o.name }),
      config: { type: o.type, joiner: '{"qty": left, "price": right}', gracePeriodMs: o.graceMs },
    },
    { id: 'out', kind: 'sink', config: { topic: 'out' } },
  ],
  edges: [
    { from: 'orders', to: 'j', toPort: 'left' },
    { from: 'prices', to: 'j', toPort: 'right' },
    { from: 'j', to: 'out' },
  ],
});

const price = (key: string | null, value: number | null, timestamp: number): Input => ({
  topic: 'prices',
  key,
  value,
  timestamp,
});
const order = (key: string | null, value: number | null, timestamp: number): Input => ({
  topic: 'orders',
  key,
  value,
  timestamp,
});

// Grace 10. Each comment: the buffer's stream time after the record, what leaves the buffer.
const input: Input[] = [
  price('a', 100, 10),
  price('a', 110, 20),
  order('a', 1, 25), // 25: buffered
  order('a', 2, 15), // exactly stream time − grace: buffered and emitted at once (price @15: 100)
  order('b', 3, 18), // buffered; b has no price (inner: nothing, left: null)
  order('a', null, 50), // null value: dropped, and does not advance the buffer's stream time
  price('a', 120, 30),
  order('a', 5, 35), // 35: emits b@18 and a@25 (price @25: 110, though 120 has arrived)
  order('a', 6, 14), // older than 35 − 10: joined at once, as of 14 (100)
  order('a', 7, 25), // exactly 25: buffered, emitted at once
  price('a', null, 40), // tombstone: a has no price from 40 on
  order('c', 11, 39), // buffered
  order('a', 12, 44), // buffered
  order('a', 8, 45), // 45: emits a@35 (120); c@39 and a@44 wait
  order('a', 9, 35), // exactly 35: buffered, emitted at once (120)
  order('a', 10, 34), // late: joined at once (120)
  order('b', 13, 44), // same timestamp as a@44: leaves after it (key bytes a < b)
  order('a', 14, 44), // same key and timestamp: after the first (sequence number)
  order('a', 15, 60), // 60: emits c@39, a@44 ×2, b@44, a@45 (after the tombstone: left joins null)
];

// Out-of-order stream records within grace: each joins the version valid at its timestamp.
const outOfOrder: Input[] = [
  price('k', 1, 0),
  price('k', 2, 100),
  price('k', 3, 200),
  order('k', 10, 250),
  order('k', 20, 150),
  order('k', 30, 50),
  order('k', 40, 210),
  order('k', 50, 199),
  order('k', 60, 400),
];

/**
 * The designer's end-to-end story (e2e/specs/stream-table-grace.spec.ts): JSON values timed by
 * `value.ts`, an inner join whose grace the user sets to 100 in the inspector. The e2e spec
 * expects exactly what Kafka Streams gives here.
 */
const designerStory = {
  topology: {
    schemaVersion: 1,
    application: { id: 'grace-app' },
    topics: ['sw-orders', 'sw-prices', 'sw-priced'].map((name) => ({ name, partitions: 1 })),
    nodes: [
      {
        id: 'orders',
        kind: 'source',
        config: { topic: 'sw-orders', timestampExtractor: { expression: 'value.ts' } },
      },
      {
        id: 'prices',
        kind: 'table',
        config: {
          topic: 'sw-prices',
          store: 'prices',
          versioned: { historyRetentionMs: 1000 },
          timestampExtractor: { expression: 'value.ts' },
        },
      },
      {
        id: 'j',
        kind: 'streamTableJoin',
        config: {
          type: 'inner',
          joiner: '{"qty": left.qty, "price": right.price}',
          gracePeriodMs: 100,
        },
      },
      { id: 'out', kind: 'sink', config: { topic: 'sw-priced' } },
    ],
    edges: [
      { from: 'orders', to: 'j', toPort: 'left' },
      { from: 'prices', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
  },
  inputs: [
    ...[
      [1, 0],
      [2, 100],
      [3, 200],
    ].map(([p, ts]) => ({ topic: 'sw-prices', key: 'k', value: { price: p, ts }, timestamp: 0 })),
    ...[
      [10, 250],
      [20, 150],
      [30, 50],
      [40, 210],
      [50, 199],
      [60, 400],
    ].map(([qty, ts]) => ({ topic: 'sw-orders', key: 'k', value: { qty, ts }, timestamp: 0 })),
  ],
};

// A re-keyed stream (repartitioned before the join, with the join's key serde) and a table read
// through a filter without a store (the join's getter reaches the versioned source store).
const rekeyedAndFiltered = {
  schemaVersion: 1,
  application: { id: 'grace' },
  topics: ['orders', 'prices', 'out'].map((name) => ({ name, partitions: 1 })),
  nodes: [
    { id: 'orders', kind: 'source', config: { topic: 'orders', valueSerde: 'long' } },
    { id: 'rekey', kind: 'selectKey', config: { expression: 'key + "!"' } },
    {
      id: 'prices',
      kind: 'table',
      config: {
        topic: 'prices',
        valueSerde: 'long',
        store: 'prices-store',
        versioned: { historyRetentionMs: 100 },
      },
    },
    { id: 'cheap', kind: 'tableFilter', config: { expression: 'value < 115' } },
    {
      id: 'j',
      kind: 'streamTableJoin',
      config: {
        type: 'left',
        joiner: '{"qty": left, "price": right}',
        gracePeriodMs: 10,
        keySerde: 'string',
        valueSerde: 'long',
      },
    },
    { id: 'out', kind: 'sink', config: { topic: 'out' } },
  ],
  edges: [
    { from: 'orders', to: 'rekey' },
    { from: 'rekey', to: 'j', toPort: 'left' },
    { from: 'prices', to: 'cheap' },
    { from: 'cheap', to: 'j', toPort: 'right' },
    { from: 'j', to: 'out' },
  ],
};
const rekeyedInput = input.map((r) =>
  r.topic === 'prices' && typeof r.key === 'string' ? { ...r, key: `${r.key}!` } : r,
);

const bufferChangelog = (name: string) => `grace-${name}-Buffer-changelog`;
const outputs = ['out'];

const scenarios: OracleScenario[] = [
  {
    name: 'inner join, grace 10: buffered records join in timestamp order as of their timestamp',
    topology: joinDoc({ type: 'inner', graceMs: 10 }),
    inputs: input,
    outputs,
    rawOutputs: [bufferChangelog('KSTREAM-JOIN-0000000003')],
  },
  {
    name: 'left join, grace 10: unmatched records join with null once their grace has passed',
    topology: joinDoc({ type: 'left', graceMs: 10 }),
    inputs: input,
    outputs,
    rawOutputs: [bufferChangelog('KSTREAM-LEFTJOIN-0000000003')],
  },
  {
    name: 'inner join, grace 100: out-of-order records each join the version valid at their time',
    topology: joinDoc({ type: 'inner', graceMs: 100, historyRetentionMs: 1000 }),
    inputs: outOfOrder,
    outputs,
  },
  {
    name: 'left join, grace 0: every record leaves the buffer at once',
    topology: joinDoc({ type: 'left', graceMs: 0 }),
    inputs: input,
    outputs,
    rawOutputs: [bufferChangelog('KSTREAM-LEFTJOIN-0000000003')],
  },
  {
    name: 'inner join, grace 10: a null key is dropped and counted',
    topology: joinDoc({ type: 'inner', graceMs: 10 }),
    inputs: [...input.slice(0, 4), order(null, 99, 26), ...input.slice(4)],
    outputs,
  },
  {
    name: 'the designer’s story: JSON orders and prices timed by value.ts, grace 100',
    topology: designerStory.topology,
    inputs: designerStory.inputs,
    outputs: ['sw-priced'],
  },
  {
    name: 'a re-keyed stream joined with grace against a filtered versioned table',
    topology: rekeyedAndFiltered,
    inputs: rekeyedInput,
    outputs,
    rawOutputs: [bufferChangelog('KSTREAM-LEFTJOIN-0000000008')],
  },
  {
    name: 'a named join with grace: Joined#withName names the processor and its buffer',
    topology: joinDoc({ type: 'left', graceMs: 5, name: 'priced' }),
    inputs: input,
    outputs,
    rawOutputs: [bufferChangelog('priced')],
  },
];

// Scenarios Kafka Streams refuses or fails on.
const refused: OracleScenario[] = [
  {
    name: 'not versioned',
    topology: joinDoc({ type: 'inner', graceMs: 10, versioned: false }),
    describeOnly: true,
  },
  {
    name: 'history retention below grace',
    topology: joinDoc({ type: 'inner', graceMs: 10, historyRetentionMs: 9 }),
    describeOnly: true,
  },
  {
    name: 'left join, null key',
    topology: joinDoc({ type: 'left', graceMs: 10 }),
    inputs: [price('a', 1, 1), order('a', 1, 2), order(null, 2, 3)],
    outputs,
  },
];

const hex = (b: Uint8Array | string | null) =>
  b === null
    ? null
    : typeof b === 'string'
      ? Buffer.from(b, 'base64').toString('hex')
      : Buffer.from(b).toString('hex');

describe('stream–table joins with a grace period (Kafka Streams 4.1)', () => {
  let expected: OracleResult[];
  let refusedExpected: OracleResult[];
  beforeAll(async () => {
    [expected, refusedExpected] = await Promise.all([runOracle(scenarios), runOracle(refused)]);
  }, 300_000);

  for (const [i, scenario] of scenarios.entries()) {
    it(scenario.name, () => {
      const reference = expected[i]!;
      expect(reference.error, `${scenario.name} failed on Kafka Streams`).toBeUndefined();
      const mine = runOurs(scenario);
      expect(mine.describe).toBe(reference.describe);
      expect(mine.outputs).toEqual(reference.outputs);
      expect(mine.dropped).toBe(reference.metrics?.['dropped-records-total']);
      if (scenario.rawOutputs === undefined) return;
      // The buffer's changelog, byte for byte (Kafka stamps it with the wall clock: not compared).
      const result = validateTopology(scenario.topology);
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      const driver = createOracleTestDriver(result.topology);
      for (const r of scenario.inputs ?? []) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
      for (const topic of scenario.rawOutputs) {
        const ours = driver.readRawOutput(topic).map((r) => [hex(r.key), hex(r.value)]);
        const theirs = reference.rawOutputs![topic]!.map((r) => [hex(r.key), hex(r.value)]);
        expect(theirs.length).toBeGreaterThan(0);
        expect(ours).toEqual(theirs);
      }
      expect(
        planTopology(result.topology)
          .internalTopics.filter((t) => t.kind === 'changelog')
          .map((t) => t.name)
          .sort(),
      ).toEqual(['grace-prices-store-changelog', ...scenario.rawOutputs].sort());
      driver.close();
    });
  }

  it('refuses a table that is not versioned, or a history shorter than the grace, with Kafka’s messages', () => {
    for (const [i, field] of [
      [0, 'not versioned'],
      [1, 'history retention below grace'],
    ] as const) {
      const reference = refusedExpected[i]!;
      expect(reference.error, field).toMatch(/^IllegalArgumentException: /);
      const result = validateTopology(refused[i]!.topology);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.errors).toEqual([
        {
          path: 'nodes[2].config.gracePeriodMs',
          nodeId: 'j',
          code: 'grace_needs_versioned_table',
          message: reference.error!.replace('IllegalArgumentException: ', ''),
        },
      ]);
    }
  });

  it('a left join’s null key fails the task, as Kafka Streams’ buffer refuses null keys', () => {
    const reference = refusedExpected[2]!;
    expect(reference.errorCause).toBe('NullPointerException: key cannot be null');
    const result = validateTopology(refused[2]!.topology);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const driver = createOracleTestDriver(result.topology);
    const [first, second, third] = refused[2]!.inputs!;
    driver.pipeInput(first!.topic, first!.key, first!.value, first!.timestamp);
    driver.pipeInput(second!.topic, second!.key, second!.value, second!.timestamp);
    expect(() =>
      driver.pipeInput(third!.topic, third!.key, third!.value, third!.timestamp),
    ).toThrow(/key cannot be null/);
    driver.close();
  });

  it('a released record joins in the context it was buffered with (topic, partition, offset)', () => {
    const seen: unknown[] = [];
    const builder = new StreamsBuilder();
    const orders = builder.stream('orders', Consumed.with(Serdes.String(), Serdes.Long()));
    const prices = builder.table(
      'prices',
      Consumed.with(Serdes.String(), Serdes.Long()),
      Materialized.as(Stores.persistentVersionedKeyValueStore('prices-store', 100)),
    );
    orders
      .leftJoin(
        prices,
        '{"qty": left, "price": right}',
        Joined.with(null, null).withGracePeriod(10),
      )
      .process(() => {
        let ctx: { recordMetadata(): unknown };
        return {
          init(c) {
            ctx = c;
          },
          process(r) {
            seen.push([(r.value as { qty: number }).qty, r.timestamp, ctx.recordMetadata()]);
          },
        };
      });
    const driver = createOracleTestDriver(builder.build({ applicationId: 'grace' }));
    driver.pipeInput('orders', 'a', 1, 25); // offset 0: waits
    driver.pipeInput('orders', 'a', 2, 20); // offset 1: waits
    driver.pipeInput('orders', 'a', 3, 40); // offset 2: releases both, in timestamp order
    driver.close();
    const at = (offset: number) => ({ topic: 'orders', partition: 0, offset });
    expect(seen).toEqual([
      [2, 20, at(1)],
      [1, 25, at(0)],
    ]);
  });

  it('the DSL (Joined.withGracePeriod) builds the same topology and output as Kafka Streams', () => {
    const reference = expected[1]!;
    const builder = new StreamsBuilder();
    const orders = builder.stream('orders', Consumed.with(Serdes.String(), Serdes.Long()));
    const prices = builder.table(
      'prices',
      Consumed.with(Serdes.String(), Serdes.Long()),
      Materialized.as(Stores.persistentVersionedKeyValueStore('prices-store', 100)),
    );
    orders
      .leftJoin(
        prices,
        '{"qty": left, "price": right}',
        Joined.with(Serdes.String(), Serdes.Long(), Serdes.Long()).withGracePeriod(10),
      )
      .to('out', Produced.with(Serdes.String(), Serdes.Json()));
    const built = builder.build({ applicationId: 'grace' });
    expect(built.describe()).toBe(reference.describe);
    const driver = createOracleTestDriver(built);
    for (const r of input) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    expect(
      driver.readOutput('out').map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
    ).toEqual(reference.outputs?.['out']);
    driver.close();
    expect(describeTopology(planTopology(built.topology))).toBe(reference.describe);
    // The forms the designer's DSL export writes type-check on typed streams and tables.
    const typed = new StreamsBuilder();
    const s = typed.stream('orders', Consumed.with(Serdes.String(), Serdes.Long()));
    const t = typed.table('prices', Consumed.with(Serdes.String(), Serdes.Long()));
    s.join(t, 'right', Joined.as('named').withGracePeriod(5));
    s.leftJoin(t, 'right', Joined.with(null, null).withGracePeriod(5));
    // Null serdes (what the designer's DSL export writes for a grace period alone): the stream's.
    const joined = Joined.with(null, null).withGracePeriod(10);
    expect([joined.keySerde, joined.valueSerde, joined.gracePeriodMs]).toEqual([
      undefined,
      undefined,
      10,
    ]);
  });
});
