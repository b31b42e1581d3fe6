import { describe, expect, it } from 'vitest';
import { BatchEncoder } from '../batch-encoder.js';
import { isLogError, LogErrorCode } from '../errors.js';
import { Log } from '../log.js';
import { bytes, openTestLog, text, tmpDir } from '../../test/helpers.js';

async function values(
  log: Log,
  topic: string,
  partition: number,
  isolationLevel: 'read_committed' | 'read_uncommitted',
) {
  const out: string[] = [];
  let off = 0;
  for (;;) {
    const r = await log.fetch(topic, partition, off, { isolationLevel });
    if (r.records.length === 0) return out;
    out.push(...r.records.map((x) => text(x.value)!));
    off = r.nextOffset;
  }
}

describe('transactions', () => {
  it('hides records from read_committed readers until commit, across partitions, then shows all', async () => {
    const log = await openTestLog();
    await log.createTopic('a', 1);
    await log.createTopic('b', 1);
    const p = await log.transactionalProducer('tx-1');
    p.beginTransaction();
    await p.send([
      { topic: 'a', key: null, value: bytes('a1') },
      { topic: 'b', key: null, value: bytes('b1') },
    ]);
    await log.produce([{ topic: 'a', key: null, value: bytes('plain') }]);
    expect(await values(log, 'a', 0, 'read_uncommitted')).toEqual(['a1', 'plain']);
    expect(await values(log, 'a', 0, 'read_committed')).toEqual([]); // stops at the LSO
    expect(log.latestOffset('a', 0, 'read_committed')).toBe(0);
    await p.commitTransaction();
    expect(await values(log, 'a', 0, 'read_committed')).toEqual(['a1', 'plain']);
    expect(await values(log, 'b', 0, 'read_committed')).toEqual(['b1']);
  });

  it('appends batches the producer encoded itself inside the transaction; refuses others whole', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 2);
    const p = await log.transactionalProducer('tx-enc');
    const encoder = new BatchEncoder();
    const encode = async (
      values: string[],
      transactional = { producerId: p.producerId, producerEpoch: p.epoch },
    ) => {
      const encoded = encoder.encode(
        values.map((v, i) => ({ topic: 't', partition: i % 2, key: bytes(v), value: bytes(v) })),
        (t) => log.producerMetadata(t),
        { transactional },
      );
      return Promise.all(
        encoded.partitions.map(async (x) => ({
          topic: x.topic,
          partition: x.partition,
          batches: await x.batches,
        })),
      );
    };
    const refused = async (parts: Awaited<ReturnType<typeof encode>>) =>
      p.sendBatches(parts).then(
        () => 'appended',
        (e: unknown) => (isLogError(e) ? e.code : String(e)),
      );
    p.beginTransaction();
    const appended = await p.sendBatches(await encode(['a', 'b', 'c']));
    expect(appended.map((a) => [a.partition, a.baseOffset, a.lastOffset])).toEqual([
      [0, 0, 1],
      [1, 0, 0],
    ]);
    // Another epoch's batches, and non-transactional ones: refused, nothing written.
    expect(
      await refused(await encode(['x'], { producerId: p.producerId, producerEpoch: p.epoch - 1 })),
    ).toBe(LogErrorCode.INVALID_RECORD);
    const plain = encoder.encode(
      [{ topic: 't', partition: 0, key: null, value: bytes('y') }],
      (t) => log.producerMetadata(t),
    );
    expect(
      await refused([{ topic: 't', partition: 0, batches: await plain.partitions[0]!.batches }]),
    ).toBe(LogErrorCode.INVALID_RECORD);
    await log.flush(); // sends are acks=1: readers see them once durable
    expect(await values(log, 't', 0, 'read_uncommitted')).toEqual(['a', 'c']);
    expect(await values(log, 't', 0, 'read_committed')).toEqual([]);
    await p.commitTransaction(); // the refusals left the transaction committable
    expect(await values(log, 't', 0, 'read_committed')).toEqual(['a', 'c']);
    expect(await values(log, 't', 1, 'read_committed')).toEqual(['b']);
    p.beginTransaction();
    await p.sendBatches(await encode(['d']));
    await p.abortTransaction();
    expect(await values(log, 't', 0, 'read_committed')).toEqual(['a', 'c']);
    expect(await values(log, 't', 0, 'read_uncommitted')).toEqual(['a', 'c', 'd']);
    await expect(p.sendBatches(await encode(['e']))).rejects.toMatchObject({
      code: LogErrorCode.INVALID_TXN_STATE,
    });
  });

  it('skips aborted records for read_committed (also after a reopen) but not for read_uncommitted', async () => {
    const dir = tmpDir();
    const log = await Log.open({ dataDir: dir, background: false });
    await log.createTopic('t', 1);
    const p = await log.transactionalProducer('tx');
    p.beginTransaction();
    await p.send([{ topic: 't', key: null, value: bytes('gone') }]);
    await p.abortTransaction();
    p.beginTransaction();
    await p.send([{ topic: 't', key: null, value: bytes('kept') }]);
    await p.commitTransaction();
    expect(await values(log, 't', 0, 'read_committed')).toEqual(['kept']);
    expect(await values(log, 't', 0, 'read_uncommitted')).toEqual(['gone', 'kept']);
    await log.close();
    const again = await Log.open({ dataDir: dir, background: false });
    try {
      expect(await values(again, 't', 0, 'read_committed')).toEqual(['kept']);
    } finally {
      await again.close();
    }
  });

  it('commits consumer offsets atomically with the output (sendOffsetsToTransaction)', async () => {
    const log = await openTestLog();
    await log.createTopic('in', 1);
    await log.createTopic('out', 1);
    const p = await log.transactionalProducer('app-0_0');
    p.beginTransaction();
    await p.send([{ topic: 'out', key: null, value: bytes('x') }]);
    await p.sendOffsetsToTransaction([{ topic: 'in', partition: 0, offset: 7 }], 'app');
    expect(log.committedOffsets('app')).toEqual([]);
    await p.abortTransaction();
    expect(log.committedOffsets('app')).toEqual([]);
    p.beginTransaction();
    await p.send([{ topic: 'out', key: null, value: bytes('y') }]);
    await p.sendOffsetsToTransaction([{ topic: 'in', partition: 0, offset: 8 }], 'app');
    await p.commitTransaction();
    expect(log.committedOffsets('app').map((c) => c.offset)).toEqual([8]);
  });

  it('fences an older producer with the same transactional id and aborts its open transaction', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const old = await log.transactionalProducer('tx');
    old.beginTransaction();
    await old.send([{ topic: 't', key: null, value: bytes('zombie') }]);
    const fresh = await log.transactionalProducer('tx');
    expect(fresh.epoch).toBe(old.epoch + 1);
    await expect(old.send([{ topic: 't', key: null, value: bytes('late') }])).rejects.toMatchObject(
      { code: LogErrorCode.PRODUCER_FENCED },
    );
    await expect(old.commitTransaction()).rejects.toMatchObject({
      code: LogErrorCode.PRODUCER_FENCED,
    });
    fresh.beginTransaction();
    await fresh.send([{ topic: 't', key: null, value: bytes('ok') }]);
    await fresh.commitTransaction();
    expect(await values(log, 't', 0, 'read_committed')).toEqual(['ok']);
  });

  it('aborts a transaction that outlives transaction.timeout.ms', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const p = await log.transactionalProducer('slow', { transactionTimeoutMs: 100 });
    p.beginTransaction();
    await p.send([{ topic: 't', key: null, value: bytes('late') }]);
    // The timer fires after 100 ms and the abort then writes and fsyncs its marker: on a loaded
    // machine that takes a while, so wait for the outcome rather than for a fixed time.
    const deadline = Date.now() + 10_000;
    while (log.latestOffset('t', 0, 'read_committed') !== 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(log.latestOffset('t', 0, 'read_committed')).toBe(2); // data + abort marker, stable again
    await expect(p.commitTransaction()).rejects.toMatchObject({
      code: LogErrorCode.PRODUCER_FENCED,
    });
    expect(await values(log, 't', 0, 'read_committed')).toEqual([]);
  });

  it('compaction removes aborted data and keeps committed data', async () => {
    const log = await openTestLog();
    await log.createTopic('c', 1, { 'cleanup.policy': 'compact', 'segment.bytes': 200 });
    const p = await log.transactionalProducer('tx');
    p.beginTransaction();
    await p.send([{ topic: 'c', key: bytes('k1'), value: bytes('aborted'.padEnd(60)) }]);
    await p.abortTransaction();
    p.beginTransaction();
    await p.send([{ topic: 'c', key: bytes('k2'), value: bytes('committed'.padEnd(60)) }]);
    await p.commitTransaction();
    for (let i = 0; i < 4; i++)
      await log.produce([{ topic: 'c', key: bytes(`f${i}`), value: bytes('x'.repeat(80)) }]);
    await log.compact('c', 0);
    const all = await values(log, 'c', 0, 'read_uncommitted');
    expect(all.some((v) => v.startsWith('aborted'))).toBe(false);
    expect(all.some((v) => v.startsWith('committed'))).toBe(true);
  });
});
