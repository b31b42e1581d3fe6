import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeserializationError, SerializationError } from '../errors.js';
import { avroSerde } from './avro-serde.js';
import { getSerde } from './index.js';

const hex = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));
const bytes = (h: string) => Buffer.from(h, 'hex');

describe('integer serde (Java IntegerSerializer: 4 bytes big-endian two’s complement)', () => {
  const int = getSerde('integer');
  it.each([
    [0, '00000000'],
    [1, '00000001'],
    [-1, 'ffffffff'],
    [256, '00000100'],
    [2147483647, '7fffffff'],
    [-2147483648, '80000000'],
  ])('%s ↔ %s', (value, h) => {
    expect(hex(int.serialize(value))).toBe(h);
    expect(int.deserialize(bytes(h))).toBe(value);
  });

  it('round-trips every int32 and refuses what Java’s int cannot hold', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (v) => {
        expect(int.deserialize(int.serialize(v))).toBe(v);
      }),
    );
    expect(() => int.serialize(2 ** 31)).toThrow(SerializationError);
    expect(() => int.serialize(1.5)).toThrow(SerializationError);
    expect(() => int.serialize('1')).toThrow(SerializationError);
    expect(() => int.deserialize(new Uint8Array(8))).toThrow(DeserializationError);
    expect(int.serialize(null)).toBeNull();
  });

  it('gives every call bytes of its own, kept intact by later calls (views into shared blocks)', () => {
    // More calls than one block holds, all kept: none may overwrite another.
    const values = Array.from({ length: 1000 }, (_, i) => (i * 2654435761) | 0);
    const serialized = values.map((v) => int.serialize(v)!);
    for (const [i, b] of serialized.entries()) {
      expect(b.byteLength).toBe(4);
      expect(int.deserialize(b)).toBe(values[i]);
      expect(hex(b)).toBe(
        Buffer.from(new Int32Array([values[i]!]).buffer)
          .reverse()
          .toString('hex'),
      );
    }
  });
});

describe('double serde (Java DoubleSerializer: doubleToLongBits, big-endian)', () => {
  const dbl = getSerde('double');
  it.each([
    [1, '3ff0000000000000'],
    [-2, 'c000000000000000'],
    [0.1, '3fb999999999999a'],
    [-0, '8000000000000000'],
    [Infinity, '7ff0000000000000'],
    [NaN, '7ff8000000000000'],
  ])('%s → %s', (value, h) => {
    expect(hex(dbl.serialize(value))).toBe(h);
    expect(Object.is(dbl.deserialize(bytes(h)), value)).toBe(true);
  });

  it('round-trips every double and checks sizes', () => {
    fc.assert(
      fc.property(fc.double(), (v) => {
        expect(Object.is(dbl.deserialize(dbl.serialize(v)), v)).toBe(true);
      }),
    );
    expect(() => dbl.deserialize(new Uint8Array(4))).toThrow(DeserializationError);
    expect(() => dbl.serialize('x')).toThrow(SerializationError);
  });
});

describe('avro serde (binary encoding of one datum, schema from the topology)', () => {
  // The example of the Avro specification ("Binary Encoding" → Complex Types → Records):
  // a = 27 encodes as 36, b = "foo" as 06 66 6f 6f, the record as their concatenation.
  const schema = {
    type: 'record',
    name: 'test',
    fields: [
      { name: 'a', type: 'long' },
      { name: 'b', type: 'string' },
    ],
  };
  const serde = avroSerde<{ a: number; b: string }>(schema);

  it('encodes the specification’s example byte for byte and decodes it to a plain object', () => {
    expect(hex(serde.serialize({ a: 27, b: 'foo' }))).toBe('3606666f6f');
    const back = serde.deserialize(bytes('3606666f6f'));
    expect(back).toEqual({ a: 27, b: 'foo' });
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });

  it('zig-zag longs as in the specification', () => {
    const long = avroSerde<number>('long');
    expect([0, -1, 1, -2, 2, -64, 64].map((v) => hex(long.serialize(v)))).toEqual([
      '00',
      '01',
      '02',
      '03',
      '04',
      '7f',
      '8001',
    ]);
  });

  it('refuses values that do not match, names the field, and reports undecodable bytes', () => {
    expect(() => serde.serialize({ a: 'x', b: 'foo' } as never)).toThrow(/field a/);
    expect(() => serde.deserialize(bytes('36'))).toThrow(DeserializationError);
    expect(serde.serialize(null)).toBeNull();
    expect(() => avroSerde({ type: 'record', fields: 'nope' })).toThrow(SerializationError);
  });
});
