// MurmurHash3 x64 128-bit with Kafka Streams' seed (org.apache.kafka.streams.state.internals.
// Murmur3.hash128, seed 104729): the hash a foreign-key join's subscription carries of the left
// value's bytes. Kafka writes the two halves as big-endian longs, h1 then h2; so does `hash128`.
const MASK = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;
const SEED = 104729n;

const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & MASK;
const mul = (a: bigint, b: bigint): bigint => (a * b) & MASK;

function fmix64(h: bigint): bigint {
  h ^= h >> 33n;
  h = mul(h, 0xff51afd7ed558ccdn);
  h ^= h >> 33n;
  h = mul(h, 0xc4ceb9fe1a85ec53n);
  h ^= h >> 33n;
  return h;
}

function mixK1(k1: bigint): bigint {
  return mul(rotl(mul(k1, C1), 31n), C2);
}

function mixK2(k2: bigint): bigint {
  return mul(rotl(mul(k2, C2), 33n), C1);
}

/** The little-endian 64-bit word of `data` at `offset` (8 bytes available). */
function word(view: DataView, offset: number): bigint {
  return view.getBigUint64(offset, true);
}

/** The 16-byte hash: h1 then h2, each big-endian (Kafka's `putLong(hash[0]); putLong(hash[1])`). */
export function hash128(data: Uint8Array): Uint8Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const length = data.length;
  let h1 = SEED;
  let h2 = SEED;
  const blocks = length >> 4;
  for (let i = 0; i < blocks; i++) {
    const k1 = word(view, i * 16);
    const k2 = word(view, i * 16 + 8);
    h1 ^= mixK1(k1);
    h1 = rotl(h1, 27n);
    h1 = (h1 + h2) & MASK;
    h1 = (mul(h1, 5n) + 0x52dce729n) & MASK;
    h2 ^= mixK2(k2);
    h2 = rotl(h2, 31n);
    h2 = (h2 + h1) & MASK;
    h2 = (mul(h2, 5n) + 0x38495ab5n) & MASK;
  }
  const tail = blocks << 4;
  const rest = length - tail;
  if (rest > 8) {
    let k2 = 0n;
    for (let i = rest - 1; i >= 8; i--) k2 = (k2 << 8n) | BigInt(data[tail + i]!);
    h2 ^= mixK2(k2);
  }
  if (rest > 0) {
    let k1 = 0n;
    for (let i = Math.min(rest, 8) - 1; i >= 0; i--) k1 = (k1 << 8n) | BigInt(data[tail + i]!);
    h1 ^= mixK1(k1);
  }
  h1 ^= BigInt(length);
  h2 ^= BigInt(length);
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  const out = new Uint8Array(16);
  const o = new DataView(out.buffer);
  o.setBigUint64(0, h1, false);
  o.setBigUint64(8, h2, false);
  return out;
}
