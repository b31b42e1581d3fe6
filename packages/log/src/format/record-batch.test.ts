import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BATCH_HEADER_SIZE,
  checkBatch,
  controlTypeOf,
  decodeRecords,
  encodeBatch,
  encodeControlRecord,
  isControl,
  isTransactional,
  lastOffsetOf,
  readBatchHeader,
  setBaseOffset,
  setLogAppendTime,
  type RecordInput,
} from './record-batch.js';
import { headerEntries, headersOf } from './headers.js';
import { crc32c } from './crc32c.js';

const b = (s: string) => Buffer.from(s);

const recordArb: fc.Arbitrary<RecordInput> = fc.record({
  key: fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null }),
  value: fc.option(fc.uint8Array({ maxLength: 200 }), { nil: null }),
  timestamp: fc.integer({ min: 0, max: 4_000_000_000_000 }),
  headers: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 16 }), { maxKeys: 3 }),
});

const manyHeaders = Object.fromEntries(
  Array.from({ length: 100 }, (_, i) => [`h${i}`, 'x'.repeat(i)]),
);

describe('record batch v2', () => {
  it('lays out the fixed header as Kafka does', () => {
    const batch = encodeBatch([{ key: b('k'), value: b('v'), timestamp: 1000 }], {
      baseOffset: 42,
    });
    expect(batch.readBigInt64BE(0)).toBe(42n); // baseOffset
    expect(batch.readInt32BE(8)).toBe(batch.length - 12); // batchLength
    expect(batch.readInt8(16)).toBe(2); // magic
    expect(batch.readUInt32BE(17)).toBe(crc32c(batch.subarray(21))); // CRC-32C from attributes on
    expect(batch.readInt16BE(21)).toBe(0); // attributes: no compression, CreateTime
    expect(batch.readBigInt64BE(43)).toBe(-1n); // producerId of a non-idempotent producer
    expect(batch.readInt32BE(57)).toBe(1); // record count
    // record: length 8 | attrs 0 | tsDelta 0 | offsetDelta 0 | key len 1 "k" | value len 1 "v" | 0 headers
    expect([...batch.subarray(BATCH_HEADER_SIZE)]).toEqual([16, 0, 0, 0, 2, 0x6b, 2, 0x76, 0]);
  });

  it.each(['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const)(
    'round-trips records with %s compression',
    (compression) => {
      fc.assert(
        fc.property(
          fc.array(recordArb, { minLength: 1, maxLength: 20 }),
          fc.integer({ min: 0, max: 2 ** 52 }),
          (records, base) => {
            const batch = encodeBatch(records, { compression, baseOffset: base });
            expect(checkBatch(batch, 0, batch.length)).toBeNull();
            const h = readBatchHeader(batch);
            expect(h.sizeInBytes).toBe(batch.length);
            expect(lastOffsetOf(h)).toBe(base + records.length - 1);
            expect(h.maxTimestamp).toBe(Math.max(...records.map((r) => r.timestamp)));
            const decoded = decodeRecords(batch, 0);
            expect(decoded.map((r) => r.offset)).toEqual(records.map((_, i) => base + i));
            decoded.forEach((r, i) => {
              const want = records[i]!;
              expect(r.timestamp).toBe(want.timestamp);
              expect(r.key === null ? null : [...r.key]).toEqual(
                want.key === null ? null : [...want.key],
              );
              expect(r.value === null ? null : [...r.value]).toEqual(
                want.value === null ? null : [...want.value],
              );
              expect(r.headers).toEqual(want.headers);
            });
          },
        ),
        { numRuns: 60 },
      );
    },
  );

  it('keeps large keys, values and many headers intact (multi-byte varints)', () => {
    const key = Buffer.alloc(300, 1);
    const value = Buffer.alloc(70_000, 2);
    const batch = encodeBatch([
      { key, value, timestamp: 10_000_000, headers: manyHeaders },
      { key: null, value: null, timestamp: 0 },
    ]);
    const [a, b] = decodeRecords(batch, 0);
    expect(Buffer.compare(Buffer.from(a!.key!), key)).toBe(0);
    expect(Buffer.compare(Buffer.from(a!.value!), value)).toBe(0);
    expect(a!.headers).toEqual(manyHeaders);
    expect([b!.key, b!.value, b!.timestamp]).toEqual([null, null, 0]);
  });

  it('assigns offsets without touching the CRC, and stamps LogAppendTime with a fresh CRC', () => {
    const batch = encodeBatch([
      { key: null, value: b('a'), timestamp: 5 },
      { key: null, value: b('b'), timestamp: 9 },
    ]);
    setBaseOffset(batch, 1000);
    expect(checkBatch(batch, 0, batch.length)).toBeNull();
    setLogAppendTime(batch, 777);
    expect(checkBatch(batch, 0, batch.length)).toBeNull();
    expect(decodeRecords(batch, 0).map((r) => [r.offset, r.timestamp])).toEqual([
      [1000, 777],
      [1001, 777],
    ]);
  });

  it('detects any flipped bit after the length field', () => {
    const batch = encodeBatch([{ key: b('key'), value: b('value'), timestamp: 1 }], {
      compression: 'gzip',
    });
    for (let i = 16; i < batch.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const copy = Buffer.from(batch);
        copy[i]! ^= 1 << bit;
        expect(checkBatch(copy, 0, copy.length), `byte ${i} bit ${bit}`).not.toBeNull();
      }
    }
  });

  it('reports a truncated batch', () => {
    const batch = encodeBatch([{ key: null, value: b('xyz'), timestamp: 1 }]);
    expect(checkBatch(batch, 0, batch.length - 1)).toMatch(/past the end/);
    expect(checkBatch(batch, 0, 30)).toMatch(/truncated/);
  });

  it('keeps offsets of a compacted batch, with a delete horizon and negative timestamp deltas', () => {
    const batch = encodeBatch(
      [
        { key: b('a'), value: null, timestamp: 100 },
        { key: b('b'), value: b('2'), timestamp: 200 },
      ],
      { baseOffset: 10, offsetDeltas: [3, 7], lastOffsetDelta: 9, deleteHorizonMs: 5000 },
    );
    const h = readBatchHeader(batch);
    expect(lastOffsetOf(h)).toBe(19);
    expect(decodeRecords(batch, 0).map((r) => [r.offset, r.timestamp])).toEqual([
      [13, 100],
      [17, 200],
    ]);
  });

  it('encodes transaction markers as control batches', () => {
    const batch = encodeBatch([encodeControlRecord('COMMIT', 5)], {
      control: true,
      transactional: true,
      producerId: 7,
      producerEpoch: 2,
    });
    const h = readBatchHeader(batch);
    expect(isControl(h) && isTransactional(h)).toBe(true);
    expect([h.producerId, h.producerEpoch]).toEqual([7, 2]);
    expect(controlTypeOf(decodeRecords(batch, 0)[0]!)).toBe('COMMIT');
  });
});

describe('exact headers', () => {
  const header = fc.record({
    key: fc.string({ maxLength: 8 }),
    value: fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null }),
  });
  it.each(['none', 'zstd'] as const)(
    'keep binary and null values, repeated keys and order (%s)',
    (compression) => {
      fc.assert(
        fc.property(
          fc.array(fc.array(header, { maxLength: 5 }), { minLength: 1, maxLength: 10 }),
          (lists) => {
            const batch = encodeBatch(
              lists.map((hs, i) => ({
                key: null,
                value: null,
                timestamp: i,
                headers: headersOf(hs),
              })),
              { compression },
            );
            expect(checkBatch(batch, 0, batch.length)).toBeNull();
            const decoded = decodeRecords(batch, 0);
            decoded.forEach((r, i) => {
              const want = lists[i]!.map((h) => ({ key: h.key, value: h.value && [...h.value] }));
              const got = headerEntries(r.headers).map((h) => ({
                key: h.key,
                value: h.value && [...h.value],
              }));
              expect(got).toEqual(want);
            });
          },
        ),
      );
    },
  );
});
