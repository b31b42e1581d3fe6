// @streamwright/kafka-listener: the embedded log over the Kafka protocol (docs/KAFKA_LISTENER.md).
export {
  startKafkaListener,
  isLoopback,
  ListenerConfigError,
  type KafkaListener,
  type KafkaListenerOptions,
  type KafkaListenerStatus,
} from './listener.js';
export type { ConnectionInfo } from './connection.js';
export type { ListenerLogger } from './context.js';
export { SASL_MECHANISMS, type SaslCredentials, type SaslMechanism } from './sasl.js';
export { servedApis } from './handlers/index.js';
export { MAX_REQUEST_BYTES } from './connection.js';
