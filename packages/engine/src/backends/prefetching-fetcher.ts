// The consumer side of Kafka's fetch: like KafkaConsumer's Fetcher it keeps one fetch in flight
// while the application processes what the previous one returned, and keeps the records a fetch
// brought beyond `maxRecords` for the next poll. A stream thread's poll then usually finds its next
// records already there instead of waiting for a round trip (to the main thread from a worker, or
// for a file read in-process). Buffered data is only handed out when the fetch asks for exactly
// the offset it continues from, so a seek, a reset or a rebalance simply discards it.
import type { FetchRequest, FetchResponse, StoredRecord } from '../backend-spi.js';

/** One partition's answer to a fetch, decoded. */
export interface PartitionFetch {
  topic: string;
  partition: number;
  /** The offset the answer starts at (after any log-start adjustment). */
  from: number;
  records: StoredRecord[];
  highWatermark: number;
  error?: 'OFFSET_OUT_OF_RANGE';
}

/** Sends one fetch (long-polling up to maxWaitMs, answered early when `signal` aborts). */
export type SendFetch = (
  requests: FetchRequest[],
  maxWaitMs: number,
  signal: AbortSignal,
) => Promise<PartitionFetch[]>;

interface Buffered {
  records: StoredRecord[];
  index: number;
  /** Where the consumer continues once the buffered records are taken. */
  next: number;
  highWatermark: number;
  error?: 'OFFSET_OUT_OF_RANGE';
}

interface InFlight {
  promise: Promise<PartitionFetch[]>;
  abort: AbortController;
  /** What it asked for, per partition. */
  offsets: Map<string, number>;
}

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

export class PrefetchingFetcher {
  readonly #buffers = new Map<string, Buffered>();
  #inFlight: InFlight | null = null;

  constructor(private readonly send: SendFetch) {}

  async fetch(
    requests: FetchRequest[],
    options: { maxRecords: number; maxWaitMs: number; signal?: AbortSignal },
  ): Promise<FetchResponse[]> {
    for (const r of requests) this.#align(r);
    if (!this.#ready(requests)) {
      let waited = false;
      if (this.#inFlight !== null) {
        // A prefetch that asked for exactly these offsets is this poll's long poll already.
        waited = requests.every(
          (r) => this.#inFlight!.offsets.get(key(r.topic, r.partition)) === r.offset,
        );
        // A poll that must not wait (records are buffered downstream) cuts the prefetch's long poll
        // short; so does one the prefetch does not cover (it may be parked on a caught-up partition
        // while another one, not in it, has data): its answer is kept, then this poll fetches.
        if (options.maxWaitMs <= 0 || !waited) this.#inFlight.abort.abort();
        await this.#absorb(options.signal);
      }
      if (!this.#ready(requests) && !waited) {
        this.#start(requests, options.signal?.aborted ? 0 : options.maxWaitMs);
        await this.#absorb(options.signal);
      }
    }
    const out = requests.map((r) => this.#take(r, options.maxRecords));
    this.#prefetch(requests, options.maxRecords, options.maxWaitMs);
    return out;
  }

  /** Ends a parked prefetch at once and forgets everything buffered (the consumer is closing). */
  close(): void {
    this.#inFlight?.abort.abort();
    this.#buffers.clear();
  }

  /** Drops buffered data that does not continue at the offset asked for (a seek or a reset). */
  #align(r: FetchRequest): void {
    const k = key(r.topic, r.partition);
    const b = this.#buffers.get(k);
    const head =
      b === undefined
        ? undefined
        : b.index < b.records.length
          ? b.records[b.index]!.offset
          : b.next;
    if (b === undefined || head !== r.offset)
      this.#buffers.set(k, {
        records: [],
        index: 0,
        next: r.offset,
        highWatermark: b?.highWatermark ?? -1,
      });
  }

  #ready(requests: FetchRequest[]): boolean {
    for (const r of requests) {
      const b = this.#buffers.get(key(r.topic, r.partition))!;
      if (b.index < b.records.length || b.error !== undefined) return true;
    }
    return false;
  }

  #take(r: FetchRequest, max: number): FetchResponse {
    const b = this.#buffers.get(key(r.topic, r.partition))!;
    const response: FetchResponse = {
      topic: r.topic,
      partition: r.partition,
      records: [],
      highWatermark: b.highWatermark,
    };
    if (b.error !== undefined) {
      response.error = b.error;
      delete b.error;
      return response;
    }
    if (b.index === 0 && b.records.length <= max) {
      response.records = b.records;
    } else {
      response.records = b.records.slice(b.index, b.index + max);
    }
    b.index += response.records.length;
    if (b.index >= b.records.length) {
      b.records = [];
      b.index = 0;
    }
    return response;
  }

  /** Starts the next fetch for the partitions just asked for that are short of records. */
  #prefetch(requests: FetchRequest[], maxRecords: number, maxWaitMs: number): void {
    if (this.#inFlight !== null) return;
    const next: FetchRequest[] = [];
    for (const r of requests) {
      const b = this.#buffers.get(key(r.topic, r.partition))!;
      if (b.records.length - b.index < maxRecords && b.error === undefined)
        next.push({ topic: r.topic, partition: r.partition, offset: b.next });
    }
    if (next.length > 0) this.#start(next, maxWaitMs);
  }

  #start(requests: FetchRequest[], maxWaitMs: number): void {
    const abort = new AbortController();
    const offsets = new Map(requests.map((r) => [key(r.topic, r.partition), r.offset]));
    const promise = this.send(requests, maxWaitMs, abort.signal);
    // A prefetch nobody waits for must not become an unhandled rejection; the next poll sees it.
    // eslint-disable-next-line no-restricted-syntax -- the next poll awaits `promise` and sees the error
    promise.catch(() => undefined);
    this.#inFlight = { promise, abort, offsets };
  }

  /** Waits for the fetch in flight (answered at once when `signal` aborts) and buffers its records. */
  async #absorb(signal: AbortSignal | undefined): Promise<void> {
    const inFlight = this.#inFlight!;
    const onAbort = (): void => inFlight.abort.abort();
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const fetched = await inFlight.promise;
      for (const f of fetched) {
        const b = this.#buffers.get(key(f.topic, f.partition));
        // Only data that continues where the consumer will be is kept.
        if (
          b === undefined ||
          inFlight.offsets.get(key(f.topic, f.partition)) !== b.next ||
          f.from < b.next
        )
          continue;
        b.highWatermark = f.highWatermark;
        if (f.error !== undefined) {
          b.error = f.error;
          continue;
        }
        if (f.records.length === 0) continue;
        b.records =
          b.index < b.records.length ? b.records.slice(b.index).concat(f.records) : f.records;
        b.index = 0;
        b.next = f.records[f.records.length - 1]!.offset + 1;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.#inFlight === inFlight) this.#inFlight = null;
    }
  }
}
