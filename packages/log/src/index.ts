export { Log, openLog, type LogOptions } from './log.js';
export { LogError, LogErrorCode, isLogError } from './errors.js';
export type * from './types.js';
export { DEFAULT_TOPIC_CONFIG, LONG_MAX, acceptsTopicConfig } from './config.js';
export {
  BatchEncoder,
  recordMetadataOf,
  type EncodedPartition,
  type EncodedProduce,
  type EncodeOptions,
  type PartitionAppended,
  type ProducerTopicMetadata,
} from './batch-encoder.js';
export type { BatchesAppended, PartitionBatches, ProduceBatchesOptions } from './produce.js';
export { murmur2, toPositive, partitionForKey, type PartitionerContext } from './partitioner.js';
export { crc32c, crc32cImplementation } from './format/crc32c.js';
export {
  checkDataDir,
  repairPartition,
  type CheckReport,
  type Damage,
  type RepairResult,
} from './repair.js';
export type { RecoveryEvent } from './storage/segment.js';
export type { ReadBatch } from './storage/partition-log.js';
export { PartitionFileReader, type FileBatch, type FileRead } from './read/file-reader.js';
export type { ReadPlan, SegmentSpan } from './read/read-plan.js';
export type { CompactionReport } from './compaction/cleaner.js';
export {
  decodeRecords,
  encodeBatch,
  readBatchHeader,
  type BatchHeader,
  type RecordInput,
  type StoredRecord,
} from './format/record-batch.js';
export { exactHeaders, headerEntries, headersOf, type Header } from './format/headers.js';
export {
  COMPRESSION_CODES,
  COMPRESSION_TYPES,
  compress,
  compressSync,
  decompressSync,
  isCompressionType,
  type CompressionType,
} from './format/compression.js';
export type {
  GroupDescription,
  GroupMembership,
  JoinOptions,
  OffsetReset,
} from './groups/coordinator.js';
export type { CommittedOffset } from './groups/offsets-store.js';
export { OFFSETS_TOPIC } from './groups/offsets-store.js';
export {
  rangeAssignor,
  roundRobinAssignor,
  type Assignor,
  type MemberSubscription,
} from './groups/assignors.js';
export {
  TRANSACTION_STATE_TOPIC,
  type TransactionalProducer,
  type TransactionalProducerOptions,
} from './transactions/coordinator.js';
export {
  createLogPort,
  connectLog,
  RemoteLog,
  type RemoteMembership,
  type RemoteTransactionalProducer,
  type RemoteJoinOptions,
  type RemoteLogOptions,
} from './remote/client.js';
export { serveLog } from './remote/server.js';
