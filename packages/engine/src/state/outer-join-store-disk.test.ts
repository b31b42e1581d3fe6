// A persistent stream–stream join outer store holding only a few committed records in memory
// (0 to 10) behaves exactly as the in-memory store: the same records emitted at window close in
// the same order with their values and headers, the same changelog records byte for byte (and
// headers), the same size, through puts, matches (deletes), commits, a reopen from its lmdb files
// (a checkpointed restart) and a rebuild from the changelog (wiped, then restored); a property
// test over random operations with real lmdb files. Then a store far larger than its bound: never
// more held after a commit, every record emitted back from disk in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProduceRecord } from '../backend-spi.js';
import { asRestored as stored, withTempDir } from '../test-helpers.js';
import { OuterJoinStore, type JoinSide, type PendingRecord } from './outer-join-store.js';
import { StorePair } from './test-helpers.js';

const bytes = (records: ProduceRecord[]) =>
  records.map((r) => [
    Buffer.from(r.key ?? []).toString('hex'),
    r.value && Buffer.from(r.value).toString('hex'),
    r.timestamp,
    r.headers ?? {},
  ]);
// A restore reads a changelog record back with its headers (the outer store's records carry them).
const restored = (r: ProduceRecord) => ({ ...stored(r), headers: r.headers ?? {} });
const plain = (r: PendingRecord) => [r.side, r.key, r.timestamp, r.value, r.headers];

// String keys whose bytes are prefixes of one another, integer keys across the sign (negative
// ones sort after positive ones as bytes): records of one timestamp interleave.
const keysOf = { string: ['a', 'ab', 'a\u0000', 'b', ''], integer: [0, 1, 7, -1, -300] };
const side = fc.constantFrom<JoinSide>('left', 'right');
const ops = fc.array(
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('put' as const),
        side,
        key: fc.integer({ min: 0, max: 4 }),
        timestamp: fc.integer({ min: 0, max: 40 }),
        value: fc.integer({ min: 0, max: 99 }),
        header: fc.boolean(),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('delete' as const),
        side,
        key: fc.integer({ min: 0, max: 4 }),
        timestamp: fc.integer({ min: 0, max: 40 }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('scan' as const),
        by: fc.integer({ min: 0, max: 8 }),
      }),
    },
    { weight: 2, arbitrary: fc.constant({ kind: 'commit' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'reopen' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'rebuild' as const }) },
  ),
  { maxLength: 120 },
);

/** What the join's emitClosed does: emit every closed record, stop once both sides are open. */
function closeWindows(
  store: OuterJoinStore,
  streamTime: number,
  w: { beforeMs: number; afterMs: number; graceMs: number },
): unknown[] {
  const out: unknown[] = [];
  let leftOpen = false;
  let rightOpen = false;
  const openFrom = streamTime - Math.min(w.afterMs, w.beforeMs) - w.graceMs;
  store.scan(openFrom, (p) => {
    const lookBack = p.side === 'left' ? w.afterMs : w.beforeMs;
    if (p.timestamp + lookBack + w.graceMs >= streamTime) {
      if (p.side === 'left') leftOpen = true;
      else rightOpen = true;
      return leftOpen && rightOpen ? 'stop' : 'keep';
    }
    out.push(plain(p));
    return 'emit';
  });
  return out;
}

describe('persistent OuterJoinStore', () => {
  it('gives what the in-memory store gives, holding 0 to 10 committed records', async () => {
    await fc.assert(
      fc.asyncProperty(
        ops,
        fc.integer({ min: 0, max: 10 }),
        fc.constantFrom('string' as const, 'integer' as const),
        fc.record({
          beforeMs: fc.integer({ min: 0, max: 10 }),
          afterMs: fc.integer({ min: 0, max: 10 }),
          graceMs: fc.integer({ min: 0, max: 5 }),
        }),
        async (steps, limit, keySerde, window) => {
          await withTempDir(async (dir) => {
            const o = {
              name: 'KSTREAM-OUTERSHARED-0000000004-store',
              changelogTopic: 'app-KSTREAM-OUTERSHARED-0000000004-store-changelog',
              keySerde,
              leftValueSerde: 'string' as const,
              rightValueSerde: 'json' as const,
            };
            const keys: readonly unknown[] = keysOf[keySerde];
            const path = `${dir}/outer`;
            const stores = new StorePair({
              memory: () => new OuterJoinStore(o),
              disk: () => new OuterJoinStore(o, 0, path, limit),
              limit,
              compare: bytes,
              restored,
            });
            let streamTime = 0;
            let n = 0;
            for (const step of steps) {
              const { memory, disk } = stores;
              if (step.kind === 'put') {
                const headers: Record<string, string> = step.header ? { h: `v${n}` } : {};
                const value = step.side === 'left' ? `s${step.value}` : { n: step.value };
                const args = [step.side, keys[step.key], step.timestamp, value, headers] as const;
                memory.put(...args);
                disk.put(...args);
                n++;
              } else if (step.kind === 'delete') {
                memory.delete(step.side, keys[step.key], step.timestamp);
                disk.delete(step.side, keys[step.key], step.timestamp);
              } else if (step.kind === 'scan') {
                streamTime += step.by;
                expect(closeWindows(disk, streamTime, window)).toEqual(
                  closeWindows(memory, streamTime, window),
                );
              } else {
                stores.commit();
                if (step.kind === 'commit') continue;
                stores.restart(step.kind);
              }
              expect(stores.disk.size).toBe(stores.memory.size);
              expect(stores.disk.empty).toBe(stores.memory.size === 0);
            }
            stores.commit();
            expect(closeWindows(stores.disk, Infinity, window)).toEqual(
              closeWindows(stores.memory, Infinity, window),
            );
            stores.disk.close();
          });
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('keeps 20,000 unmatched records with 100 in memory and emits them all back from disk', async () => {
    await withTempDir(async (dir) => {
      const o = {
        name: 'KSTREAM-OUTERSHARED-0000000004-store',
        changelogTopic: 'app-KSTREAM-OUTERSHARED-0000000004-store-changelog',
        keySerde: 'integer' as const,
        leftValueSerde: 'string' as const,
        rightValueSerde: 'string' as const,
      };
      const store = new OuterJoinStore(o, 0, `${dir}/outer`, 100);
      const n = 20_000;
      for (let i = 0; i < n; i++) {
        store.put(i % 3 === 0 ? 'right' : 'left', i % 500, i, `v${i}`, { i: String(i) });
        if (i % 1000 === 999) {
          store.takeChangelogRecords();
          expect(store.residentEntries).toBeLessThanOrEqual(100);
        }
      }
      expect(store.size).toBe(n);
      // A match deletes one record held on disk only.
      store.delete('left', 1, 1);
      const window = { beforeMs: 10, afterMs: 10, graceMs: 0 };
      const out = closeWindows(store, n / 2, window) as [JoinSide, number, number, string][];
      expect(out.length).toBe(n / 2 - 10 - 1);
      for (let i = 1; i < out.length; i++) expect(out[i]![2]).toBeGreaterThan(out[i - 1]![2]);
      expect(out[0]).toEqual(['right', 0, 0, 'v0', { i: '0' }]);
      store.takeChangelogRecords();
      expect(store.size).toBe(n / 2 + 10);
      expect(closeWindows(store, Infinity, window).length).toBe(n / 2 + 10);
      expect(store.empty).toBe(true);
      store.close();
    });
  }, 60_000);
});
