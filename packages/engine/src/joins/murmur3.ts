// MurmurHash3 x64 128-bit with Kafka Streams' seed (org.apache.kafka.streams.state.internals.
// Murmur3.hash128, seed 104729): the hash a foreign-key join's subscription carries of the left
// value's bytes. Kafka writes the two halves as big-endian longs, h1 then h2; so does `hash128`.
// 64-bit words are (hi, lo) uint32 pairs, products exact through 16-bit limbs, results in two
// scratch registers: about half the CPU of BigInt arithmetic (murmur3.test.ts checks the two
// agree).
let RH = 0;
let RL = 0;

function mul(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const mid = a0 * b1 + a1 * b0;
  const low = a0 * b0 + (mid % 65536) * 65536;
  RL = low >>> 0;
  RH =
    (a1 * b1 +
      Math.floor(mid / 65536) +
      Math.floor(low / 4294967296) +
      Math.imul(ah, bl) +
      Math.imul(al, bh)) >>>
    0;
}

function rotl(h: number, l: number, r: number): void {
  if (r >= 32) {
    const t = h;
    h = l;
    l = t;
    r -= 32;
  }
  if (r === 0) {
    RH = h >>> 0;
    RL = l >>> 0;
    return;
  }
  RH = ((h << r) | (l >>> (32 - r))) >>> 0;
  RL = ((l << r) | (h >>> (32 - r))) >>> 0;
}

function add(ah: number, al: number, bh: number, bl: number): void {
  const lo = al + bl;
  RH = (ah + bh + (lo > 0xffffffff ? 1 : 0)) >>> 0;
  RL = lo >>> 0;
}

function fmix64(h: number, l: number): void {
  l = (l ^ (h >>> 1)) >>> 0;
  mul(h, l, 0xff51afd7, 0xed558ccd);
  h = RH;
  l = (RL ^ (RH >>> 1)) >>> 0;
  mul(h, l, 0xc4ceb9fe, 0x1a85ec53);
  RL = (RL ^ (RH >>> 1)) >>> 0;
}

function mixK1(h: number, l: number): void {
  mul(h, l, 0x87c37b91, 0x114253d5);
  rotl(RH, RL, 31);
  mul(RH, RL, 0x4cf5ad43, 0x2745937f);
}

function mixK2(h: number, l: number): void {
  mul(h, l, 0x4cf5ad43, 0x2745937f);
  rotl(RH, RL, 33);
  mul(RH, RL, 0x87c37b91, 0x114253d5);
}

/** The 16-byte hash: h1 then h2, each big-endian (Kafka's `putLong(hash[0]); putLong(hash[1])`). */
export function hash128(data: Uint8Array): Uint8Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const length = data.length;
  let h1h = 0;
  let h1l = 104729;
  let h2h = 0;
  let h2l = 104729;
  const blocks = length >> 4;
  for (let i = 0; i < blocks; i++) {
    const o = i * 16;
    mixK1(view.getUint32(o + 4, true), view.getUint32(o, true));
    rotl((h1h ^ RH) >>> 0, (h1l ^ RL) >>> 0, 27);
    add(RH, RL, h2h, h2l);
    mul(RH, RL, 0, 5);
    add(RH, RL, 0, 0x52dce729);
    h1h = RH;
    h1l = RL;
    mixK2(view.getUint32(o + 12, true), view.getUint32(o + 8, true));
    rotl((h2h ^ RH) >>> 0, (h2l ^ RL) >>> 0, 31);
    add(RH, RL, h1h, h1l);
    mul(RH, RL, 0, 5);
    add(RH, RL, 0, 0x38495ab5);
    h2h = RH;
    h2l = RL;
  }
  const tail = blocks << 4;
  const rest = length - tail;
  if (rest > 8) {
    let hi = 0;
    let lo = 0;
    for (let i = rest - 1; i >= 8; i--) {
      const j = i - 8;
      if (j >= 4) hi = (hi | (data[tail + i]! << ((j - 4) * 8))) >>> 0;
      else lo = (lo | (data[tail + i]! << (j * 8))) >>> 0;
    }
    mixK2(hi, lo);
    h2h = (h2h ^ RH) >>> 0;
    h2l = (h2l ^ RL) >>> 0;
  }
  if (rest > 0) {
    let hi = 0;
    let lo = 0;
    for (let i = Math.min(rest, 8) - 1; i >= 0; i--) {
      if (i >= 4) hi = (hi | (data[tail + i]! << ((i - 4) * 8))) >>> 0;
      else lo = (lo | (data[tail + i]! << (i * 8))) >>> 0;
    }
    mixK1(hi, lo);
    h1h = (h1h ^ RH) >>> 0;
    h1l = (h1l ^ RL) >>> 0;
  }
  h1l = (h1l ^ length) >>> 0;
  h2l = (h2l ^ length) >>> 0;
  add(h1h, h1l, h2h, h2l);
  h1h = RH;
  h1l = RL;
  add(h2h, h2l, h1h, h1l);
  h2h = RH;
  h2l = RL;
  fmix64(h1h, h1l);
  h1h = RH;
  h1l = RL;
  fmix64(h2h, h2l);
  h2h = RH;
  h2l = RL;
  add(h1h, h1l, h2h, h2l);
  h1h = RH;
  h1l = RL;
  add(h2h, h2l, h1h, h1l);
  h2h = RH;
  h2l = RL;
  const out = new Uint8Array(16);
  const o = new DataView(out.buffer);
  o.setUint32(0, h1h, false);
  o.setUint32(4, h1l, false);
  o.setUint32(8, h2h, false);
  o.setUint32(12, h2l, false);
  return out;
}
