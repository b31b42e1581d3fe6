// The seed's purchase analysis (examples/purchase-analysis/README.md): orders ⋈ users, re-keyed
// by item through a repartition topic, ⋈ items, then an hourly count of orders whose item origin
// equals the user's address. Expected records are Apache Kafka Streams 4.1's own output for the
// same document and input (tools/ks-oracle), never a snapshot of ours.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  createEmbeddedBackend,
  createStreamsApp,
  createTestDriver,
  getSerde,
  partitionFor,
} from '@streamwright/engine';
import { runOracle, type OracleResult } from '@streamwright/ks-oracle';
import {
  describeTopology,
  planTopology,
  validateTopology,
  type Topology,
} from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';

const document: unknown = JSON.parse(
  readFileSync(
    new URL('../purchase-analysis/purchase-analysis.topology.json', import.meta.url),
    'utf8',
  ),
);
const HOUR = 3_600_000;

// users, items and orders, shared with the designer's spec (e2e/specs/purchase-analysis.spec.ts)
const records = JSON.parse(
  readFileSync(new URL('../purchase-analysis/records.json', import.meta.url), 'utf8'),
) as {
  users: [string, Record<string, unknown>][];
  items: [string, Record<string, unknown>][];
  orders: [string, string, number][];
};
const { users, items, orders } = records;

const inputs = [
  ...users.map(([key, value]) => ({ topic: 'users', key, value, timestamp: 0 })),
  ...items.map(([key, value]) => ({ topic: 'items', key, value, timestamp: 0 })),
  ...orders.map(([user, item, time]) => ({
    topic: 'orders',
    key: user,
    value: { user, item, time, quantity: 1 },
    timestamp: time,
  })),
];

function validated(): Topology {
  const result = validateTopology(document);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

describe('purchase analysis: orders ⋈ users → by item ⋈ items → local orders per hour', () => {
  let reference: OracleResult;
  beforeAll(async () => {
    [reference] = (await runOracle([
      { name: 'purchase-analysis', topology: document, inputs, outputs: ['local-orders-per-hour'] },
    ])) as [OracleResult];
    expect(reference.error).toBeUndefined();
  }, 300_000);

  it('Kafka Streams ends with Shanghai 2 and Beijing 1 in each hour', () => {
    const last = Object.fromEntries(
      (reference.outputs?.['local-orders-per-hour'] ?? []).map((r) => [r.key, r.value]),
    );
    expect(last).toEqual({
      'Shanghai@0': 2,
      'Beijing@0': 1,
      [`Shanghai@${HOUR}`]: 2,
      [`Beijing@${HOUR}`]: 1,
    });
  });

  it('plans and describes the topology exactly as Kafka Streams (repartition topic named after the join)', () => {
    const plan = planTopology(validated());
    expect(describeTopology(plan)).toBe(reference.describe);
    expect(plan.internalTopics.map((t) => t.name)).toContain(
      'purchase-analysis-orderuser-by-item-repartition',
    );
  });

  it('emits exactly Kafka Streams’ records on the test driver', () => {
    const driver = createTestDriver(validated());
    for (const r of inputs) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    const out = driver
      .readOutput('local-orders-per-hour')
      .map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp }));
    expect(out).toEqual(reference.outputs?.['local-orders-per-hour']);
  });

  it('deploys on the embedded backend: the repartition topic gets the 6 partitions of items, the counts match', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'purchase-analysis-'));
    const backend = await createEmbeddedBackend({ dataDir: join(dir, 'log') });
    const topology = validated();
    topology.application.config['commit.interval.ms'] = 100; // flush output quickly in the test
    const streams = createStreamsApp({ topology, backend, stateDir: join(dir, 'state') });
    try {
      await streams.start();
      const partitions = new Map((await backend.listTopics()).map((t) => [t.name, t.partitions]));
      expect(partitions.get('purchase-analysis-orderuser-by-item-repartition')).toBe(6);
      const string = getSerde('string');
      const json = getSerde('json');
      const counts = { users: 3, items: 6, orders: 3 } as Record<string, number>;
      // Tables first, so every order finds its user and item (the test driver did the same).
      for (const topic of ['users', 'items', 'orders']) {
        const records = inputs
          .filter((r) => r.topic === topic)
          .map((r) => {
            const key = string.serialize(r.key) as Uint8Array;
            // The Java client's default partitioner, so each table lands co-partitioned with orders.
            return {
              topic,
              partition: partitionFor(key, counts[topic] as number),
              key,
              value: json.serialize(r.value),
              timestamp: r.timestamp,
            };
          });
        await backend.produce(records);
        if (topic === 'orders') continue;
        // Wait until the table is processed (its offsets committed), not for a fixed time: on a
        // loaded machine orders could otherwise be joined before their user or item is in.
        const info = (await backend.describeTopic(topic))!;
        const tableDeadline = Date.now() + 20_000;
        for (;;) {
          const committed = await backend.committedOffsets(
            topology.application.id,
            info.offsets.map((o) => ({ topic, partition: o.partition })),
          );
          const done = (o: { partition: number; latest: number }): boolean =>
            o.latest === 0 || committed.get(`${topic}:${o.partition}`) === o.latest;
          if (info.offsets.every(done)) break;
          if (Date.now() > tableDeadline)
            throw new Error(`table ${topic} was not processed in 20 s`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const expected = Object.fromEntries(
        (reference.outputs?.['local-orders-per-hour'] ?? []).map((r) => [r.key, r.value]),
      );
      const deadline = Date.now() + 20_000;
      let last: Record<string, unknown> = {};
      while (Date.now() < deadline) {
        const records = await backend.fetch(
          { topic: 'local-orders-per-hour', partition: 0 },
          0,
          1000,
          100,
        );
        last = Object.fromEntries(
          records.map((r) => [string.deserialize(r.key), getSerde('long').deserialize(r.value)]),
        );
        if (isDeepStrictEqual(last, expected)) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(last).toEqual(expected);
    } finally {
      await streams.close();
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
