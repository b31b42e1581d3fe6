// Kafka's fetch request at explicit offsets, as a Kafka Streams consumer issues it after seek():
// the partitions are grouped by leader, one Fetch per broker, and the answer is turned into the
// engine's StoredRecords. Records before the requested offset (a batch starts earlier), control
// records and — under read_committed — aborted transactions' records are dropped, as the Java
// consumer does; a partition whose fetched batch held only such records is fetched again from
// after them, so a position never sticks on a transaction marker.
import { createRequire } from 'node:module';
import type { FetchRequest, FetchResponse, IsolationLevel, StoredRecord } from '../../api.js';
import { UnknownTopicError } from '../../errors.js';
import type {
  Cluster,
  FetchTopicRequest,
  RawMessage,
  RawPartitionData,
} from './kafkajs-internals.js';
import { kafkaErrorType } from './kafkajs-internals.js';

const require = createRequire(import.meta.url);
// kafkajs' own filter of aborted transactions' records (its consumer's Batch uses it).
const filterAbortedMessages = require('kafkajs/src/consumer/filterAbortedMessages') as (o: {
  messages: RawMessage[];
  abortedTransactions: { producerId: string; firstOffset: string }[];
}) => RawMessage[];

/** max.partition.fetch.bytes (Kafka's default, 1 MiB). */
const PARTITION_MAX_BYTES = 1024 * 1024;
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

function headersOf(raw: RawMessage['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    // The engine keeps one value per header key (the last, as Headers#lastHeader reads).
    const last = Array.isArray(v) ? v[v.length - 1] : v;
    if (last !== undefined) headers[k] = last.toString('utf8');
  }
  return headers;
}

function recordsOf(
  topic: string,
  data: RawPartitionData,
  from: number,
  readCommitted: boolean,
): { records: StoredRecord[]; next: number | null } {
  const within = data.messages.filter((m) => Number(m.offset) >= from);
  const visible = (
    readCommitted && data.abortedTransactions && data.abortedTransactions.length > 0
      ? filterAbortedMessages({ messages: within, abortedTransactions: data.abortedTransactions })
      : within
  ).filter((m) => !m.isControlRecord);
  const records = visible.map((m): StoredRecord => ({
    topic,
    partition: data.partition,
    offset: Number(m.offset),
    timestamp: Number(m.timestamp),
    key: m.key,
    value: m.value,
    headers: headersOf(m.headers),
  }));
  // Only filtered records came back: the next fetch starts after them.
  const next =
    records.length === 0 && within.length > 0
      ? Number(within[within.length - 1]!.offset) + 1
      : null;
  return { records, next };
}

function aborted(signal: AbortSignal | undefined): Promise<'aborted'> | null {
  if (!signal) return null;
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

export async function fetchMany(
  cluster: Cluster,
  offsetRange: OffsetRange,
  requests: FetchRequest[],
  options: FetchOptions,
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
    const call = fetchOnce(cluster, pending, maxWaitMs, readCommitted).then(
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
      const room = Math.max(0, options.maxRecords - total);
      const kept = records.length > room ? records.slice(0, room) : records;
      total += kept.length;
      wanted.delete(key);
      done.set(key, {
        topic: req.topic,
        partition: req.partition,
        records: kept,
        highWatermark: Number(data.highWatermark),
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
    for (const [nodeId, partitions] of Object.entries(leaders)) {
      let topics = byNode.get(nodeId);
      if (!topics) byNode.set(nodeId, (topics = []));
      topics.push({
        topic,
        partitions: partitions.map((partition) => ({
          partition,
          fetchOffset: String(list.find((r) => r.partition === partition)!.offset),
          maxBytes: PARTITION_MAX_BYTES,
        })),
      });
    }
  }
  const answers = await Promise.all(
    [...byNode].map(async ([nodeId, topics]) => {
      const broker = await cluster.findBroker({ nodeId });
      return broker.fetch({
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
