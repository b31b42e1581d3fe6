import { describe, expect, it } from 'vitest';
import type { FetchRequest, StoredRecord } from '../backend-spi.js';
import { PrefetchingFetcher, type PartitionFetch } from './prefetching-fetcher.js';

const rec = (offset: number): StoredRecord => ({
  topic: 't',
  partition: 0,
  offset,
  timestamp: offset,
  key: null,
  value: null,
  headers: {},
});

/** A log of `end` records on t-0; each fetch returns up to `batch` records from the offset asked. */
function fakeLog(end: number, batch: number) {
  const sent: { offset: number; maxWaitMs: number }[] = [];
  let waiting: (() => void) | null = null;
  let length = end;
  const send = async (
    requests: FetchRequest[],
    maxWaitMs: number,
    signal: AbortSignal,
  ): Promise<PartitionFetch[]> => {
    const r = requests[0]!;
    sent.push({ offset: r.offset, maxWaitMs });
    if (r.offset >= length && maxWaitMs > 0 && !signal.aborted) {
      await new Promise<void>((resolve) => {
        waiting = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
        setTimeout(resolve, maxWaitMs);
      });
    }
    const records: StoredRecord[] = [];
    for (let o = r.offset; o < Math.min(length, r.offset + batch); o++) records.push(rec(o));
    return [{ topic: 't', partition: 0, from: r.offset, records, highWatermark: length }];
  };
  return {
    send,
    sent,
    append(n: number) {
      length += n;
      waiting?.();
    },
  };
}

const at = (offset: number): FetchRequest[] => [{ topic: 't', partition: 0, offset }];
const offsets = (rs: { records: StoredRecord[] }[]) => rs[0]!.records.map((r) => r.offset);

describe('PrefetchingFetcher', () => {
  it('keeps one fetch in flight, so the next poll at the following offset needs no new round trip', async () => {
    const log = fakeLog(10, 4);
    const f = new PrefetchingFetcher(log.send);
    expect(offsets(await f.fetch(at(0), { maxRecords: 100, maxWaitMs: 0 }))).toEqual([0, 1, 2, 3]);
    expect(log.sent.map((s) => s.offset)).toEqual([0, 4]); // the answer, and the prefetch of what follows
    expect(offsets(await f.fetch(at(4), { maxRecords: 100, maxWaitMs: 0 }))).toEqual([4, 5, 6, 7]);
    expect(offsets(await f.fetch(at(8), { maxRecords: 100, maxWaitMs: 0 }))).toEqual([8, 9]);
    expect(log.sent.map((s) => s.offset)).toEqual([0, 4, 8, 10]);
  });

  it('hands out at most maxRecords per poll and keeps the rest', async () => {
    const log = fakeLog(5, 5);
    const f = new PrefetchingFetcher(log.send);
    expect(offsets(await f.fetch(at(0), { maxRecords: 2, maxWaitMs: 0 }))).toEqual([0, 1]);
    expect(offsets(await f.fetch(at(2), { maxRecords: 2, maxWaitMs: 0 }))).toEqual([2, 3]);
    expect(offsets(await f.fetch(at(4), { maxRecords: 2, maxWaitMs: 0 }))).toEqual([4]);
  });

  it('drops buffered records on a seek and asks for the new offset', async () => {
    const log = fakeLog(100, 10);
    const f = new PrefetchingFetcher(log.send);
    await f.fetch(at(0), { maxRecords: 100, maxWaitMs: 0 });
    expect(offsets(await f.fetch(at(50), { maxRecords: 100, maxWaitMs: 0 }))).toEqual([
      50, 51, 52, 53, 54, 55, 56, 57, 58, 59,
    ]);
    expect(log.sent.map((s) => s.offset)).toEqual([0, 10, 50, 60]);
  });

  it('a prefetch that long-polls is this poll’s wait: data appended meanwhile answers it, a wakeup cuts it short', async () => {
    const log = fakeLog(2, 10);
    const f = new PrefetchingFetcher(log.send);
    expect(offsets(await f.fetch(at(0), { maxRecords: 100, maxWaitMs: 5000 }))).toEqual([0, 1]);
    // the prefetch at 2 is parked; new data wakes it
    const poll = f.fetch(at(2), { maxRecords: 100, maxWaitMs: 5000 });
    log.append(3);
    expect(offsets(await poll)).toEqual([2, 3, 4]);
    // parked again at 5: a wakeup (abort) answers at once, empty
    const wakeup = new AbortController();
    const started = Date.now();
    const woken = f.fetch(at(5), { maxRecords: 100, maxWaitMs: 5000, signal: wakeup.signal });
    wakeup.abort();
    expect(offsets(await woken)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a poll that must not wait cuts a parked prefetch short', async () => {
    const log = fakeLog(1, 10);
    const f = new PrefetchingFetcher(log.send);
    await f.fetch(at(0), { maxRecords: 100, maxWaitMs: 5000 });
    const started = Date.now();
    expect(offsets(await f.fetch(at(1), { maxRecords: 100, maxWaitMs: 0 }))).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a prefetch parked on a caught-up partition does not hold up a poll that also asks for another one', async () => {
    // t-0 has data; t-1 is caught up. A poll of both takes only part of t-0's fetch, so the
    // prefetch goes out for t-1 alone and parks; the next poll needs t-0 again and must not wait
    // out the parked long poll.
    const sent: string[] = [];
    const f = new PrefetchingFetcher(async (requests, maxWaitMs, signal) => {
      sent.push(requests.map((r) => `${r.partition}@${r.offset}`).join(' '));
      const out: PartitionFetch[] = [];
      for (const r of requests) {
        const records = r.partition === 0 ? [0, 1, 2, 3].map((i) => rec(r.offset + i)) : [];
        out.push({ topic: 't', partition: r.partition, from: r.offset, records, highWatermark: 0 });
      }
      if (requests.every((r) => r.partition === 1) && !signal.aborted)
        await new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => resolve(), { once: true });
          setTimeout(resolve, maxWaitMs);
        });
      return out;
    });
    const both = (o: number): FetchRequest[] => [
      { topic: 't', partition: 0, offset: o },
      { topic: 't', partition: 1, offset: 0 },
    ];
    expect(offsets(await f.fetch(both(0), { maxRecords: 2, maxWaitMs: 5000 }))).toEqual([0, 1]);
    expect(offsets(await f.fetch(both(2), { maxRecords: 2, maxWaitMs: 5000 }))).toEqual([2, 3]);
    const started = Date.now();
    expect(offsets(await f.fetch(both(4), { maxRecords: 2, maxWaitMs: 5000 }))).toEqual([4, 5]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(sent).toEqual(['0@0 1@0', '1@0', '0@4 1@0', '1@0']);
  });

  it('a failed prefetch fails the next poll, not silently', async () => {
    let calls = 0;
    const f = new PrefetchingFetcher(async (requests) => {
      if (++calls === 2) throw new Error('backend gone');
      return [
        {
          topic: 't',
          partition: 0,
          from: requests[0]!.offset,
          records: [rec(requests[0]!.offset)],
          highWatermark: 10,
        },
      ];
    });
    await f.fetch(at(0), { maxRecords: 100, maxWaitMs: 0 });
    await expect(f.fetch(at(1), { maxRecords: 100, maxWaitMs: 0 })).rejects.toThrow(/backend gone/);
    expect(offsets(await f.fetch(at(1), { maxRecords: 100, maxWaitMs: 0 }))).toEqual([1]);
  });
});
