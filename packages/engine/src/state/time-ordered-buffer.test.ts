// The stream–table join buffer's own contract beyond what the oracle tests compare (their inputs
// carry no headers and TopologyTestDriver does not restore): a restored buffer gives back every
// waiting record with its headers and record context, in store order, and its stream time.
import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../backend-spi.js';
import { TimeOrderedKeyValueBuffer } from './time-ordered-buffer.js';

const options = {
  name: 'j-Buffer',
  keySerde: 'string' as const,
  valueSerde: 'json' as const,
  changelogTopic: 'app-j-Buffer-changelog',
  graceMs: 10,
};

describe('TimeOrderedKeyValueBuffer', () => {
  it('restores waiting records with headers, context and stream time from its changelog', () => {
    const buffer = new TimeOrderedKeyValueBuffer(options);
    const at = (offset: number) => ({ topic: 'orders', partition: 0, offset });
    expect(buffer.put('b', { n: 1 }, 30, { trace: 'é-1', empty: '' }, at(7), 0)).toBe(true);
    expect(buffer.put('a', { n: 2 }, 30, {}, at(8), 0)).toBe(true);
    expect(buffer.put('a', { n: 3 }, 25, {}, at(9), 0)).toBe(true);
    // 19 < 30 − 10: not buffered (the join joins it at once).
    expect(buffer.put('a', { n: 4 }, 19, {}, at(10), 0)).toBe(false);
    const released: unknown[] = [];
    expect(buffer.put('c', { n: 5 }, 36, {}, at(11), 0)).toBe(true);
    buffer.evict((r) => released.push(r.value), 0); // up to 26: a@25
    expect(released).toEqual([{ n: 3 }]);

    const logged = buffer.takeChangelogRecords();
    expect(logged.map((r) => r.value === null)).toEqual([false, false, false, false, true]);
    const restored = new TimeOrderedKeyValueBuffer(options);
    for (const r of logged)
      restored.restore({ ...r, offset: 0, headers: {} } as unknown as StoredRecord);
    expect(restored.size).toBe(3);
    expect(restored.observedStreamTime).toBe(36);
    // Stream time 36 − grace: a record at 25 is late for the restored buffer too.
    expect(restored.put('a', { n: 6 }, 25, {}, at(12), 0)).toBe(false);
    const out: unknown[] = [];
    expect(restored.put('d', { n: 7 }, 50, {}, at(13), 0)).toBe(true);
    restored.evict((r) => out.push([r.key, r.value, r.timestamp, r.headers, r.metadata]), 0);
    // Store order: timestamp, then key bytes (a before b), then arrival.
    expect(out).toEqual([
      ['a', { n: 2 }, 30, {}, at(8)],
      ['b', { n: 1 }, 30, { trace: 'é-1', empty: '' }, at(7)],
      ['c', { n: 5 }, 36, {}, at(11)],
    ]);
    expect(restored.size).toBe(1);
  });
});
