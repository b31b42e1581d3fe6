// The Kafka backend's own contract, on a real broker: topics (with configs, compacted), produce
// with the engine's partitioner, fetch at explicit offsets, committed offsets.
import kafkajs from 'kafkajs';
import { describe, expect, inject, it } from 'vitest';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { partitionFor } from '../../src/partitioner/default-partitioner.js';

const bootstrap = () => [inject('kafkaBootstrapServers')];
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

describe('Kafka backend', () => {
  it('round-trips keys, null keys, tombstones, headers and timestamps on the partition the engine computes', async () => {
    const backend = await createKafkaBackend({ bootstrapServers: bootstrap() });
    try {
      await backend.createTopics([
        { name: 'kb-roundtrip', partitions: 3 },
        { name: 'kb-compacted', partitions: 1, config: { 'cleanup.policy': 'compact' } },
      ]);
      const d = await backend.describeTopic('kb-compacted');
      expect(d?.config['cleanup.policy']).toBe('compact');
      expect(d?.partitions).toBe(1);
      const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
      const acks = await backend.produce(
        keys.map((k, i) => ({
          topic: 'kb-roundtrip',
          key: bytes(k),
          value: i === 3 ? null : bytes(`v${i}`),
          timestamp: 1000 + i,
          headers: { h: `x${i}` },
        })),
      );
      keys.forEach((k, i) => expect(acks[i]!.partition).toBe(partitionFor(bytes(k), 3)));
      const [nullKey] = await backend.produce([
        { topic: 'kb-compacted', key: bytes('k'), value: null, timestamp: 5 },
      ]);
      expect(nullKey).toEqual({ partition: 0, offset: 0 });

      const all = [];
      for (let p = 0; p < 3; p++)
        all.push(...(await backend.fetch({ topic: 'kb-roundtrip', partition: p }, 0, 100, 0)));
      const got = all
        .map((r) => ({ key: text(r.key), value: text(r.value), ts: r.timestamp, h: r.headers }))
        .sort((x, y) => String(x.key).localeCompare(String(y.key)));
      expect(got).toEqual(
        keys.map((k, i) => ({
          key: k,
          value: i === 3 ? null : `v${i}`,
          ts: 1000 + i,
          h: { h: `x${i}` },
        })),
      );
      // Each record at the offset produce reported.
      for (const r of all) {
        const i = keys.indexOf(text(r.key)!);
        expect({ partition: r.partition, offset: r.offset }).toEqual(acks[i]);
      }
      // A null key: one partition for the whole produce call (sticky), the key stays null.
      const nullKeys = await backend.produce(
        [0, 1, 2].map((i) => ({ topic: 'kb-roundtrip', key: null, value: bytes(`n${i}`) })),
      );
      expect(new Set(nullKeys.map((a) => a.partition)).size).toBe(1);
      const [firstNull] = await backend.fetch(
        { topic: 'kb-roundtrip', partition: nullKeys[0]!.partition },
        nullKeys[0]!.offset,
        1,
        0,
      );
      expect(firstNull?.key).toBeNull();
      expect(text(firstNull!.value)).toBe('n0');

      const [tomb] = await backend.fetch({ topic: 'kb-compacted', partition: 0 }, 0, 10, 0);
      expect(tomb?.value).toBeNull();

      // fetchMany: several partitions, explicit offsets, past the end reported.
      const p0 = acks.filter((a) => a.partition === 0);
      const responses = await backend.fetchMany(
        [
          { topic: 'kb-roundtrip', partition: 0, offset: 1 },
          { topic: 'kb-compacted', partition: 0, offset: 5 },
        ],
        { maxRecords: 100, maxWaitMs: 100 },
      );
      const r0 = responses.find((r) => r.topic === 'kb-roundtrip')!;
      expect(r0.records.slice(0, p0.length - 1).map((r) => r.offset)).toEqual(
        p0.slice(1).map((a) => a.offset),
      );
      expect(r0.highWatermark).toBe(p0.length + (nullKeys[0]!.partition === 0 ? 3 : 0));
      expect(responses.find((r) => r.topic === 'kb-compacted')?.error).toBe('OFFSET_OUT_OF_RANGE');

      // Committed offsets of a group with no members.
      await backend.commitOffsets('kb-group', [{ topic: 'kb-roundtrip', partition: 1, offset: 2 }]);
      const committed = await backend.committedOffsets('kb-group', [
        { topic: 'kb-roundtrip', partition: 0 },
        { topic: 'kb-roundtrip', partition: 1 },
      ]);
      expect([...committed]).toEqual([['kb-roundtrip:1', 2]]);
      // A member: its client id prefixes the member id, the range assignor gives it all three
      // partitions, and its commits carry its generation.
      const assigned: unknown[] = [];
      const member = await backend.joinGroup('kb-member-group', ['kb-roundtrip'], {
        clientId: 'kb-app-StreamThread-1-consumer',
        listener: { onPartitionsAssigned: (tps) => assigned.push(tps) },
      });
      expect(member.memberId.startsWith('kb-app-StreamThread-1-consumer-')).toBe(true);
      expect(member.generation()).toBeGreaterThan(0);
      const owned = member.assignment().map((tp) => `${tp.topic}:${tp.partition}`);
      expect(owned.sort()).toEqual(['kb-roundtrip:0', 'kb-roundtrip:1', 'kb-roundtrip:2']);
      expect(assigned).toHaveLength(1);
      await backend.commitOffsets('kb-member-group', [
        { topic: 'kb-roundtrip', partition: 2, offset: 1 },
      ]);
      expect([
        ...(await backend.committedOffsets('kb-member-group', [
          { topic: 'kb-roundtrip', partition: 2 },
        ])),
      ]).toEqual([['kb-roundtrip:2', 1]]);
      await member.leave();

      expect((await backend.listTopics()).map((t) => t.name)).toEqual(
        expect.arrayContaining(['kb-roundtrip', 'kb-compacted']),
      );
    } finally {
      await backend.close();
    }
  });
});

