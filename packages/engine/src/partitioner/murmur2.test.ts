import { describe, expect, it } from 'vitest';
import { DefaultPartitioner, partitionFor } from './default-partitioner.js';
import { murmur2 } from './murmur2.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('murmur2 (Kafka UtilsTest#testMurmur2 vectors)', () => {
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['abc', 479470107],
  ])('%s → %d', (s, expected) => {
    expect(murmur2(utf8(s))).toBe(expected);
  });

  it('partitions like Java: (murmur2 & 0x7fffffff) % n', () => {
    expect(partitionFor(utf8('foobar'), 3)).toBe((-790332482 & 0x7fffffff) % 3);
    expect(partitionFor(utf8('abc'), 7)).toBe(479470107 % 7);
  });

  it('sticks null keys to one partition per batch and moves on with the next batch', () => {
    const p = new DefaultPartitioner();
    p.newBatch();
    const first = p.partition('t', null, 4);
    expect(p.partition('t', null, 4)).toBe(first);
    p.newBatch();
    expect(p.partition('t', null, 4)).toBe((first + 1) % 4);
  });
});
