import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeField, encodeField, FormatError, RECORD_FORMATS } from './record-format.js';

describe('record formats', () => {
  it('round-trips what each format takes', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(decodeField(encodeField(text, 'string', 'value'), 'string')).toEqual({
          value: text,
          undecodable: false,
        });
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        if (value === null) return;
        const decoded = decodeField(encodeField(value, 'json', 'value'), 'json');
        // JSON has no -0: it comes back as 0, as JSON.parse(JSON.stringify(-0)) does.
        expect(decoded).toEqual({ value: JSON.parse(JSON.stringify(value)), undecodable: false });
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array(), (bytes) => {
        const base64 = Buffer.from(bytes).toString('base64');
        expect(decodeField(encodeField(base64, 'base64', 'key'), 'base64')).toEqual({
          value: base64,
          undecodable: false,
        });
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (long) => {
        const decoded = decodeField(encodeField(long.toString(), 'long', 'key'), 'long');
        const safe =
          long >= BigInt(Number.MIN_SAFE_INTEGER) && long <= BigInt(Number.MAX_SAFE_INTEGER);
        expect(decoded.value).toEqual(safe ? Number(long) : long.toString());
      }),
    );
  });

  it('writes a long as 8 big-endian bytes, as Java does', () => {
    expect([...encodeField(-2, 'long', 'key')!]).toEqual([255, 255, 255, 255, 255, 255, 255, 254]);
    expect([...encodeField(258, 'long', 'key')!]).toEqual([0, 0, 0, 0, 0, 0, 1, 2]);
  });

  it('keeps null a null key or value in every format', () => {
    for (const format of RECORD_FORMATS) {
      expect(encodeField(null, format, 'value')).toBeNull();
      expect(decodeField(null, format)).toEqual({ value: null, undecodable: false });
    }
  });

  it('refuses what a format cannot take, naming the field', () => {
    expect(() => encodeField(5, 'string', 'key')).toThrow(FormatError);
    expect(() => encodeField(5, 'string', 'key')).toThrow(
      /^key: the string format takes a JSON string/,
    );
    expect(() => encodeField({}, 'base64', 'value')).toThrow(
      /value: the base64 format takes a string, got an object/,
    );
    expect(() => encodeField('a?b', 'base64', 'value')).toThrow(/base64/);
    expect(() => encodeField(1.5, 'long', 'key')).toThrow(/key: the long format takes an integer/);
    expect(() => encodeField('9223372036854775808', 'long', 'key')).toThrow(
      /outside the range of a 64-bit long/,
    );
  });

  it('flags bytes that do not decode in the format, showing them as base64', () => {
    const bytes = new Uint8Array([0xc3, 0x28]);
    expect(decodeField(bytes, 'string')).toEqual({ value: 'wyg=', undecodable: true });
    expect(decodeField(new TextEncoder().encode('{oops'), 'json')).toEqual({
      value: 'e29vcHM=',
      undecodable: true,
    });
    expect(decodeField(new Uint8Array([1, 2]), 'long')).toEqual({
      value: 'AQI=',
      undecodable: true,
    });
  });
});
