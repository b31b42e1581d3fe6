// The integer / long / string serdes decode and encode by hand on the record path; these
// properties hold them to the reference encodings (DataView's big-endian int32 / int64, Buffer's
// UTF-8), which the Java byte vectors in java-serdes.test.ts and serdes.test.ts pin to Kafka.
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { integerSerde, longSerde, stringSerde } from './index.js';

const viewInt64 = (v: bigint): Uint8Array => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, v, false);
  return out;
};

describe('serde fast paths', () => {
  it('integer: every int32 encodes as DataView.setInt32 and decodes back', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2147483648, max: 2147483647 }), (v) => {
        const bytes = integerSerde.serialize(v)!;
        const ref = new Uint8Array(4);
        new DataView(ref.buffer).setInt32(0, v, false);
        expect([...bytes]).toEqual([...ref]);
        expect(integerSerde.deserialize(bytes)).toBe(v);
      }),
    );
  });

  it('long: every safe integer encodes as setBigInt64, every int64 decodes as getBigInt64', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        (v) => {
          expect([...longSerde.serialize(v)!]).toEqual([...viewInt64(BigInt(v))]);
          expect(longSerde.deserialize(viewInt64(BigInt(v)))).toBe(v);
        },
      ),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (v) => {
        const back = longSerde.deserialize(viewInt64(v))!;
        expect(BigInt(back)).toBe(v);
        // numbers exactly when safe, as the serde documents
        expect(typeof back).toBe(
          v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
            ? 'number'
            : 'bigint',
        );
      }),
    );
    for (const edge of [
      2n ** 53n - 1n,
      2n ** 53n,
      -(2n ** 53n) + 1n,
      -(2n ** 53n),
      2n ** 32n,
      -(2n ** 32n),
      -1n,
    ]) {
      expect(BigInt(longSerde.deserialize(viewInt64(edge))!)).toBe(edge);
    }
  });

  it('string: decodes like Buffer#toString, invalid UTF-8 and a leading BOM included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(stringSerde.deserialize(bytes)).toBe(Buffer.from(bytes).toString('utf8'));
      }),
    );
    expect(stringSerde.deserialize(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('\ufeffa');
  });
});
