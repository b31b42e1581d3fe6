// A partition's record set from a Fetch response (v2 record batches back to back, the last one
// possibly cut short where the broker stopped at the partition's byte limit) decoded into the
// engine's StoredRecords by the engine's batch decoder, keys and values as views of the response.
// Control batches (transaction markers) are never returned; under read_committed the batches of
// aborted transactions are left out using the response's list of aborted transactions, as Java's
// consumer does (CompletedFetch): an aborted transaction's producer id is "aborted" from its first
// offset on until that producer's ABORT marker, and its transactional batches in between are
// skipped.
import { readBatchHeader, type BatchHeader } from '@streamwright/log/reader';
import type { StoredRecord } from '../../backend-spi.js';
import { decodeBatchInto, isControlBatch, lastOffsetOfBatch } from '../shared/batch-records.js';

/** A v2 batch's header: what must be there before a batch's size and offsets can be read. */
const BATCH_HEADER_BYTES = 61;
/** Where a batch's magic byte is. */
const MAGIC_OFFSET = 16;
const ATTR_TRANSACTIONAL = 0x10;

export interface AbortedTransaction {
  producerId: bigint | number;
  firstOffset: bigint | number;
}

export interface DecodedRecordSet {
  records: StoredRecord[];
  /**
   * Where the next fetch continues when only skipped batches (markers, aborted data, records
   * before `from`) came back, so a position never sticks on them; null otherwise.
   */
  next: number | null;
}

/** The type of a control batch's marker: its record's key is (version int16, type int16). */
function isAbortMarker(batch: Uint8Array): boolean {
  // The control record follows the header: length, attributes, timestamp and offset deltas
  // (varints, one byte each for a marker), then the key's length (varint) and the key.
  let at = BATCH_HEADER_BYTES;
  for (let field = 0; field < 5; field++) {
    if (field === 1) {
      at++; // attributes: one byte, not a varint
      continue;
    }
    while ((batch[at++]! & 0x80) !== 0);
  }
  // key: version (int16), type (int16): 0 = ABORT, 1 = COMMIT.
  const type = (batch[at + 2]! << 8) | batch[at + 3]!;
  return type === 0;
}

export function decodeRecordSet(
  topic: string,
  partition: number,
  set: Uint8Array,
  from: number,
  aborted: readonly AbortedTransaction[] | null,
): DecodedRecordSet {
  const records: StoredRecord[] = [];
  let last = -1;
  // read_committed only: the aborted transactions by first offset, and the producers whose
  // transaction is aborted at the current batch.
  const pendingAborts =
    aborted && aborted.length > 0
      ? [...aborted]
          .map((a) => ({ producerId: Number(a.producerId), firstOffset: Number(a.firstOffset) }))
          .sort((a, b) => a.firstOffset - b.firstOffset)
      : null;
  const abortedProducers = new Set<number>();
  const view = new DataView(set.buffer, set.byteOffset, set.byteLength);
  for (let at = 0; at + BATCH_HEADER_BYTES <= set.length;) {
    const size = 12 + view.getInt32(at + 8);
    if (at + size > set.length) break; // cut short: the next fetch gets it whole
    const magic = set[at + MAGIC_OFFSET];
    if (magic !== 2)
      throw new Error(
        `${topic}-${partition} holds a record batch of message format v${magic} at byte ${at}; only v2 (Kafka 0.11 and later) is read`,
      );
    const batch = set.subarray(at, at + size);
    const header: BatchHeader = readBatchHeader(batch);
    last = lastOffsetOfBatch(header);
    at += size;
    if (pendingAborts !== null) {
      const batchLast = last;
      while (pendingAborts.length > 0 && pendingAborts[0]!.firstOffset <= batchLast)
        abortedProducers.add(pendingAborts.shift()!.producerId);
      if (isControlBatch(header)) {
        if (isAbortMarker(batch)) abortedProducers.delete(header.producerId);
        continue;
      }
      if ((header.attributes & ATTR_TRANSACTIONAL) !== 0 && abortedProducers.has(header.producerId))
        continue;
    }
    decodeBatchInto(batch, header, topic, partition, from, records);
  }
  const next = records.length === 0 && last >= from ? last + 1 : null;
  return { records, next };
}
