// Choosing a partition, as Java clients do: murmur2 of the key bytes for keyed records (byte
// compatible with Kafka's Utils.murmur2 / BuiltInPartitioner), sticky or round-robin for records
// without a key, or a custom function.

/** Kafka's murmur2 (32-bit, seed 0x9747b28c), returning the same signed int as Java. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  const m = 0x5bd1e995;
  const r = 24;
  let h = 0x9747b28c ^ length;
  const length4 = length >> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k =
      (data[i4]! & 0xff) |
      ((data[i4 + 1]! & 0xff) << 8) |
      ((data[i4 + 2]! & 0xff) << 16) |
      ((data[i4 + 3]! & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const tail = length & 3;
  const base = length & ~3;
  if (tail === 3) h ^= (data[base + 2]! & 0xff) << 16;
  if (tail >= 2) h ^= (data[base + 1]! & 0xff) << 8;
  if (tail >= 1) {
    h ^= data[base]! & 0xff;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's Utils.toPositive: clears the sign bit (not Math.abs, which overflows on MIN_VALUE). */
export function toPositive(n: number): number {
  return n & 0x7fffffff;
}

/** The partition a Java producer picks for a keyed record. */
export function partitionForKey(key: Uint8Array, numPartitions: number): number {
  return toPositive(murmur2(key)) % numPartitions;
}

export interface PartitionerContext {
  topic: string;
  key: Uint8Array | null;
  value: Uint8Array | null;
  numPartitions: number;
}

/** A custom partitioner; returning undefined falls back to the built-in choice. */
export type CustomPartitioner = (ctx: PartitionerContext) => number | undefined;

export type NullKeyStrategy = 'sticky' | 'roundrobin';

/**
 * Per-log partition choice for records without a key. Sticky (Kafka's default since 2.4) keeps one
 * partition for a whole produce call, then moves to another, so batches stay large;
 * round-robin spreads records one by one.
 */
export class NullKeyPartitioner {
  private readonly sticky = new Map<string, number>();
  private readonly counters = new Map<string, number>();

  constructor(private readonly random: () => number = Math.random) {}

  next(topic: string, numPartitions: number, strategy: NullKeyStrategy): number {
    if (strategy === 'roundrobin') {
      const n = this.counters.get(topic) ?? Math.floor(this.random() * numPartitions);
      this.counters.set(topic, n + 1);
      return n % numPartitions;
    }
    let p = this.sticky.get(topic);
    if (p === undefined || p >= numPartitions) {
      p = Math.floor(this.random() * numPartitions);
      this.sticky.set(topic, p);
    }
    return p;
  }

  /** Called after a produce call: the sticky partition moves on (another one when possible). */
  batchDone(topic: string, numPartitions: number): void {
    const p = this.sticky.get(topic);
    if (p === undefined) return;
    if (numPartitions <= 1) return;
    let q = Math.floor(this.random() * (numPartitions - 1));
    if (q >= p) q++;
    this.sticky.set(topic, q);
  }
}
