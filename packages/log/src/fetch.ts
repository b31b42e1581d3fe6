// The read path: batches from a partition turned into consumer records, with Kafka consumer
// semantics: control batches are never returned, read_committed skips aborted transactions and
// stops at the last stable offset, and a fetch can long-poll for data without using CPU.
import { setMaxListeners } from 'node:events';
import { isLogError, LogErrorCode } from './errors.js';
import {
  decodeRecords,
  isControl,
  isTransactional,
  lastOffsetOf,
  timestampTypeOf,
} from './format/record-batch.js';
import type { PartitionLog, ReadBatch } from './storage/partition-log.js';
import type { ConsumerRecord, FetchOptions, FetchResult } from './types.js';

export const DEFAULT_MAX_BYTES = 1 << 20;

export function toRecords(
  log: PartitionLog,
  offset: number,
  batches: ReadBatch[],
  opts: FetchOptions,
): { records: ConsumerRecord[]; nextOffset: number } {
  const committedOnly = opts.isolationLevel === 'read_committed';
  const max = opts.maxRecords ?? Infinity;
  const records: ConsumerRecord[] = [];
  let next = offset;
  for (const { batch, header } of batches) {
    if (records.length >= max) break;
    const skip =
      isControl(header) ||
      (committedOnly &&
        isTransactional(header) &&
        log.txns.isAborted(header.producerId, header.baseOffset));
    if (!skip) {
      const tsType = timestampTypeOf(header);
      for (const r of decodeRecords(batch, 0, header)) {
        if (r.offset < offset) continue;
        if (records.length >= max) return { records, nextOffset: next };
        records.push({
          topic: log.topic,
          partition: log.partition,
          offset: r.offset,
          timestamp: r.timestamp,
          timestampType: tsType,
          key: r.key,
          value: r.value,
          headers: r.headers,
        });
        next = r.offset + 1;
      }
    }
    next = Math.max(next, lastOffsetOf(header) + 1);
  }
  return { records, nextOffset: next };
}

function result(log: PartitionLog, records: ConsumerRecord[], nextOffset: number): FetchResult {
  return {
    topic: log.topic,
    partition: log.partition,
    records,
    nextOffset,
    highWatermark: log.highWatermark,
    lastStableOffset: log.lastStableOffset,
    logStartOffset: log.logStartOffset,
  };
}

export async function fetchRecords(
  log: PartitionLog,
  offset: number,
  opts: FetchOptions = {},
): Promise<FetchResult> {
  const isolation = opts.isolationLevel ?? 'read_uncommitted';
  const deadline = Date.now() + (opts.maxWaitMs ?? 0);
  let from = offset;
  for (;;) {
    const batches = await log.read(from, opts.maxBytes ?? DEFAULT_MAX_BYTES, isolation);
    const { records, nextOffset } = toRecords(log, from, batches, opts);
    if (records.length > 0) return result(log, records, nextOffset);
    from = nextOffset;
    if (batches.length > 0) continue; // only markers or aborted data so far: read on
    const remaining = deadline - Date.now();
    if (remaining <= 0 || opts.signal?.aborted) return result(log, records, from);
    await log.waitForData(from, isolation, remaining, opts.signal);
    if (from < log.logStartOffset) return result(log, [], from); // retention passed us: caller resets
  }
}

/**
 * Long-polls several partitions at once (a consumer's fetch): returns as soon as any of them has
 * records, or when `maxWaitMs` has passed. Each result carries where to continue.
 */
export async function pollRecords(
  entries: { log: PartitionLog; offset: number }[],
  opts: FetchOptions = {},
): Promise<FetchResult[]> {
  const deadline = Date.now() + (opts.maxWaitMs ?? 0);
  const positions = entries.map((e) => e.offset);
  const isolation = opts.isolationLevel ?? 'read_uncommitted';
  for (;;) {
    const results = await Promise.all(
      entries.map((e, i) =>
        fetchRecords(e.log, positions[i]!, { ...opts, maxWaitMs: 0, signal: undefined }).catch(
          (err: unknown) => {
            // One partition out of range must not fail the others: report it, as Kafka's fetch does.
            if (!isLogError(err, LogErrorCode.OFFSET_OUT_OF_RANGE)) throw err;
            return { ...result(e.log, [], positions[i]!), error: 'OFFSET_OUT_OF_RANGE' as const };
          },
        ),
      ),
    );
    if (results.some((r) => r.error)) return results;
    results.forEach((r, i) => (positions[i] = r.nextOffset));
    const remaining = deadline - Date.now();
    if (results.some((r) => r.records.length > 0) || remaining <= 0 || opts.signal?.aborted)
      return results;
    const stop = new AbortController();
    // one abort listener per partition waited on: many partitions are not a listener leak
    setMaxListeners(entries.length + 1, stop.signal);
    const onAbort = (): void => stop.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    await Promise.race(
      entries.map((e, i) => e.log.waitForData(positions[i]!, isolation, remaining, stop.signal)),
    );
    stop.abort();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
