// The Apache Kafka backend's entry point (`@streamwright/engine/kafka`), separate from the engine's
// main one so that applications on the embedded backend never load the Kafka client.
export { createKafkaBackend } from './kafka-backend.js';
export type { KafkaBackend } from './kafka-backend.js';
export type { KafkaBackendOptions, KafkaSaslOptions, KafkaTlsOptions } from './kafka-connection.js';
