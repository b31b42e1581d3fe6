// Producer-encoded batches (BatchEncoder → Log.produceBatches): appended with their offsets and
// LogAppendTime assigned by the log, and refused whole, with nothing written, when any batch is bad.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BatchEncoder, recordMetadataOf, type ProducerTopicMetadata } from './batch-encoder.js';
import { isLogError, LogErrorCode } from './errors.js';
import { repairPartition } from './repair.js';
import { crc32c } from './format/crc32c.js';
import { encodeBatch, encodeControlRecord } from './format/record-batch.js';
import type { Log } from './log.js';
import type { ProducerRecord } from './types.js';
import { bytes, manualClock, openTestLog, text } from '../test/helpers.js';

async function encodeFor(log: Log, records: ProducerRecord[], encoder = new BatchEncoder()) {
  const meta = (t: string): ProducerTopicMetadata => log.producerMetadata(t);
  const encoded = encoder.encode(records, meta);
  const parts = await Promise.all(
    encoded.partitions.map(async (p) => ({
      topic: p.topic,
      partition: p.partition,
      batches: await p.batches,
    })),
  );
  return { encoded, parts };
}

const recs = (n: number, topic = 't', partition?: number): ProducerRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    topic,
    ...(partition !== undefined ? { partition } : {}),
    key: bytes(`k${i}`),
    value: bytes(`v${i}`),
    timestamp: 1000 + i,
    headers: { h: String(i) },
  }));

/** Rewrites the CRC of the batch at `pos` so only the deliberate damage is left to find. */
function fixCrc(buf: Buffer, pos = 0): void {
  const size = buf.readInt32BE(pos + 8) + 12;
  buf.writeUInt32BE(crc32c(buf.subarray(pos + 21, pos + size)), pos + 17);
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  return p.then(
    () => ({ code: 'ok', message: '' }),
    (e: unknown) =>
      isLogError(e) ? { code: e.code, message: e.message } : { code: String(e), message: '' },
  );
}

