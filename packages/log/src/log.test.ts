import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isLogError, LogErrorCode } from './errors.js';
import { Log } from './log.js';
import { bytes, manualClock, openTestLog, text, tmpDir } from '../test/helpers.js';

describe('topics', () => {
  it('creates, describes with effective configs, alters, lists and deletes', async () => {
    const log = await openTestLog();
    await log.createTopic('orders', 3, { 'cleanup.policy': 'compact', 'retention.ms': 1000 });
    const d = log.describeTopic('orders')!;
    expect(d.partitions).toBe(3);
    expect(d.config['cleanup.policy']).toBe('compact');
    expect(d.config['retention.ms']).toBe('1000');
    expect(d.config['segment.bytes']).toBe('1073741824'); // Kafka's default
    expect(d.overrides).toEqual({ 'cleanup.policy': 'compact', 'retention.ms': '1000' });
    expect(d.offsets.map((o) => [o.earliest, o.latest])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    await log.alterTopicConfig('orders', { 'retention.ms': 5 }, ['cleanup.policy']);
    expect(log.describeTopic('orders')!.config).toMatchObject({
      'retention.ms': '5',
      'cleanup.policy': 'delete',
    });
    await log.createPartitions('orders', 5);
    expect(log.describeTopic('orders')!.partitions).toBe(5);
    await log.createTopics([{ name: 'app-store-changelog', partitions: 1, internal: true }]);
    expect(log.listTopics().map((t) => [t.name, t.internal])).toEqual([
      ['app-store-changelog', true],
      ['orders', false],
    ]);
    expect(
      log
        .listTopics({ includeSystem: true })
        .filter((t) => t.system)
        .map((t) => t.name),
    ).toEqual(['__consumer_offsets', '__transaction_state']);
    await log.deleteTopics(['orders']);
    expect(log.describeTopic('orders')).toBeNull();
    expect(fs.existsSync(path.join(log.dataDir, 'orders-0'))).toBe(false);
  });

  it('refuses bad names, duplicate topics, unknown and ill-typed configs', async () => {
    const log = await openTestLog();
    await log.createTopic('a', 1);
    const code = async (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (isLogError(e) ? e.code : String(e)),
      );
    expect(await code(log.createTopic('a', 1))).toBe(LogErrorCode.TOPIC_ALREADY_EXISTS);
    expect(
      await code(log.createTopics([{ name: 'a', partitions: 1 }], { ifNotExists: true })),
    ).toBe('ok');
    expect(await code(log.createTopic('bad/name', 1))).toBe(LogErrorCode.INVALID_TOPIC_EXCEPTION);
    expect(await code(log.createTopic('b', 0))).toBe(LogErrorCode.INVALID_PARTITIONS);
    expect(await code(log.createTopic('b', 1, { 'no.such.config': 1 }))).toBe(
      LogErrorCode.INVALID_CONFIG,
    );
    expect(await code(log.createTopic('b', 1, { 'retention.ms': 'soon' }))).toBe(
      LogErrorCode.INVALID_CONFIG,
    );
    expect(await code(log.createTopic('b', 1, { 'cleanup.policy': 'shred' }))).toBe(
      LogErrorCode.INVALID_CONFIG,
    );
    expect(await code(log.createTopic('b', 1, { 'compression.type': 'brotli' }))).toBe(
      LogErrorCode.INVALID_CONFIG,
    );
    expect(await code(log.produce([{ topic: 'nope', key: null, value: null }]))).toBe(
      LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    );
  });

  it('keeps topics and configs across a reopen', async () => {
    const dir = tmpDir();
    const a = await Log.open({ dataDir: dir, background: false });
    await a.createTopic('t', 2, { 'message.timestamp.type': 'LogAppendTime' });
    await a.close();
    const b = await openTestLog({ dataDir: dir });
    expect(b.describeTopic('t')).toMatchObject({
      partitions: 2,
      overrides: { 'message.timestamp.type': 'LogAppendTime' },
    });
  });
});

describe('data dir lock', () => {
  it('lets one open Log own a data dir and frees it on close', async () => {
    const dir = tmpDir();
    const a = await Log.open({ dataDir: dir, background: false });
    await expect(Log.open({ dataDir: dir, background: false })).rejects.toMatchObject({
      code: LogErrorCode.DATA_DIR_LOCKED,
    });
    await a.close();
    const b = await Log.open({ dataDir: dir, background: false });
    await b.close();
  });

  it('takes over a lock left by a process that no longer exists', async () => {
    const dir = tmpDir();
    fs.writeFileSync(
      path.join(dir, '.lock'),
      `999999999\n${(await import('node:os')).hostname()}\n0\n`,
    );
    const log = await Log.open({ dataDir: dir, background: false });
    await log.close();
  });
});

describe('produce and fetch', () => {
  it('assigns increasing offsets per partition and reads records back with keys, values and headers', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const meta = await log.produce([
      { topic: 't', key: bytes('k1'), value: bytes('v1'), headers: { h: 'x' }, timestamp: 10 },
      { topic: 't', key: null, value: null, timestamp: 11 },
    ]);
    expect(meta.map((m) => m.offset)).toEqual([0, 1]);
    const more = await log.produce([
      { topic: 't', key: bytes('k2'), value: bytes('v2'), timestamp: 12 },
    ]);
    expect(more[0]!.offset).toBe(2);
    const res = await log.fetch('t', 0, 0);
    expect(
      res.records.map((r) => [r.offset, text(r.key), text(r.value), r.timestamp, r.headers]),
    ).toEqual([
      [0, 'k1', 'v1', 10, { h: 'x' }],
      [1, null, null, 11, {}],
      [2, 'k2', 'v2', 12, {}],
    ]);
    expect(res.nextOffset).toBe(3);
    expect(res.highWatermark).toBe(3);
    expect((await log.fetch('t', 0, 1, { maxRecords: 1 })).records.map((r) => r.offset)).toEqual([
      1,
    ]);
    expect((await log.fetch('t', 0, 3)).records).toEqual([]);
    await expect(log.fetch('t', 0, 4)).rejects.toMatchObject({
      code: LogErrorCode.OFFSET_OUT_OF_RANGE,
    });
  });

  it('partitions keyed records with murmur2 like the Java client', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 4);
    // toPositive(murmur2("foobar")) % 4 = (-790332482 & 0x7fffffff) % 4
    const meta = await log.produce([{ topic: 't', key: bytes('foobar'), value: bytes('x') }]);
    expect(meta[0]!.partition).toBe((-790332482 & 0x7fffffff) % 4);
    const custom = await log.produce([{ topic: 't', key: bytes('foobar'), value: null }], {
      partitioner: () => 3,
    });
    expect(custom[0]!.partition).toBe(3);
  });

  it('stamps LogAppendTime from the clock when the topic asks for it', async () => {
    const clock = manualClock(5000);
    const log = await openTestLog({ clock: clock.now });
    await log.createTopic('t', 1, { 'message.timestamp.type': 'LogAppendTime' });
    const [m] = await log.produce([{ topic: 't', key: null, value: bytes('a'), timestamp: 1 }]);
    expect(m!.timestamp).toBe(5000);
    const r = (await log.fetch('t', 0, 0)).records[0]!;
    expect([r.timestamp, r.timestampType]).toEqual([5000, 'LogAppendTime']);
  });

  it.each(['gzip', 'snappy', 'lz4', 'zstd'] as const)(
    'compresses batches with %s (producer or topic choice)',
    async (codec) => {
      const log = await openTestLog();
      await log.createTopic('p', 1);
      await log.createTopic('t', 1, { 'compression.type': codec });
      // The topic's codec wins over the producer's, as Kafka's broker recompresses.
      await log.createTopic('u', 1, { 'compression.type': 'uncompressed' });
      const value = bytes('x'.repeat(5000));
      await log.produce([{ topic: 'p', key: null, value }], { compression: codec });
      await log.produce([{ topic: 't', key: null, value }]);
      await log.produce([{ topic: 'u', key: null, value }], { compression: codec });
      expect(log.describeTopic('u')!.offsets[0]!.sizeBytes).toBeGreaterThan(5000);
      expect(text((await log.fetch('u', 0, 0)).records[0]!.value)).toBe('x'.repeat(5000));
      for (const topic of ['p', 't']) {
        expect(log.describeTopic(topic)!.offsets[0]!.sizeBytes).toBeLessThan(1000);
        expect(text((await log.fetch(topic, 0, 0)).records[0]!.value)).toBe('x'.repeat(5000));
      }
    },
  );

  it('refuses records without a key on a compacted topic, as Kafka does', async () => {
    const log = await openTestLog();
    await log.createTopic('c', 1, { 'cleanup.policy': 'compact' });
    await expect(log.produce([{ topic: 'c', key: null, value: bytes('v') }])).rejects.toMatchObject(
      { code: LogErrorCode.INVALID_RECORD },
    );
  });

  it('keeps per-partition order across concurrent produce calls with and without compression', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const calls = Array.from({ length: 20 }, (_, i) =>
      log.produce([{ topic: 't', partition: 0, key: null, value: bytes(String(i)) }], {
        compression: i % 2 ? 'gzip' : 'none',
      }),
    );
    const metas = await Promise.all(calls);
    expect(metas.map((m) => m[0]!.offset)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('rolls segments at segment.bytes and reads across them, and after a reopen', async () => {
    const dir = tmpDir();
    const log = await Log.open({ dataDir: dir, background: false });
    await log.createTopic('t', 1, { 'segment.bytes': 1000, 'index.interval.bytes': 100 });
    for (let i = 0; i < 50; i++)
      await log.produce([{ topic: 't', key: bytes(`k${i}`), value: bytes('v'.repeat(50)) }]);
    const d = log.describeTopic('t')!.offsets[0]!;
    expect(d.segments).toBeGreaterThan(3);
    expect(fs.readdirSync(path.join(dir, 't-0')).filter((f) => f.endsWith('.log'))[0]).toBe(
      '00000000000000000000.log',
    );
    const readAll = async (l: Log) => {
      const out: number[] = [];
      let off = 0;
      for (;;) {
        const r = await l.fetch('t', 0, off, { maxBytes: 300 });
        if (r.records.length === 0) return out;
        out.push(...r.records.map((x) => x.offset));
        off = r.nextOffset;
      }
    };
    expect(await readAll(log)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect((await log.fetch('t', 0, 37)).records[0]!.offset).toBe(37);
    await log.close();
    const again = await openTestLog({ dataDir: dir });
    expect(again.recoveryEvents).toEqual([]);
    expect(await readAll(again)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const [m] = await again.produce([{ topic: 't', key: null, value: bytes('next') }]);
    expect(m!.offset).toBe(50);
  });

  it('rolls a segment once a batch is more than segment.ms (record time) after its first batch', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'segment.ms': 1000 });
    for (const timestamp of [0, 500, 1000, 1001, 1500, 2100])
      await log.produce([{ topic: 't', key: null, value: bytes('v'), timestamp }]);
    // Segments start at offsets 0 (ts 0..1000), 3 (ts 1001..2001), 5 (ts 2100).
    expect(log.partition('t', 0).segments.map((s) => s.baseOffset)).toEqual([0, 3, 5]);
  });

  it('long-polls without busy waiting and wakes on new data', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 2);
    const started = Date.now();
    const empty = await log.fetch('t', 0, 0, { maxWaitMs: 100 });
    expect(empty.records).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    const cpuBefore = process.cpuUsage();
    const waiting = log.poll(
      [
        { topic: 't', partition: 0, offset: 0 },
        { topic: 't', partition: 1, offset: 0 },
      ],
      { maxWaitMs: 5000 },
    );
    await new Promise((r) => setTimeout(r, 300));
    const cpu = process.cpuUsage(cpuBefore);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(100); // idle while waiting
    await log.produce([{ topic: 't', partition: 1, key: null, value: bytes('wake') }]);
    const results = await waiting;
    expect(results.find((r) => r.partition === 1)!.records.map((r) => text(r.value))).toEqual([
      'wake',
    ]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports an out-of-range partition in a poll without failing the others', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 2);
    await log.produce([{ topic: 't', partition: 0, key: null, value: bytes('a') }]);
    const res = await log.poll([
      { topic: 't', partition: 0, offset: 0 },
      { topic: 't', partition: 1, offset: 7 },
    ]);
    expect(res.map((r) => [r.partition, r.records.length, r.error])).toEqual([
      [0, 1, undefined],
      [1, 0, 'OFFSET_OUT_OF_RANGE'],
    ]);
  });

  it('aborts a long poll through its signal', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const ac = new AbortController();
    const p = log.fetch('t', 0, 0, { maxWaitMs: 60_000, signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    expect((await p).records).toEqual([]);
  });
});

