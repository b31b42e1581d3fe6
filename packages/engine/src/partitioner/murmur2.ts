// Kafka's murmur2 (org.apache.kafka.common.utils.Utils#murmur2), in 32-bit signed arithmetic so
// that the result is bit-for-bit what the Java client computes for the same key bytes.
const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i << 2;
    let k =
      (data[i4]! & 0xff) |
      ((data[i4 + 1]! & 0xff) << 8) |
      ((data[i4 + 2]! & 0xff) << 16) |
      ((data[i4 + 3]! & 0xff) << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M);
    h ^= k;
  }
  const tail = length4 << 2;
  // Java's switch falls through 3 → 2 → 1; the same cascade, spelled out.
  const rest = length & 3;
  if (rest === 3) h ^= (data[tail + 2]! & 0xff) << 16;
  if (rest >= 2) h ^= (data[tail + 1]! & 0xff) << 8;
  if (rest >= 1) {
    h ^= data[tail]! & 0xff;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** Java's `Utils.toPositive`: clears the sign bit (not Math.abs, which fails for MIN_VALUE). */
export function toPositive(n: number): number {
  return n & 0x7fffffff;
}
