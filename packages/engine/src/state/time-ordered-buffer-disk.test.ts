// A persistent stream–table join buffer holding only a few committed records in memory (0 to 10)
// behaves exactly as the in-memory buffer: the same answers to put, the same records evicted in
// the same order with their headers and context, the same changelog records byte for byte, the
// same stream time and size, through commits, a reopen from its lmdb files (a checkpointed
// restart) and a rebuild from the changelog (wiped, then restored); a property test over random
// puts with real lmdb files. Then a buffer far larger than its bound: never more held after a
// commit, every record evicted back from disk in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProduceRecord } from '../backend-spi.js';
import { asRestored as stored, withTempDir } from '../test-helpers.js';
import { StorePair } from './test-helpers.js';
import { TimeOrderedKeyValueBuffer, type BufferedStreamRecord } from './time-ordered-buffer.js';

const options = {
  name: 'j-Buffer',
  keySerde: 'string' as const,
  valueSerde: 'json' as const,
  changelogTopic: 'app-j-Buffer-changelog',
};
const bytes = (records: ProduceRecord[]) =>
  records.map((r) => [
    Buffer.from(r.key ?? []).toString('hex'),
    r.value && Buffer.from(r.value).toString('hex'),
  ]);
const plain = (r: BufferedStreamRecord) => [r.key, r.value, r.timestamp, r.headers, r.metadata];

// Keys whose bytes are prefixes of one another: store keys of one timestamp interleave.
const keys = ['a', 'ab', 'a\u0000', 'b', ''];
const ops = fc.array(
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant('put' as const),
        key: fc.constantFrom(...keys),
        timestamp: fc.integer({ min: 0, max: 60 }),
        value: fc.integer({ min: 0, max: 99 }),
        header: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: fc.constant({ kind: 'commit' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'reopen' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'rebuild' as const }) },
  ),
  { maxLength: 100 },
);

describe('persistent TimeOrderedKeyValueBuffer', () => {
  it('gives what the in-memory buffer gives, holding 0 to 10 committed records', async () => {
    await fc.assert(
      fc.asyncProperty(
        ops,
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 12 }),
        async (steps, limit, graceMs) => {
          await withTempDir(async (dir) => {
            const o = { ...options, graceMs };
            const path = `${dir}/j-Buffer`;
            const stores = new StorePair({
              memory: () => new TimeOrderedKeyValueBuffer(o),
              disk: () => new TimeOrderedKeyValueBuffer(o, 0, path, limit),
              limit,
              compare: bytes,
              restored: stored,
            });
            let offset = 0;
            for (const step of steps) {
              const { memory, disk } = stores;
              if (step.kind === 'put') {
                const headers: Record<string, string> = step.header ? { h: `v${offset}` } : {};
                const meta = { topic: 'orders', partition: 0, offset: offset++ };
                const args = [
                  step.key,
                  { n: step.value },
                  step.timestamp,
                  headers,
                  meta,
                  5,
                ] as const;
                expect(disk.put(...args)).toBe(memory.put(...args));
                const fromMemory: unknown[] = [];
                const fromDisk: unknown[] = [];
                memory.evict((r) => fromMemory.push(plain(r)), 5);
                disk.evict((r) => fromDisk.push(plain(r)), 5);
                expect(fromDisk).toEqual(fromMemory);
              } else {
                stores.commit();
                if (step.kind === 'commit') continue;
                stores.restart(step.kind);
              }
              expect(stores.disk.observedStreamTime).toBe(stores.memory.observedStreamTime);
              expect(stores.disk.size).toBe(stores.memory.size);
            }
            stores.commit();
            stores.disk.close();
          });
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('deletes on disk a record evicted before its commit when its store key was there before', async () => {
    await withTempDir(async (dir) => {
      const o = { ...options, graceMs: 10 };
      const at = (offset: number) => ({ topic: 'orders', partition: 0, offset });
      const open = () => new TimeOrderedKeyValueBuffer(o, 0, `${dir}/j-Buffer`, 10);
      let buffer = open();
      buffer.put('a', { n: 1 }, 5, {}, at(1), 0); // store key (5, 'a', sequence number 1)
      buffer.takeChangelogRecords();
      buffer.close();
      // The sequence number starts again: this put has the same store key, and overwrites.
      buffer = open();
      buffer.put('a', { n: 2 }, 5, {}, at(2), 0);
      const out: unknown[] = [];
      buffer.put('b', { n: 3 }, 20, {}, at(3), 0);
      buffer.evict((r) => out.push(r.value), 0);
      expect(out).toEqual([{ n: 2 }]);
      buffer.takeChangelogRecords();
      buffer.close();
      buffer = open();
      expect(buffer.size).toBe(1);
      buffer.put('c', { n: 4 }, 40, {}, at(4), 0);
      buffer.evict((r) => out.push(r.value), 0);
      expect(out).toEqual([{ n: 2 }, { n: 3 }]);
      buffer.close();
    });
  });

  it('keeps 20,000 waiting records with 100 in memory and evicts them all back from disk', async () => {
    await withTempDir(async (dir) => {
      const buffer = new TimeOrderedKeyValueBuffer(
        { ...options, graceMs: 1_000_000 },
        0,
        `${dir}/j-Buffer`,
        100,
      );
      const n = 20_000;
      for (let i = 0; i < n; i++) {
        // Mostly in time order, every tenth record a little late.
        const timestamp = i % 10 === 9 ? i - 5 : i;
        buffer.put(`k${i % 500}`, { i }, timestamp, {}, { topic: 't', partition: 0, offset: i }, 0);
        if (i % 1000 === 999) {
          buffer.takeChangelogRecords();
          expect(buffer.residentEntries).toBeLessThanOrEqual(100);
        }
      }
      expect(buffer.size).toBe(n);
      buffer.put('last', { i: n }, 1_000_000 + n, {}, { topic: 't', partition: 0, offset: n }, 0);
      const out: { timestamp: number; key: unknown }[] = [];
      buffer.evict((r) => out.push({ timestamp: r.timestamp, key: r.key }), 0);
      expect(out.length).toBe(n);
      for (let i = 1; i < n; i++)
        expect(out[i]!.timestamp).toBeGreaterThanOrEqual(out[i - 1]!.timestamp);
      expect(buffer.size).toBe(1);
      buffer.close();
    });
  }, 60_000);
});
