// Kafka's fetch request at explicit offsets, as a Kafka Streams consumer issues it after seek():
// the partitions are grouped by leader, one Fetch per broker, and the answer is turned into the
// engine's StoredRecords. Records before the requested offset (a batch starts earlier), control
// records and — under read_committed — aborted transactions' records are dropped, as the Java
// consumer does; a partition whose fetched batch held only such records is fetched again from
// after them, so a position never sticks on a transaction marker.
import { createRequire } from 'node:module';
import type {
  FetchRequest,
  FetchResponse,
  Headers,
  IsolationLevel,
  StoredRecord,
} from '../../api.js';
import { readBatchHeader } from '@streamwright/log/reader';
import { decodeBatchInto, lastOffsetOfBatch, NO_HEADERS } from '../embedded/batch-records.js';
import { FetchLeftovers, fromLeftovers } from '../embedded/fetch-leftovers.js';
import { UnknownTopicError } from '../../errors.js';
import type {
  Cluster,
  FetchTopicRequest,
  RawMessage,
  RawPartitionData,
  Broker,
} from './kafkajs-internals.js';

type FetchArgs = Parameters<Broker['fetch']>[0];
import { fetchRecordSets, kafkaErrorType } from './kafkajs-internals.js';

const require = createRequire(import.meta.url);
// kafkajs' own filter of aborted transactions' records (its consumer's Batch uses it).
const filterAbortedMessages = require('kafkajs/src/consumer/filterAbortedMessages') as (o: {
  messages: RawMessage[];
  abortedTransactions: { producerId: string; firstOffset: string }[];
}) => RawMessage[];

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
/** A v2 batch's header: what must be there before a batch's size and offsets can be read. */
const BATCH_HEADER_BYTES = 61;
/** fetch.max.bytes (Kafka's default, 50 MiB). */
const FETCH_MAX_BYTES = 50 * 1024 * 1024;

export interface FetchOptions {
  maxRecords: number;
  maxWaitMs: number;
  signal?: AbortSignal;
  isolationLevel?: IsolationLevel;
}

/** What the fetcher needs besides the cluster: a partition's [earliest, latest) offsets. */
export type OffsetRange = (
  topic: string,
  partition: number,
) => Promise<{ earliest: number; latest: number }>;

function headersOf(raw: RawMessage['headers']): Headers {
  let headers: Record<string, string> | null = null;
  for (const k in raw) {
    const v = raw[k];
    if (v === undefined) continue;
    // The engine keeps one value per header key (the last, as Headers#lastHeader reads).
    const last = Array.isArray(v) ? v[v.length - 1] : v;
    if (last !== undefined) (headers ??= {})[k] = last.toString('utf8');
  }
  // Most records have none: one shared frozen object, as the embedded log's decoder gives them.
  return headers ?? NO_HEADERS;
}

/**
 * The records of a partition's answer at or after `from`, without control records and (under
 * read_committed) aborted transactions' records, in one pass when no transaction was aborted.
 */
function recordsOf(
  topic: string,
  data: RawPartitionData,
  from: number,
  readCommitted: boolean,
): { records: StoredRecord[]; next: number | null } {
  if (data.recordSet !== undefined)
    return recordsOfSet(topic, data.partition, data.recordSet, from);
  let messages = data.messages;
  if (readCommitted && data.abortedTransactions && data.abortedTransactions.length > 0)
    messages = filterAbortedMessages({
      messages: messages.filter((m) => Number(m.offset) >= from),
      abortedTransactions: data.abortedTransactions,
    });
  const records: StoredRecord[] = [];
  for (const m of messages) {
    const offset = Number(m.offset);
    if (offset < from || m.isControlRecord) continue;
    records.push({
      topic,
      partition: data.partition,
      offset,
      timestamp: Number(m.timestamp),
      key: m.key,
      value: m.value,
      headers: headersOf(m.headers),
    });
  }
  // Only filtered records came back: the next fetch starts after them (the messages are in
  // offset order, so the last one is the last at or after `from` if any is).
  const last = data.messages[data.messages.length - 1];
  const lastOffset = last === undefined ? -1 : Number(last.offset);
  const next = records.length === 0 && lastOffset >= from ? lastOffset + 1 : null;
  return { records, next };
}

/**
 * The records of a v2 record set (read_uncommitted) at or after `from`, decoded by the engine's
 * batch decoder; a batch cut short at the end (the broker stops at maxBytes) is left for the
 * next fetch, control batches are skipped as the Java consumer skips them.
 */
