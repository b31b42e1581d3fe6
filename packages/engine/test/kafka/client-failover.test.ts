// The Kafka client on a 3-node KRaft cluster (tools/kafka's startCluster: replication factor 3,
// min.insync.replicas 2): the leader of a partition is SIGKILLed and the backend follows the
// leadership to a survivor — produce and fetch get NOT_LEADER_OR_FOLLOWER or a lost connection,
// refresh the metadata and go on — with nothing lost; the dead node is reported unreachable
// while clients still try it, and no longer once nothing needs it.
import { startCluster } from '@streamwright/kafka-broker';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { waitFor } from '../fixtures/wait.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

describe('the Kafka backend on a 3-node cluster', () => {
  it("follows a partition's leadership to a survivor when its leader is killed, nothing lost", async () => {
    const cluster = await startCluster({ startTimeoutMs: 180_000 });
    onTestFinished(() => cluster.stop());
    const backend = await createKafkaBackend({
      bootstrapServers: cluster.bootstrapServers.split(','),
    });
    onTestFinished(() => backend.close());
    const topic = 'failover';
    await backend.createTopics([{ name: topic, partitions: 1 }]);
    const send = (from: number, n: number) =>
      backend.produce(
        Array.from({ length: n }, (_, i) => ({
          topic,
          partition: 0,
          key: bytes(`k${from + i}`),
          value: bytes(`v${from + i}`),
        })),
      );
    expect((await send(0, 50)).map((a) => a.offset)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
    // Fetched once from the first leader, so the fetch client has a connection to lose.
    expect(await backend.fetch({ topic, partition: 0 }, 0, 100, 100)).toHaveLength(50);

    const leader = await cluster.leaderOf(topic, 0);
    expect(leader).not.toBeNull();
    await cluster.kill(leader!);
    // Written and read through the new leader (the other two replicas are in sync: acks=all
    // with min.insync.replicas 2 still holds).
    const acks = await send(50, 50);
    expect(acks.map((a) => a.offset)).toEqual(Array.from({ length: 50 }, (_, i) => 50 + i));
    const newLeader = await cluster.leaderOf(topic, 0);
    expect(newLeader).not.toBe(leader);
    const values: string[] = [];
    for (let offset = 0; values.length < 100;) {
      const got = await backend.fetch({ topic, partition: 0 }, offset, 1000, 500);
      values.push(...got.map((r) => text(r.value)!));
      if (got.length > 0) offset = got[got.length - 1]!.offset + 1;
    }
    expect(values).toEqual(Array.from({ length: 100 }, (_, i) => `v${i}`));
    // The killed node is reported (some client tried it), and no longer once it is back.
    const dead = cluster.bootstrapServersOf(leader!);
    await waitFor(
      () => backend.health!().unreachable.some((u) => u.broker === dead),
      20_000,
      'the killed node reported unreachable',
    );
    // Once nothing needs it any more (its partition is led elsewhere) it stops being reported,
    // as an application is not waiting for it.
    await waitFor(
      () => !backend.health!().unreachable.some((u) => u.broker === dead),
      40_000,
      'the killed node no longer reported',
    );
  });
});
