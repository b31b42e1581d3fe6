// The real Java client (kafka-clients 4.1.1, tools/java-peer) against the listener: admin,
// produce (acks all/1/0, idempotent, compressed, transactional), consume (read_committed too),
// a group of two consumers sharing the partitions, and a restart of the log + listener after
// which the group resumes from its committed offsets and the cluster id is unchanged.
import { partitionForKey } from '@streamwright/log';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Harness } from './harness.js';

interface AdminOut {
  clusterId: string;
  controller: number;
  nodes: number[];
  topics: Record<string, number>;
}
interface ProduceOut {
  sent: number;
  offsets: Record<string, [number, number]>;
}
interface ConsumeOut {
  records: { partition: number; offset: number; key: string; value: string }[];
}
interface GroupOut {
  consumers: { assignment: string[]; values: string[] }[];
}

const h = new Harness();
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
beforeAll(async () => {
  await h.start();
});
afterAll(async () => {
  await h.dispose();
});

describe('the Java client against the Kafka listener', () => {
  it('creates topics and sees one node with a stable cluster id', async () => {
    const out = await h.java<AdminOut>('admin', { create: 'orders:2,shared:2' });
    expect(out.clusterId).toBe(h.listener.clusterId);
    expect(out.nodes).toEqual([h.listener.nodeId]);
    expect(out.controller).toBe(h.listener.nodeId);
    expect(out.topics).toEqual({ orders: 2, shared: 2 });
    expect(h.log.describeTopic('orders')?.partitions).toBe(2);
  });

  it('produces with acks all (idempotent, gzip), 1 and 0; the log holds every record where Java put it', async () => {
    const all = await h.java<ProduceOut>('produce', {
      topic: 'orders',
      count: 1000,
      acks: 'all',
      idempotence: 'true',
      compression: 'gzip',
      'key-prefix': 'a',
    });
    expect(all.sent).toBe(1000);
    const one = await h.java<ProduceOut>('produce', {
      topic: 'orders',
      count: 200,
      acks: 1,
      idempotence: 'false',
      'key-prefix': 'b',
    });
    expect(one.sent).toBe(200);
    const zero = await h.java<ProduceOut>('produce', {
      topic: 'orders',
      count: 100,
      acks: 0,
      idempotence: 'false',
      'key-prefix': 'c',
    });
    expect(zero.sent).toBe(100);
    const stored = await h.records('orders');
    expect(stored).toHaveLength(1300);
    expect(new Set(stored.map((r) => r.value)).size).toBe(1300);
    // Java's partitioner (murmur2 of the key) and ours agree, and the offsets Java was told are
    // where the records are.
    for (const r of stored) expect(r.partition).toBe(partitionForKey(Buffer.from(r.key!), 2));
    for (const [p, [first, last]] of Object.entries(all.offsets)) {
      const mine = stored.filter((r) => r.partition === Number(p) && r.key!.startsWith('a-'));
      expect(mine[0]!.offset).toBe(first);
      expect(mine[mine.length - 1]!.offset).toBe(last);
    }
  });

  it('produces with every codec Java has (gzip, snappy, lz4, zstd); the log reads them back', async () => {
    await h.log.createTopic('codecs', 1);
    for (const compression of ['gzip', 'snappy', 'lz4', 'zstd']) {
      const out = await h.java<ProduceOut>('produce', {
        topic: 'codecs',
        count: 50,
        compression,
        'key-prefix': compression,
      });
      expect(out.sent).toBe(50);
    }
    const stored = await h.records('codecs');
    expect(stored.map((r) => r.value)).toEqual(
      ['gzip', 'snappy', 'lz4', 'zstd'].flatMap((c) =>
        Array.from({ length: 50 }, (_, i) => `value-${c}-${i}`),
      ),
    );
  });

  it('produces in transactions (committed and aborted); read_committed sees the committed only', async () => {
    await h.log.createTopic('txns', 2);
    const committed = await h.java<ProduceOut>('produce', {
      topic: 'txns',
      count: 100,
      'transactional-id': 'java-txn',
      'key-prefix': 'yes',
    });
    expect(committed.sent).toBe(100);
    const aborted = await h.java<ProduceOut>('produce', {
      topic: 'txns',
      count: 40,
      'transactional-id': 'java-txn',
      end: 'abort',
      'key-prefix': 'no',
    });
    expect(aborted.sent).toBe(40);
    const readCommitted = await h.java<ConsumeOut>('consume', {
      topic: 'txns',
      group: 'txn-committed',
      isolation: 'read_committed',
      expect: 100,
      'linger-ms': 1500,
    });
    expect(readCommitted.records.map((r) => r.value).sort()).toEqual(
      Array.from({ length: 100 }, (_, i) => `value-yes-${i}`).sort(),
    );
    const readUncommitted = await h.java<ConsumeOut>('consume', {
      topic: 'txns',
      group: 'txn-uncommitted',
      expect: 140,
    });
    expect(readUncommitted.records).toHaveLength(140);
    expect(readUncommitted.records.filter((r) => r.value.startsWith('value-no-'))).toHaveLength(40);
  });

  it('consumes everything in order per partition and commits', async () => {
    const out = await h.java<ConsumeOut>('consume', {
      topic: 'orders',
      group: 'readers',
      expect: 1300,
    });
    expect(out.records).toHaveLength(1300);
    const stored = await h.records('orders');
    const byPosition = (r: { partition: number; offset: number }) => `${r.partition}/${r.offset}`;
    expect(out.records.map(byPosition).sort()).toEqual(stored.map(byPosition).sort());
    expect(out.records.map((r) => r.value).sort()).toEqual(stored.map((r) => r.value).sort());
    const committed = h.log.committedOffsets('readers');
    expect(committed.map((c) => [c.partition, c.offset]).sort()).toEqual(
      [0, 1].map((p) => [p, h.log.latestOffset('orders', p)]),
    );
  });

  it('a group of two consumers shares the partitions and resumes from committed offsets after a restart', async () => {
    const first = await h.java<GroupOut>('group', {
      topic: 'shared',
      group: 'pair',
      consumers: 2,
      'produce-after': 400,
      expect: 400,
      'key-prefix': 'one',
    });
    const assignments = first.consumers.map((c) => c.assignment);
    expect(assignments.map((a) => a.length)).toEqual([1, 1]);
    expect(new Set(assignments.flat())).toEqual(new Set(['shared-0', 'shared-1']));
    const values = first.consumers.flatMap((c) => c.values);
    expect(values).toHaveLength(400);
    expect(new Set(values).size).toBe(400);
    expect(first.consumers.every((c) => c.values.length > 0)).toBe(true);

    const clusterId = h.listener.clusterId;
    await h.restart();
    expect(h.listener.clusterId).toBe(clusterId);
    const again = await h.java<AdminOut>('admin');
    expect(again.clusterId).toBe(clusterId);
    expect(again.nodes).toEqual([h.listener.nodeId]);

    // 300 more records written before the group starts again: it reads exactly those (earliest
    // would give 700, latest none), from the offsets it committed before the restart.
    const second = await h.java<GroupOut>('group', {
      topic: 'shared',
      group: 'pair',
      consumers: 2,
      'produce-before': 300,
      expect: 300,
      'key-prefix': 'two',
    });
    const resumed = second.consumers.flatMap((c) => c.values);
    expect(resumed).toHaveLength(300);
    expect(resumed.every((v) => v.startsWith('value-twob-'))).toBe(true);
    expect(new Set(resumed).size).toBe(300);
  });
});
