import { describe, expect, it } from 'vitest';
import { bytes, manualClock, openTestLog } from '../../test/helpers.js';
import { segmentsToDelete } from './retention.js';

describe('retention', () => {
  it('deletes whole segments older than retention.ms, oldest first, rolling an expired active segment', async () => {
    const clock = manualClock(1_000_000);
    const log = await openTestLog({ clock: clock.now });
    await log.createTopic('t', 1, { 'retention.ms': 10_000, 'segment.bytes': 300 });
    for (let i = 0; i < 20; i++) {
      await log.produce([
        { topic: 't', key: null, value: bytes('v'.repeat(40)), timestamp: clock.now() },
      ]);
      clock.advance(1000);
    }
    // now = 1_020_000; cutoff = 1_010_000: segments whose newest record is older go.
    const segsBefore = log.describeTopic('t')!.offsets[0]!.segments;
    expect(log.runRetention()).toBeGreaterThan(0);
    const first = log.earliestOffset('t', 0);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(10); // record 10 (ts 1_010_000) is not expired, nor anything after
    const res = await log.fetch('t', 0, first);
    expect(res.records[0]!.offset).toBe(first);
    expect(log.describeTopic('t')!.offsets[0]!.segments).toBeLessThan(segsBefore);
    clock.advance(60_000);
    log.runRetention();
    expect(log.earliestOffset('t', 0)).toBe(20);
    expect(log.latestOffset('t', 0)).toBe(20);
    const [m] = await log.produce([{ topic: 't', key: null, value: bytes('new') }]);
    expect(m!.offset).toBe(20);
    await expect(log.fetch('t', 0, 0)).rejects.toMatchObject({ code: 'OFFSET_OUT_OF_RANGE' });
  });

  it('keeps the log under retention.bytes by whole segments', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'retention.bytes': 1000, 'segment.bytes': 400 });
    for (let i = 0; i < 40; i++)
      await log.produce([{ topic: 't', key: null, value: bytes('v'.repeat(40)) }]);
    log.runRetention();
    const d = log.describeTopic('t')!.offsets[0]!;
    expect(d.sizeBytes).toBeGreaterThanOrEqual(1000 - 400);
    expect(d.sizeBytes - 400).toBeLessThan(1000);
  });

  it('does not apply time or size retention to compact-only topics, but does to compact,delete', async () => {
    const clock = manualClock(1_000_000);
    const log = await openTestLog({ clock: clock.now });
    await log.createTopic('c', 1, {
      'cleanup.policy': 'compact',
      'retention.ms': 1,
      'segment.bytes': 200,
    });
    await log.createTopic('cd', 1, {
      'cleanup.policy': 'compact,delete',
      'retention.ms': 1,
      'segment.bytes': 200,
    });
    for (const topic of ['c', 'cd']) {
      for (let i = 0; i < 10; i++)
        await log.produce([
          { topic, key: bytes(`k${i}`), value: bytes('v'.repeat(40)), timestamp: 1 },
        ]);
    }
    clock.advance(10);
    log.runRetention();
    expect(log.earliestOffset('c', 0)).toBe(0);
    expect(log.earliestOffset('cd', 0)).toBe(10);
  });

  it('deleteRecords moves the log start offset durably and drops segments below it', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'segment.bytes': 200 });
    for (let i = 0; i < 20; i++)
      await log.produce([{ topic: 't', key: null, value: bytes('v'.repeat(40)) }]);
    expect(await log.deleteRecords('t', 0, 13)).toBe(13);
    expect((await log.fetch('t', 0, 13)).records[0]!.offset).toBe(13);
    await expect(log.fetch('t', 0, 12)).rejects.toMatchObject({ code: 'OFFSET_OUT_OF_RANGE' });
    expect(log.describeTopic('t')!.offsets[0]!.earliest).toBe(13);
  });

  it('segmentsToDelete never deletes past the first segment it keeps', () => {
    const seg = (baseOffset: number, maxTimestamp: number) => ({
      baseOffset,
      nextOffset: baseOffset + 10,
      size: 100,
      maxTimestamp,
    });
    const n = segmentsToDelete({
      segments: [seg(0, 5), seg(10, 50), seg(20, 5), seg(30, 60)],
      deletePolicy: true,
      retentionMs: 10,
      retentionBytes: -1,
      logStartOffset: 0,
      highWatermark: 40,
      now: 30,
    });
    expect(n).toBe(1);
  });
});
