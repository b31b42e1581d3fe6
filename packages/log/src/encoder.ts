// `@streamwright/log/encoder`: what a producer on a thread that does not own the log needs to
// encode its batches (RemoteLog in a worker, an engine stream thread) — without loading the log
// itself, so a worker thread starts with a small module graph (as `@streamwright/log/reader`).
export {
  BatchEncoder,
  recordMetadataOf,
  type EncodedPartition,
  type EncodedProduce,
  type EncodeOptions,
  type PartitionAppended,
  type ProducerTopicMetadata,
} from './batch-encoder.js';
// Kafka's partitioning function, the one implementation in the project (the engine re-exports it).
export { murmur2, toPositive } from './partitioner.js';
