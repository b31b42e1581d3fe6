// Kafka's murmur2 (org.apache.kafka.common.utils.Utils#murmur2) and Utils.toPositive, bit for bit
// what the Java client computes for the same key bytes. One implementation, in the log's encoder
// entry (light enough for a stream-thread worker's bundle); the engine re-exports it.
export { murmur2, toPositive } from '@streamwright/log/encoder';
