export type * from './api.js';
export type * from './backend-spi.js';
export * from './errors.js';
export {
  getSerde,
  stringSerde,
  jsonSerde,
  bytesSerde,
  longSerde,
  integerSerde,
  doubleSerde,
  avroSerde,
  registryAvroSerde,
  SchemaRegistryError,
} from './serdes/index.js';
export type {
  Serde,
  SerdeContext,
  SerdeSpec,
  AvroSchema,
  SchemaRegistrySettings,
  SubjectNameStrategy,
} from './serdes/index.js';
export { murmur2, toPositive } from './partitioner/murmur2.js';
// Kafka's headers exactly (bytes, repeated keys, order) behind the engine's text view.
export { headerEntries, headersOf, type Header } from '@streamwright/log/reader';
export { partitionFor, DefaultPartitioner } from './partitioner/default-partitioner.js';
export {
  createEmbeddedBackend,
  rangeAssignor,
  roundRobinAssignor,
} from './backends/embedded/index.js';
export type {
  EmbeddedBackend,
  EmbeddedBackendOptions,
  NewTopic,
} from './backends/embedded/index.js';
export { createStreamsApp, createStreamsAppFromPlan } from './app/streams-app.js';
export { configNotes, configNotesFor } from './app/config-report.js';
export {
  configureWorkerPool,
  drainWorkerPool,
  workerPoolStats,
} from './thread/worker/worker-pool.js';
export type { WorkerPoolOptions, WorkerPoolStats } from './thread/worker/worker-pool.js';
export {
  disableWorkerMemoryReducer,
  workerMemoryReducerDisabled,
} from './thread/worker/worker-heap.js';
export { AppDebugger, STATE_ENTRIES, TRACE_LIMIT } from './debug/app-debugger.js';
export type {
  Breakpoint,
  BreakpointSpec,
  DebugPause,
  DebugStop,
  StoreState,
} from './debug/app-debugger.js';
export { createTestDriver, createTestDriverFromPlan } from './test-driver/test-driver.js';
export type {
  TestDriver,
  TestDriverOptions,
  TestRecord,
  RawTestRecord,
  TestOutputTopic,
} from './test-driver/test-driver.js';
export type { ValueAndTimestamp, KeyValueEntry } from './state/key-value-store.js';
export { FailedProcessingError } from './processor/processing-failure.js';
export { APP_TRANSITIONS, THREAD_TRANSITIONS, TASK_TRANSITIONS } from './lifecycle/states.js';
export type { ThreadState } from './lifecycle/states.js';
export { tasksFor, streamsTaskAssignor } from './thread/task-assignor.js';
// The TypeScript DSL (docs/DSL.md).
export * from './dsl/index.js';
export {
  PUT_RETURN_CODE_NOT_PUT,
  PUT_RETURN_CODE_VALID_TO_UNDEFINED,
} from './state/versioned-store.js';
// The Processor API (docs/DSL.md#processor-api).
export type {
  Processor,
  ProcessorContext,
  ProcessorSupplier,
  FixedKeyProcessor,
  FixedKeyProcessorContext,
  FixedKeyProcessorSupplier,
  FixedKeyRecord,
  StreamRecord,
  RecordMetadata,
  KeyValueStore,
  VersionedKeyValueStore,
  VersionedRecord,
  WindowStore,
  SessionStore,
  Windowed,
  Cancellable,
  PunctuationType,
  Punctuator,
} from './papi/types.js';
export type {
  ValueTransformerContext,
  ValueTransformerWithKey,
  ValueTransformerWithKeySupplier,
} from './papi/value-transformer.js';
export type {
  ProcessorRegistry,
  ProcessorFactory,
  ValueTransformerRegistry,
  ValueTransformerFactory,
  PartitionerRegistry,
  StreamPartitioner,
  FunctionRegistry,
  LogicFunction,
  CodeRegistries,
} from './processor/registries.js';
