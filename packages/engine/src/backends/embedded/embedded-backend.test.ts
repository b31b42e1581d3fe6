import { appendFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OffsetOutOfRangeError, UnknownTopicError } from '../../errors.js';
import { partitionFor } from '../../partitioner/default-partitioner.js';
import { createEmbeddedBackend } from './embedded-backend.js';
import { bytes, text, withTempDir } from '../../test-helpers.js';

describe('embedded backend: produce and fetch', () => {
  it('assigns consecutive offsets per partition and partitions keys with murmur2', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'orders', partitions: 3 }]);
    const acks = await backend.produce([
      { topic: 'orders', key: bytes('a'), value: bytes('1') },
      { topic: 'orders', key: bytes('a'), value: bytes('2') },
      { topic: 'orders', partition: 2, key: null, value: bytes('3'), timestamp: 42 },
    ]);
    const pa = partitionFor(bytes('a'), 3);
    expect(acks[0]).toEqual({ partition: pa, offset: 0 });
    expect(acks[1]).toEqual({ partition: pa, offset: 1 });
    expect(acks[2]!.partition).toBe(2);
    const fetched = await backend.fetch({ topic: 'orders', partition: 2 }, acks[2]!.offset, 10, 0);
    expect(fetched.map((r) => [text(r.value), r.timestamp])).toContainEqual(['3', 42]);
    const desc = await backend.describeTopic('orders');
    expect(desc?.offsets.find((o) => o.partition === pa)).toEqual({
      partition: pa,
      earliest: 0,
      latest: 2,
    });
    await backend.close();
  });

  it('without positions (the record collector without callbacks) writes the same records and returns none', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'orders', partitions: 3 }]);
    const records = [
      { topic: 'orders', key: bytes('a'), value: bytes('1'), timestamp: 7 },
      { topic: 'orders', key: bytes('b'), value: bytes('2'), timestamp: 8 },
    ];
    expect(await backend.produce(records, { positions: false })).toEqual([]);
    const acks = await backend.produce(records);
    for (const [i, r] of records.entries()) {
      const p = partitionFor(r.key, 3);
      expect(acks[i]).toEqual({ partition: p, offset: 1 });
      const fetched = await backend.fetch({ topic: 'orders', partition: p }, 0, 10, 0);
      expect(fetched.map((f) => [f.offset, text(f.value), f.timestamp])).toEqual([
        [0, text(r.value), r.timestamp],
        [1, text(r.value), r.timestamp],
      ]);
    }
    await backend.close();
  });

  it('long-polls: a waiting fetch resolves as soon as a record is appended, not at the timeout', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 't', partitions: 1 }]);
    const started = Date.now();
    const pending = backend.fetch({ topic: 't', partition: 0 }, 0, 10, 10_000);
    setTimeout(() => void backend.produce([{ topic: 't', key: null, value: bytes('hello') }]), 20);
    const records = await pending;
    expect(records.map((r) => text(r.value))).toEqual(['hello']);
    expect(Date.now() - started).toBeLessThan(5_000);
    await backend.close();
  });

  it('fetchMany answers when any partition has data and can be woken by an abort signal', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 't', partitions: 2 }]);
    const pending = backend.fetchMany(
      [
        { topic: 't', partition: 0, offset: 0 },
        { topic: 't', partition: 1, offset: 0 },
      ],
      { maxRecords: 10, maxWaitMs: 10_000 },
    );
    await backend.produce([{ topic: 't', partition: 1, key: null, value: bytes('x') }]);
    const responses = await pending;
    expect(responses.map((r) => r.records.length)).toEqual([0, 1]);
    expect(responses[1]!.highWatermark).toBe(1);

    const abort = new AbortController();
    const parked = backend.fetchMany([{ topic: 't', partition: 0, offset: 0 }], {
      maxRecords: 10,
      maxWaitMs: 10_000,
      signal: abort.signal,
    });
    abort.abort();
    expect((await parked)[0]!.records).toEqual([]);
    await backend.close();
  });

  it('reports unknown topics and offsets past the end', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 't', partitions: 1 }]);
    await expect(
      backend.produce([{ topic: 'nope', key: null, value: null }]),
    ).rejects.toBeInstanceOf(UnknownTopicError);
    await expect(backend.fetch({ topic: 't', partition: 0 }, 5, 10, 0)).rejects.toBeInstanceOf(
      OffsetOutOfRangeError,
    );
    await backend.close();
  });
});

