// Window assignment and session merging against simple models (fast-check), and the windowed key
// layouts of Kafka's TimeWindowedSerializer / SessionWindowedSerializer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringSerde } from '../serdes/string-serde.js';
import { SegmentedSessionStore } from '../state/session-store.js';
import { timeWindowsFor } from './window-assignment.js';
import { sessionWindowedSerde, timeWindowedSerde, windowedKey } from './windowed-key.js';

describe('time window assignment', () => {
  it('matches Kafka: windows for 7 with size 10 / advance 5 are [0,10) and [5,15)', () => {
    // TimeWindowsTest#shouldComputeWindowsForHoppingWindows uses the same arithmetic.
    expect(timeWindowsFor(7, 10, 5)).toEqual([
      { start: 0, end: 10 },
      { start: 5, end: 15 },
    ]);
    expect(timeWindowsFor(5000, 5000, 5000)).toEqual([{ start: 5000, end: 10000 }]);
    expect(timeWindowsFor(4999, 5000, 5000)).toEqual([{ start: 0, end: 5000 }]);
  });

  it('returns exactly the epoch-aligned half-open windows containing the timestamp (model)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 2000 }),
        (size, a, ts) => {
          const advance = Math.min(a, size);
          // The model: every aligned start k·advance ≥ 0 with start ≤ ts < start + size.
          const model: number[] = [];
          for (let start = 0; start <= ts; start += advance)
            if (ts < start + size) model.push(start);
          const got = timeWindowsFor(ts, size, advance);
          expect(got.map((w) => w.start)).toEqual(model);
          for (const w of got) expect(w.end - w.start).toBe(size);
        },
      ),
    );
  });
});

/** The simple model of session windows: sort a key's timestamps, split where the gap is exceeded. */
function modelSessions(timestamps: number[], gap: number): [number, number][] {
  const sorted = [...timestamps].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const t of sorted) {
    const last = out[out.length - 1];
    if (last && t - last[1] <= gap) last[1] = t;
    else out.push([t, t]);
  }
  return out;
}

/** Merge as KStreamSessionWindowAggregate does, with nothing expiring (no late records here). */
function mergeLikeKafka(timestamps: number[], gap: number): [number, number][] {
  const store = new SegmentedSessionStore({ retentionMs: 1e12 });
  for (const ts of timestamps) {
    const found = store.findSessions('k', ts - gap, ts + gap);
    let start = ts;
    let end = ts;
    let count = 1;
    for (const s of found) {
      start = Math.min(start, s.start);
      end = Math.max(end, s.end);
      count += s.value as number;
      store.remove('k', s.start, s.end);
    }
    store.put({ key: 'k', start, end, value: count });
  }
  const sessions = store.all();
  expect(sessions.reduce((n, s) => n + (s.value as number), 0)).toBe(timestamps.length);
  return sessions.map((s) => [s.start, s.end]);
}

describe('session merging', () => {
  it('equals the sorted-split model for any arrival order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 500 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 60 }),
        (ts, gap) => {
          expect(mergeLikeKafka(ts, gap)).toEqual(modelSessions(ts, gap));
        },
      ),
    );
  });

  it('merges records exactly gap apart (inactivity gap bounds are inclusive)', () => {
    expect(mergeLikeKafka([0, 10, 20], 10)).toEqual([[0, 20]]);
    expect(mergeLikeKafka([0, 11], 10)).toEqual([
      [0, 0],
      [11, 11],
    ]);
  });
});

describe('windowed key serialization', () => {
  it('writes TimeWindowedSerializer layout: key bytes then the start as int64 big-endian', () => {
    const serde = timeWindowedSerde(stringSerde as never, 5000);
    const bytes = serde.serialize(windowedKey('a', 5000, 10000)) as Uint8Array;
    expect([...bytes]).toEqual([0x61, 0, 0, 0, 0, 0, 0, 0x13, 0x88]);
    const back = serde.deserialize(bytes);
    expect(back).toEqual({ key: 'a', start: 5000, end: 10000 });
  });

  it('writes SessionWindowedSerializer layout: key bytes, end, then start', () => {
    const serde = sessionWindowedSerde(stringSerde as never);
    const bytes = serde.serialize(windowedKey('a', 1, 2)) as Uint8Array;
    expect([...bytes]).toEqual([0x61, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(serde.deserialize(bytes)).toEqual({ key: 'a', start: 1, end: 2 });
  });

  it('a windowed key serde refuses keys that are not windowed, saying so', () => {
    expect(() => timeWindowedSerde(stringSerde, 5000).serialize('plain' as never)).toThrow(
      'TimeWindowedSerde serializes windowed keys (a windowed aggregation\'s results), got "plain"',
    );
    expect(() => sessionWindowedSerde(stringSerde).serialize({ key: 'k' } as never)).toThrow(
      /SessionWindowedSerde serializes windowed keys/,
    );
  });
});
