import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RuntimeError } from '../errors.js';
import { decodeBytes, encodeText } from './record-codec.js';

describe('encodeText', () => {
  it('parses text per serde', () => {
    expect(new TextDecoder().decode(encodeText('{"a": 1}', 'json', 'value')!)).toBe('{"a":1}');
    expect(new TextDecoder().decode(encodeText('héllo', 'string', 'key')!)).toBe('héllo');
    // Java's LongSerializer: 8 bytes, big-endian, two's complement.
    expect([...encodeText('-2', 'long', 'key')!]).toEqual([255, 255, 255, 255, 255, 255, 255, 254]);
    expect([...encodeText('9223372036854775807', 'long', 'key')!]).toEqual([
      127, 255, 255, 255, 255, 255, 255, 255,
    ]);
    expect([...encodeText('AQID', 'bytes', 'value')!]).toEqual([1, 2, 3]);
    expect(encodeText(null, 'json', 'value')).toBeNull();
  });

  it('refuses text the serde cannot take, naming the field', () => {
    const cases: [string, Parameters<typeof encodeText>[1], 'key' | 'value', RegExp][] = [
      ['{"a":', 'json', 'value', /^value: not valid JSON/],
      ['1.5', 'long', 'key', /^key: the long serde needs an integer/],
      ['9223372036854775808', 'long', 'key', /^key: .* outside the range of a 64-bit long/],
      ['not base64!', 'bytes', 'value', /^value: the bytes serde takes base64/],
    ];
    for (const [text, serde, field, message] of cases) {
      let thrown: unknown;
      try {
        encodeText(text, serde, field);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RuntimeError);
      expect((thrown as RuntimeError).code).toBe('BAD_RECORD');
      expect((thrown as RuntimeError).message).toMatch(message);
    }
  });
});

describe('decodeBytes', () => {
  it('round-trips what encodeText wrote', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(value !== null);
        const text = JSON.stringify(value);
        const decoded = decodeBytes(encodeText(text, 'json', 'value'), 'json');
        expect(decoded).toEqual({ value: JSON.parse(text), undecodable: false });
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (long) => {
        const decoded = decodeBytes(encodeText(long.toString(), 'long', 'key'), 'long');
        const safe =
          long >= BigInt(Number.MIN_SAFE_INTEGER) && long <= BigInt(Number.MAX_SAFE_INTEGER);
        // Beyond ±2^53 a JSON number would lose digits, so the value travels as a string.
        expect(decoded).toEqual({
          value: safe ? Number(long) : long.toString(),
          undecodable: false,
        });
      }),
    );
  });

  it('shows bytes the serde cannot decode as base64, flagged', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x00]);
    expect(decodeBytes(bytes, 'json')).toEqual({ value: '//4A', undecodable: true });
    expect(decodeBytes(bytes, 'string')).toEqual({ value: '//4A', undecodable: true });
    expect(decodeBytes(bytes, 'long')).toEqual({ value: '//4A', undecodable: true });
    expect(decodeBytes(bytes, 'bytes')).toEqual({ value: '//4A', undecodable: false });
    expect(decodeBytes(null, 'json')).toEqual({ value: null, undecodable: false });
  });
});
