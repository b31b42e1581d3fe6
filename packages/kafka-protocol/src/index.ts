// @streamwright/kafka-protocol: the Kafka wire protocol, generated from Apache Kafka 4.1.1's
// message definitions (see CONTEXT.md).
export { apis, messages, type ApiName } from './generated/apis.js';
export type * from './generated/types.js';
export { apisByKey } from './registry.js';
export type {
  Api,
  AnyApi,
  Message,
  RequestOf,
  RequestInputOf,
  ResponseOf,
  ResponseInputOf,
} from './api.js';
export {
  encodeRequestFrame,
  encodeResponseFrame,
  decodeRequestFrame,
  decodeResponseFrame,
  frameSize,
  responseCorrelationId,
  type DecodedRequest,
  type RequestHeaderFields,
} from './frames.js';
export {
  KafkaProtocolError,
  UnsupportedVersionError,
  UnsupportedRequestError,
  MalformedMessageError,
  InvalidValueError,
} from './runtime/errors.js';
export type { RawTaggedField } from './runtime/tagged.js';
export { Writer } from './runtime/writer.js';
export { Reader } from './runtime/reader.js';
export {
  errorCodes,
  errorCodeByName,
  kafkaError,
  KafkaResponseError,
  type KafkaErrorCode,
} from './error-codes.js';
