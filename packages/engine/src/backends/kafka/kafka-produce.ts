// A produce on Kafka as a Kafka producer sends it: the records are encoded into v2 record batches
// by the engine's own encoder (@streamwright/log/encoder, the format the embedded log stores —
// Kafka's), one batch per partition per Produce request, sent to each partition's leader with
// acks=all, and each record's offset is its batch's base offset plus its place in the batch.
// The batches go out as the Produce request's `records` bytes as they are (client/: connection,
// version negotiation, framing). Partitions as Java's default partitioner: murmur2 of the key;
// records without a key stick to one partition per produce call. Shared by the backend's own
// producer and the per-thread producers of stream threads in workers (KafkaBackend#forThread).
//
// Where idempotence and transactions plug in (exactly-once, later): a producer id and epoch
// (InitProducerId) and per-partition sequence numbers go into the batches' headers when they are
// encoded (BatchEncoder), and the Produce request carries the transactional id (`#send`'s
// request); OUT_OF_ORDER_SEQUENCE_NUMBER / DUPLICATE_SEQUENCE_NUMBER / PRODUCER_FENCED answers
// then arrive here per partition like any other error code.
import { BatchEncoder, type ProducerTopicMetadata } from '@streamwright/log/encoder';
import type { ProduceCallOptions, ProduceRecord } from '../../api.js';
import { UnknownTopicError } from '../../errors.js';
import type { KafkaCluster } from './client/cluster.js';
import { errorType, isRetriable, KafkaConnectionError } from './client/errors.js';
import { protocolError } from './client/protocol.js';

/**
 * Batches are split to stay under this many bytes: the broker's default message.max.bytes
 * (1 048 588) less room for the request's own framing (a partition's records as one batch
 * however large are refused beyond that limit: MESSAGE_TOO_LARGE).
 */
const MAX_BATCH_BYTES = 1_000_000;
/**
 * Attempts of a partition whose leader moved or is not there yet (9, as before). A broker that
 * cannot be reached is not counted: it is waited for (reconnect backoff), however long it takes.
 */
const ATTEMPTS = 9;
/** Errors after which a partition's batch is sent again (to its leader, looked up afresh). */
const RETRIABLE = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'REQUEST_TIMED_OUT',
  'KAFKA_STORAGE_ERROR',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
]);
/** produce's timeout (Kafka's request.timeout.ms for the leader to get acks=all). */
const PRODUCE_TIMEOUT_MS = 30_000;

/** One batch of one partition: where its records go back to (input indexes, in offset order). */
interface Batch {
  topic: string;
  partition: number;
  bytes: Buffer;
  /** Input indexes of its records, in offset order. */
  indexes: number[];
}

export class KafkaProducer {
  readonly #encoder = new BatchEncoder();

  constructor(
    private readonly cluster: KafkaCluster,
    private readonly partitionsOf: (topic: string) => Promise<number>,
  ) {}

