export type * from './api.js';
export * from './errors.js';
export { getSerde, stringSerde, jsonSerde, bytesSerde, longSerde } from './serdes/index.js';
export type { Serde } from './serdes/index.js';
export { murmur2, toPositive } from './partitioner/murmur2.js';
export { partitionFor, DefaultPartitioner } from './partitioner/default-partitioner.js';
export { createEmbeddedBackend, rangeAssignor, roundRobinAssignor } from './backends/embedded/index.js';
export type { EmbeddedBackend, EmbeddedBackendOptions, NewTopic } from './backends/embedded/index.js';
