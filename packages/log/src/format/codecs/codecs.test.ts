import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LogErrorCode } from '../../errors.js';
import {
  COMPRESSION_CODES,
  COMPRESSION_TYPES,
  compress,
  compressSync,
  decompressSync,
  isCompressionAvailable,
} from '../compression.js';
import { snappy, XERIAL_BLOCK_SIZE } from './xerial-snappy.js';
import { zstdDecompressedBound } from './zstd-frame-bound.js';
import { decompressZstd } from './zstd.js';

/** Text-like data: compressible, but not trivially (words from a small vocabulary, random order). */
function textLike(size: number): Buffer {
  const words = ['order', 'user-17', '"amount":', '42.50', 'EUR', 'shipped', '{', '}', ','];
  const noise = randomBytes(size);
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n <= size; i++) {
    const w = words[noise[i % size]! % words.length]!;
    parts.push(w);
    n += w.length + 1;
  }
  return Buffer.from(parts.join(' ')).subarray(0, size);
}

const SAMPLES: [string, Buffer][] = [
  ['empty', Buffer.alloc(0)],
  ['one byte', Buffer.from([7])],
  ['incompressible 300 KiB', randomBytes(300 * 1024)],
  ['text 1 MiB', textLike(1024 * 1024)],
];

describe('codecs', () => {
  it.each(COMPRESSION_TYPES)('%s loads', (codec) => {
    expect(isCompressionAvailable(codec)).toBe(true);
  });

  for (const codec of COMPRESSION_TYPES) {
    it.each(SAMPLES)(`${codec} round-trips %s (sync and async)`, async (_name, data) => {
      const code = COMPRESSION_CODES[codec];
      expect(decompressSync(code, compressSync(codec, data)).equals(data)).toBe(true);
      expect(decompressSync(code, await compress(codec, data)).equals(data)).toBe(true);
    });
  }

  it('writes snappy as snappy-java does: xerial header, 32 KiB blocks, each length-prefixed', () => {
    const data = textLike(100 * 1024);
    const out = compressSync('snappy', data);
    expect([...out.subarray(0, 16)]).toEqual([
      0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1,
    ]);
    const blocks: Buffer[] = [];
    for (let at = 16; at < out.length;) {
      const n = out.readInt32BE(at);
      blocks.push(snappy().uncompressSync(out.subarray(at + 4, at + 4 + n), { asBuffer: true }));
      at += 4 + n;
    }
    expect(blocks.map((b) => b.length)).toEqual([
      XERIAL_BLOCK_SIZE,
      XERIAL_BLOCK_SIZE,
      XERIAL_BLOCK_SIZE,
      100 * 1024 - 3 * XERIAL_BLOCK_SIZE,
    ]);
    expect(Buffer.concat(blocks).equals(data)).toBe(true);
  });

  it('reads raw snappy (one block, as librdkafka writes) too', () => {
    const data = textLike(50_000);
    const raw = snappy().compressSync(data);
    expect(decompressSync(COMPRESSION_CODES.snappy, raw).equals(data)).toBe(true);
  });

  it("writes lz4 as Kafka's LZ4 frame: version 1, independent blocks, no checksums or size", () => {
    const out = compressSync('lz4', textLike(10_000));
    expect(out.readUInt32LE(0)).toBe(0x184d2204);
    const flg = out[4]!;
    expect(flg >> 6).toBe(1); // version
    expect(flg & 0x20).toBe(0x20); // block independence
    expect(flg & 0x10).toBe(0); // no block checksums
    expect(flg & 0x08).toBe(0); // no content size
    expect(flg & 0x04).toBe(0); // no content checksum
    expect([4, 5, 6, 7]).toContain((out[5]! >> 4) & 7); // a block size the format defines
  });

  it('bounds zstd frames without a content size from their blocks, as Java writes them', () => {
    // A frame as a streaming compressor writes it: no content size, a 1 MiB window, then a raw
    // block "hello", an RLE block of 1000 × 'z' (last).
    const raw = Buffer.from('hello');
    const frame = Buffer.concat([
      Buffer.from([0x28, 0xb5, 0x2f, 0xfd]),
      Buffer.from([0x00]), // descriptor: no content size, not single-segment, no checksum
      Buffer.from([(20 - 10) << 3]), // window 1 MiB
      blockHeader(false, 0, raw.length),
      raw,
      blockHeader(true, 1, 1000),
      Buffer.from('z'),
    ]);
    expect(zstdDecompressedBound(frame)).toBe(1005);
    const skippable = Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const both = Buffer.concat([skippable, frame, frame]);
    expect(zstdDecompressedBound(both)).toBe(2010);
    expect(decompressZstd(both).toString()).toBe(`hello${'z'.repeat(1000)}`.repeat(2));
  });

  it('names the codec and the damage when compressed records are corrupt', () => {
    for (const codec of ['gzip', 'snappy', 'lz4', 'zstd'] as const) {
      const good = compressSync(codec, textLike(20_000));
      const bad = good.subarray(0, Math.floor(good.length / 2));
      let caught: { code?: string; message?: string } = {};
      try {
        decompressSync(COMPRESSION_CODES[codec], bad);
      } catch (error) {
        caught = error as typeof caught;
      }
      expect(caught.code).toBe(LogErrorCode.CORRUPT_MESSAGE);
      expect(caught.message).toMatch(new RegExp(codec));
    }
    expect(() => decompressSync(5, Buffer.alloc(3))).toThrow(/codec 5 is not one of Kafka's/);
  });
});

function blockHeader(last: boolean, type: number, size: number): Buffer {
  const h = (last ? 1 : 0) | (type << 1) | (size << 3);
  return Buffer.from([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff]);
}