describe('Kafka backend fetches smaller than what the broker answers', () => {
  it('hands out the rest of a fetch response in order, none twice, and forgets it when the topic is deleted', async () => {
    const backend = await createKafkaBackend({ bootstrapServers: bootstrap() });
    const topic = 'kb-kept-records';
    try {
      await backend.deleteTopics([topic]);
      await backend.createTopics([{ name: topic, partitions: 2 }]);
      const produced = Array.from({ length: 3000 }, (_, i) => ({
        topic,
        partition: i % 2,
        key: bytes(`k${i}`),
        value: bytes(`v${i}`),
      }));
      for (let i = 0; i < produced.length; i += 500)
        await backend.produce(produced.slice(i, i + 500));
      // Polls of 70 records per partition (one broker response holds all 3 000).
      const positions = [0, 0];
      const seen: string[][] = [[], []];
      for (let round = 0; round < 200 && positions[0]! + positions[1]! < 3000; round++) {
        const responses = await backend.fetchMany(
          [0, 1].map((partition) => ({ topic, partition, offset: positions[partition]! })),
          { maxRecords: 70, maxWaitMs: 100 },
        );
        for (const r of responses) {
          expect(r.records.length).toBeLessThanOrEqual(70);
          expect(r.highWatermark).toBe(1500);
          for (const record of r.records) {
            expect(record.offset).toBe(positions[r.partition]);
            positions[r.partition]! += 1;
            seen[r.partition]!.push(text(record.value)!);
          }
        }
      }
      for (const partition of [0, 1])
        expect(seen[partition]).toEqual(
          produced.filter((p) => p.partition === partition).map((p) => text(p.value)),
        );

      // A read that stops early keeps the rest; the topic deleted and made again starts afresh.
      expect(
        (await backend.fetch({ topic, partition: 0 }, 0, 1, 0)).map((r) => text(r.value)),
      ).toEqual(['v0']);
      await backend.deleteTopics([topic]);
      await backend.createTopics([{ name: topic, partitions: 2 }]);
      await backend.produce([{ topic, partition: 0, key: null, value: bytes('new') }]);
      const again = await backend.fetch({ topic, partition: 0 }, 1, 10, 0).catch(() => []);
      expect(again).toEqual([]);
      const fresh = await backend.fetch({ topic, partition: 0 }, 0, 10, 1000);
      expect(fresh.map((r) => text(r.value))).toEqual(['new']);
    } finally {
      await backend.close();
    }
  });
});

