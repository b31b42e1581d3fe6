export {
  CLIENT_WORDS,
  STREAMS_CLIENTS,
  configPath,
  kafkaTypeError,
  resolveStreamsConfig,
  type ClientConfig,
  type ClientConfigs,
  type ClientSetting,
  type ConfigNote,
  type ConfigScalar,
  type ResolvedStreamsConfig,
  type StreamsClient,
} from './resolve.js';
export {
  ADMIN_CONFIGS,
  CONSUMER_CONFIGS,
  PRODUCER_CONFIGS,
  STREAMS_CONFIGS,
  TOPIC_CONFIGS,
  type KafkaConfigType,
} from './kafka-config-names.js';
