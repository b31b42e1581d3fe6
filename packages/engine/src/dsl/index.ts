// The TypeScript DSL (Kafka Streams' StreamsBuilder API): see docs/DSL.md.
export { StreamsBuilder, Stores, isBuiltTopology } from './streams-builder.js';
export type {
  BuiltTopology,
  BuildOptions,
  StoreBuilder,
  KeyValueBytesStoreSupplier,
  SessionBytesStoreSupplier,
  WindowBytesStoreSupplier,
  VersionedBytesStoreSupplier,
} from './streams-builder.js';
export { Branched } from './kstream-impl.js';
export {
  Consumed,
  Grouped,
  KeyValue,
  Materialized,
  Named,
  Printed,
  Produced,
  Repartitioned,
} from './options.js';
export {
  BufferConfig,
  BuiltInDslStoreSuppliers,
  EmitStrategy,
  JoinWindows,
  Joined,
  SessionWindows,
  SlidingWindows,
  StreamJoined,
  Suppressed,
  TimeWindows,
} from './window-options.js';
export { Serdes, WindowedSerdes } from './serdes.js';
export { TableJoined } from './table-joined.js';
export type { DslSerde } from './serdes.js';
export type { DslStoreSuppliers } from './window-options.js';
export type * from './types.js';