function recordsOfSet(
  topic: string,
  partition: number,
  set: Buffer,
  from: number,
): { records: StoredRecord[]; next: number | null } {
  const records: StoredRecord[] = [];
  let last = -1;
  for (let at = 0; at + BATCH_HEADER_BYTES <= set.length;) {
    const size = 12 + set.readInt32BE(at + 8);
    if (at + size > set.length) break;
    const batch = set.subarray(at, at + size);
    const header = readBatchHeader(batch);
    decodeBatchInto(batch, header, topic, partition, from, records);
    last = lastOffsetOfBatch(header);
    at += size;
  }
  // Only skipped records (control batches, offsets before `from`) came back: continue after them.
  const next = records.length === 0 && last >= from ? last + 1 : null;
  return { records, next };
}

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
    private readonly cluster: Cluster,
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
      for (const k in r.headers) bytes += k.length + r.headers[k]!.length + 2;
  }
  return Math.ceil(bytes / n);
}

async function fetchMany(
  cluster: Cluster,
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
  // Bounded: each round either answers, or moves a partition past filtered records / a reset.
  for (let round = 0; round < 100 && wanted.size > 0; round++) {
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
      const { error } = outcome;
      const type = kafkaErrorType(error);
      const e = error as { name?: string; topic?: string; partition?: number };
      if (e.name === 'KafkaJSOffsetOutOfRange' && e.topic !== undefined) {
        const key = `${e.topic}:${e.partition}`;
        const req = wanted.get(key);
        if (!req) throw error;
        const range = await offsetRange(req.topic, req.partition);
        if (req.offset < range.earliest) {
          req.offset = range.earliest; // auto.offset.reset=earliest for offsets below the log start
        } else {
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
      if (
        type === 'NOT_LEADER_FOR_PARTITION' ||
        type === 'LEADER_NOT_AVAILABLE' ||
        type === 'UNKNOWN_LEADER_EPOCH' ||
        type === 'UNKNOWN_TOPIC_OR_PARTITION'
      ) {
        // A leader moved or is still being elected (a new topic): refresh and try again.
        if (round >= 20 && type === 'UNKNOWN_TOPIC_OR_PARTITION')
          throw new UnknownTopicError(pending.map((p) => p.topic).join(', '));
        await cluster.refreshMetadata();
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      throw error;
    }
    let refetch = false;
    let total = 0;
    for (const [key, req] of [...wanted]) {
      const data = outcome.ok.get(key);
      if (!data) continue;
      const { records, next } = recordsOf(req.topic, data, req.offset, readCommitted);
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
      const highWatermark = Number(data.highWatermark);
      kept.highWatermarks.set(key, highWatermark);
      done.set(key, { topic: req.topic, partition: req.partition, records: taken, highWatermark });
    }
    if (!refetch || total > 0) {
      // Partitions still wanted (moved past filtered records) answer with nothing this time.
      for (const [key, req] of wanted) {
        const data = outcome.ok.get(key);
        done.set(key, {
          topic: req.topic,
          partition: req.partition,
          records: [],
          highWatermark: data ? Number(data.highWatermark) : req.offset,
        });
      }
      break;
    }
    maxWaitMs = 0;
  }
  return [...done.values()];
}

async function fetchOnce(
  cluster: Cluster,
  requests: FetchRequest[],
  maxWaitMs: number,
  readCommitted: boolean,
  partitionBytes: (topic: string) => number,
): Promise<Map<string, RawPartitionData>> {
  await cluster.addMultipleTargetTopics([...new Set(requests.map((r) => r.topic))]);
  const byNode = new Map<string, FetchTopicRequest[]>();
  const byTopic = new Map<string, FetchRequest[]>();
  for (const r of requests) {
    let list = byTopic.get(r.topic);
    if (!list) byTopic.set(r.topic, (list = []));
    list.push(r);
  }
  for (const [topic, list] of byTopic) {
    const leaders = cluster.findLeaderForPartitions(
      topic,
      list.map((r) => r.partition),
    );
    const maxBytes = partitionBytes(topic);
    for (const [nodeId, partitions] of Object.entries(leaders)) {
      let topics = byNode.get(nodeId);
      if (!topics) byNode.set(nodeId, (topics = []));
      topics.push({
        topic,
        partitions: partitions.map((partition) => ({
          partition,
          fetchOffset: String(list.find((r) => r.partition === partition)!.offset),
          maxBytes,
        })),
      });
    }
  }
  const answers = await Promise.all(
    [...byNode].map(async ([nodeId, topics]) => {
      const broker = await cluster.findBroker({ nodeId });
      // read_committed keeps kafkajs' decoding: its filter of aborted transactions needs each
      // record's batch (producer id, transactional flag).
      return (
        readCommitted ? broker.fetch.bind(broker) : (a: FetchArgs) => fetchRecordSets(broker, a)
      )({
        replicaId: -1,
        isolationLevel: readCommitted ? 1 : 0,
        maxWaitTime: maxWaitMs,
        minBytes: 1,
        maxBytes: FETCH_MAX_BYTES,
        topics,
      });
    }),
  );
  const out = new Map<string, RawPartitionData>();
  for (const { responses } of answers)
    for (const t of responses)
      for (const p of t.partitions) out.set(`${t.topicName}:${p.partition}`, p);
  return out;
}
