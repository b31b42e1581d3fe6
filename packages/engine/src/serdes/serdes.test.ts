import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeserializationError, SerializationError } from '../errors.js';
import { getSerde } from './index.js';

const hex = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));

describe('long serde (Java LongSerializer: 8 bytes big-endian two’s complement)', () => {
  const long = getSerde('long');
  it.each([
    [0, '0000000000000000'],
    [1, '0000000000000001'],
    [-1, 'ffffffffffffffff'],
    [256, '0000000000000100'],
    [Number.MAX_SAFE_INTEGER, '001fffffffffffff'],
    [9223372036854775807n, '7fffffffffffffff'],
    [-9223372036854775808n, '8000000000000000'],
  ])('%s → %s', (value, bytes) => {
    expect(hex(long.serialize(value))).toBe(bytes);
  });

  it('returns numbers when safe and bigints beyond ±2^53-1', () => {
    expect(long.deserialize(Buffer.from('0000000000000003', 'hex'))).toBe(3);
    expect(long.deserialize(Buffer.from('7fffffffffffffff', 'hex'))).toBe(9223372036854775807n);
  });

  it('round-trips every int64', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (v) => {
        const back = long.deserialize(long.serialize(v));
        expect(BigInt(back as number | bigint)).toBe(v);
      }),
    );
  });

  it('refuses non-integers and wrong sizes with typed errors', () => {
    expect(() => long.serialize(1.5)).toThrow(SerializationError);
    expect(() => long.serialize('7')).toThrow(SerializationError);
    expect(() => long.serialize(2n ** 63n)).toThrow(SerializationError);
    expect(() => long.deserialize(new Uint8Array(4))).toThrow(DeserializationError);
  });
});

describe('string, json and bytes serdes', () => {
  it('string is UTF-8 and maps null to null', () => {
    const s = getSerde('string');
    expect(hex(s.serialize('héllo'))).toBe(Buffer.from('héllo', 'utf8').toString('hex'));
    expect(s.deserialize(Buffer.from('日本', 'utf8'))).toBe('日本');
    expect(s.serialize(null)).toBeNull();
    expect(s.deserialize(null)).toBeNull();
    expect(() => s.serialize(42)).toThrow(SerializationError);
  });

  it('json round-trips JSON values and reports malformed input', () => {
    const j = getSerde('json');
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        // JSON has no -0; JSON.parse(JSON.stringify(-0)) is 0, as in every JSON serde.
        expect(j.deserialize(j.serialize(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
    expect(j.serialize(null)).toBeNull();
    expect(() => j.deserialize(Buffer.from('{"a":'))).toThrow(DeserializationError);
    expect(Buffer.from(j.serialize({ n: 5n })!).toString()).toBe('{"n":5}');
    expect(() => j.serialize({ n: 2n ** 60n })).toThrow(SerializationError);
  });

  it('bytes passes bytes through', () => {
    const b = getSerde('bytes');
    const data = new Uint8Array([1, 2, 3]);
    expect(b.deserialize(b.serialize(data))).toEqual(data);
    expect(() => b.serialize('x')).toThrow(SerializationError);
  });
});
