// The produce path: choose partitions, group records per partition into batches (split to stay
// under max.message.bytes), compress off the main thread, append in call order per partition,
// then wait for durability when acks=all.
import { LogError, LogErrorCode } from './errors.js';
import { compress, type CompressionType } from './format/compression.js';
import { encodeBatch, encodeRecordsSection, type RecordInput } from './format/record-batch.js';
import { partitionForKey, type NullKeyPartitioner } from './partitioner.js';
import type { PartitionLog } from './storage/partition-log.js';
import type { TopicConfig } from './config.js';
import type { ProduceOptions, ProducerRecord, RecordMetadata } from './types.js';

export interface TopicHandle {
  name: string;
  config: TopicConfig;
  partitions: PartitionLog[];
}

export interface TransactionalAppend {
  producerId: number;
  producerEpoch: number;
  /** Called before the first append of the transaction to a partition (records it durably). */
  beforeAppend(log: PartitionLog): Promise<void> | void;
}

export interface ProduceContext {
  topic(name: string): TopicHandle;
  clock(): number;
  nullKeys: NullKeyPartitioner;
}

/** Rough per-record overhead of the v2 format, for splitting batches before encoding. */
const RECORD_OVERHEAD = 24;

export class Producer {
  private readonly tails = new Map<PartitionLog, Promise<unknown>>();

  constructor(private readonly ctx: ProduceContext) {}

  async produce(
    records: readonly ProducerRecord[],
    opts: ProduceOptions = {},
    txn?: TransactionalAppend,
  ): Promise<RecordMetadata[]> {
    const groups = new Map<
      PartitionLog,
      { topic: TopicHandle; items: { index: number; record: RecordInput }[] }
    >();
    const touched = new Set<TopicHandle>();
    const now = this.ctx.clock();
    let lastTopic: TopicHandle | null = null;
    for (let index = 0; index < records.length; index++) {
      const r = records[index]!;
      const topic: TopicHandle =
        lastTopic !== null && lastTopic.name === r.topic ? lastTopic : this.ctx.topic(r.topic);
      lastTopic = topic;
      touched.add(topic);
      const partition = this.choosePartition(topic, r, opts);
      const log = topic.partitions[partition]!;
      if (topic.config.compact && r.key === null) {
        throw new LogError(
          LogErrorCode.INVALID_RECORD,
          `Compacted topic cannot accept message without key in topic partition ${topic.name}-${partition}.`,
        );
      }
      let g = groups.get(log);
      if (!g) groups.set(log, (g = { topic, items: [] }));
      // A producer record is already a valid RecordInput once it has a timestamp (extra fields are ignored).
      const record: RecordInput =
        r.timestamp !== undefined
          ? (r as RecordInput)
          : {
              key: r.key,
              value: r.value,
              timestamp: now,
              ...(r.headers ? { headers: r.headers } : {}),
            };
      g.items.push({ index, record });
    }
    for (const t of touched) this.ctx.nullKeys.batchDone(t.name, t.partitions.length);

    const out: RecordMetadata[] = new Array(records.length);
    await Promise.all(
      [...groups].map(async ([log, { topic, items }]) => {
        const codec: CompressionType =
          topic.config.compressionType === 'producer'
            ? (opts.compression ?? 'none')
            : topic.config.compressionType;
        const chunks = split(items, topic.config.maxMessageBytes);
        const encodeOpts = {
          compression: codec,
          ...(txn
            ? { producerId: txn.producerId, producerEpoch: txn.producerEpoch, transactional: true }
            : {}),
        };
        const batches = chunks.map((chunk) => {
          const recs = chunk.map((c) => c.record);
          if (codec === 'none') return encodeBatch(recs, encodeOpts);
          return compress(codec, encodeRecordsSection(recs)).then((body) =>
            encodeBatch(recs, encodeOpts, body),
          );
        });
        const infos = await this.appendInOrder(log, batches, txn);
        let last = -1;
        infos.forEach((info, i) => {
          chunks[i]!.forEach((c, j) => {
            out[c.index] = {
              topic: topic.name,
              partition: log.partition,
              offset: info.baseOffset + j,
              timestamp: info.logAppendTime >= 0 ? info.logAppendTime : c.record.timestamp,
            };
          });
          last = info.lastOffset;
        });
        if ((opts.acks ?? 'all') === 'all' && last >= 0) await log.flusher.waitDurable(last);
      }),
    );
    return out;
  }

  private choosePartition(topic: TopicHandle, r: ProducerRecord, opts: ProduceOptions): number {
    const n = topic.partitions.length;
    let p = r.partition;
    if (p === undefined && opts.partitioner)
      p = opts.partitioner({ topic: topic.name, key: r.key, value: r.value, numPartitions: n });
    if (p === undefined)
      p =
        r.key !== null
          ? partitionForKey(r.key, n)
          : this.ctx.nullKeys.next(topic.name, n, opts.nullKeyStrategy ?? 'sticky');
    if (!Number.isInteger(p) || p < 0 || p >= n) {
      throw new LogError(
        LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        `partition ${p} of topic ${topic.name} does not exist (it has ${n})`,
      );
    }
    return p;
  }

  /** Appends after any earlier produce call to the same partition, keeping call order. */
  private appendInOrder(
    log: PartitionLog,
    batches: (Buffer | Promise<Buffer>)[],
    txn?: TransactionalAppend,
  ) {
    const prev = this.tails.get(log);
    if (!prev && !txn && batches.every((b) => Buffer.isBuffer(b))) {
      return Promise.resolve((batches as Buffer[]).map((b) => log.append(b)));
    }
    const run = (prev ?? Promise.resolve()).then(async () => {
      if (txn) await txn.beforeAppend(log);
      const ready = await Promise.all(batches);
      return ready.map((b) => log.append(b));
    });
    const tail = run.catch(() => undefined);
    this.tails.set(log, tail);
    void tail.then(() => {
      if (this.tails.get(log) === tail) this.tails.delete(log);
    });
    return run;
  }
}

function split<T extends { record: RecordInput }>(items: T[], maxBytes: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const r = item.record;
    let n = RECORD_OVERHEAD + (r.key?.length ?? 0) + (r.value?.length ?? 0);
    if (r.headers) for (const k in r.headers) n += k.length * 3 + r.headers[k]!.length * 3 + 4;
    if (current.length > 0 && size + n > maxBytes) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += n;
  }
  if (current.length > 0) out.push(current);
  return out;
}
