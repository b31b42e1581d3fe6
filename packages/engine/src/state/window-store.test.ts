// Segmented window store: retention drops whole segments (Kafka Streams' segmented stores), and
// windows at or before stream time − retention are invisible and skipped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { windowStoreFacade } from './window-facades.js';
import { SegmentedWindowStore, type WindowEntry } from './window-store.js';

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

  it('logs every put in Kafka’s changelog layout (expired ones too) and restores from it', () => {
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
    store.put('a', 3, 500, 610); // the same window again: logged again (no cache collapses it)
    store.put('b', 7, 500, 510);
    const records = store.takeChangelogRecords();
    expect(records).toHaveLength(4);
    // WindowKeySchema: key bytes, start (int64), seqnum (int32); value: the value alone, its
    // timestamp the record's (ChangeLoggingTimestampedWindowBytesStore logs rawValue).
    const a500 = records[2]!;
    expect([...a500.key!]).toEqual([0x61, 0, 0, 0, 0, 0, 0, 0x01, 0xf4, 0, 0, 0, 0]);
    expect([...a500.value!]).toEqual([0, 0, 0, 0, 0, 0, 0, 3]);
    expect(a500.timestamp).toBe(610);
    expect(store.takeChangelogRecords()).toEqual([]); // nothing changed since
    store.put('b', null, 500, 700); // a delete is a tombstone
    const [tombstone] = store.takeChangelogRecords();
    expect(tombstone?.value).toBeNull();
    // A put the store drops as expired is logged all the same (ChangeLoggingWindowBytesStore).
    store.put('c', 1, 2000, 2000);
    expect(store.put('c', 9, 500, 2001)).toBe(false);
    const late = store.takeChangelogRecords();
    expect(late.map((r) => r.timestamp)).toEqual([2000, 2001]);
    // Replay everything into a fresh store, as a restoring task does.
    const restored = new SegmentedWindowStore(spec, 0);
    for (const r of [...records, tombstone!, ...late])
      restored.restore({ ...r, offset: 0, timestamp: r.timestamp ?? 0, headers: {} } as never);
    const plain = (entries: { key: unknown; start: number; value: unknown; timestamp: number }[]) =>
      entries.map(({ key, start, value, timestamp }) => ({ key, start, value, timestamp }));
    expect(plain(restored.all())).toEqual(plain(store.all()));
    expect(plain(restored.all())).toEqual([{ key: 'c', start: 2000, value: 1, timestamp: 2000 }]);
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

describe('SegmentedWindowStore reads against a model', () => {
  // Integer keys sort as their big-endian two's-complement bytes: as unsigned 32-bit numbers.
  const bytesOrder = (k: number) => k >>> 0;
  const op = fc.record({
    key: fc.integer({ min: -3, max: 40 }),
    start: fc.integer({ min: 0, max: 400 }),
    value: fc.option(fc.integer(), { nil: null }),
  });

  it('fetchKeyRange / fetchRange / fetchAll return the live windows by start, then key bytes', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 120 }),
        fc.integer({ min: -3, max: 40 }),
        fc.integer({ min: -3, max: 40 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        (ops, keyFrom, keyTo, timeFrom, timeTo) => {
          const store = new SegmentedWindowStore({
            retentionMs: 150,
            segmentIntervalMs: 40,
            keySerde: 'integer',
          });
          const model = new Map<string, { key: number; start: number; value: number }>();
          let streamTime = -1;
          for (const { key, start, value } of ops) {
            store.put(key, value, start, start);
            streamTime = Math.max(streamTime, start);
            if (start <= streamTime - 150) continue; // expired: skipped
            if (value === null) model.delete(`${key}@${start}`);
            else model.set(`${key}@${start}`, { key, start, value });
          }
          const live = [...model.values()]
            .filter((e) => e.start > streamTime - 150)
            .sort((a, b) => a.start - b.start || bytesOrder(a.key) - bytesOrder(b.key));
          const inTime = live.filter((e) => e.start >= timeFrom && e.start <= timeTo);
          const plain = (es: { key: unknown; start: number; value: unknown }[]) =>
            es.map(({ key, start, value }) => ({ key, start, value }));
          const inverted = bytesOrder(keyFrom) > bytesOrder(keyTo);
          expect(plain(store.fetchKeyRange(keyFrom, keyTo, timeFrom, timeTo))).toEqual(
            inverted
              ? []
              : inTime.filter(
                  (e) =>
                    bytesOrder(e.key) >= bytesOrder(keyFrom) &&
                    bytesOrder(e.key) <= bytesOrder(keyTo),
                ),
          );
          expect(plain(store.fetchKeyRange(null, keyTo, timeFrom, timeTo))).toEqual(
            inTime.filter((e) => bytesOrder(e.key) <= bytesOrder(keyTo)),
          );
          expect(plain(store.fetchAll(timeFrom, timeTo))).toEqual(inTime);
          expect(plain(store.fetchRange(keyFrom, timeFrom, timeTo))).toEqual(
            inTime.filter((e) => e.key === keyFrom),
          );
          const into: WindowEntry[] = [{ key: 'stale', start: -1, value: 0, timestamp: 0 }];
          const n = store.fetchRangeInto(keyFrom, timeFrom, timeTo, into);
          expect(plain(into.slice(0, n))).toEqual(
            plain(store.fetchRange(keyFrom, timeFrom, timeTo)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the Processor API window store facade', () => {
  it('answers a read of an unchanged window with the same frozen view, a changed one anew', () => {
    const store = new SegmentedWindowStore({ retentionMs: 1000, keySerde: 'integer' });
    const facade = windowStoreFacade<number, string>(store, 100, () => 0);
    facade.put(1, 'a', 0);
    facade.put(2, 'b', 0);
    const [first] = facade.fetch(1, 2, 0, 0);
    expect(first).toEqual({ key: { key: 1, start: 0, end: 100 }, value: 'a' });
    expect(Object.isFrozen(first) && Object.isFrozen(first!.key)).toBe(true);
    expect(facade.fetchAll(0, 0)[0]).toBe(first); // KeyValue and Windowed are immutable in Kafka too
    facade.put(1, 'c', 0);
    expect(facade.fetch(1, 2, 0, 0).map((kv) => kv.value)).toEqual(['c', 'b']);
    expect(facade.fetch(1, 0, 0)).toEqual([{ key: 0, value: 'c' }]);
  });
});

describe('SegmentedWindowStore with duplicates (join buffers) against a model', () => {
  const bytesOrder = (k: number) => k >>> 0;
  const op = fc.record({
    key: fc.integer({ min: -3, max: 20 }),
    start: fc.integer({ min: 0, max: 400 }),
    value: fc.option(fc.integer(), { nil: null }),
  });
  type Kept = { key: number; start: number; value: number; seq: number };
  const plain = (es: WindowEntry[]) => es.map(({ key, start, value }) => ({ key, start, value }));

  it('keeps every put (a null put is ignored), reads by start, key bytes, put order, and restores from its changelog', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 150 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: -3, max: 20 }),
        fc.integer({ min: -3, max: 20 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        (ops, commitEvery, keyFrom, keyTo, timeFrom, timeTo) => {
          const spec = {
            name: 'join-buffer',
            retentionMs: 150,
            segmentIntervalMs: 40,
            keySerde: 'integer' as const,
            valueSerde: 'integer' as const,
            changelogTopic: 'app-join-buffer-changelog',
            retainDuplicates: true,
            timestamped: false,
          };
          const store = new SegmentedWindowStore(spec);
          const kept: Kept[] = [];
          const changelog = [];
          let streamTime = -1;
          let seq = 0;
          for (const [i, { key, start, value }] of ops.entries()) {
            const put = store.put(key, value, start, start);
            const expired = start <= Math.max(streamTime, start) - 150;
            streamTime = Math.max(streamTime, start);
            expect(put).toBe(!expired);
            if (!expired && value !== null) kept.push({ key, start, value, seq: ++seq });
            if (i % commitEvery === 0) changelog.push(...store.takeChangelogRecords());
          }
          changelog.push(...store.takeChangelogRecords());
          const live = kept
            .filter((e) => e.start > streamTime - 150)
            .sort(
              (a, b) => a.start - b.start || bytesOrder(a.key) - bytesOrder(b.key) || a.seq - b.seq,
            );
          const inTime = live.filter((e) => e.start >= timeFrom && e.start <= timeTo);
          const strip = (es: Kept[]) => es.map(({ key, start, value }) => ({ key, start, value }));
          const inverted = bytesOrder(keyFrom) > bytesOrder(keyTo);
          expect(plain(store.fetchKeyRange(keyFrom, keyTo, timeFrom, timeTo))).toEqual(
            inverted
              ? []
              : strip(
                  inTime.filter(
                    (e) =>
                      bytesOrder(e.key) >= bytesOrder(keyFrom) &&
                      bytesOrder(e.key) <= bytesOrder(keyTo),
                  ),
                ),
          );
          expect(plain(store.fetchAll(timeFrom, timeTo))).toEqual(strip(inTime));
          const ofKey = strip(inTime.filter((e) => e.key === keyFrom));
          expect(plain(store.fetchRange(keyFrom, timeFrom, timeTo))).toEqual(ofKey);
          const into: WindowEntry[] = [{ key: 'stale', start: -1, value: 0, timestamp: 0 }];
          const n = store.fetchRangeInto(keyFrom, timeFrom, timeTo, into);
          expect(plain(into.slice(0, n))).toEqual(ofKey);
          // Reused reads are overwritten, not appended to.
          expect(
            plain(into.slice(0, store.fetchRangeInto(keyFrom, timeFrom, timeTo, into))),
          ).toEqual(ofKey);
          const first = live.find((e) => e.key === keyFrom && e.start === timeFrom);
          expect(store.fetch(keyFrom, timeFrom)?.value).toBe(first?.value);
          expect(store.approximateNumEntries()).toBe(
            kept.filter((e) => store.segmentId(e.start) >= store.segmentId(streamTime - 150))
              .length,
          );
          // The changelog: one record per put, with its sequence number — a null put as a
          // tombstone and an expired put too, as ChangeLoggingWindowBytesStore logs every put it
          // passes on; replayed into a fresh store (a restoring task) it gives the same reads.
          const restored = new SegmentedWindowStore(spec);
          for (const r of changelog)
            restored.restore({
              ...r,
              offset: 0,
              timestamp: r.timestamp ?? 0,
              headers: {},
            } as never);
          expect(plain(restored.all().filter((e) => e.start > streamTime - 150))).toEqual(
            plain(store.all()),
          );
          expect(changelog).toHaveLength(ops.length);
          expect(changelog.map((r) => r.value === null)).toEqual(ops.map((o) => o.value === null));
        },
      ),
      { numRuns: 300 },
    );
  });
});
