// Segmented window store: retention drops whole segments (Kafka Streams' segmented stores), and
// windows at or before stream time − retention are invisible and skipped.
import { describe, expect, it } from 'vitest';
import { SegmentedWindowStore } from './window-store.js';

describe('SegmentedWindowStore', () => {
  it('uses segments of half the retention (Kafka’s persistent stores: at least 60 s)', () => {
    expect(new SegmentedWindowStore({ retentionMs: 3000 }).segmentIntervalMs).toBe(1500);
    expect(new SegmentedWindowStore({ retentionMs: 600_000 }).segmentIntervalMs).toBe(300_000);
  });

  it('drops whole segments once stream time passes their end + retention', () => {
    const store = new SegmentedWindowStore({ retentionMs: 100, segmentIntervalMs: 50 });
    for (let start = 0; start < 100; start += 10) store.put('k', start, start, start);
    expect(store.segmentCount).toBe(2);
    store.put('k', 'late-but-live', 160, 160); // minimum live segment: (160 − 100) / 50 = 1
    expect(store.segmentCount).toBe(2); // segment 0 ([0, 50)) went as a whole; 1 and 3 remain
    expect(store.fetchRange('k', 0, 200).map((e) => e.start)).toEqual([70, 80, 90, 160]);
    expect(store.fetch('k', 60)).toBeUndefined(); // 60 ≤ 160 − 100: expired though its segment lives
    expect(store.put('k', 'x', 20, 20)).toBe(false);
    expect(store.expiredRecordsTotal).toBe(1);
  });

  it('writes Kafka’s changelog layout once per dirty window and restores from it', () => {
    const spec = {
      name: 'w',
      keySerde: 'string' as const,
      valueSerde: 'long' as const,
      changelogTopic: 'app-w-changelog',
      retentionMs: 1000,
    };
    const store = new SegmentedWindowStore(spec, 0);
    store.put('a', 1, 0, 5);
    store.put('a', 2, 500, 600);
    store.put('a', 3, 500, 610); // the same window again: still one changelog record
    store.put('b', 7, 500, 510);
    const records = store.takeChangelogRecords();
    expect(records).toHaveLength(3);
    // WindowKeySchema: key bytes, start (int64), seqnum (int32); value: timestamp (int64), value.
    const a500 = records[1]!;
    expect([...a500.key!]).toEqual([0x61, 0, 0, 0, 0, 0, 0, 0x01, 0xf4, 0, 0, 0, 0]);
    expect([...a500.value!]).toEqual([0, 0, 0, 0, 0, 0, 0x02, 0x62, 0, 0, 0, 0, 0, 0, 0, 3]);
    expect(a500.timestamp).toBe(610);
    expect(store.takeChangelogRecords()).toEqual([]); // nothing changed since
    store.put('b', null, 500, 700); // a delete is a tombstone
    const [tombstone] = store.takeChangelogRecords();
    expect(tombstone?.value).toBeNull();
    // Replay everything into a fresh store, as a restoring task does.
    const restored = new SegmentedWindowStore(spec, 0);
    for (const r of [...records, tombstone!])
      restored.restore({ ...r, offset: 0, timestamp: r.timestamp ?? 0, headers: {} } as never);
    const plain = (entries: { key: unknown; start: number; value: unknown; timestamp: number }[]) =>
      entries.map(({ key, start, value, timestamp }) => ({ key, start, value, timestamp }));
    expect(plain(restored.all())).toEqual(plain(store.all()));
    expect(plain(restored.all())).toEqual([
      { key: 'a', start: 0, value: 1, timestamp: 5 },
      { key: 'a', start: 500, value: 3, timestamp: 610 },
    ]);
  });

  it('keeps duplicates with their own sequence numbers (join buffers)', () => {
    const store = new SegmentedWindowStore({ retentionMs: 1000, retainDuplicates: true });
    store.put('k', 'x', 10, 10);
    store.put('k', 'y', 10, 10);
    store.put('k', 'z', 5, 5);
    expect(store.fetchRange('k', 0, 100).map((e) => e.value)).toEqual(['z', 'x', 'y']);
  });

  it('fetches key ranges in byte order of the keys (integer keys: negatives after positives)', () => {
    const store = new SegmentedWindowStore({ retentionMs: 10_000, keySerde: 'integer' });
    for (const k of [-1, 0, 5, 9, 10, 11, 20]) store.put(k, k, 100, 100);
    store.put(9, 'later', 200, 200);
    const keys = (from: number, to: number) =>
      store.fetchKeyRange(from, to, 0, 1000).map((e) => [e.key, e.start]);
    expect(keys(5, 10)).toEqual([
      [5, 100],
      [9, 100],
      [10, 100],
      [9, 200],
    ]);
    // -1 serializes as ff ff ff ff: above every non-negative key, so [-1, 10] is inverted.
    expect(keys(-1, 10)).toEqual([]);
    expect(keys(10, -1).map(([k]) => k)).toEqual([10, 11, 20, -1]);
  });
});
