// Kafka's fetch request at explicit offsets, as a Kafka Streams consumer issues it after seek():
// the partitions are grouped by leader, one Fetch per broker (client/), and the answer is turned
// into the engine's StoredRecords by the engine's batch decoder (kafka-record-sets.ts). Records
// before the requested offset (a batch starts earlier), control records and — under
// read_committed — aborted transactions' records are dropped, as the Java consumer does; a
// partition whose fetched batch held only such records is fetched again from after them, so a
// position never sticks on a transaction marker. A leader that moved is looked up again; a broker
// that cannot be reached is waited for (the reconnect backoff), for as long as it takes.
import { headerEntries } from '@streamwright/log/reader';
import type {
  FetchRequest,
  FetchResponse,
  IsolationLevel,
  BelowLogStart,
  StoredRecord,
} from '../../backend-spi.js';
import { NO_HEADERS } from '../shared/batch-records.js';
import { FetchLeftovers, fromLeftovers } from '../shared/fetch-leftovers.js';
import { UnknownTopicError } from '../../errors.js';
import type { KafkaCluster } from './client/cluster.js';
import { KafkaAuthorizationError, KafkaConnectionError } from './client/errors.js';
import { protocolError } from './client/protocol.js';
import { decodeRecordSet, type AbortedTransaction } from './kafka-record-sets.js';

/** max.partition.fetch.bytes (Kafka's default, 1 MiB): what a partition is asked for at most. */
const PARTITION_MAX_BYTES = 1024 * 1024;
/**
 * A partition is asked for POLLS_PER_FETCH times maxRecords records' worth of bytes (at most
 * PARTITION_MAX_BYTES), from the topic's bytes per record in its last fetch (INITIAL_RECORD_BYTES
 * before one returned records). A stream thread's fetch (1 000 to 4 000 records of ~120 bytes) is
 * still asked for the full 1 MiB: fewer, larger fetches cost less CPU per record (asking for
 * one fetch's worth only cost ≈ 1 µs more per record in bench/kafka), while what is kept for a
 * reader that asks for a few records at a time (the topic browser) stays a few times its ask
 * instead of a 1 MiB response per partition read.
 */
const POLLS_PER_FETCH = 8;
const INITIAL_RECORD_BYTES = 1024;
/** A record's framing in a v2 batch besides key, value and headers (length, deltas, sizes). */
const RECORD_OVERHEAD_BYTES = 12;
/** fetch.max.bytes (Kafka's default, 50 MiB). */
const FETCH_MAX_BYTES = 50 * 1024 * 1024;

export interface FetchOptions {
  maxRecords: number;
  maxWaitMs: number;
  signal?: AbortSignal;
  isolationLevel?: IsolationLevel;
  belowLogStart?: BelowLogStart;
}

/** What the fetcher needs besides the cluster: a partition's [earliest, latest) offsets. */
export type OffsetRange = (
  topic: string,
  partition: number,
) => Promise<{ earliest: number; latest: number }>;

