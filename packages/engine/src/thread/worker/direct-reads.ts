// A worker's fetch without the main thread in the data path: the worker reads the partitions'
// segment files itself (@streamwright/log/reader: its own descriptors and buffers, CRC checks and
// decoding here) and asks the main thread only for read plans — where the files are and how far
// it may read (high watermark, or last stable offset and aborted transactions for
// read_committed). A partition needs a new plan only when its reader reaches the end of the
// last one (the log grew, a segment rolled, or retention or the cleaner replaced a file), so on a
// backlog the main thread is asked once per partition and segment, not once per poll.
import { PartitionFileReader, type ReadPlan } from '@streamwright/log/reader';
import type { FetchRequest, FetchResponse, IsolationLevel } from '../../backend-spi.js';
import { decodeBatches } from '../../backends/shared/batch-records.js';
import { FetchLeftovers } from '../../backends/shared/fetch-leftovers.js';

/** Asks the main thread for plans, long-polling up to maxWaitMs for any of them to have data. */
export type AskPlans = (requests: FetchRequest[], maxWaitMs: number) => Promise<ReadPlan[]>;

export interface DirectFetchOptions {
  maxRecords: number;
  maxWaitMs: number;
  isolationLevel?: IsolationLevel;
}

const MIN_READ_BYTES = 16 * 1024;
const MAX_READ_BYTES = 1024 * 1024;
const INITIAL_RECORD_BYTES = 256;
/** Plan rounds per fetch: a stale plan (a file replaced meanwhile) costs one more. */
const MAX_ROUNDS = 4;
/** Reads per partition and round that may find only markers or aborted batches before giving up. */
const MAX_SKIPS = 64;

interface Partition {
  reader: PartitionFileReader;
  isolation: IsolationLevel;
  /** Average bytes per record (batch overhead included), to size reads to what is asked. */
  recordBytes: number;
  highWatermark: number;
}

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

export class DirectReads {
  readonly #partitions = new Map<string, Partition>();
  /** Records read beyond maxRecords, for the next poll (decoded once). */
  readonly leftovers = new FetchLeftovers();

  highWatermark(topic: string, partition: number): number {
    return this.#partitions.get(key(topic, partition))?.highWatermark ?? -1;
  }

  async fetch(
    requests: FetchRequest[],
    options: DirectFetchOptions,
    askPlans: AskPlans,
  ): Promise<FetchResponse[]> {
    const isolation = options.isolationLevel ?? 'read_uncommitted';
    const parts = requests.map((r) => this.#partition(r, isolation));
    const responses: FetchResponse[] = requests.map((r, i) => ({
      topic: r.topic,
      partition: r.partition,
      records: [],
      highWatermark: parts[i]!.highWatermark,
    }));
    // Where each partition's read continues within this fetch (past markers it skipped).
    const at = requests.map((r) => r.offset);
    const deadline = Date.now() + options.maxWaitMs;
    for (let round = 0; ; round++) {
      const needPlan: number[] = [];
      let found = false;
      for (let i = 0; i < requests.length; i++) {
        const response = responses[i]!;
        if (response.records.length > 0 || response.error !== undefined) {
          found = true;
          continue;
        }
        if (this.#read(requests[i]!, parts[i]!, at, i, options.maxRecords, response)) found = true;
        else needPlan.push(i);
      }
      const remaining = deadline - Date.now();
      if (needPlan.length === 0 || round >= MAX_ROUNDS) return responses;
      // Others have records: a partition at the end of its plan only gets a fresh one (no wait).
      const wait = found ? 0 : Math.max(0, remaining);
      if (round > 0 && !found && remaining <= 0) return responses;
      const plans = await askPlans(
        needPlan.map((i) => ({
          topic: requests[i]!.topic,
          partition: requests[i]!.partition,
          offset: parts[i]!.reader.resume(at[i]!),
        })),
        wait,
      );
      let fresh = false;
      needPlan.forEach((i, n) => {
        const plan = plans[n]!;
        const part = parts[i]!;
        part.highWatermark = plan.highWatermark;
        responses[i]!.highWatermark = plan.highWatermark;
        if (plan.error !== undefined) {
          responses[i]!.error = plan.error;
          return;
        }
        part.reader.setPlan(plan, at[i]);
        if (plan.offset < plan.bound) fresh = true;
      });
      if (!fresh && !found && !needPlan.some((i) => responses[i]!.error !== undefined))
        return responses;
    }
  }

  /** Forgets a partition's reader (its file closes). */
  close(): void {
    for (const p of this.#partitions.values()) p.reader.close();
    this.#partitions.clear();
  }

  #partition(r: FetchRequest, isolation: IsolationLevel): Partition {
    const k = key(r.topic, r.partition);
    let p = this.#partitions.get(k);
    if (p === undefined || p.isolation !== isolation) {
      p?.reader.close();
      p = {
        reader: new PartitionFileReader(r.topic, r.partition),
        isolation,
        recordBytes: INITIAL_RECORD_BYTES,
        highWatermark: p?.highWatermark ?? -1,
      };
      this.#partitions.set(k, p);
    }
    return p;
  }

  /** Reads from the partition's plan into `response`; false when it needs a new plan. */
  #read(
    r: FetchRequest,
    p: Partition,
    at: number[],
    i: number,
    maxRecords: number,
    response: FetchResponse,
  ): boolean {
    const maxBytes = Math.min(
      MAX_READ_BYTES,
      Math.max(MIN_READ_BYTES, Math.ceil(maxRecords * p.recordBytes * 1.1)),
    );
    for (let skips = 0; skips < MAX_SKIPS; skips++) {
      const got = p.reader.read(at[i]!, maxBytes);
      if (got.kind === 'needs-plan') return false;
      if (got.batches.length === 0) {
        at[i] = got.next; // only markers or aborted batches: read on
        continue;
      }
      let bytes = 0;
      let count = 0;
      for (const { header } of got.batches) {
        bytes += header.sizeInBytes;
        count += header.lastOffsetDelta + 1;
      }
      const records = decodeBatches(got.batches, r.topic, r.partition, at[i]!);
      if (count > 0) p.recordBytes = bytes / count;
      if (records.length === 0) {
        at[i] = got.next;
        continue;
      }
      response.records = this.leftovers.limit(r.topic, r.partition, records, maxRecords);
      return true;
    }
    return true;
  }
}
