// Kafka's fetch on the log, batch-wise: a multi-partition long poll that returns whole record
// batches still encoded (what a worker thread's stream thread gets: it decodes them itself, off the
// main thread), and the same read decoded for callers in this thread. Two things keep reads cheap:
// - the bytes asked of the log follow the partition's record size (a fetch of 1000 records reads
//   about that many records' bytes, not the log's 1 MiB default, which it would CRC-check and
//   mostly throw away);
// - records of a batch beyond `maxRecords` are kept for the next fetch at the following offset, as
//   Kafka's consumer keeps the rest of a fetch for its next poll, instead of being decoded again.
// Only read_uncommitted goes this way: read_committed needs the log's aborted-transaction index.
import { setMaxListeners } from 'node:events';
import type { Log, ReadBatch } from '@streamwright/log';
import { isLogError, LogErrorCode } from '@streamwright/log/reader';
import type { BelowLogStart, FetchRequest, FetchResponse } from '../../backend-spi.js';
import { decodeBatches, isControlBatch, lastOffsetOfBatch } from '../shared/batch-records.js';
import { FetchLeftovers, fromLeftovers } from '../shared/fetch-leftovers.js';

/** One partition's part of a batch fetch. */
export interface PartitionBatches {
  topic: string;
  partition: number;
  highWatermark: number;
  error?: 'OFFSET_OUT_OF_RANGE';
  /** Records below this offset (in the first batch) are not part of the answer. */
  from: number;
  batches: ReadBatch[];
}

export interface BatchFetchOptions {
  maxRecords: number;
  maxWaitMs: number;
  signal?: AbortSignal;
  /** Backend's FetchManyOptions#belowLogStart (default `log-start`). */
  belowLogStart?: BelowLogStart;
}

const MIN_READ_BYTES = 16 * 1024;
const MAX_READ_BYTES = 1024 * 1024;
const INITIAL_RECORD_BYTES = 256;

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

export class BatchFetcher {
  /** Average bytes per record seen per partition (batch overhead included). */
  readonly #recordBytes = new Map<string, number>();
  readonly #leftovers = new FetchLeftovers();

  constructor(private readonly log: Log) {}

  /** Whole encoded batches per partition; waits up to maxWaitMs for any partition to have data. */
  async fetchBatches(
    requests: readonly FetchRequest[],
    options: BatchFetchOptions,
  ): Promise<PartitionBatches[]> {
    const strict = options.belowLogStart === 'out-of-range';
    const positions = requests.map((r) =>
      strict ? r.offset : Math.max(r.offset, this.log.earliestOffset(r.topic, r.partition)),
    );
    const deadline = Date.now() + options.maxWaitMs;
    for (;;) {
      const results = await Promise.all(
        requests.map((r, i) =>
          this.#read(r.topic, r.partition, positions[i]!, options.maxRecords, strict),
        ),
      );
      let ready = false;
      for (let i = 0; i < results.length; i++) {
        const r = results[i]!;
        if (r.error !== undefined || r.batches.length > 0) ready = true;
        positions[i] = r.from;
      }
      const remaining = deadline - Date.now();
      if (ready || remaining <= 0 || options.signal?.aborted) return results;
      await this.#waitForAny(requests, positions, remaining, options.signal);
    }
  }

  /** The same fetch decoded, at most `maxRecords` per partition (the rest is kept for the next one). */
  async fetchRecords(
    requests: readonly FetchRequest[],
    options: BatchFetchOptions,
  ): Promise<FetchResponse[]> {
    const buffered = fromLeftovers(this.#leftovers, requests, options.maxRecords, (r) =>
      this.log.latestOffset(r.topic, r.partition),
    );
    if (buffered !== null) return buffered;
    const fetched = await this.fetchBatches(requests, options);
    return fetched.map((f) => {
      const response: FetchResponse = {
        topic: f.topic,
        partition: f.partition,
        records: [],
        highWatermark: f.highWatermark,
      };
      if (f.error !== undefined) {
        response.error = f.error;
        return response;
      }
      const records = decodeBatches(f.batches, f.topic, f.partition, f.from);
      response.records = this.#leftovers.limit(f.topic, f.partition, records, options.maxRecords);
      return response;
    });
  }

  async #read(
    topic: string,
    partition: number,
    offset: number,
    maxRecords: number,
    strict = false,
  ): Promise<PartitionBatches> {
    const k = key(topic, partition);
    const highWatermark = this.log.latestOffset(topic, partition);
    const out: PartitionBatches = { topic, partition, highWatermark, from: offset, batches: [] };
    // Retention passed the position: the caller's auto.offset.reset decides (belowLogStart).
    if (strict && offset < this.log.earliestOffset(topic, partition))
      return { ...out, error: 'OFFSET_OUT_OF_RANGE' };
    if (offset >= highWatermark) {
      // Past the end of the log is out of range; between the high watermark and it, just nothing yet.
      if (offset > this.log.partition(topic, partition).logEndOffset)
        out.error = 'OFFSET_OUT_OF_RANGE';
      return out;
    }
    const perRecord = this.#recordBytes.get(k) ?? INITIAL_RECORD_BYTES;
    const maxBytes = Math.min(
      MAX_READ_BYTES,
      Math.max(MIN_READ_BYTES, Math.ceil(maxRecords * perRecord * 1.1)),
    );
    let read: ReadBatch[];
    try {
      read = await this.log.fetchBatches(topic, partition, offset, { maxBytes });
    } catch (error) {
      // Retention moved the log start past us between the check and the read: read from it.
      if (
        isLogError(error, LogErrorCode.OFFSET_OUT_OF_RANGE) &&
        offset < this.log.earliestOffset(topic, partition) &&
        !strict
      ) {
        return this.#read(topic, partition, this.log.earliestOffset(topic, partition), maxRecords);
      }
      if (isLogError(error, LogErrorCode.OFFSET_OUT_OF_RANGE))
        return { ...out, error: 'OFFSET_OUT_OF_RANGE' };
      throw error;
    }
    let bytes = 0;
    let records = 0;
    let next = offset;
    for (const b of read) {
      bytes += b.header.sizeInBytes;
      records += b.header.lastOffsetDelta + 1;
      next = Math.max(next, lastOffsetOfBatch(b.header) + 1);
      // Transaction markers are never returned; the position moves past them.
      if (!isControlBatch(b.header)) out.batches.push(b);
    }
    if (records > 0) this.#recordBytes.set(k, bytes / records);
    if (out.batches.length === 0) out.from = next;
    return out;
  }

  #waitForAny(
    requests: readonly FetchRequest[],
    positions: number[],
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const stop = new AbortController();
    // one abort listener per partition waited on: more than Node's default 10 is expected (an app
    // with 15 tasks on one thread), not a leak, and must not print MaxListenersExceededWarning
    setMaxListeners(requests.length + 1, stop.signal);
    const onAbort = (): void => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const waits = requests.map((r, i) =>
      this.log
        .partition(r.topic, r.partition)
        .waitForData(positions[i]!, 'read_uncommitted', timeoutMs, stop.signal),
    );
    return Promise.race(waits).finally(() => {
      stop.abort();
      signal?.removeEventListener('abort', onAbort);
    });
  }
}
