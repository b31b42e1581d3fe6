// hash128 against a direct BigInt transcription of Kafka's Murmur3.hash128 (x64 128-bit, seed
// 104729), for any bytes (every tail length); test/fk-join-wire-oracle.test.ts checks the hashes
// Kafka Streams itself writes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hash128 } from './murmur3.js';

const MASK = (1n << 64n) - 1n;
const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & MASK;
const mul = (a: bigint, b: bigint) => (a * b) & MASK;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;
const fmix = (h: bigint) => {
  h ^= h >> 33n;
  h = mul(h, 0xff51afd7ed558ccdn);
  h ^= h >> 33n;
  h = mul(h, 0xc4ceb9fe1a85ec53n);
  return h ^ (h >> 33n);
};

function reference(data: Uint8Array): string {
  const le = (from: number, to: number) => {
    let k = 0n;
    for (let i = to - 1; i >= from; i--) k = (k << 8n) | BigInt(data[i]!);
    return k;
  };
  let h1 = 104729n;
  let h2 = 104729n;
  const blocks = data.length >> 4;
  for (let i = 0; i < blocks; i++) {
    h1 ^= mul(rotl(mul(le(i * 16, i * 16 + 8), C1), 31n), C2);
    h1 = (mul((rotl(h1, 27n) + h2) & MASK, 5n) + 0x52dce729n) & MASK;
    h2 ^= mul(rotl(mul(le(i * 16 + 8, i * 16 + 16), C2), 33n), C1);
    h2 = (mul((rotl(h2, 31n) + h1) & MASK, 5n) + 0x38495ab5n) & MASK;
  }
  const tail = blocks << 4;
  const rest = data.length - tail;
  if (rest > 8) h2 ^= mul(rotl(mul(le(tail + 8, data.length), C2), 33n), C1);
  if (rest > 0) h1 ^= mul(rotl(mul(le(tail, tail + Math.min(rest, 8)), C1), 31n), C2);
  h1 ^= BigInt(data.length);
  h2 ^= BigInt(data.length);
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  return h1.toString(16).padStart(16, '0') + h2.toString(16).padStart(16, '0');
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('Murmur3.hash128 (Kafka Streams)', () => {
  it('agrees with the 64-bit reference for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(hex(hash128(bytes))).toBe(reference(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the hash Kafka Streams 4.1 wrote for \'{"product":"p1","qty":1}\'', () => {
    // From the registration topic of a run on Kafka Streams (tools/ks-oracle rawOutputs).
    const bytes = new TextEncoder().encode('{"product":"p1","qty":1}');
    expect(hex(hash128(bytes))).toBe('40130cfed4fb2b930b0f9770e0d2992f');
  });
});
