// The idempotent producer's epoch bump (KIP-360) on the shared broker, as Java's producer does it
// (TransactionManager#bumpIdempotentProducerEpoch): when a partition's sequence breaks, or a
// batch whose sequence numbers were taken fails, the producer keeps its producer id, moves to
// the next epoch and starts every partition's sequence at 0 — the leader takes a higher epoch's
// first batch at sequence 0, which it would refuse at the same epoch — instead of asking for a
// new producer id. Nothing is written twice or lost.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KafkaCluster } from '../../src/backends/kafka/client/cluster.js';
import { KafkaProducer } from '../../src/backends/kafka/kafka-produce.js';
import { ProducerSession } from '../../src/backends/kafka/kafka-producer-session.js';
import type { KafkaBackend } from '../../src/backends/kafka/index.js';
import { kafkaBackend } from './kafka-fixtures.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

let admin: KafkaBackend;
let cluster: KafkaCluster;
beforeAll(async () => {
  admin = await kafkaBackend();
  cluster = new KafkaCluster({
    bootstrapServers: [inject('kafkaBootstrapServers')],
    clientId: 'idempotent-epoch',
  });
});
afterAll(async () => {
  cluster?.close();
  await admin?.close();
});

/** An idempotent producer on its own session, and the WARNs it logs. */
function idempotent() {
  const warnings: string[] = [];
  const session = new ProducerSession(cluster, {
    transactionalId: null,
    transactionTimeoutMs: 60_000,
  });
  const producer = new KafkaProducer(
    cluster,
    async () => 1,
    session,
    {},
    {
      warn: (_fields, message) => void warnings.push(String(message)),
    },
  );
  return { session, producer, warnings };
}

async function values(topic: string): Promise<(string | null)[]> {
  const records = await admin.fetch({ topic, partition: 0 }, 0, 1000, 500);
  return records.map((r) => text(r.value));
}

const records = (topic: string, vs: string[]) =>
  vs.map((v) => ({ topic, partition: 0, key: bytes('k'), value: bytes(v) }));

describe("the idempotent producer's epoch bump (KIP-360) on Kafka 4.1.1", () => {
  it('a broken sequence: the same producer id at the next epoch sends the batch again', async () => {
    const topic = `epoch-seq-${Date.now()}`;
    await admin.createTopics([{ name: topic, partitions: 1 }]);
    const { session, producer, warnings } = idempotent();
    await producer.produce(records(topic, ['a', 'b', 'c']));
    const { producerId, epoch } = session;
    // Two sequence numbers no batch carried: the leader answers OUT_OF_ORDER_SEQUENCE_NUMBER.
    session.sequence(topic, 0, 2);
    await producer.produce(records(topic, ['d', 'e']));
    expect([session.producerId, session.epoch]).toEqual([producerId, epoch + 1]);
    expect(warnings).toEqual([
      'Kafka: the idempotent producer lost its sequence; bumping its epoch (KIP-360) and sending the unwritten records again',
    ]);
    await producer.produce(records(topic, ['f']));
    expect(await values(topic)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('a failed batch: the next produce starts the next epoch at sequence 0, no round trip lost', async () => {
    const topic = `epoch-failed-${Date.now()}`;
    // Batches above 1000 bytes are refused by the partition leader (MESSAGE_TOO_LARGE).
    await admin.createTopics([
      { name: topic, partitions: 1, config: { 'max.message.bytes': '1000' } },
    ]);
    const { session, producer, warnings } = idempotent();
    await producer.produce(records(topic, ['a']));
    const { producerId, epoch } = session;
    await expect(producer.produce(records(topic, ['x'.repeat(4000)]))).rejects.toMatchObject({
      type: 'MESSAGE_TOO_LARGE',
    });
    await producer.produce(records(topic, ['b', 'c']));
    expect([session.producerId, session.epoch]).toEqual([producerId, epoch + 1]);
    // Its sequence did not break: the bump came before the send.
    expect(warnings).toEqual([]);
    expect(await values(topic)).toEqual(['a', 'b', 'c']);
  });
});