describe('Kafka backend produces larger than one request allows', () => {
  it("splits a partition's records over batches under message.max.bytes, in order, each record at the offset it was given", async () => {
    const backend = await createKafkaBackend({ bootstrapServers: bootstrap() });
    const topic = 'kb-large-produce';
    try {
      await backend.deleteTopics([topic]);
      await backend.createTopics([{ name: topic, partitions: 2 }]);
      // 3 MB for partition 1 in one call: over the broker's 1 MiB message.max.bytes as one batch.
      const value = (i: number) => bytes(`${i}:`.padEnd(1000, 'x'));
      const records = Array.from({ length: 3000 }, (_, i) => ({
        topic,
        partition: 1,
        key: bytes(`k${i}`),
        value: value(i),
        timestamp: 1_000 + i,
      }));
      const acks = await backend.produce([
        { topic, partition: 0, key: null, value: bytes('first') },
        ...records,
      ]);
      expect(acks[0]).toEqual({ partition: 0, offset: 0 });
      expect(acks.slice(1)).toEqual(records.map((_, i) => ({ partition: 1, offset: i })));
      const read: { offset: number; value: string | null; timestamp: number }[] = [];
      while (read.length < 3000) {
        const batch = await backend.fetch({ topic, partition: 1 }, read.length, 1000, 1000);
        read.push(
          ...batch.map((r) => ({ offset: r.offset, value: text(r.value), timestamp: r.timestamp })),
        );
      }
      expect(read).toEqual(
        records.map((r, i) => ({ offset: i, value: text(r.value), timestamp: r.timestamp })),
      );
    } finally {
      await backend.close();
    }
  });
});

describe('Kafka backend fetches of transactional records', () => {
  it('skips transaction markers (and, read_committed, aborted records) without sticking on them', async () => {
    const backend = await createKafkaBackend({ bootstrapServers: bootstrap() });
    const topic = 'kb-transactional';
    const client = new kafkajs.Kafka({
      brokers: bootstrap(),
      clientId: 'kb-txn',
      logLevel: kafkajs.logLevel.NOTHING,
    });
    const producer = client.producer({
      transactionalId: `kb-txn-${Date.now()}`,
      maxInFlightRequests: 1,
      idempotent: true,
    });
    try {
      await backend.deleteTopics([topic]);
      await backend.createTopics([{ name: topic, partitions: 1 }]);
      await producer.connect();
      const write = async (values: string[], commit: boolean) => {
        const txn = await producer.transaction();
        await txn.send({ topic, messages: values.map((v) => ({ value: v })) });
        if (commit) await txn.commit();
        else await txn.abort();
      };
      // Offsets: c0 c1 (0, 1), marker 2, a0 (3), marker 4, c2 (5), marker 6.
      await write(['c0', 'c1'], true);
      await write(['a0'], false);
      await write(['c2'], true);
      const readAll = async (isolationLevel?: 'read_committed') => {
        const out: { offset: number; value: string | null }[] = [];
        let offset = 0;
        for (let round = 0; round < 10; round++) {
          const [r] = await backend.fetchMany([{ topic, partition: 0, offset }], {
            maxRecords: 100,
            maxWaitMs: 200,
            ...(isolationLevel ? { isolationLevel } : {}),
          });
          expect(r!.error).toBeUndefined();
          for (const rec of r!.records) out.push({ offset: rec.offset, value: text(rec.value) });
          if (r!.records.length > 0) offset = r!.records[r!.records.length - 1]!.offset + 1;
        }
        return out;
      };
      expect(await readAll()).toEqual([
        { offset: 0, value: 'c0' },
        { offset: 1, value: 'c1' },
        { offset: 3, value: 'a0' },
        { offset: 5, value: 'c2' },
      ]);
      expect(await readAll('read_committed')).toEqual([
        { offset: 0, value: 'c0' },
        { offset: 1, value: 'c1' },
        { offset: 5, value: 'c2' },
      ]);
      // From the last marker: nothing, and the log's end (7), not stuck before it.
      const [atMarker] = await backend.fetchMany([{ topic, partition: 0, offset: 6 }], {
        maxRecords: 100,
        maxWaitMs: 100,
      });
      expect(atMarker!.records).toEqual([]);
      expect(atMarker!.highWatermark).toBe(7);
    } finally {
      await producer.disconnect();
      await backend.close();
    }
  });
});
