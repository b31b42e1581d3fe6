// What a stream thread's poll sends to its backend: one multi-partition fetch, sized in polls, whose
// answer the thread's PrefetchingFetcher buffers (see backends/prefetching-fetcher.ts).
import { isMainThread } from 'node:worker_threads';
import type { Backend, FetchRequest } from '../backend-spi.js';
import type { PartitionFetch } from '../backends/prefetching-fetcher.js';
import type { EngineConfig } from '../app/config.js';
import { tpKey } from '../task/record-queue.js';

/**
 * How many polls' worth of records (max.poll.records per partition) one fetch asks for. On the
 * main thread a fetch is a round trip to the log whose cost is spread over four polls. A worker
 * reads the embedded log's segment files itself, synchronously (thread/worker/direct-reads.ts), so
 * a bigger fetch saves nothing and only keeps more decoded records alive across scavenges: with
 * one poll's worth the workers of `streamprocess` (2 threads) spent ≈ 20 % less CPU per record
 * (docs/BENCHMARKS.md).
 */
export const FETCH_POLLS = isMainThread ? 4 : 1;

/** One fetch to the backend, answered per partition with the offset it started from. */
export async function fetchForPoll(
  backend: Backend,
  config: EngineConfig,
  requests: FetchRequest[],
  maxWaitMs: number,
  signal: AbortSignal,
): Promise<PartitionFetch[]> {
  const from = new Map(requests.map((r) => [tpKey(r.topic, r.partition), r.offset]));
  const responses = await backend.fetchMany(requests, {
    // Like Kafka's consumer, fetch more than one poll's worth (its fetches are sized in bytes,
    // max.partition.fetch.bytes, not by max.poll.records): the fetcher keeps the rest, so a
    // round trip covers several polls.
    maxRecords: config.maxPollRecords * FETCH_POLLS,
    maxWaitMs,
    signal,
    // A position retention passed follows auto.offset.reset (StreamThread#poll), never silently
    // the log start.
    belowLogStart: 'out-of-range',
    // The main consumer's isolation.level: read_committed under exactly_once_v2.
    ...(config.isolationLevel === 'read_committed'
      ? { isolationLevel: 'read_committed' as const }
      : {}),
  });
  return responses.map((r) => {
    const fetched: PartitionFetch = {
      topic: r.topic,
      partition: r.partition,
      from: from.get(tpKey(r.topic, r.partition)) ?? -1,
      records: r.records,
      highWatermark: r.highWatermark,
    };
    if (r.error !== undefined) fetched.error = r.error;
    return fetched;
  });
}

/** Resolves after `ms`, or at once when `signal` aborts (the consumer's wakeup). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
