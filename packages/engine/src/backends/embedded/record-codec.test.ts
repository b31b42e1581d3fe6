import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRecords, encodeRecords, type LogRecord } from './record-codec.js';

const bytesOrNull = fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null });
const record = fc.record({
  offset: fc.nat({ max: 2 ** 40 }),
  timestamp: fc.integer({ min: 0, max: 2 ** 45 }),
  key: bytesOrNull,
  value: bytesOrNull,
  headers: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
});
const records = fc.array(record, { maxLength: 8 }).map((rs) => rs.map((r) => ({ topic: 't', partition: 0, ...r }) as LogRecord));

const plain = (rs: LogRecord[]) =>
  rs.map((r) => ({ ...r, key: r.key && [...r.key], value: r.value && [...r.value], headers: { ...r.headers } }));

describe('segment record frames', () => {
  it('decode(encode(records)) gives the records back', () => {
    fc.assert(
      fc.property(records, (rs) => {
        const decoded = decodeRecords(encodeRecords(rs), 't', 0);
        expect(plain(decoded.records.map((d) => d.record))).toEqual(plain(rs));
      }),
    );
  });

  it('a torn or corrupted file decodes to a prefix of what was written, never to garbage', () => {
    fc.assert(
      fc.property(records, fc.nat(), fc.option(fc.nat(), { nil: null }), (rs, cut, flip) => {
        const buf = encodeRecords(rs);
        const damaged = Buffer.from(buf.subarray(0, buf.length === 0 ? 0 : cut % (buf.length + 1)));
        if (flip !== null && damaged.length > 0) damaged[flip % damaged.length]! ^= 0xff;
        const decoded = decodeRecords(damaged, 't', 0).records.map((d) => d.record);
        expect(plain(decoded)).toEqual(plain(rs.slice(0, decoded.length)));
      }),
      { numRuns: 500 },
    );
  });
});
