import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bytes, openTestLog, text } from '../../test/helpers.js';
import { decodeRecords } from '../format/record-batch.js';
import type { Log } from '../log.js';
import type { IsolationLevel } from '../types.js';
import { PartitionFileReader } from './file-reader.js';

/** Everything a file reader returns from `offset`, decoded (asking for plans as a worker would). */
async function readAll(
  log: Log,
  topic: string,
  offset: number,
  isolation: IsolationLevel = 'read_uncommitted',
  reader = new PartitionFileReader(topic, 0),
  maxBytes = 300,
): Promise<{ offset: number; value: string | null }[]> {
  const out: { offset: number; value: string | null }[] = [];
  let at = offset;
  for (let rounds = 0; rounds < 10_000; rounds++) {
    const r = reader.read(at, maxBytes);
    if (r.kind === 'needs-plan') {
      const [plan] = await log.readPlans([{ topic, partition: 0, offset: reader.resume(at) }], {
        isolationLevel: isolation,
      });
      if (plan!.offset >= plan!.bound) return out;
      reader.setPlan(plan!, at);
      continue;
    }
    for (const { batch, header } of r.batches)
      for (const rec of decodeRecords(batch, 0, header))
        if (rec.offset >= at) out.push({ offset: rec.offset, value: text(rec.value) });
    at = out.length > 0 ? Math.max(out[out.length - 1]!.offset + 1, at) : at;
    if (r.batches.length === 0) at = r.next;
  }
  throw new Error('reader did not finish');
}

async function fill(log: Log, topic: string, n: number, prefix = 'v'): Promise<void> {
  for (let i = 0; i < n; i++)
    await log.produce([{ topic, key: bytes(`k${i % 7}`), value: bytes(`${prefix}${i}`) }]);
}