describe('producer-encoded batches', () => {
  it('appends them with offsets, per-record metadata and reads back every field', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 3);
    await log.produce(recs(2, 't', 1)); // offsets 0..1 on partition 1 first
    const records = recs(30);
    const { encoded, parts } = await encodeFor(log, records);
    const appended = await log.produceBatches(parts);
    const meta = recordMetadataOf(encoded, appended);
    for (let i = 0; i < records.length; i++) {
      const m = meta[i]!;
      const fetched = await log.fetch('t', m.partition, m.offset, { maxRecords: 1 });
      const r = fetched.records[0]!;
      expect([r.offset, text(r.key), text(r.value), r.headers, r.timestamp]).toEqual([
        m.offset,
        `k${i}`,
        `v${i}`,
        { h: String(i) },
        1000 + i,
      ]);
    }
    const p1 = appended.find((a) => a.partition === 1);
    if (p1) expect(p1.baseOffset).toBe(2);
  });

  it('reuses a released buffer for the next batches without touching what was written', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const encoder = new BatchEncoder();
    const first = await encodeFor(log, recs(50, 't', 0), encoder);
    await log.produceBatches(first.parts);
    encoder.release(first.encoded);
    const second = await encodeFor(log, recs(50, 't', 0).reverse(), encoder);
    expect(second.parts[0]!.batches.buffer).toBe(first.parts[0]!.batches.buffer);
    await log.produceBatches(second.parts);
    const { records } = await log.fetch('t', 0, 0, { maxRecords: 100 });
    expect(records.map((r) => text(r.value))).toEqual([
      ...recs(50).map((r) => text(r.value)),
      ...recs(50)
        .reverse()
        .map((r) => text(r.value)),
    ]);
  });

  it('stamps LogAppendTime into the batches (and their CRC)', async () => {
    const clock = manualClock(5_000);
    const log = await openTestLog({ clock: clock.now });
    await log.createTopic('lat', 1, { 'message.timestamp.type': 'LogAppendTime' });
    const { encoded, parts } = await encodeFor(log, recs(3, 'lat'));
    const appended = await log.produceBatches(parts);
    expect(appended[0]!.logAppendTime).toBe(5_000);
    expect(recordMetadataOf(encoded, appended).map((m) => m.timestamp)).toEqual([
      5_000, 5_000, 5_000,
    ]);
    const fetched = await log.fetch('lat', 0, 0);
    expect(fetched.records.map((r) => [r.timestamp, r.timestampType])).toEqual([
      [5_000, 'LogAppendTime'],
      [5_000, 'LogAppendTime'],
      [5_000, 'LogAppendTime'],
    ]);
  });

  it('splits a request across segments when one rolls in the middle, offsets contiguous', async () => {
    const log = await openTestLog();
    await log.createTopic('small', 1, { 'segment.bytes': 2000, 'max.message.bytes': 600 });
    const big = Array.from({ length: 40 }, (_, i) => ({
      topic: 'small',
      key: bytes(`k${i}`),
      value: Buffer.alloc(100, i),
      timestamp: 1,
    }));
    const { parts } = await encodeFor(log, big);
    expect(parts[0]!.batches.length).toBeGreaterThan(2000);
    const [a] = await log.produceBatches(parts);
    expect([a!.baseOffset, a!.lastOffset]).toEqual([0, 39]);
    expect(log.describeTopic('small')!.offsets[0]!.segments).toBeGreaterThan(1);
    const all = [];
    for (let o = 0; o < 40;) {
      const f = await log.fetch('small', 0, o);
      all.push(...f.records);
      o = f.nextOffset;
    }
    expect(all.map((r) => r.offset)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(all.map((r) => r.value![0])).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('accepts compressed batches and validates their records', async () => {
    const log = await openTestLog();
    await log.createTopic('z', 1, { 'compression.type': 'gzip' });
    const { parts } = await encodeFor(log, recs(20, 'z'));
    await log.produceBatches(parts);
    const f = await log.fetch('z', 0, 0);
    expect(f.records.map((r) => text(r.value))).toEqual(recs(20).map((r) => text(r.value)));
  });

  it('refuses a bad batch with a clear error and writes nothing of the request', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 2);
    await log.createTopic('c', 1, { 'cleanup.policy': 'compact' });
    await log.createTopic('tiny', 1, { 'max.message.bytes': 100 });
    await log.produce(recs(3, 't', 0));
    const sizes = () => log.describeTopic('t')!.offsets.map((o) => [o.logEndOffset, o.sizeBytes]);
    const before = sizes();
    const fresh = async () => (await encodeFor(log, recs(5, 't', 0))).parts[0]!.batches;

    const flipped = await fresh();
    flipped[flipped.length - 3]! ^= 0xff;
    expect(
      await refusal(log.produceBatches([{ topic: 't', partition: 0, batches: flipped }])),
    ).toMatchObject({
      code: LogErrorCode.CORRUPT_MESSAGE,
      message: expect.stringMatching(/t-0.*CRC-32C/),
    });

    const magic = await fresh();
    magic[16] = 1;
    expect(
      await refusal(log.produceBatches([{ topic: 't', partition: 0, batches: magic }])),
    ).toMatchObject({
      code: LogErrorCode.INVALID_RECORD,
      message: expect.stringMatching(/magic byte 1/),
    });

    const truncated = (await fresh()).subarray(0, 70);
    expect(
      await refusal(log.produceBatches([{ topic: 't', partition: 0, batches: truncated }])),
    ).toMatchObject({
      code: LogErrorCode.INVALID_RECORD,
      message: expect.stringMatching(/does not fit/),
    });

    const count = await fresh();
    count.writeInt32BE(6, 57); // claims 6 records, holds 5
    count.writeInt32BE(5, 23);
    fixCrc(count);
    expect(
      await refusal(log.produceBatches([{ topic: 't', partition: 0, batches: count }])),
    ).toMatchObject({
      code: LogErrorCode.INVALID_RECORD,
      message: expect.stringMatching(/record 5/),
    });

    const delta = await fresh();
    delta.writeInt32BE(3, 23); // last offset delta 3 for 5 records
    fixCrc(delta);
    expect(
      (await refusal(log.produceBatches([{ topic: 't', partition: 0, batches: delta }]))).code,
    ).toBe(LogErrorCode.INVALID_RECORD);

    // A good batch followed by a bad one, and a good partition beside a bad one: nothing lands.
    const good = await fresh();
    const bad = await fresh();
    bad[bad.length - 1]! ^= 1;
    expect(
      (
        await refusal(
          log.produceBatches([{ topic: 't', partition: 0, batches: Buffer.concat([good, bad]) }]),
        )
      ).code,
    ).toBe(LogErrorCode.CORRUPT_MESSAGE);
    const other = (await encodeFor(log, recs(2, 't', 1))).parts[0]!.batches;
    expect(
      (
        await refusal(
          log.produceBatches([
            { topic: 't', partition: 1, batches: other },
            { topic: 't', partition: 0, batches: bad },
          ]),
        )
      ).code,
    ).toBe(LogErrorCode.CORRUPT_MESSAGE);

    const control = encodeBatch([encodeControlRecord('COMMIT', 1)], {
      control: true,
      transactional: true,
      producerId: 1,
      producerEpoch: 0,
    });
    expect(
      (await refusal(log.produceBatches([{ topic: 't', partition: 0, batches: control }]))).code,
    ).toBe(LogErrorCode.INVALID_RECORD);
    expect(
      (await refusal(log.produceBatches([{ topic: 't', partition: 0, batches: Buffer.alloc(0) }])))
        .message,
    ).toMatch(/no record batches/);
    expect(
      (await refusal(log.produceBatches([{ topic: 't', partition: 7, batches: good }]))).code,
    ).toBe(LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION);

    const keyless = encodeBatch([{ key: null, value: bytes('x'), timestamp: 1 }]);
    expect(
      await refusal(log.produceBatches([{ topic: 'c', partition: 0, batches: keyless }])),
    ).toMatchObject({
      code: LogErrorCode.INVALID_RECORD,
      message: expect.stringMatching(/without key/),
    });
    const large = encodeBatch([{ key: null, value: Buffer.alloc(500), timestamp: 1 }]);
    expect(
      (await refusal(log.produceBatches([{ topic: 'tiny', partition: 0, batches: large }]))).code,
    ).toBe(LogErrorCode.RECORD_TOO_LARGE);

    expect(sizes()).toEqual(before);
    expect(log.describeTopic('c')!.offsets[0]!.sizeBytes).toBe(0);
    for (const f of fs.readdirSync(`${log.dataDir}/t-0`).filter((n) => n.endsWith('.log')))
      expect(fs.statSync(`${log.dataDir}/t-0/${f}`).size).toBe(before[0]![1]);
    // The log still takes good batches after all those refusals.
    const [ok] = await log.produceBatches([{ topic: 't', partition: 0, batches: good }]);
    expect(ok!.baseOffset).toBe(3);
  });

  it("checks: 'headers' keeps every header rule and the compacted-key rule; a bad CRC is still never served", async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    await log.createTopic('c', 1, { 'cleanup.policy': 'compact' });
    await log.createTopic('tiny', 1, { 'max.message.bytes': 100 });
    const headers = { checks: 'headers' } as const;
    const fresh = async () => (await encodeFor(log, recs(5, 't', 0))).parts[0]!.batches;
    const at = (topic: string, batches: Buffer) => [{ topic, partition: 0, batches }];

    const magic = await fresh();
    magic[16] = 1;
    expect((await refusal(log.produceBatches(at('t', magic), headers))).message).toMatch(
      /magic byte 1/,
    );
    const truncated = (await fresh()).subarray(0, 70);
    expect((await refusal(log.produceBatches(at('t', truncated), headers))).message).toMatch(
      /does not fit/,
    );
    const delta = await fresh();
    delta.writeInt32BE(3, 23); // last offset delta 3 for 5 records
    expect((await refusal(log.produceBatches(at('t', delta), headers))).code).toBe(
      LogErrorCode.INVALID_RECORD,
    );
    const control = encodeBatch([encodeControlRecord('COMMIT', 1)], {
      control: true,
      transactional: true,
      producerId: 1,
      producerEpoch: 0,
    });
    expect((await refusal(log.produceBatches(at('t', control), headers))).code).toBe(
      LogErrorCode.INVALID_RECORD,
    );
    // A producer's cached metadata may predate cleanup.policy=compact: keys are still walked there.
    const keyless = encodeBatch([{ key: null, value: bytes('x'), timestamp: 1 }]);
    expect(await refusal(log.produceBatches(at('c', keyless), headers))).toMatchObject({
      code: LogErrorCode.INVALID_RECORD,
      message: expect.stringMatching(/without key/),
    });
    const large = encodeBatch([{ key: null, value: Buffer.alloc(500), timestamp: 1 }]);
    expect((await refusal(log.produceBatches(at('tiny', large), headers))).code).toBe(
      LogErrorCode.RECORD_TOO_LARGE,
    );
    expect(log.describeTopic('t')!.offsets[0]!.sizeBytes).toBe(0);

    // Not recomputed at the append, the CRC the encoder wrote is checked by every read and by
    // recovery: bytes damaged after encoding are stored but never served. They were acknowledged
    // (fsynced, below the recovery point), so on reopen they are damage, not a torn write: the
    // partition is refused, naming the repair, rather than cut silently.
    const damaged = await fresh();
    damaged[damaged.length - 3]! ^= 0xff;
    await log.produceBatches(at('t', damaged), headers);
    expect((await refusal(log.fetch('t', 0, 0))).code).toBe(LogErrorCode.CORRUPT_MESSAGE);
    const dataDir = log.dataDir;
    await log.close();
    const refused = await openTestLog({ dataDir });
    await expect(refused.fetch('t', 0, 0)).rejects.toMatchObject({
      code: LogErrorCode.CORRUPT_MESSAGE,
      message: expect.stringMatching(/partition t-0 is damaged .* log repair .* --from 0/),
    });
    await refused.close();
    repairPartition(dataDir, 't', 0, 0);
    const reopened = await openTestLog({ dataDir });
    expect((await reopened.fetch('t', 0, 0)).records).toEqual([]);
  });
});
