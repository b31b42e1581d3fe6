// Fetches of a worker's consumer. When the backend hands out read plans (Backend#readPlans, the
// embedded log's) they carry no records: this thread reads the segment files itself and only asks
// the main thread where they are (direct-reads.ts); any other backend is fetched through the port
// (records packed into one transferred buffer, wire.ts).
import type {
  FetchRequest,
  FetchResponse,
  IsolationLevel,
  StoredRecord,
  TopicPartition,
  FetchManyOptions,
} from '../../backend-spi.js';
import { fromLeftovers } from '../../backends/shared/fetch-leftovers.js';
import { OffsetOutOfRangeError } from '../../errors.js';
import { DirectReads } from './direct-reads.js';
import type { PortCalls } from './port-calls.js';
import type { BackendResults } from './protocol.js';
import { unpackFetch } from './wire.js';

export class RemoteFetch {
  readonly #calls: PortCalls;
  /** Reads of the partitions' segment files in this thread (unless the backend has none). */
  readonly #direct: DirectReads | null;

  /** `direct`: the backend hands out read plans (Backend#readPlans) of files read here. */
  constructor(calls: PortCalls, direct: boolean) {
    this.#calls = calls;
    this.#direct = direct ? new DirectReads() : null;
  }

  async fetch(
    tp: TopicPartition,
    offset: number,
    maxRecords: number,
    maxWaitMs: number,
    options?: { isolationLevel?: IsolationLevel },
  ): Promise<StoredRecord[]> {
    const [response] = await this.fetchMany(
      [{ topic: tp.topic, partition: tp.partition, offset }],
      { maxRecords, maxWaitMs, ...options },
    );
    if (response!.error === 'OFFSET_OUT_OF_RANGE') {
      throw new OffsetOutOfRangeError(tp.topic, tp.partition, offset, -1, response!.highWatermark);
    }
    return response!.records;
  }

  async fetchMany(requests: FetchRequest[], options: FetchManyOptions): Promise<FetchResponse[]> {
    const direct = this.#direct;
    if (direct !== null) {
      const buffered = fromLeftovers(direct.leftovers, requests, options.maxRecords, (r) =>
        direct.highWatermark(r.topic, r.partition),
      );
      if (buffered !== null) return buffered;
      return direct.fetch(requests, options, (plans, maxWaitMs) =>
        this.#readPlans(plans, maxWaitMs, options),
      );
    }
    return unpackFetch(
      (await this.#calls.longPoll(
        {
          op: 'fetchMany',
          requests: requests.map((r) => ({
            topic: r.topic,
            partition: r.partition,
            offset: r.offset,
          })),
          maxRecords: options.maxRecords,
          maxWaitMs: options.maxWaitMs,
          ...(options.isolationLevel !== undefined
            ? { isolationLevel: options.isolationLevel }
            : {}),
          ...(options.belowLogStart !== undefined ? { belowLogStart: options.belowLogStart } : {}),
        },
        options.signal,
      )) as BackendResults['fetchMany'],
    );
  }

  /** Closes the segment files this thread has open. */
  close(): void {
    this.#direct?.close();
  }

  #readPlans(
    requests: FetchRequest[],
    maxWaitMs: number,
    options: FetchManyOptions,
  ): Promise<BackendResults['readPlans']> {
    const { isolationLevel, belowLogStart } = options;
    return this.#calls.longPoll(
      {
        op: 'readPlans',
        requests,
        maxWaitMs,
        ...(isolationLevel !== undefined ? { isolationLevel } : {}),
        ...(belowLogStart !== undefined ? { belowLogStart } : {}),
      },
      options.signal,
    ) as Promise<BackendResults['readPlans']>;
  }
}
