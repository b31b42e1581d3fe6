import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32c, crc32cJs } from './crc32c.js';

const ascii = (s: string) => Buffer.from(s, 'latin1');

describe('CRC-32C', () => {
  // Known-answer vectors: the check value from the CRC catalogue and RFC 3720 (iSCSI) appendix B.4.
  const vectors: [string, Uint8Array, number][] = [
    ['"123456789"', ascii('123456789'), 0xe3069283],
    ['empty', new Uint8Array(0), 0],
    ['32 bytes of zeros', new Uint8Array(32), 0x8a9136aa],
    ['32 bytes of 0xff', new Uint8Array(32).fill(0xff), 0x62a8ab43],
    ['32 ascending bytes', Uint8Array.from({ length: 32 }, (_, i) => i), 0x46dd794e],
    ['32 descending bytes', Uint8Array.from({ length: 32 }, (_, i) => 31 - i), 0x113fdb5c],
  ];
  it.each(vectors)('%s', (_name, data, expected) => {
    expect(crc32cJs(data)).toBe(expected);
    expect(crc32c(data)).toBe(expected);
  });

  it('continues across chunks and matches the native implementation on any input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(300), (data, cut) => {
        const at = Math.min(cut, data.length);
        const whole = crc32cJs(data);
        expect(crc32cJs(data.subarray(at), crc32cJs(data.subarray(0, at)))).toBe(whole);
        expect(crc32c(data)).toBe(whole);
      }),
    );
  });
});