describe('embedded backend: durability', () => {
  it('keeps topics, records and committed offsets across a restart', async () => {
    await withTempDir(async (dataDir) => {
      const first = await createEmbeddedBackend({ dataDir });
      await first.createTopics([
        { name: 'events', partitions: 2, config: { 'retention.ms': 1000 * 60 * 60 } },
      ]);
      await first.produce([
        {
          topic: 'events',
          partition: 0,
          key: bytes('k'),
          value: bytes('v0'),
          headers: { h: 'x' },
          timestamp: Date.now(),
        },
        { topic: 'events', partition: 0, key: null, value: null, timestamp: Date.now() },
        {
          topic: 'events',
          partition: 1,
          key: bytes('k2'),
          value: bytes('v1'),
          timestamp: Date.now(),
        },
      ]);
      await first.commitOffsets('app', [{ topic: 'events', partition: 0, offset: 2 }]);
      await first.close();

      const second = await createEmbeddedBackend({ dataDir });
      const desc = await second.describeTopic('events');
      expect(desc?.partitions).toBe(2);
      expect(desc?.config['retention.ms']).toBe(String(1000 * 60 * 60));
      const p0 = await second.fetch({ topic: 'events', partition: 0 }, 0, 10, 0);
      expect(p0.map((r) => [text(r.key), text(r.value), r.headers])).toEqual([
        ['k', 'v0', { h: 'x' }],
        [null, null, {}],
      ]);
      expect(await second.committedOffsets('app', [{ topic: 'events', partition: 0 }])).toEqual(
        new Map([['events:0', 2]]),
      );
      // New records continue the offsets.
      const [ack] = await second.produce([
        { topic: 'events', partition: 0, key: null, value: bytes('v2') },
      ]);
      expect(ack!.offset).toBe(2);
      await second.close();
    });
  });

  it('ignores a torn tail record on reopen and appends after the last whole record', async () => {
    await withTempDir(async (dataDir) => {
      const first = await createEmbeddedBackend({ dataDir });
      await first.createTopics([{ name: 't', partitions: 1 }]);
      await first.produce([
        { topic: 't', key: null, value: bytes('one') },
        { topic: 't', key: null, value: bytes('two') },
      ]);
      await first.close();
      const dir = join(dataDir, 't-0');
      const segment = (await readdir(dir)).find((f) => f.endsWith('.log'));
      // A crash mid-write: a batch header whose base offset and length promise more than is there.
      await appendFile(
        join(dir, segment!),
        Buffer.from([0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 100, 1, 2, 3, 4, 9, 9, 9]),
      );

      const second = await createEmbeddedBackend({ dataDir });
      expect(
        (await second.fetch({ topic: 't', partition: 0 }, 0, 10, 0)).map((r) => text(r.value)),
      ).toEqual(['one', 'two']);
      const [ack] = await second.produce([{ topic: 't', key: null, value: bytes('three') }]);
      expect(ack!.offset).toBe(2);
      await second.close();

      const third = await createEmbeddedBackend({ dataDir });
      expect(
        (await third.fetch({ topic: 't', partition: 0 }, 0, 10, 0)).map((r) => text(r.value)),
      ).toEqual(['one', 'two', 'three']);
      await third.close();
    });
  });
});

