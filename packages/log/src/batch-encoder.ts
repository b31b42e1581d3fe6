// The producer's side of a produce: choose each record's partition and encode the records of each
// partition as ready, checksummed v2 batches back to back (Kafka's MemoryRecords), as a Kafka
// producer's RecordAccumulator does. It runs on the producer's thread (a worker's RemoteLog, the
// engine's stream threads), so the log's own thread only validates the bytes and appends them.
import { LogError, LogErrorCode } from './errors.js';
import { BufferPool } from './format/buffer-pool.js';
import { compress, type CompressionType } from './format/compression.js';
import { hasHeaders, headersSizeEstimate } from './format/headers.js';
import { addSequence, encodeIndexedBatches } from './format/indexed-batches.js';
import {
  encodeBatchSequence,
  encodeRecordsSection,
  type BatchSpec,
  type EncodeBatchOptions,
  type RecordInput,
} from './format/record-batch.js';
import { NullKeyPartitioner, partitionForKey } from './partitioner.js';
import type { ProduceOptions, ProducerRecord, RecordMetadata } from './types.js';

/** What a producer needs to know of a topic to encode for it (Log.producerMetadata). */
export interface ProducerTopicMetadata {
  partitions: number;
  /** max.message.bytes: batches are split to stay under it. */
  maxMessageBytes: number;
  /** compression.type; 'producer' leaves the choice to the produce call. */
  compressionType: CompressionType | 'producer';
  /** cleanup.policy has compact: every record needs a key. */
  compact: boolean;
}

export interface EncodedPartition {
  topic: string;
  partition: number;
  /** v2 batches back to back in a buffer of its own (transferable); a promise when compressed. */
  batches: Buffer | Promise<Buffer>;
  /** The input index of each record, in the order of their offsets. */
  indexes: number[];
}

export interface EncodedProduce {
  partitions: EncodedPartition[];
  /** Each input record's CreateTime (the encoder's clock for records without one). */
  timestamps: Float64Array;
}

/** Each partition's append result, in the order of `EncodedProduce.partitions`. */
export interface PartitionAppended {
  baseOffset: number;
  /** LogAppendTime when the topic uses it, else -1 (as Kafka's produce response). */
  logAppendTime: number;
}

export interface EncodeOptions extends ProduceOptions {
  /** A transactional producer's id and epoch (stamped into every batch). */
  transactional?: { producerId: number; producerEpoch: number };
  /**
   * An idempotent (or transactional, `transactional: true`) Kafka producer: its id and epoch and
   * per-partition sequence numbers in every batch header. `sequence` reserves `count` sequence
   * numbers of a partition and returns the first (the batches of the partition number their
   * records on from it, in order).
   */
  idempotent?: {
    producerId: number;
    producerEpoch: number;
    transactional: boolean;
    sequence(topic: string, partition: number, count: number): number;
  };
}

/** Rough per-record overhead of the v2 format, for splitting batches before encoding. */
const RECORD_OVERHEAD = 24;

/** Each record's group (its index in `groups`), reused between calls (encoding is synchronous). */
let groupOf = new Int32Array(1024);

export class BatchEncoder {
  private readonly clock: () => number;
  private readonly nullKeys: NullKeyPartitioner;
  /** The memory batches are encoded into, reused once `release`d (Kafka's BufferPool). */
  readonly pool: BufferPool;
  private readonly alloc: (size: number) => Buffer;

  constructor(
    opts: { clock?: () => number; nullKeys?: NullKeyPartitioner; pool?: BufferPool } = {},
  ) {
    this.clock = opts.clock ?? Date.now;
    this.nullKeys = opts.nullKeys ?? new NullKeyPartitioner();
    this.pool = opts.pool ?? new BufferPool();
    const pool = this.pool;
    this.alloc = (size) => pool.acquire(size);
  }

