// The encoder's buffer pool: size classes, reuse of released memory, and what it refuses to take.
import { describe, expect, it } from 'vitest';
import { BufferPool, capacityFor } from './buffer-pool.js';

describe('BufferPool', () => {
  it('rounds sizes up to classes of 2^k × 1, 1.25, 1.5, 1.75 (at least 4 KiB)', () => {
    expect(capacityFor(1)).toBe(4096);
    expect(capacityFor(4096)).toBe(4096);
    expect(capacityFor(4097)).toBe(5120);
    expect(capacityFor(262144)).toBe(262144);
    expect(capacityFor(262145)).toBe(327680);
    expect(capacityFor(270000)).toBe(327680);
    expect(capacityFor(400000)).toBe(458752);
    for (let size = 1; size < 3_000_000; size = Math.ceil(size * 1.37) + 1) {
      const c = capacityFor(size);
      expect(c).toBeGreaterThanOrEqual(size);
      expect(capacityFor(c)).toBe(c);
      if (size > 4096) expect(c / size).toBeLessThanOrEqual(1.25);
    }
  });

  it('hands out released memory again, each buffer at the start of its own ArrayBuffer', () => {
    const pool = new BufferPool();
    const a = pool.acquire(270000);
    expect([a.length, a.byteOffset, a.buffer.byteLength]).toEqual([270000, 0, 327680]);
    pool.release(a);
    expect(pool.retainedBytes).toBe(327680);
    const b = pool.acquire(300000);
    expect(b.buffer).toBe(a.buffer);
    expect(b.length).toBe(300000);
    expect(pool.retainedBytes).toBe(0);
    expect(pool.acquire(300000).buffer).not.toBe(a.buffer);
  });

  it('ignores slices, foreign buffers, double releases and memory past its limit', () => {
    const pool = new BufferPool(400000);
    pool.release(Buffer.from('shared pool slice'));
    pool.release(new Uint8Array(new ArrayBuffer(5000)));
    const a = pool.acquire(10000);
    pool.release(a.subarray(1));
    expect(pool.retainedBytes).toBe(0);
    pool.release(a);
    pool.release(a);
    expect(pool.retainedBytes).toBe(capacityFor(10000));
    pool.release(pool.acquire(300000)); // 327680 + 10240 fits under 400000
    pool.release(Buffer.from(new ArrayBuffer(327680))); // does not
    expect(pool.retainedBytes).toBe(327680 + 10240);
  });
});
