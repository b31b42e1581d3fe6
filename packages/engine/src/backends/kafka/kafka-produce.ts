// A produce on Kafka as a Kafka producer sends it: the records are encoded into v2 record batches
// by the engine's own encoder (@streamwright/log/encoder, the format the embedded log stores —
// Kafka's), one batch per partition per Produce request, sent to each partition's leader with
// acks=all, and each record's offset is its batch's base offset plus its place in the batch.
// kafkajs' producer encoded every record through its generic protocol encoder (≈ 10 µs per
// record with a sink in bench/kafka, more than consuming it); the Cluster's brokers still do the
// connection, version negotiation and framing (kafkajs-internals.ts). Partitions as Java's default
// partitioner: murmur2 of the key; records without a key stick to one partition per produce call.
// Shared by the backend's own producer and the per-thread producers of stream threads in workers
// (KafkajsBackend#forThread).
import { BatchEncoder, type ProducerTopicMetadata } from '@streamwright/log/encoder';
import type { ProduceCallOptions, ProduceRecord } from '../../api.js';
import { UnknownTopicError } from '../../errors.js';
import {
  kafkaErrorType,
  sendProduce,
  type Cluster,
  type ProducedPartition,
} from './kafkajs-internals.js';

/**
 * Batches are split to stay under this many bytes: the broker's default message.max.bytes
 * (1 048 588) less room for the request's own framing. kafkajs sent a partition's records as one
 * batch however large, which the broker refuses (MESSAGE_TOO_LARGE) beyond its limit.
 */
const MAX_BATCH_BYTES = 1_000_000;
/** Attempts of a partition whose leader moved or is not there yet (as kafkajs' 8 retries). */
const ATTEMPTS = 9;
/** Errors after which a partition's batch is sent again (to its leader, looked up afresh). */
const RETRIABLE = new Set([
  'NOT_LEADER_FOR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'REQUEST_TIMED_OUT',
  'KAFKA_STORAGE_ERROR',
]);

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
    private readonly cluster: Cluster,
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
    for (let attempt = 1; ; attempt++) {
      const failed: { index: number; error: Error }[] = [];
      await this.cluster.addMultipleTargetTopics([...new Set(batches.map((b) => b.topic))]);
      const byNode = new Map<string, number[]>();
      for (const i of pending) {
        const b = batches[i]!;
        const leaders = this.cluster.findLeaderForPartitions(b.topic, [b.partition]);
        const nodeId = Object.keys(leaders)[0];
        if (nodeId === undefined) {
          failed.push({
            index: i,
            error: Object.assign(new Error('no leader'), { type: 'LEADER_NOT_AVAILABLE' }),
          });
          continue;
        }
        let list = byNode.get(nodeId);
        if (!list) byNode.set(nodeId, (list = []));
        list.push(i);
      }
      await Promise.all(
        [...byNode].map(async ([nodeId, indexes]) => {
          try {
            const broker = await this.cluster.findBroker({ nodeId });
            const answers = await sendProduce(
              broker,
              indexes.map((i) => batches[i]!),
            );
            indexes.forEach((i, k) => {
              const a: ProducedPartition = answers[k]!;
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
      const fatal =
        failed.find((f) => !retriable(f.error)) ?? (attempt >= ATTEMPTS ? failed[0] : undefined);
      if (fatal !== undefined) {
        if (kafkaErrorType(fatal.error) === 'UNKNOWN_TOPIC_OR_PARTITION')
          throw new UnknownTopicError(batches[fatal.index]!.topic);
        throw fatal.error;
      }
      pending = failed.map((f) => f.index);
      await this.cluster.refreshMetadata().catch(() => {});
      await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** (attempt - 1), 5_000)));
    }
  }
}

function retriable(error: Error): boolean {
  const type = kafkaErrorType(error);
  if (type !== undefined) return RETRIABLE.has(type);
  // kafkajs' connection errors (closed, timed out) are retriable; anything else is not.
  return (error as { retriable?: boolean }).retriable === true;
}

/** The v2 batches back to back in `buffer`, each as a view (length at byte 8, after the base offset). */
function* splitBatches(buffer: Buffer): Generator<Buffer> {
  for (let at = 0; at < buffer.length;) {
    const size = 12 + buffer.readInt32BE(at + 8);
    yield buffer.subarray(at, at + size);
    at += size;
  }
}