  /**
   * Gives an encoded produce's buffers back for reuse, once the log is done with them: after
   * `Log.produceBatches` settled (the log owns them until then), or a buffer the log's thread
   * handed back. Never call it while anything still reads the batches. Optional: buffers that are
   * not released are simply garbage-collected.
   */
  release(encoded: EncodedProduce | Uint8Array): void {
    if (encoded instanceof Uint8Array) return this.pool.release(encoded);
    for (const p of encoded.partitions)
      if (Buffer.isBuffer(p.batches)) this.pool.release(p.batches);
  }

  /**
   * Partitions and encodes `records`. Throws (encoding nothing) on a record for a partition that
   * does not exist or a keyless record for a compacted topic.
   */
  encode(
    records: readonly ProducerRecord[],
    metadata: (topic: string) => ProducerTopicMetadata,
    opts: EncodeOptions = {},
  ): EncodedProduce {
    // Groups in the order their partitions first appear; per topic an array by partition, so the
    // record-by-record switching between partitions of a keyed produce costs an index, not a key.
    const groups: Group[] = [];
    const byTopic = new Map<string, (Group | undefined)[]>();
    const timestamps = new Float64Array(records.length);
    const touched = new Map<string, number>();
    const now = this.clock();
    let lastTopic = '';
    let meta: ProducerTopicMetadata | null = null;
    let slots: (Group | undefined)[] = [];
    if (groupOf.length < records.length)
      groupOf = new Int32Array(Math.max(records.length, groupOf.length * 2));
    const groupOfRecord = groupOf;
    for (let index = 0; index < records.length; index++) {
      const r = records[index]!;
      if (meta === null || r.topic !== lastTopic) {
        meta = metadata(r.topic);
        lastTopic = r.topic;
        touched.set(r.topic, meta.partitions);
        let found = byTopic.get(r.topic);
        if (found === undefined) byTopic.set(r.topic, (found = []));
        slots = found;
      }
      const partition = this.choosePartition(r, meta, opts);
      if (meta.compact && r.key === null) {
        throw new LogError(
          LogErrorCode.INVALID_RECORD,
          `Compacted topic cannot accept message without key in topic partition ${r.topic}-${partition}.`,
        );
      }
      let g = slots[partition];
      if (g === undefined) {
        g = {
          topic: r.topic,
          partition,
          meta,
          id: groups.length,
          indexes: [],
          count: 0,
          plain: true,
        };
        slots[partition] = g;
        groups.push(g);
      }
      timestamps[index] = r.timestamp !== undefined ? r.timestamp : now;
      groupOfRecord[index] = g.id;
      g.count++;
      if (g.plain && r.headers !== undefined && hasHeaders(r.headers)) g.plain = false;
    }
    // Each group's indexes in an array of its exact size, filled in input order (pushing them as
    // they came grew and copied every array over and over: ≈ 20 bytes of garbage per record).
    for (const g of groups) {
      g.indexes = new Array<number>(g.count);
      g.count = 0;
    }
    for (let index = 0; index < records.length; index++) {
      const g = groups[groupOfRecord[index]!]!;
      g.indexes[g.count++] = index;
    }
    for (const [topic, n] of touched) this.nullKeys.batchDone(topic, n);
    const partitions: EncodedPartition[] = [];
    for (const g of groups) {
      partitions.push({
        topic: g.topic,
        partition: g.partition,
        batches: encodeGroup(g, records, timestamps, opts, this.pool, this.alloc),
        indexes: g.indexes,
      });
    }
    return { partitions, timestamps };
  }

  private choosePartition(
    r: ProducerRecord,
    meta: ProducerTopicMetadata,
    opts: ProduceOptions,
  ): number {
    const n = meta.partitions;
    let p = r.partition;
    if (p === undefined && opts.partitioner)
      p = opts.partitioner({ topic: r.topic, key: r.key, value: r.value, numPartitions: n });
    if (p === undefined)
      p =
        r.key !== null
          ? partitionForKey(r.key, n)
          : this.nullKeys.next(r.topic, n, opts.nullKeyStrategy ?? 'sticky');
    if (!Number.isInteger(p) || p < 0 || p >= n) {
      throw new LogError(
        LogErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        `partition ${p} of topic ${r.topic} does not exist (it has ${n})`,
      );
    }
    return p;
  }
}

