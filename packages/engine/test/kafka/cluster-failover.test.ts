// tools/kafka's 3-node KRaft cluster (startCluster): it forms, a topic gets replication factor 3
// from the cluster's default, and when the leader of its partition is killed another replica
// takes over and the Kafka backend keeps producing and fetching; the killed node comes back on
// its ports and data and rejoins the in-sync replicas.
import { startCluster, type RunningCluster } from '@streamwright/kafka-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../src/backend-spi.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { getSerde } from '../../src/serdes/index.js';
import { encode } from '../fixtures/records.js';

const TOPIC = 'failover';

/** Polls `check` every 500 ms until it returns a value other than undefined (bound: "never"). */
async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  ms = 90_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe("tools/kafka's 3-node cluster: a killed leader's partition moves, clients carry on", () => {
  let cluster: RunningCluster;
  let backend: Backend;
  beforeAll(async () => {
    const started = performance.now();
    cluster = await startCluster({ brokers: 3 });
    console.log(
      `3-node cluster (Kafka ${cluster.version}) started in ${Math.round(performance.now() - started)} ms`,
    );
    backend = await createKafkaBackend({ bootstrapServers: cluster.bootstrapServers.split(',') });
  });
  afterAll(async () => {
    await backend?.close();
    await cluster?.stop();
  });

  it('forms: a new topic is replicated to all three nodes, all in sync', async () => {
    expect(cluster.nodeIds).toEqual([1, 2, 3]);
    await backend.createTopics([{ name: TOPIC, partitions: 1 }]);
    const [partition] = await until('the topic is described with a leader', async () => {
      const partitions = await cluster.describeTopic(TOPIC);
      return partitions[0]?.leader != null && partitions[0].isr.length === 3
        ? partitions
        : undefined;
    });
    expect(partition!.replicas.toSorted()).toEqual([1, 2, 3]);
  });

  it('the leader killed: another node leads, produce and fetch go on; it rejoins after start', async () => {
    const value = (s: string) => encode('string', s);
    await backend.produce([{ topic: TOPIC, key: null, value: value('before') }]);
    const leader = (await cluster.leaderOf(TOPIC, 0))!;
    const killed = performance.now();
    await cluster.kill(leader);
    expect(cluster.isRunning(leader)).toBe(false);
    const next = await until('a new leader', async () => {
      const now = await cluster.leaderOf(TOPIC, 0);
      return now !== null && now !== leader ? now : undefined;
    });
    expect([1, 2, 3]).toContain(next);
    console.log(
      `node ${leader} killed: node ${next} leads after ${Math.round(performance.now() - killed)} ms`,
    );

    await backend.produce([{ topic: TOPIC, key: null, value: value('after') }]);
    const records = await backend.fetch({ topic: TOPIC, partition: 0 }, 0, 10, 1000);
    expect(records.map((r) => getSerde('string').deserialize(r.value))).toEqual([
      'before',
      'after',
    ]);

    await cluster.start(leader);
    await until('the restarted node back in sync', async () => {
      const [p] = await cluster.describeTopic(TOPIC);
      return p!.isr.includes(leader) ? true : undefined;
    });
  });
});
