// Sequence numbers of an idempotent producer: per partition, reserved in blocks, wrapping at
// Integer.MAX_VALUE as Kafka's, and restarting at 0 with a new epoch or identity. And the batches
// the engine encodes carry them: each batch of a partition starts where the one before ended.
import { BatchEncoder } from '@streamwright/log/encoder';
import { describe, expect, it } from 'vitest';
import { KafkaCluster } from './client/cluster.js';
import { ProducerSession } from './kafka-producer-session.js';

function session(): ProducerSession {
  const cluster = new KafkaCluster({ bootstrapServers: ['127.0.0.1:1'], clientId: 'unit' });
  cluster.close();
  return new ProducerSession(cluster, { transactionalId: null, transactionTimeoutMs: 1000 });
}

describe('ProducerSession sequences', () => {
  it('numbers each partition on its own and restarts with a new epoch or identity', () => {
    const s = session();
    expect(s.sequence('t', 0, 10)).toBe(0);
    expect(s.sequence('t', 0, 5)).toBe(10);
    expect(s.sequence('t', 1, 3)).toBe(0);
    expect(s.sequence('u', 0, 1)).toBe(0);
    expect(s.sequence('t', 0, 1)).toBe(15);
    s.newEpoch(7, 3);
    expect([s.producerId, s.epoch]).toEqual([7, 3]);
    expect(s.sequence('t', 0, 1)).toBe(0);
    s.reset();
    expect(s.initialized).toBe(false);
    expect(s.sequence('t', 0, 1)).toBe(0);
  });

  it('wraps at Integer.MAX_VALUE', () => {
    const s = session();
    s.sequence('t', 0, 2_147_483_640);
    expect(s.sequence('t', 0, 10)).toBe(2_147_483_640);
    expect(s.sequence('t', 0, 1)).toBe(2);
  });

  it('goes into the batch headers: producer id, epoch, base sequence per batch, transactional bit', () => {
    const s = session();
    s.newEpoch(42, 5);
    s.sequence('t', 0, 100);
    const records = Array.from({ length: 300 }, (_, i) => ({
      topic: 't',
      partition: 0,
      key: Buffer.from(`k${i}`),
      value: Buffer.alloc(1000),
    }));
    const encoded = new BatchEncoder().encode(
      records,
      () => ({ partitions: 1, maxMessageBytes: 100_000, compressionType: 'none', compact: false }),
      {
        idempotent: {
          producerId: s.producerId,
          producerEpoch: s.epoch,
          transactional: true,
          sequence: (t, p, n) => s.sequence(t, p, n),
        },
      },
    );
    const buf = encoded.partitions[0]!.batches as Buffer;
    const headers: { id: bigint; epoch: number; seq: number; count: number; txn: boolean }[] = [];
    for (let at = 0; at < buf.length; at += 12 + buf.readInt32BE(at + 8))
      headers.push({
        id: buf.readBigInt64BE(at + 43),
        epoch: buf.readInt16BE(at + 51),
        seq: buf.readInt32BE(at + 53),
        count: buf.readInt32BE(at + 57),
        txn: (buf.readInt16BE(at + 21) & 0x10) !== 0,
      });
    expect(headers.length).toBeGreaterThan(1);
    let next = 100;
    for (const h of headers) {
      expect(h).toMatchObject({ id: 42n, epoch: 5, seq: next, txn: true });
      next += h.count;
    }
    expect(next).toBe(400);
    expect(s.sequence('t', 0, 1)).toBe(400);
  });
});
