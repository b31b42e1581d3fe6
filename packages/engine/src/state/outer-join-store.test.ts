// The stream–stream join's outer store: records matched between two commits never reach the
// changelog, and a long commit interval does not keep them alive.
import { describe, expect, it } from 'vitest';
import { OuterJoinStore } from './outer-join-store.js';

const options = {
  name: 'KSTREAM-OUTERSHARED-0000000004-store',
  changelogTopic: 'app-KSTREAM-OUTERSHARED-0000000004-store-changelog',
  keySerde: 'integer' as const,
  leftValueSerde: 'string' as const,
  rightValueSerde: 'string' as const,
};

describe('OuterJoinStore', () => {
  it('logs only what is still pending or was logged before, however many records came and went', () => {
    const store = new OuterJoinStore(options);
    store.put('left', 1, 10, 'logged', {});
    expect(store.takeChangelogRecords()).toHaveLength(1);
    for (let ts = 100; ts < 5100; ts++) {
      store.put('left', ts % 7, ts, `v${ts}`, {});
      if (ts % 1000 !== 0) store.delete('left', ts % 7, ts); // matched before the commit
    }
    store.delete('left', 1, 10); // logged before: needs a tombstone
    const records = store.takeChangelogRecords();
    const byTs = records.map((r) => [r.timestamp, r.value === null ? null : 'value']);
    expect(byTs).toEqual([
      [1000, 'value'],
      [2000, 'value'],
      [3000, 'value'],
      [4000, 'value'],
      [5000, 'value'],
      [10, null],
    ]);
    expect(store.size).toBe(5);
    const seen: number[] = [];
    store.scan(Infinity, (p) => (seen.push(p.timestamp), 'keep'));
    expect(seen).toEqual([1000, 2000, 3000, 4000, 5000]);
  });

  it('finds a record by side, key and timestamp among records of the same timestamp', () => {
    const store = new OuterJoinStore(options);
    store.put('left', 2, 5, 'l2', {});
    store.put('right', 2, 5, 'r2', {});
    store.put('left', 1, 5, 'l1', {});
    store.put('left', 1, 5, 'l1 again', {}); // same record: replaced in place
    store.delete('left', 2, 5);
    const seen: string[] = [];
    store.scan(
      Infinity,
      (p) => (seen.push(`${p.side}:${String(p.key)}:${String(p.value)}`), 'keep'),
    );
    expect(seen).toEqual(['right:2:r2', 'left:1:l1 again']); // right first, then key order
  });

  it('emits from the front in store order while records keep arriving and being matched', () => {
    const store = new OuterJoinStore(options);
    const emitted: number[] = [];
    const expected: number[] = [];
    const waiting = new Set<number>(); // the model: timestamps waiting (one record each)
    for (let ts = 0; ts < 30_000; ts++) {
      // Emit every record more than 100 ms behind, as a join's close scan does.
      const due = (t: number) => t < ts - 100;
      for (const t of [...waiting].sort((a, b) => a - b)) {
        if (!due(t)) break;
        expected.push(t);
        waiting.delete(t);
      }
      store.scan(ts - 100, (p) =>
        due(p.timestamp) ? (emitted.push(p.timestamp), 'emit') : 'stop',
      );
      store.put('left', ts % 13, ts, `v${ts}`, {});
      waiting.add(ts);
      if (ts % 3 === 0 && waiting.delete(ts - 50)) store.delete('left', (ts - 50) % 13, ts - 50);
      if (ts % 1000 === 0) store.takeChangelogRecords();
    }
    expect(emitted).toEqual(expected);
    expect(emitted.length).toBeGreaterThan(19_000);
    expect(store.size).toBe(waiting.size);
  });
});