describe('embedded backend: retention', () => {
  it('retention.bytes drops whole old segments and bounds the disk use', async () => {
    await withTempDir(async (dataDir) => {
      const backend = await createEmbeddedBackend({ dataDir });
      // Kafka deletes whole segments only, so retention.bytes bites with segments smaller than it.
      await backend.createTopics([
        {
          name: 'gen',
          partitions: 1,
          config: { 'retention.bytes': 20_000, 'segment.bytes': 5_000 },
        },
      ]);
      const value = bytes('x'.repeat(200));
      for (let batch = 0; batch < 50; batch++) {
        await backend.produce(
          Array.from({ length: 20 }, () => ({ topic: 'gen', partition: 0, key: null, value })),
        );
        await backend.enforceRetention();
      }
      const desc = await backend.describeTopic('gen');
      expect(desc!.offsets[0]!.latest).toBe(1000);
      expect(desc!.offsets[0]!.earliest).toBeGreaterThan(0);
      const dir = join(dataDir, 'gen-0');
      let onDisk = 0;
      for (const f of await readdir(dir))
        if (f.endsWith('.log')) onDisk += (await stat(join(dir, f))).size;
      // retention.bytes plus at most one segment — never the 230 kB written.
      expect(onDisk).toBeLessThanOrEqual(20_000 + 5_000 + 300);
      expect(backend.partitionSizes('gen')[0]).toBe(onDisk);
      // A fetch below the log start reads from the log start.
      const records = await backend.fetch({ topic: 'gen', partition: 0 }, 0, 5, 0);
      expect(records[0]!.offset).toBe(desc!.offsets[0]!.earliest);
      await backend.close();
    });
  });

  it('retention.ms drops segments whose newest record is older than the limit', async () => {
    let now = 1_000_000;
    const backend = await createEmbeddedBackend({ now: () => now });
    // Segments roll by record time (segment.ms), so 'old' and 'newer' land in separate segments.
    await backend.createTopics([
      { name: 't', partitions: 1, config: { 'retention.ms': 60_000, 'segment.ms': 10_000 } },
    ]);
    await backend.produce([{ topic: 't', key: null, value: bytes('old'), timestamp: now }]);
    now += 30_000;
    await backend.produce([{ topic: 't', key: null, value: bytes('newer'), timestamp: now }]);
    now += 45_000; // 'old' is now 75 s old, 'newer' 45 s
    await backend.enforceRetention();
    expect(
      (await backend.fetch({ topic: 't', partition: 0 }, 0, 10, 0)).map((r) => text(r.value)),
    ).toEqual(['newer']);
    now += 60_000;
    await backend.enforceRetention();
    const desc = await backend.describeTopic('t');
    expect(desc!.offsets[0]).toEqual({ partition: 0, earliest: 2, latest: 2 });
    await backend.close();
  });

  it('compacted topics keep the latest record per key across restarts', async () => {
    await withTempDir(async (dataDir) => {
      const backend = await createEmbeddedBackend({ dataDir });
      await backend.createTopics([
        {
          name: 'c',
          partitions: 1,
          config: { 'cleanup.policy': 'compact', 'segment.bytes': 1024 },
        },
      ]);
      for (let i = 0; i < 100; i++) {
        await backend.produce([
          { topic: 'c', partition: 0, key: bytes(`k${i % 3}`), value: bytes(`v${i}`) },
        ]);
      }
      await backend.enforceRetention();
      await backend.close();
      const reopened = await createEmbeddedBackend({ dataDir });
      const all = await reopened.fetch({ topic: 'c', partition: 0 }, 0, 1000, 0);
      const latest = new Map(all.map((r) => [text(r.key), text(r.value)]));
      expect(latest).toEqual(
        new Map([
          ['k0', 'v99'],
          ['k1', 'v97'],
          ['k2', 'v98'],
        ]),
      );
      expect(all.length).toBeLessThan(100);
      const [ack] = await reopened.produce([
        { topic: 'c', partition: 0, key: bytes('k0'), value: bytes('v100') },
      ]);
      expect(ack!.offset).toBe(100);
      await reopened.close();
    });
  });
});

describe('embedded backend: long polls over many partitions', () => {
  it('waits on 15 partitions without MaxListenersExceededWarning (issue 23)', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'wide', partitions: 15 }]);
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const requests = Array.from({ length: 15 }, (_, partition) => ({
        topic: 'wide',
        partition,
        offset: 0,
      }));
      for (const isolationLevel of ['read_uncommitted', 'read_committed'] as const)
        for (let i = 0; i < 3; i++)
          expect(
            await backend.fetchMany(requests, {
              maxRecords: 10,
              maxWaitMs: 20,
              isolationLevel,
              signal: new AbortController().signal,
            }),
          ).toHaveLength(15);
      // process warnings are emitted on the next tick
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('warning', onWarning);
      await backend.close();
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });
});
