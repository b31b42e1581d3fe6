// Segmented window store: retention drops whole segments (Kafka Streams' segmented stores), and
// windows at or before stream time − retention are invisible and skipped.
import { describe, expect, it } from 'vitest';
import { InMemoryKeyValueStore } from './key-value-store.js';
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

  it('logs to and restores from its changelogged key-value store', () => {
    const kv = new InMemoryKeyValueStore(
      { name: 'w', keySerde: 'string', valueSerde: 'long', changelogTopic: 'app-w-changelog' },
      0,
    );
    const store = new SegmentedWindowStore({ retentionMs: 1000 }, kv);
    store.put('a', 1, 0, 5);
    store.put('a', 2, 500, 600);
    store.put('b', 7, 500, 510);
    store.put(42, 9, 500, 520); // a numeric key comes back as a number
    // Replay the changelog records into a fresh key-value store, as a restoring task does.
    const fresh = new InMemoryKeyValueStore(
      { name: 'w', keySerde: 'string', valueSerde: 'long', changelogTopic: 'app-w-changelog' },
      0,
    );
    for (const r of kv.takeChangelogRecords())
      fresh.restore({ ...r, offset: 0, timestamp: r.timestamp ?? 0, headers: {} } as never);
    const restored = new SegmentedWindowStore({ retentionMs: 1000 }, fresh);
    expect(restored.all()).toEqual(store.all());
    expect(restored.fetch('a', 500)).toEqual({ key: 'a', start: 500, value: 2, timestamp: 600 });
  });
});