describe('offsets', () => {
  it('finds the first offset at or after a timestamp, like ListOffsets', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'segment.bytes': 400, 'index.interval.bytes': 50 });
    const ts = [100, 300, 200, 400, 400, 500, 150, 600];
    for (const t of ts)
      await log.produce([{ topic: 't', key: null, value: bytes('v'.repeat(40)), timestamp: t }]);
    const at = async (t: number) => (await log.offsetForTimestamp('t', 0, t))?.offset ?? null;
    expect(await at(0)).toBe(0);
    expect(await at(100)).toBe(0);
    expect(await at(101)).toBe(1);
    expect(await at(250)).toBe(1);
    expect(await at(301)).toBe(3);
    expect(await at(450)).toBe(5);
    expect(await at(600)).toBe(7);
    expect(await at(601)).toBeNull();
    expect(log.earliestOffset('t', 0)).toBe(0);
    expect(log.latestOffset('t', 0)).toBe(8);
  });
});

describe('flush policy and acknowledgements', () => {
  it('acknowledges acks=all only once fsynced, sharing fsyncs between concurrent appends', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1); // default flush.messages=1: fsync per batch
    const p = log.partition('t', 0);
    const pending = Array.from({ length: 50 }, (_, i) =>
      log.produce([{ topic: 't', key: null, value: bytes(String(i)) }]),
    );
    expect(p.highWatermark).toBe(0); // written but not yet durable: not visible
    expect(p.logEndOffset).toBe(50);
    await Promise.all(pending);
    expect(p.highWatermark).toBe(50);
    expect(p.recoveryPoint).toBe(50);
  });

  it('with flush.ms, acks wait for the timed fsync; acks=1 does not', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'flush.messages': '9223372036854775807', 'flush.ms': 150 });
    const started = Date.now();
    const [m] = await log.produce([{ topic: 't', key: null, value: bytes('a') }], { acks: 1 });
    expect(Date.now() - started).toBeLessThan(100);
    expect(m!.offset).toBe(0);
    await log.produce([{ topic: 't', key: null, value: bytes('b') }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(log.latestOffset('t', 0)).toBe(2);
  });

  it('with flush.ms, a burst that keeps the thread busy past it gets its fsync during the burst', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'flush.messages': '9223372036854775807', 'flush.ms': 20 });
    const fdatasync = vi.spyOn(fs, 'fdatasync'); // counts the real calls
    try {
      const first = log.produce([{ topic: 't', key: null, value: bytes('a') }]);
      const busyUntil = performance.now() + 30;
      while (performance.now() < busyUntil); // the thread is busy: no timer can fire
      const second = log.produce([{ topic: 't', key: null, value: bytes('b') }]);
      // The second append found the first one past flush.ms: the fsync started right then (on
      // libuv's pool), not once the busy task ends, and it covers both appends.
      expect(fdatasync).toHaveBeenCalledTimes(1);
      await Promise.all([first, second]);
      expect(fdatasync).toHaveBeenCalledTimes(1);
      expect(log.partition('t', 0).highWatermark).toBe(2);
    } finally {
      fdatasync.mockRestore();
    }
  });

  it("with flush.ms, the partitions' timed fsyncs go out together, once per interval", async () => {
    const log = await openTestLog();
    await log.createTopic('t', 3, { 'flush.messages': '9223372036854775807', 'flush.ms': 300 });
    const calls: number[] = [];
    const real = fs.fdatasync;
    // The real fdatasync, with the time of each call noted.
    const fdatasync = vi.spyOn(fs, 'fdatasync').mockImplementation(((
      fd: number,
      cb: (err: NodeJS.ErrnoException | null) => void,
    ) => {
      calls.push(performance.now());
      real(fd, cb);
    }) as typeof fs.fdatasync);
    try {
      const acked: Promise<unknown>[] = [];
      for (let p = 0; p < 3; p++) {
        // Due at 300, 350 and 400 ms: within half an interval of the first one.
        acked.push(log.produce([{ topic: 't', partition: p, key: null, value: bytes(`${p}`) }]));
        await new Promise((r) => setTimeout(r, 50));
      }
      await Promise.all(acked);
      expect(calls).toHaveLength(3);
      expect(Math.max(...calls) - Math.min(...calls)).toBeLessThan(30); // one round
    } finally {
      fdatasync.mockRestore();
    }
  });

  it('with flush.messages=N fsyncs once N messages are pending', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'flush.messages': 3 });
    const p = log.partition('t', 0);
    const a = log.produce([{ topic: 't', key: null, value: bytes('1') }]);
    const b = log.produce([{ topic: 't', key: null, value: bytes('2') }]);
    await new Promise((r) => setTimeout(r, 50));
    expect(p.highWatermark).toBe(0);
    await log.produce([{ topic: 't', key: null, value: bytes('3') }]);
    await Promise.all([a, b]);
    expect(p.highWatermark).toBe(3);
  });
});
