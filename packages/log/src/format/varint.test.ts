import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Reader,
  readInt64,
  varintSize,
  varlongSize,
  writeInt64,
  writeVarint,
  writeVarlong,
} from './varint.js';

describe('zig-zag varints', () => {
  // Bytes as produced by Kafka's ByteUtils.writeVarint / writeVarlong (protobuf zig-zag).
  it.each([
    [0, [0x00]],
    [-1, [0x01]],
    [1, [0x02]],
    [63, [0x7e]],
    [-64, [0x7f]],
    [64, [0x80, 0x01]],
    [300, [0xd8, 0x04]],
    [2147483647, [0xfe, 0xff, 0xff, 0xff, 0x0f]],
    [-2147483648, [0xff, 0xff, 0xff, 0xff, 0x0f]],
  ])('varint %d', (value, bytes) => {
    const buf = new Uint8Array(10);
    expect(writeVarint(buf, 0, value)).toBe(bytes.length);
    expect([...buf.subarray(0, bytes.length)]).toEqual(bytes);
    expect(varintSize(value)).toBe(bytes.length);
    expect(new Reader(buf, 0, bytes.length).varint()).toBe(value);
  });

  it('round-trips every int32 and every long of magnitude below 2^52', () => {
    const limit = 2 ** 52 - 1;
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -limit, max: limit }), (i, l) => {
        const buf = new Uint8Array(20);
        const end = writeVarlong(buf, writeVarint(buf, 0, i), l);
        expect(end).toBe(varintSize(i) + varlongSize(l));
        const r = new Reader(buf, 0, end);
        expect(r.varint()).toBe(i);
        expect(r.varlong()).toBe(l);
      }),
    );
  });

  it('refuses a varint that runs past the end', () => {
    expect(() => new Reader(Uint8Array.of(0x80, 0x80), 0, 2).varint()).toThrow(RangeError);
  });

  it('writes int64 big-endian like Java', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (v) => {
        const buf = Buffer.alloc(8);
        writeInt64(new DataView(buf.buffer), 0, v);
        expect(buf.readBigInt64BE(0)).toBe(BigInt(v));
        expect(readInt64(new DataView(buf.buffer), 0)).toBe(v);
      }),
    );
  });
});