  async produce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]> {
    if (records.length === 0) return [];
    const metadata = new Map<string, ProducerTopicMetadata>();
    let last = '';
    for (const r of records) {
      if (r.topic === last || metadata.has(r.topic)) continue;
      last = r.topic;
      metadata.set(r.topic, {
        partitions: await this.partitionsOf(r.topic),
        maxMessageBytes: MAX_BATCH_BYTES,
        compressionType: 'none',
        // The broker refuses a keyless record of a compacted topic itself.
        compact: false,
      });
    }
    const encoded = this.#encoder.encode(records, (t) => metadata.get(t)!);
    // Uncompressed batches are encoded synchronously (a Buffer, not a promise).
    const rounds: Batch[][] = [];
    for (const p of encoded.partitions) {
      let at = 0;
      let round = 0;
      for (const bytes of splitBatches(p.batches as Buffer)) {
        const count = bytes.readInt32BE(57);
        (rounds[round++] ??= []).push({
          topic: p.topic,
          partition: p.partition,
          bytes,
          indexes: p.indexes.slice(at, at + count),
        });
        at += count;
      }
    }
    const positions = options?.positions !== false;
    const out: { partition: number; offset: number }[] = positions ? new Array(records.length) : [];
    try {
      // v3+ Produce requests carry exactly one batch per partition: a partition whose records
      // were split goes out over several requests, one after the other (kept in order).
      for (const round of rounds) {
        const baseOffsets = await this.#send(round);
        if (!positions) continue;
        round.forEach((b, i) => {
          const base = baseOffsets[i]!;
          for (let j = 0; j < b.indexes.length; j++)
            out[b.indexes[j]!] = { partition: b.partition, offset: base + j };
        });
      }
    } finally {
      this.#encoder.release(encoded);
    }
    return out;
  }

  /** Sends the batches (one per partition) to their leaders; resolves with their base offsets. */
  async #send(batches: Batch[]): Promise<number[]> {
    const baseOffsets: number[] = new Array(batches.length);
    let pending = batches.map((_, i) => i);
    for (let attempt = 1; ;) {
      const failed: { index: number; error: Error }[] = [];
      const byNode = new Map<number, number[]>();
      for (const i of pending) {
        const b = batches[i]!;
        try {
          const nodeId = await this.cluster.leader(b.topic, b.partition);
          let list = byNode.get(nodeId);
          if (!list) byNode.set(nodeId, (list = []));
          list.push(i);
        } catch (error) {
          failed.push({ index: i, error: error as Error });
        }
      }
      await Promise.all(
        [...byNode].map(async ([nodeId, indexes]) => {
          try {
            const answers = await this.#produce(
              nodeId,
              indexes.map((i) => batches[i]!),
            );
            indexes.forEach((i, k) => {
              const a = answers[k]!;
              if (a.error === undefined) baseOffsets[i] = a.baseOffset;
              else failed.push({ index: i, error: a.error });
            });
          } catch (error) {
            // The connection failed or timed out: the whole request again (at least once).
            for (const i of indexes) failed.push({ index: i, error: error as Error });
          }
        }),
      );
      if (failed.length === 0) return baseOffsets;
      if (this.cluster.closed) throw failed[0]!.error;
      // An unreachable broker is waited for without counting attempts (an outage of any length).
      const unreachable = failed.every((f) => f.error instanceof KafkaConnectionError);
      if (!unreachable) attempt++;
      const fatal =
        failed.find((f) => !retriable(f.error)) ?? (attempt > ATTEMPTS ? failed[0] : undefined);
      if (fatal !== undefined) {
        if (errorType(fatal.error) === 'UNKNOWN_TOPIC_OR_PARTITION')
          throw new UnknownTopicError(batches[fatal.index]!.topic);
        throw fatal.error;
      }
      pending = failed.map((f) => f.index);
      this.cluster.invalidate();
      // Connection attempts are spaced by the cluster's reconnect backoff already.
      if (!unreachable)
        await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** (attempt - 2), 5_000)));
    }
  }

  /** One Produce request (acks=all) to `nodeId` carrying one batch per partition, as encoded. */
  async #produce(
    nodeId: number,
    batches: readonly Batch[],
  ): Promise<{ baseOffset: number; error?: Error }[]> {
    const byTopic = new Map<string, Batch[]>();
    for (const b of batches) {
      let list = byTopic.get(b.topic);
      if (!list) byTopic.set(b.topic, (list = []));
      list.push(b);
    }
    const connection = await this.cluster.node(nodeId);
    const answer = await connection.send('Produce', {
      transactionalId: null,
      acks: -1,
      timeoutMs: PRODUCE_TIMEOUT_MS,
      topicData: [...byTopic].map(([name, parts]) => ({
        name,
        partitionData: parts.map((p) => ({ index: p.partition, records: p.bytes })),
      })),
    });
    const found = new Map<string, { baseOffset: number; error?: Error }>();
    for (const t of answer.responses)
      for (const p of t.partitionResponses)
        found.set(
          `${t.name}:${p.index}`,
          p.errorCode === 0
            ? { baseOffset: Number(p.baseOffset) }
            : {
                baseOffset: -1,
                error: protocolError(
                  p.errorCode,
                  { topic: t.name, partition: p.index },
                  p.errorMessage ?? undefined,
                ),
              },
        );
    return batches.map(
      (b) =>
        found.get(`${b.topic}:${b.partition}`) ?? {
          baseOffset: -1,
          error: new Error(`no answer for ${b.topic}-${b.partition} in the produce response`),
        },
    );
  }
}

function retriable(error: Error): boolean {
  const type = errorType(error);
  if (type !== undefined) return RETRIABLE.has(type);
  // Lost connections and timed-out requests are retriable; anything else is not.
  return isRetriable(error);
}

/** The v2 batches back to back in `buffer`, each as a view (length at byte 8, after the base offset). */
function* splitBatches(buffer: Buffer): Generator<Buffer> {
  for (let at = 0; at < buffer.length;) {
    const size = 12 + buffer.readInt32BE(at + 8);
    yield buffer.subarray(at, at + size);
    at += size;
  }
}
