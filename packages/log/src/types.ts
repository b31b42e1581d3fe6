// The log's public value types. Names follow Kafka's clients (ProducerRecord, RecordMetadata,
// ConsumerRecord, isolation levels) so an adapter to the engine's Backend stays thin.
import type { CompressionType } from './format/compression.js';
import type { Headers, TimestampType } from './format/record-batch.js';
import type { CustomPartitioner, NullKeyStrategy } from './partitioner.js';
import type { IsolationLevel } from './storage/partition-log.js';

export type {
  CompressionType,
  Headers,
  TimestampType,
  IsolationLevel,
  CustomPartitioner,
  NullKeyStrategy,
};

export interface TopicPartition {
  topic: string;
  partition: number;
}

export interface ProducerRecord {
  topic: string;
  /** When absent: murmur2 of the key (as Java clients), or the null-key strategy, or the custom partitioner. */
  partition?: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers?: Headers;
  /** CreateTime; defaults to the log's clock. Ignored by LogAppendTime topics. */
  timestamp?: number;
}

export interface RecordMetadata {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
}

export interface ProduceOptions {
  /**
   * 'all' (default): resolve once the records are durable under the topic's flush policy, the
   * single-node meaning of "acknowledged by all in-sync replicas". 1: resolve once written to the
   * log (page cache), which a crash of the machine, though not of the process, can lose.
   */
  acks?: 'all' | 1;
  /** Used when the topic's compression.type is `producer` (the default). */
  compression?: CompressionType;
  nullKeyStrategy?: NullKeyStrategy;
  partitioner?: CustomPartitioner;
  /**
   * false: resolve with an empty array instead of each record's metadata, for callers that do
   * not need them (an object per record less to create and collect). Default true.
   */
  metadata?: boolean;
}

export interface ConsumerRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  timestampType: TimestampType;
  /** Views into the read buffer: copy them to keep them past the next fetch if memory matters. */
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: Headers;
}

export interface FetchOptions {
  /** About this many bytes of batches (at least one batch). Default 1 MiB, as max.partition.fetch.bytes. */
  maxBytes?: number;
  maxRecords?: number;
  /** Long-poll: wait up to this long when nothing is there yet (no CPU is used while waiting). */
  maxWaitMs?: number;
  isolationLevel?: IsolationLevel;
  signal?: AbortSignal;
}

export interface FetchResult {
  topic: string;
  partition: number;
  /** poll() only: the offset was outside [logStartOffset, log end]; no records (reset and retry). */
  error?: 'OFFSET_OUT_OF_RANGE';
  records: ConsumerRecord[];
  /** Where the next fetch continues (past skipped control batches and aborted data too). */
  nextOffset: number;
  highWatermark: number;
  lastStableOffset: number;
  logStartOffset: number;
}

export interface TopicSpec {
  name: string;
  partitions: number;
  config?: Record<string, string | number>;
  /** Marks an application's internal topic (Kafka Streams' changelog and repartition topics). */
  internal?: boolean;
}

export interface PartitionState {
  partition: number;
  /** The log start offset. */
  earliest: number;
  /** The high watermark: the end of what consumers can read. */
  latest: number;
  logEndOffset: number;
  lastStableOffset: number;
  sizeBytes: number;
  segments: number;
  /** Set when the partition was refused at open for damage: the error, with the repair command. */
  refused?: string;
}

export interface TopicDescription {
  name: string;
  id: string;
  partitions: number;
  /** Created as internal (see TopicSpec), or a system topic. */
  internal: boolean;
  /** The log's own topics (`__consumer_offsets`, `__transaction_state`), hidden from listTopics by default. */
  system: boolean;
  /** Effective config: Kafka's defaults, the log's defaults, then this topic's overrides. */
  config: Record<string, string>;
  overrides: Record<string, string>;
  offsets: PartitionState[];
}
