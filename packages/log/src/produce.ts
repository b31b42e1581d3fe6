// The log's side of a produce. Record-level produce encodes with the BatchEncoder on this thread;
// producers elsewhere (worker threads) encode on theirs and hand over ready batches, which are
// validated first (format/batch-validate). Either way each partition's batches are appended with
// one write, in call order per partition, and acks=all waits until the flush policy made them
// durable.
import {
  BatchEncoder,
  recordMetadataOf,
  type PartitionAppended,
  type ProducerTopicMetadata,
} from './batch-encoder.js';
import { LogError, LogErrorCode } from './errors.js';
import { validateBatches, type BatchAt } from './format/batch-validate.js';
import { BATCH_HEADER_SIZE, readBatchHeader } from './format/record-batch.js';
import type { NullKeyPartitioner } from './partitioner.js';
import type { AppendInfo, PartitionLog } from './storage/partition-log.js';
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

/** One partition's share of a produce request: v2 batches back to back. */
export interface PartitionBatches {
  topic: string;
  partition: number;
  batches: Uint8Array;
}

/** How Log.produceBatches appends. */
export interface ProduceBatchesOptions extends Pick<ProduceOptions, 'acks'> {
  /**
   * 'full' (default): Kafka's LogValidator checks, CRC-32C and every record's framing included.
   * 'headers': only for batches this package's BatchEncoder wrote in this process (RemoteLog and
   * the engine's stream threads pass it); see format/batch-validate.ts and docs/LOG.md.
   */
  checks?: 'full' | 'headers';
}

/** What Log.produceBatches answers per partition (Kafka's PartitionProduceResponse). */
export interface BatchesAppended {
  topic: string;
  partition: number;
  baseOffset: number;
  lastOffset: number;
  /** LogAppendTime when the topic uses it, else -1. */
  logAppendTime: number;
}

export function producerMetadataOf(t: TopicHandle): ProducerTopicMetadata {
  return {
    partitions: t.partitions.length,
    maxMessageBytes: t.config.maxMessageBytes,
    compressionType: t.config.compressionType,
    compact: t.config.compact,
  };
}

export class Producer {
  private readonly tails = new Map<PartitionLog, Promise<unknown>>();
  private readonly encoder: BatchEncoder;

  constructor(private readonly ctx: ProduceContext) {
    this.encoder = new BatchEncoder({ clock: () => ctx.clock(), nullKeys: ctx.nullKeys });
  }

  async produce(
    records: readonly ProducerRecord[],
    opts: ProduceOptions = {},
    txn?: TransactionalAppend,
  ): Promise<RecordMetadata[]> {
    const encoded = this.encoder.encode(
      records,
      (name) => producerMetadataOf(this.ctx.topic(name)),
      txn ? { ...opts, transactional: txn } : opts,
    );
    const appended = await Promise.all(
      encoded.partitions.map(async (p): Promise<PartitionAppended> => {
        const topic = this.ctx.topic(p.topic);
        const log = topic.partitions[p.partition]!;
        const where = `${p.topic}-${p.partition}`;
        // Our own encoder's output: only the headers are read back, the bytes are not re-checked.
        const batchesOf = (buf: Buffer): BatchAt[] =>
          headersOf(buf, topic.config.maxMessageBytes, where);
        const info = await this.appendInOrder(log, p.batches, batchesOf, txn);
        // The append wrote or copied the bytes (see WriteQueue): the buffer is free for the next
        // produce at once, while it is still in the CPU's cache.
        this.encoder.release(await p.batches);
        await acknowledged(log, info.lastOffset, opts.acks);
        return info;
      }),
    );
    return opts.metadata === false ? [] : recordMetadataOf(encoded, appended);
  }

  /**
   * Appends batches a producer encoded: every partition's batches are validated before any is
   * written, so a bad batch refuses the whole request and nothing of it lands. A refusal throws
   * synchronously (a transaction tells it from a failed append that way). With `txn` the batches
   * must be that producer's transactional batches (Kafka's LogValidator and producer state).
   */
  produceBatches(
    parts: readonly PartitionBatches[],
    opts: ProduceBatchesOptions = {},
    txn?: TransactionalAppend,
  ): Promise<BatchesAppended[]> {
    const transactional = txn
      ? { producerId: txn.producerId, producerEpoch: txn.producerEpoch }
      : undefined;
    const checked = parts.map((p) => {
      const topic = this.ctx.topic(p.topic);
      const log = topic.partitions[p.partition];
      if (!log || !Number.isInteger(p.partition))
        throw new LogError(
          LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
          `partition ${p.partition} of topic ${p.topic} does not exist (it has ${topic.partitions.length})`,
        );
      if (log.refusal) throw log.refusal;
      const buf = Buffer.isBuffer(p.batches)
        ? p.batches
        : Buffer.from(p.batches.buffer, p.batches.byteOffset, p.batches.byteLength);
      const batches = validateBatches(buf, {
        where: `${p.topic}-${p.partition}`,
        maxMessageBytes: topic.config.maxMessageBytes,
        compact: topic.config.compact,
        ...(transactional ? { transactional } : {}),
        ...(opts.checks === 'headers' ? { checks: 'headers' as const } : {}),
      });
      return { topic: p.topic, log, buf, batches };
    });
    return Promise.all(
      checked.map(async ({ topic, log, buf, batches }) => {
        const info = await this.appendInOrder(log, buf, () => batches, txn);
        await acknowledged(log, info.lastOffset, opts.acks);
        return { topic, partition: log.partition, ...info };
      }),
    );
  }

  /** Appends after any earlier produce call to the same partition, keeping call order. */
  private appendInOrder(
    log: PartitionLog,
    data: Buffer | Promise<Buffer>,
    batchesOf: (buf: Buffer) => readonly BatchAt[],
    txn?: TransactionalAppend,
  ): Promise<AppendInfo> {
    const prev = this.tails.get(log);
    if (!prev && !txn && Buffer.isBuffer(data)) {
      try {
        return Promise.resolve(log.appendBatches(data, batchesOf(data)));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    const run = (prev ?? Promise.resolve()).then(async () => {
      if (txn) await txn.beforeAppend(log);
      const buf = await data;
      return log.appendBatches(buf, batchesOf(buf));
    });
    // eslint-disable-next-line no-restricted-syntax -- the queue only orders appends; the caller gets run's error
    const tail = run.catch(() => undefined);
    this.tails.set(log, tail);
    void tail.then(() => {
      if (this.tails.get(log) === tail) this.tails.delete(log);
    });
    return run;
  }
}

/** acks=all: durable under the flush policy; acks=1: in the page cache (see WriteQueue). */
function acknowledged(log: PartitionLog, lastOffset: number, acks: 'all' | 1 = 'all') {
  return acks === 'all' ? log.flusher.waitDurable(lastOffset) : log.whenWritten(lastOffset);
}

/** The headers of batches the log's own encoder wrote; a batch of one huge record is refused. */
function headersOf(buf: Buffer, maxMessageBytes: number, where: string): BatchAt[] {
  const out: BatchAt[] = [];
  for (let pos = 0; pos < buf.length;) {
    const header = readBatchHeader(buf, pos);
    if (header.sizeInBytes > maxMessageBytes + BATCH_HEADER_SIZE)
      throw new LogError(
        LogErrorCode.RECORD_TOO_LARGE,
        `batch of ${header.sizeInBytes} bytes exceeds max.message.bytes ${maxMessageBytes} of ${where}`,
      );
    out.push({ position: pos, header });
    pos += header.sizeInBytes;
  }
  return out;
}
