// The engine decodes the log's Kafka v2 batches itself (one object per record); it must read every
// batch exactly as the log's own decoder does.
import { decodeRecords, encodeBatch, readBatchHeader } from '@streamwright/log';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../backend-spi.js';
import { decodeBatchInto, NO_HEADERS } from './batch-records.js';

const bytes = fc.option(fc.uint8Array({ maxLength: 300 }), { nil: null });
const record = fc.record({
  key: bytes,
  value: bytes,
  timestampDelta: fc.integer({ min: 0, max: 2 ** 40 }),
  headers: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
});

describe('batch records', () => {
  it('decodes every batch as the log does, from any offset inside it', () => {
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
        fc.constantFrom('none', 'gzip'),
        fc.nat(),
        (records, baseOffset, baseTs, compression, skip) => {
          const batch = encodeBatch(
            records.map((r) => ({
              key: r.key,
              value: r.value,
              timestamp: baseTs + r.timestampDelta,
              headers: r.headers,
            })),
            { baseOffset, compression: compression as 'none' },
          );
          const header = readBatchHeader(batch, 0);
          const from = baseOffset + (skip % (records.length + 1));
          const ours: StoredRecord[] = [];
          decodeBatchInto(batch, header, 't', 3, from, ours);
          const theirs = decodeRecords(batch, 0, header).filter((r) => r.offset >= from);
          expect(
            ours.map((r) => ({ ...r, key: r.key && [...r.key], value: r.value && [...r.value] })),
          ).toEqual(
            theirs.map((r) => ({
              topic: 't',
              partition: 3,
              offset: r.offset,
              timestamp: r.timestamp,
              key: r.key && [...r.key],
              value: r.value && [...r.value],
              headers: r.headers,
            })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives records without headers one shared frozen empty object, and others their own', () => {
    const batch = encodeBatch(
      [
        { key: null, value: new Uint8Array([1]), timestamp: 1, headers: {} },
        { key: null, value: new Uint8Array([2]), timestamp: 2, headers: { h: 'v' } },
        { key: null, value: new Uint8Array([3]), timestamp: 3, headers: {} },
      ],
      { baseOffset: 0 },
    );
    const out: StoredRecord[] = [];
    decodeBatchInto(batch, readBatchHeader(batch, 0), 't', 0, 0, out);
    expect(out[0]!.headers).toBe(NO_HEADERS);
    expect(out[2]!.headers).toBe(NO_HEADERS);
    expect(Object.isFrozen(NO_HEADERS)).toBe(true);
    expect(Object.keys(NO_HEADERS)).toEqual([]);
    expect(out[1]!.headers).toEqual({ h: 'v' });
    expect(Object.isFrozen(out[1]!.headers)).toBe(false);
  });
});
