// A produce on Kafka through one kafkajs producer: the engine computes each record's partition
// (murmur2 as Java's default partitioner, so Kafka and the embedded log put a key on the same
// partition), kafkajs sends one batch per partition with acks=all, and each record's offset is
// derived from its batch's base offset. Shared by the backend's own producer and the per-thread
// producers of stream threads in workers (KafkajsBackend#forThread).
import type kafkajs from 'kafkajs';
import type { ProduceRecord } from '../../api.js';
import { UnknownTopicError } from '../../errors.js';
import type { DefaultPartitioner } from '../../partitioner/default-partitioner.js';
import { kafkaErrorType } from './kafkajs-internals.js';

export type KafkajsProducer = ReturnType<InstanceType<typeof kafkajs.Kafka>['producer']>;

interface OutMessage {
  partition: number;
  key: Buffer | null;
  value: Buffer | null;
  timestamp: string;
  headers: Record<string, string>;
}

const asBuffer = (b: Uint8Array | null): Buffer | null =>
  b === null ? null : Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export async function produceOn(
  producer: KafkajsProducer,
  partitioner: DefaultPartitioner,
  partitionsOf: (topic: string) => Promise<number>,
  records: ProduceRecord[],
): Promise<{ partition: number; offset: number }[]> {
  if (records.length === 0) return [];
  partitioner.newBatch();
  const byTopic = new Map<string, OutMessage[]>();
  const placed: { key: string; partition: number; index: number }[] = [];
  const perPartition = new Map<string, number>();
  for (const r of records) {
    const partition =
      r.partition ?? partitioner.partition(r.topic, r.key, await partitionsOf(r.topic));
    const key = `${r.topic}:${partition}`;
    const index = perPartition.get(key) ?? 0;
    perPartition.set(key, index + 1);
    placed.push({ key, partition, index });
    let list = byTopic.get(r.topic);
    if (!list) byTopic.set(r.topic, (list = []));
    list.push({
      partition,
      key: asBuffer(r.key),
      value: asBuffer(r.value),
      timestamp: String(r.timestamp ?? Date.now()),
      headers: r.headers ?? {},
    });
  }
  let acks;
  try {
    acks = await producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
  } catch (error) {
    const type = kafkaErrorType(error) ?? kafkaErrorType((error as { cause?: unknown }).cause);
    if (type === 'UNKNOWN_TOPIC_OR_PARTITION') throw new UnknownTopicError(records[0]!.topic);
    throw error;
  }
  // kafkajs writes one batch per partition per send: the records of a partition get
  // consecutive offsets from the batch's base offset, in the order given.
  const base = new Map(acks.map((a) => [`${a.topicName}:${a.partition}`, Number(a.baseOffset)]));
  return placed.map((p) => ({
    partition: p.partition,
    offset: (base.get(p.key) ?? -1) + p.index,
  }));
}