function aborted(signal: AbortSignal | undefined): Promise<'aborted'> | null {
  if (!signal) return null;
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

/**
 * One consumer's fetches (the backend's own, or a stream thread's view): kafkajs decodes a whole
 * fetch response (up to max.partition.fetch.bytes per partition, thousands of records) at once,
 * so what a fetch decoded beyond its maxRecords is kept for the next fetch that continues at its
 * offset, as Kafka's consumer keeps the rest of a fetch response for its next polls. Thrown away,
 * each poll of 1 000 records decoded a 1 MiB response per partition (≈ 8 000 records of 100 bytes)
 * again (docs/BENCHMARKS.md, "Kafka backend").
 */
export class KafkaFetcher {
  /** Per isolation level: read_committed never gets records an uncommitted fetch kept. */
  readonly #leftovers = new Map<IsolationLevel, FetchLeftovers>();
  readonly #kept: Kept = { highWatermarks: new Map(), recordBytes: new Map() };

  constructor(
    private readonly cluster: KafkaCluster,
    private readonly offsetRange: OffsetRange,
  ) {}

  async fetchMany(requests: FetchRequest[], options: FetchOptions): Promise<FetchResponse[]> {
    const level = options.isolationLevel ?? 'read_uncommitted';
    let leftovers = this.#leftovers.get(level);
    if (leftovers === undefined) this.#leftovers.set(level, (leftovers = new FetchLeftovers()));
    // Answered at once from what earlier fetches kept (maxRecords per partition, as the embedded
    // log answers from its leftovers).
    const buffered = fromLeftovers(
      leftovers,
      requests,
      options.maxRecords,
      (r) => this.#kept.highWatermarks.get(`${r.topic}:${r.partition}`) ?? r.offset,
    );
    if (buffered !== null) return buffered;
    return fetchMany(this.cluster, this.offsetRange, requests, options, leftovers, this.#kept);
  }

  /** Forgets what was kept of these topics (deleted: a topic made again starts at offset 0). */
  forget(topics: readonly string[]): void {
    for (const leftovers of this.#leftovers.values()) leftovers.forget(topics);
  }
}

/** What a KafkaFetcher learns from its fetches. */
interface Kept {
  /** The high watermark each partition's last fetch reported, for answers from leftovers. */
  highWatermarks: Map<string, number>;
  /** A topic's bytes per record in its last fetch that returned records (sizes the next ones). */
  recordBytes: Map<string, number>;
}

/** The mean size of (up to the first 256 of) these records in a batch. */
function recordBytes(records: readonly StoredRecord[]): number {
  const n = Math.min(records.length, 256);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const r = records[i]!;
    bytes += RECORD_OVERHEAD_BYTES + (r.key?.byteLength ?? 0) + (r.value?.byteLength ?? 0);
    if (r.headers !== NO_HEADERS)
      for (const h of headerEntries(r.headers)) bytes += h.key.length + (h.value?.length ?? 0) + 2;
  }
  return Math.ceil(bytes / n);
}

/** A partition's part of a Fetch response, as the fetch loop uses it. */
interface PartitionAnswer {
  errorCode: number;
  highWatermark: number;
  records: Uint8Array | null;
  abortedTransactions: AbortedTransaction[] | null;
}

/** Kafka's errors after which a partition's leader is looked up again and the fetch retried. */
const LEADER_MOVED = new Set([
  3, // UNKNOWN_TOPIC_OR_PARTITION (also while a new topic's metadata travels, KRaft)
  5, // LEADER_NOT_AVAILABLE
  6, // NOT_LEADER_OR_FOLLOWER
  56, // KAFKA_STORAGE_ERROR
  74, // FENCED_LEADER_EPOCH
  75, // UNKNOWN_LEADER_EPOCH
  100, // UNKNOWN_TOPIC_ID
]);
const OFFSET_OUT_OF_RANGE = 1;
const UNKNOWN_TOPIC_OR_PARTITION = 3;

async function fetchMany(
  cluster: KafkaCluster,
  offsetRange: OffsetRange,
  requests: FetchRequest[],
  options: FetchOptions,
  leftovers: FetchLeftovers,
  kept: Kept,
): Promise<FetchResponse[]> {
  if (requests.length === 0) return [];
  const readCommitted = options.isolationLevel === 'read_committed';
  const wanted = new Map(requests.map((r) => [`${r.topic}:${r.partition}`, { ...r }]));
  const done = new Map<string, FetchResponse>();
  const wakeup = aborted(options.signal);
  let maxWaitMs = options.maxWaitMs;
  let unknownRounds = 0;
  // Bounded: each round either answers, or moves a partition past filtered records / a reset, or
  // waits for a leader; rounds lost to an unreachable broker are not counted (an outage is
  // waited out, the consumer's wakeup still ends the wait).
  for (let round = 0; round < 100 && wanted.size > 0;) {
    const pending = [...wanted.values()];
    const partitionBytes = (topic: string): number =>
      Math.min(
        PARTITION_MAX_BYTES,
        POLLS_PER_FETCH *
          options.maxRecords *
          (kept.recordBytes.get(topic) ?? INITIAL_RECORD_BYTES),
      );
    const call = fetchOnce(cluster, pending, maxWaitMs, readCommitted, partitionBytes).then(
      (r) => ({ ok: r }),
      (error: unknown) => ({ error }),
    );
    const outcome = wakeup ? await Promise.race([call, wakeup]) : await call;
    if (outcome === 'aborted') break;
    if ('error' in outcome) {
      if (!(outcome.error instanceof KafkaConnectionError) || cluster.closed) throw outcome.error;
      // The broker is unreachable (or its leader unknown yet): the cluster's reconnect backoff
      // spaces the attempts; the metadata is asked again on the next round.
      cluster.invalidate();
      continue;
    }
    round++;
    // A leader moved or is still being elected (a new topic): look it up and fetch again.
    const moved = [...wanted].find(([key]) =>
      LEADER_MOVED.has(outcome.ok.get(key)?.errorCode ?? 0),
    );
    if (moved !== undefined) {
      const [key, req] = moved;
      if (outcome.ok.get(key)!.errorCode === UNKNOWN_TOPIC_OR_PARTITION && ++unknownRounds >= 20)
        throw new UnknownTopicError(req.topic);
      cluster.invalidate();
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    let refetch = false;
    let total = 0;
    for (const [key, req] of [...wanted]) {
      const data = outcome.ok.get(key);
      if (!data) continue;
      if (data.errorCode === OFFSET_OUT_OF_RANGE) {
        const range = await offsetRange(req.topic, req.partition);
        if (req.offset < range.earliest && options.belowLogStart !== 'out-of-range') {
          req.offset = range.earliest; // auto.offset.reset=earliest for offsets below the log start
          refetch = true;
        } else {
          // Past the end, or before the start for a caller that applies its own reset policy.
          wanted.delete(key);
          done.set(key, {
            topic: req.topic,
            partition: req.partition,
            records: [],
            highWatermark: range.latest,
            error: 'OFFSET_OUT_OF_RANGE',
          });
        }
        continue;
      }
      if (data.errorCode !== 0)
        throw protocolError(data.errorCode, {
          topic: req.topic,
          partition: req.partition,
          api: 'Fetch',
          principal: cluster.principal,
        });
      const { records, next } =
        data.records === null || data.records.length === 0
          ? { records: [] as StoredRecord[], next: null }
          : decodeRecordSet(
              req.topic,
              req.partition,
              data.records,
              req.offset,
              readCommitted ? data.abortedTransactions : null,
            );
      if (next !== null) {
        req.offset = next;
        refetch = true;
        continue;
      }
      if (records.length > 0) kept.recordBytes.set(req.topic, recordBytes(records));
      const room = Math.max(0, options.maxRecords - total);
      const taken = leftovers.limit(req.topic, req.partition, records, room);
      total += taken.length;
      wanted.delete(key);
      kept.highWatermarks.set(key, data.highWatermark);
      done.set(key, {
        topic: req.topic,
        partition: req.partition,
        records: taken,
        highWatermark: data.highWatermark,
      });
    }
    if (!refetch || total > 0) {
      // Partitions still wanted (moved past filtered records) answer with nothing this time.
      for (const [key, req] of wanted) {
        const data = outcome.ok.get(key);
        done.set(key, {
          topic: req.topic,
          partition: req.partition,
          records: [],
          highWatermark: data ? data.highWatermark : req.offset,
        });
      }
      break;
    }
    maxWaitMs = 0;
  }
  return [...done.values()];
}

/** One Fetch per leader of the requested partitions, sent at once; the answers by partition. */
async function fetchOnce(
  cluster: KafkaCluster,
  requests: FetchRequest[],
  maxWaitMs: number,
  readCommitted: boolean,
  partitionBytes: (topic: string) => number,
): Promise<Map<string, PartitionAnswer>> {
  const out = new Map<string, PartitionAnswer>();
  const byNode = new Map<number, Map<string, FetchRequest[]>>();
  for (const r of requests) {
    let leader: number;
    try {
      leader = await cluster.leader(r.topic, r.partition);
    } catch (error) {
      // No leader yet (or an unknown topic): answered as the broker would, retried by the loop.
      // A topic the principal may not describe fails at once, as it was said.
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'number' || error instanceof KafkaAuthorizationError) throw error;
      out.set(`${r.topic}:${r.partition}`, {
        errorCode: code,
        highWatermark: r.offset,
        records: null,
        abortedTransactions: null,
      });
      continue;
    }
    let topics = byNode.get(leader);
    if (!topics) byNode.set(leader, (topics = new Map()));
    let list = topics.get(r.topic);
    if (!list) topics.set(r.topic, (list = []));
    list.push(r);
  }
  await Promise.all(
    [...byNode].map(async ([nodeId, topics]) => {
      const connection = await cluster.node(nodeId);
      const answer = await connection.send(
        'Fetch',
        {
          clusterId: null,
          replicaId: -1,
          maxWaitMs,
          minBytes: 1,
          maxBytes: FETCH_MAX_BYTES,
          isolationLevel: readCommitted ? 1 : 0,
          sessionId: 0,
          sessionEpoch: -1,
          topics: [...topics].map(([topic, list]) => ({
            topic,
            partitions: list.map((r) => ({
              partition: r.partition,
              currentLeaderEpoch: -1,
              fetchOffset: BigInt(r.offset),
              lastFetchedEpoch: -1,
              logStartOffset: -1n,
              partitionMaxBytes: partitionBytes(topic),
            })),
          })),
          forgottenTopicsData: [],
          rackId: '',
        },
        // A long poll: the broker holds it up to maxWaitMs before answering.
        { timeoutMs: 30_000 + maxWaitMs },
      );
      if (answer.errorCode !== 0)
        throw protocolError(answer.errorCode, { api: 'Fetch', principal: cluster.principal });
      for (const t of answer.responses)
        for (const p of t.partitions)
          out.set(`${t.topic}:${p.partitionIndex}`, {
            errorCode: p.errorCode,
            highWatermark: Number(p.highWatermark),
            records: p.records ?? null,
            abortedTransactions: p.abortedTransactions ?? null,
          });
    }),
  );
  return out;
}
