import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { murmur2, NullKeyPartitioner, partitionForKey, toPositive } from './partitioner.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('murmur2 partitioner', () => {
  // Vectors from Kafka's UtilsTest.testMurmur2 (clients/src/test/java/org/apache/kafka/common/utils).
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('murmur2(%j) = %d as in Java', (s, expected) => {
    expect(murmur2(utf8(s))).toBe(expected);
  });

  it('maps keys to partitions with toPositive, never negative', () => {
    expect(toPositive(-2147483648)).toBe(0);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.integer({ min: 1, max: 1000 }), (key, n) => {
        const p = partitionForKey(key, n);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThan(n);
        expect(partitionForKey(key, n)).toBe(p);
      }),
    );
  });

  it('sticks to one partition per batch for null keys, then moves to another', () => {
    const nk = new NullKeyPartitioner(() => 0.5);
    const first = nk.next('t', 4, 'sticky');
    expect(nk.next('t', 4, 'sticky')).toBe(first);
    nk.batchDone('t', 4);
    expect(nk.next('t', 4, 'sticky')).not.toBe(first);
  });

  it('spreads null keys evenly with round-robin', () => {
    const nk = new NullKeyPartitioner(() => 0);
    const counts = [0, 0, 0];
    for (let i = 0; i < 30; i++) counts[nk.next('t', 3, 'roundrobin')]!++;
    expect(counts).toEqual([10, 10, 10]);
  });
});