describe('PartitionFileReader (a reader of segment files from a read plan)', () => {
  it('reads what fetch returns, across many segments, from any offset', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'segment.bytes': 400, 'index.interval.bytes': 100 });
    await fill(log, 't', 60);
    expect(log.describeTopic('t')!.offsets[0]!.segments).toBeGreaterThan(8);
    for (const from of [0, 1, 17, 59]) {
      const expected = (await log.fetch('t', 0, from, { maxRecords: 1000, maxBytes: 1 << 20 }))
        .records;
      const fetched = [...expected];
      // fetch stops at a segment boundary now and then: read on to the end.
      while (fetched.length > 0 && fetched[fetched.length - 1]!.offset < 59) {
        const next = fetched[fetched.length - 1]!.offset + 1;
        fetched.push(...(await log.fetch('t', 0, next)).records);
      }
      const got = await readAll(log, 't', from);
      expect(got).toEqual(fetched.map((r) => ({ offset: r.offset, value: text(r.value) })));
      expect(got[0]!.offset).toBe(from);
      expect(got.length).toBe(60 - from);
    }
  });

  it('follows the active segment as it grows: the end of a plan asks for a new one', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    await fill(log, 't', 5);
    const reader = new PartitionFileReader('t', 0);
    expect((await readAll(log, 't', 0, 'read_uncommitted', reader)).length).toBe(5);
    expect(reader.read(5, 1000)).toEqual({ kind: 'needs-plan' });
    await fill(log, 't', 3, 'w');
    const more = await readAll(log, 't', 5, 'read_uncommitted', reader);
    expect(more.map((r) => r.value)).toEqual(['w0', 'w1', 'w2']);
  });

  it('read_committed: stops at the last stable offset, skips aborted batches and markers', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const p = await log.transactionalProducer('tx');
    p.beginTransaction();
    await p.send([{ topic: 't', key: null, value: bytes('gone') }]);
    await p.abortTransaction();
    p.beginTransaction();
    await p.send([{ topic: 't', key: null, value: bytes('kept') }]);
    await p.commitTransaction();
    p.beginTransaction();
    await p.send([{ topic: 't', key: null, value: bytes('open') }]);
    await log.produce([{ topic: 't', key: null, value: bytes('plain') }]);
    expect((await readAll(log, 't', 0, 'read_committed')).map((r) => r.value)).toEqual(['kept']);
    expect((await readAll(log, 't', 0, 'read_uncommitted')).map((r) => r.value)).toEqual([
      'gone',
      'kept',
      'open',
      'plain',
    ]);
    await p.commitTransaction();
    expect((await readAll(log, 't', 0, 'read_committed')).map((r) => r.value)).toEqual([
      'kept',
      'open',
      'plain',
    ]);
  });

  it('a read asked inside a stretch of markers continues past it instead of asking again', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const p = await log.transactionalProducer('tx');
    p.beginTransaction();
    await p.send([{ topic: 't', key: null, value: bytes('a') }]);
    await p.commitTransaction(); // offset 1 is the marker
    const reader = new PartitionFileReader('t', 0);
    const [plan] = await log.readPlans([{ topic: 't', partition: 0, offset: 0 }]);
    reader.setPlan(plan!);
    const first = reader.read(0, 1000);
    expect(first.kind === 'batches' && first.batches.length).toBe(1);
    // The consumer's position is 1 (after its last record); the reader is past the marker, at 2.
    expect(reader.resume(1)).toBe(2);
    expect(reader.read(1, 1000)).toEqual({ kind: 'needs-plan' });
  });

  it('retention deleting segments: an open file reads on, an unopened one asks for a new plan', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'segment.bytes': 400 });
    await fill(log, 't', 40);
    const reading = new PartitionFileReader('t', 0);
    const [plan] = await log.readPlans([{ topic: 't', partition: 0, offset: 0 }]);
    reading.setPlan(plan!);
    const head = reading.read(0, 50); // opens the first segment
    expect(head.kind).toBe('batches');
    const next = head.kind === 'batches' ? head.next : 0;
    const waiting = new PartitionFileReader('t', 0);
    const [later] = await log.readPlans([{ topic: 't', partition: 0, offset: 20 }]);
    waiting.setPlan(later!);
    await log.deleteRecords('t', 0, 30);
    expect(log.earliestOffset('t', 0)).toBe(30);
    expect(fs.existsSync(plan!.segments[0]!.file)).toBe(false);
    // The open file still holds exactly the batches that were there.
    const rest = reading.read(next, 1 << 20);
    expect(rest.kind).toBe('batches');
    if (rest.kind === 'batches') {
      const values = rest.batches.flatMap(({ batch, header }) =>
        decodeRecords(batch, 0, header).map((r) => text(r.value)),
      );
      expect(values[0]).toBe(`v${next}`);
    }
    // The other reader's segment is gone: a clean "ask again", then the log start.
    expect(waiting.read(20, 1000)).toEqual({ kind: 'needs-plan' });
    const got = await readAll(log, 't', 20, 'read_uncommitted', waiting);
    expect(got[0]!.offset).toBeGreaterThanOrEqual(30);
    expect(got[got.length - 1]!.offset).toBe(39);
  });

  it('compaction swapping a segment: a plan made before the swap never reads the new file', async () => {
    const log = await openTestLog();
    await log.createTopic('c', 1, {
      'cleanup.policy': 'compact',
      'segment.bytes': 600,
      'min.cleanable.dirty.ratio': 0.01,
    });
    for (let i = 0; i < 60; i++)
      await log.produce([{ topic: 'c', key: bytes(`k${i % 3}`), value: bytes(`v${i}`) }]);
    const [plan] = await log.readPlans([{ topic: 'c', partition: 0, offset: 0 }]);
    const early = new PartitionFileReader('c', 0);
    early.setPlan(plan!);
    const report = await log.compact('c', 0);
    expect(report).toBeTruthy();
    expect(fs.statSync(plan!.segments[0]!.file).ino).not.toBe(plan!.segments[0]!.ino);
    expect(early.read(0, 1000)).toEqual({ kind: 'needs-plan' });
    // Re-planned, it reads the compacted log: what fetch returns.
    const got = await readAll(log, 'c', 0, 'read_uncommitted', early, 1 << 20);
    const expected: number[] = [];
    for (let at = 0; at < 60;) {
      const r = await log.fetch('c', 0, at);
      if (r.records.length === 0) break;
      expected.push(...r.records.map((x) => x.offset));
      at = r.nextOffset;
    }
    expect(got.map((r) => r.offset)).toEqual(expected);
  });

  it('damaged bytes are a CORRUPT_MESSAGE error naming the file, never a record', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'segment.bytes': 400 });
    await fill(log, 't', 20);
    const [plan] = await log.readPlans([{ topic: 't', partition: 0, offset: 0 }]);
    const span = plan!.segments[0]!;
    const fd = fs.openSync(span.file, 'r+');
    fs.writeSync(fd, Buffer.from([0xff]), 0, 1, 70); // inside the first batch's records
    fs.closeSync(fd);
    const reader = new PartitionFileReader('t', 0);
    reader.setPlan(plan!);
    expect(() => reader.read(0, 1000)).toThrow(
      expect.objectContaining({ code: 'CORRUPT_MESSAGE', file: span.file }),
    );
  });

  it('long-polls: readPlans waits for data past the offset', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    const started = Date.now();
    const waiting = log.readPlans([{ topic: 't', partition: 0, offset: 0 }], { maxWaitMs: 5000 });
    setTimeout(() => void fill(log, 't', 1), 50);
    const [plan] = await waiting;
    expect(plan!.bound).toBe(1);
    expect(Date.now() - started).toBeLessThan(4000);
    const [none] = await log.readPlans([{ topic: 't', partition: 0, offset: 1 }], {
      maxWaitMs: 30,
    });
    expect(none!.offset).toBe(1);
    expect(none!.bound).toBe(1);
    const [past] = await log.readPlans([{ topic: 't', partition: 0, offset: 5 }]);
    expect(past!.error).toBe('OFFSET_OUT_OF_RANGE');
  });
});
