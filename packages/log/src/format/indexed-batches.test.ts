// The producer's one-pass encoder must write exactly the bytes of the general encoder
// (encodeBatchSequence) for the same batches, split where its documented estimate says.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchEncoder } from '../batch-encoder.js';
import { encodeIndexedBatches } from './indexed-batches.js';
import {
  decodeRecords,
  encodeBatchSequence,
  readBatchHeader,
  type RecordInput,
} from './record-batch.js';

const bytes = fc.option(fc.uint8Array({ maxLength: 300 }), { nil: null });
const recordArb = fc.record({
  key: bytes,
  value: bytes,
  // Deltas of every varlong width, before and after the first record (negative deltas too).
  timestamp: fc.oneof(
    fc.integer({ min: 1_700_000_000_000, max: 1_700_000_000_100 }),
    fc.integer({ min: 0, max: 4_000_000_000_000 }),
  ),
});

/** The split the general path makes (batch-encoder's split()), for records without headers. */
function splitByEstimate(records: RecordInput[], maxBytes: number, overhead: number) {
  const out: RecordInput[][] = [];
  let current: RecordInput[] = [];
  let size = 0;
  for (const r of records) {
    const n = overhead + (r.key?.length ?? 0) + (r.value?.length ?? 0);
    if (current.length > 0 && size + n > maxBytes) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(r);
    size += n;
  }
  if (current.length > 0) out.push(current);
  return out;
}

describe('one-pass batch encoding', () => {
  it('writes the bytes of encodeBatchSequence, split at the same records', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.boolean(),
        fc.nat(),
        (all, maxBytes, transactional, seed) => {
          // A subset of the records, in order, picked by index (as a partition's share of a produce).
          const indexes = all.map((_, i) => i).filter((i) => i === 0 || (seed >> (i % 30)) & 1);
          const timestamps = Float64Array.from(all, (r) => r.timestamp);
          const options = transactional
            ? { compression: 'none' as const, producerId: 7, producerEpoch: 2, transactional: true }
            : { compression: 'none' as const };
          const ours = encodeIndexedBatches(
            all,
            indexes,
            timestamps,
            { maxBytes, recordOverhead: 24 },
            options,
            { acquire: (n) => Buffer.alloc(n) },
          );
          const chunks = splitByEstimate(
            indexes.map((i) => all[i]!),
            maxBytes,
            24,
          );
          const theirs = encodeBatchSequence(chunks.map((records) => ({ records, options })));
          expect(ours.equals(theirs)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is what BatchEncoder writes for records without headers, and they read back', () => {
    const encoder = new BatchEncoder({ clock: () => 5_000 });
    const meta = {
      partitions: 3,
      maxMessageBytes: 200,
      compressionType: 'producer' as const,
      compact: false,
    };
    const records = Array.from({ length: 50 }, (_, i) => ({
      topic: 't',
      key: Buffer.from(`key-${i % 7}`),
      value: i % 5 === 0 ? null : Buffer.alloc(i * 3, i),
      ...(i % 4 === 0 ? {} : { timestamp: 1_000 + i }),
      headers: {},
    }));
    const encoded = encoder.encode(records, () => meta);
    for (const p of encoded.partitions) {
      const buf = p.batches as Buffer;
      const read = [];
      for (let pos = 0; pos < buf.length;) {
        const header = readBatchHeader(buf, pos);
        read.push(...decodeRecords(buf, pos, header));
        pos += header.sizeInBytes;
      }
      expect(
        read.map((r) => [
          r.key && Buffer.from(r.key).toString(),
          r.value?.length ?? null,
          r.timestamp,
        ]),
      ).toEqual(
        p.indexes.map((i) => [
          `key-${i % 7}`,
          i % 5 === 0 ? null : i * 3,
          i % 4 === 0 ? 5_000 : 1_000 + i,
        ]),
      );
    }
  });
});
