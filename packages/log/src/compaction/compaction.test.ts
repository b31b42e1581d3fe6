import { describe, expect, it } from 'vitest';
import { bytes, manualClock, openTestLog, text } from '../../test/helpers.js';
import type { Log } from '../log.js';

async function readAll(
  log: Log,
  topic = 't',
): Promise<{ offset: number; key: string | null; value: string | null }[]> {
  const out: { offset: number; key: string | null; value: string | null }[] = [];
  let off = log.earliestOffset(topic, 0);
  for (;;) {
    const r = await log.fetch(topic, 0, off);
    if (r.records.length === 0) return out;
    out.push(
      ...r.records.map((x) => ({ offset: x.offset, key: text(x.key), value: text(x.value) })),
    );
    off = r.nextOffset;
  }
}

describe('compaction', () => {
  it('keeps the latest value per key without renumbering offsets, in a worker thread', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'cleanup.policy': 'compact', 'segment.bytes': 300 });
    for (let i = 0; i < 30; i++)
      await log.produce([{ topic: 't', key: bytes(`k${i % 3}`), value: bytes(`v${i}`) }]);
    const before = log.latestOffset('t', 0);
    const report = await log.compact('t', 0);
    expect(report.segmentsRewritten).toBeGreaterThan(0);
    const after = await readAll(log);
    // Everything up to the active segment is reduced to one record per key; offsets stay.
    const seen = new Map<string, number>();
    for (const r of after) {
      expect(r.value).toBe(`v${r.offset}`); // offsets never renumbered
      if (r.offset < report.to) {
        expect(seen.has(r.key!)).toBe(false);
        seen.set(r.key!, r.offset);
      }
    }
    for (const k of ['k0', 'k1', 'k2'])
      expect(after.filter((r) => r.key === k).at(-1)!.value).toBe(`v${27 + Number(k[1])}`);
    expect(log.latestOffset('t', 0)).toBe(before);
    const [m] = await log.produce([{ topic: 't', key: bytes('k0'), value: bytes('v30') }]);
    expect(m!.offset).toBe(30);
  });

  it('keeps tombstones until delete.retention.ms after the first cleaning, then removes them', async () => {
    const clock = manualClock();
    const log = await openTestLog({ clock: clock.now });
    await log.createTopic('t', 1, {
      'cleanup.policy': 'compact',
      'segment.bytes': 200,
      'delete.retention.ms': 1000,
    });
    await log.produce([{ topic: 't', key: bytes('a'), value: bytes('1') }]);
    await log.produce([{ topic: 't', key: bytes('b'), value: bytes('2') }]);
    await log.produce([{ topic: 't', key: bytes('a'), value: null }]);
    for (let i = 0; i < 5; i++)
      await log.produce([{ topic: 't', key: bytes('filler'), value: bytes('x'.repeat(80)) }]);
    await log.compact('t', 0);
    let recs = await readAll(log);
    expect(recs.find((r) => r.key === 'a')).toEqual({ offset: 2, key: 'a', value: null }); // tombstone kept
    clock.advance(999);
    await log.compact('t', 0);
    expect((await readAll(log)).some((r) => r.key === 'a')).toBe(true);
    clock.advance(1);
    const report = await log.compact('t', 0);
    recs = await readAll(log);
    expect(report.tombstonesRemoved).toBe(1);
    expect(recs.some((r) => r.key === 'a')).toBe(false);
    expect(recs.find((r) => r.key === 'b')!.value).toBe('2');
  });

  it('never touches the active segment, and survives a reopen', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'cleanup.policy': 'compact' });
    for (let i = 0; i < 10; i++)
      await log.produce([{ topic: 't', key: bytes('k'), value: bytes(`v${i}`) }]);
    const report = await log.compact('t', 0);
    expect(report.segmentsRewritten).toBe(0);
    expect(await readAll(log)).toHaveLength(10);
  });

  it('lets producers and readers go on while the worker compacts', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, { 'cleanup.policy': 'compact', 'segment.bytes': 20_000 });
    const big = bytes('x'.repeat(200));
    for (let i = 0; i < 40; i++) {
      await log.produce(
        Array.from({ length: 50 }, (_, j) => ({
          topic: 't',
          key: bytes(`k${(i * 50 + j) % 100}`),
          value: big,
        })),
      );
    }
    const compaction = log.compact('t', 0);
    let produced = 0;
    let done = false;
    void compaction.then(() => (done = true));
    while (!done) {
      await log.produce([{ topic: 't', key: bytes('live'), value: big }]);
      await log.fetch('t', 0, log.earliestOffset('t', 0), { maxRecords: 5 });
      produced++;
    }
    const report = await compaction;
    expect(report.recordsAfter).toBeLessThan(report.recordsBefore);
    expect(produced).toBeGreaterThan(0);
  });

  it('runs on its own once the dirty ratio is reached', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1, {
      'cleanup.policy': 'compact',
      'segment.bytes': 200,
      'min.cleanable.dirty.ratio': 0.5,
    });
    for (let i = 0; i < 20; i++)
      await log.produce([{ topic: 't', key: bytes('k'), value: bytes(`v${i}`.padEnd(40)) }]);
    await log.cleanDirty();
    const recs = await readAll(log);
    expect(recs.length).toBeLessThan(20);
  });
});