interface Group {
  topic: string;
  partition: number;
  meta: ProducerTopicMetadata;
  /** Its index in the call's `groups`. */
  id: number;
  /** The input index of each record of the partition, in order. */
  indexes: number[];
  /** How many records the group has (while grouping; then while filling `indexes`). */
  count: number;
  /** No record has headers: the one-pass encoder applies (when uncompressed). */
  plain: boolean;
}

function encodeGroup(
  g: Group,
  all: readonly ProducerRecord[],
  timestamps: Float64Array,
  opts: EncodeOptions,
  pool: BufferPool,
  alloc: (size: number) => Buffer,
): Buffer | Promise<Buffer> {
  const codec: CompressionType =
    g.meta.compressionType === 'producer' ? (opts.compression ?? 'none') : g.meta.compressionType;
  const options: EncodeBatchOptions = { compression: codec };
  if (opts.transactional) {
    options.producerId = opts.transactional.producerId;
    options.producerEpoch = opts.transactional.producerEpoch;
    options.transactional = true;
  }
  const idempotent = opts.idempotent;
  if (idempotent) {
    options.producerId = idempotent.producerId;
    options.producerEpoch = idempotent.producerEpoch;
    if (idempotent.transactional) options.transactional = true;
    options.baseSequence = idempotent.sequence(g.topic, g.partition, g.indexes.length);
  }
  if (codec === 'none' && g.plain) {
    const split = { maxBytes: g.meta.maxMessageBytes, recordOverhead: RECORD_OVERHEAD };
    return encodeIndexedBatches(all, g.indexes, timestamps, split, options, pool);
  }
  // A producer record is already a valid RecordInput once it has a timestamp (extra fields are ignored).
  const records = g.indexes.map((i): RecordInput => {
    const r = all[i]!;
    if (r.timestamp !== undefined) return r as RecordInput;
    return {
      key: r.key,
      value: r.value,
      timestamp: timestamps[i]!,
      ...(r.headers ? { headers: r.headers } : {}),
    };
  });
  const chunks = split(records, g.meta.maxMessageBytes);
  // Each chunk's options: with sequence numbers, each batch starts where the one before ended.
  let before = 0;
  const chunkOptions = chunks.map((c) => {
    const o =
      options.baseSequence !== undefined && before > 0
        ? { ...options, baseSequence: addSequence(options.baseSequence, before) }
        : options;
    before += c.length;
    return o;
  });
  if (codec === 'none')
    return encodeBatchSequence(
      chunks.map((records, i) => ({ records, options: chunkOptions[i]! })),
      alloc,
    );
  return Promise.all(
    chunks.map(async (records, i): Promise<BatchSpec> => ({
      records,
      options: chunkOptions[i]!,
      compressed: await compress(codec, encodeRecordsSection(records)),
    })),
  ).then((specs) => encodeBatchSequence(specs, alloc));
}

/** Splits a partition's records into batches that stay under max.message.bytes. */
function split(records: RecordInput[], maxBytes: number): RecordInput[][] {
  const out: RecordInput[][] = [];
  let current: RecordInput[] = [];
  let size = 0;
  for (const r of records) {
    let n = RECORD_OVERHEAD + (r.key?.length ?? 0) + (r.value?.length ?? 0);
    n += headersSizeEstimate(r.headers);
    if (current.length > 0 && size + n > maxBytes) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(r);
    size += n;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Each input record's metadata, from its partition's append result. */
export function recordMetadataOf(
  encoded: EncodedProduce,
  appended: readonly PartitionAppended[],
): RecordMetadata[] {
  const out: RecordMetadata[] = new Array(encoded.timestamps.length);
  encoded.partitions.forEach((p, i) => {
    const { baseOffset, logAppendTime } = appended[i]!;
    for (let j = 0; j < p.indexes.length; j++) {
      const index = p.indexes[j]!;
      out[index] = {
        topic: p.topic,
        partition: p.partition,
        offset: baseOffset + j,
        timestamp: logAppendTime >= 0 ? logAppendTime : encoded.timestamps[index]!,
      };
    }
  });
  return out;
}
