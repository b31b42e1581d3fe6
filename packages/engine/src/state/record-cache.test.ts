// The record cache's eviction order (its data structure, not stream semantics: those are checked
// against Kafka Streams in test/record-cache*.test.ts): entries leave a full cache in the order
// they first became dirty, across many evictions, updates of entries already dirty and flushes.
import { describe, expect, it } from 'vitest';
import { NamedCache, ThreadCache, ENTRY_OVERHEAD } from './record-cache.js';

const NO_HEADERS = [] as never;

describe('NamedCache eviction', () => {
  it('evicts in first-dirty order, one entry per put once full, across flushes', () => {
    const capacity = 3000;
    const thread = new ThreadCache(capacity * (ENTRY_OVERHEAD + 1));
    const cache = new NamedCache(
      'c',
      thread,
      (k) => String(k),
      () => 1,
    );
    const forwarded: [unknown, unknown][] = [];
    cache.setListener((key, value) => forwarded.push([key, value]));
    // Model: a dirty key keeps its place when updated again; the oldest dirty key leaves first.
    const dirty: number[] = [];
    const expected: [unknown, unknown][] = [];
    const latest = new Map<number, number>();
    let n = 0;
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 10_000; i++) {
        // Every fifth put updates a key put recently (still dirty unless already evicted).
        const key = i % 5 === 4 ? n - 3 : n++;
        latest.set(key, i);
        if (!dirty.includes(key)) {
          dirty.push(key);
          if (dirty.length > capacity) {
            const out = dirty.shift()!;
            expected.push([out, latest.get(out)]);
          }
        }
        cache.put(key, null, i, i, NO_HEADERS);
      }
      expect(forwarded).toEqual(expected);
      // A flush forwards the rest (in last-update order) and empties the cache.
      cache.flush();
      forwarded.length = 0;
      expected.length = 0;
      dirty.length = 0;
      expect(cache.dirtyCount).toBe(0);
      expect(thread.sizeBytes).toBe(0);
    }
    expect(thread.evictions).toBe(3 * (8000 - capacity));
  });
});
