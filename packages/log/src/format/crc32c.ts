// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of Kafka's record batch v2.
// A native SIMD implementation (@node-rs/crc32) is used when it loads; the table-driven
// slicing-by-8 version below is the fallback and the reference the native one is tested against.
import { createRequire } from 'node:module';

const POLY = 0x82f63b78;

/** 8 tables of 256 entries: table k maps a byte to its CRC contribution k bytes further on. */
const TABLES: Uint32Array = (() => {
  const t = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff]! ^ (c >>> 8);
      t[k * 256 + n] = c >>> 0;
    }
  }
  return t;
})();

/** Pure-JS CRC-32C; `crc` continues a previous result (0 to start). */
export function crc32cJs(data: Uint8Array, crc = 0): number {
  const t = TABLES;
  let c = ~crc >>> 0;
  let i = 0;
  const n = data.length;
  const end8 = n - (n % 8);
  while (i < end8) {
    const lo = (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)) ^ c;
    c =
      t[7 * 256 + (lo & 0xff)]! ^
      t[6 * 256 + ((lo >>> 8) & 0xff)]! ^
      t[5 * 256 + ((lo >>> 16) & 0xff)]! ^
      t[4 * 256 + (lo >>> 24)]! ^
      t[3 * 256 + data[i + 4]!]! ^
      t[2 * 256 + data[i + 5]!]! ^
      t[256 + data[i + 6]!]! ^
      t[data[i + 7]!]!;
    i += 8;
  }
  while (i < n) c = t[(c ^ data[i++]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

type NativeCrc = (input: Buffer, initial?: number) => number;

const native: NativeCrc | null = (() => {
  try {
    const mod = createRequire(import.meta.url)('@node-rs/crc32') as { crc32c: NativeCrc };
    return mod.crc32c(Buffer.from('123456789')) === 0xe3069283 ? mod.crc32c : null;
  } catch {
    return null;
  }
})();

/** Which implementation `crc32c` uses (reported by benchmarks). */
export const crc32cImplementation: 'native' | 'js' = native ? 'native' : 'js';

export function crc32c(data: Uint8Array, crc = 0): number {
  if (native) {
    const buf = Buffer.isBuffer(data)
      ? data
      : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return native(buf, crc) >>> 0;
  }
  return crc32cJs(data, crc);
}
