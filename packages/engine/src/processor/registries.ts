// What the operator (or a DSL program) hands the engine in-process: named TypeScript functions
// for logic fields and named Processor API processors. Trusted code: never taken from the API or
// from a topology document, which only refers to names.
import type { FixedKeyProcessor, Processor } from '../papi/types.js';
import type { ValueTransformerWithKey } from '../papi/value-transformer.js';
import type { FunctionRegistry } from './logic.js';

export type { FunctionRegistry, LogicFunction } from './logic.js';

/**
 * Makes a new processor per task (Kafka Streams' ProcessorSupplier#get); `params` are the
 * node's `config.params` from the topology, passed as they are.
 */
export type ProcessorFactory = (
  params: Readonly<Record<string, unknown>>,
) => Processor | FixedKeyProcessor;

/** Processor name (as `config.processor` of a process / processValues node) → factory. */
export type ProcessorRegistry = Readonly<Record<string, ProcessorFactory>>;

/**
 * Makes a new ValueTransformerWithKey (Kafka Streams' ValueTransformerWithKeySupplier#get) per
 * task, and per reader of an unmaterialized transformValues table; `params` are the node's
 * `config.params`, passed as they are.
 */
export type ValueTransformerFactory = (
  params: Readonly<Record<string, unknown>>,
) => ValueTransformerWithKey;

/** Transformer name (as `config.transformer` of a transformValues node) → factory. */
export type ValueTransformerRegistry = Readonly<Record<string, ValueTransformerFactory>>;

/**
 * Kafka's StreamPartitioner#partitions(topic, key, value, numPartitions): the partition for a
 * record, a list of them (Kafka's Set: a foreign-key join needs exactly one), or null / undefined
 * for the producer's default partitioner (murmur2 of the key bytes). TableJoined's partitioners
 * see the key only (`value` is null), as in Kafka.
 */
export type StreamPartitioner = (
  topic: string,
  key: unknown,
  value: unknown,
  numPartitions: number,
) => number | readonly number[] | null | undefined;

/** Partitioner name (as a foreign-key join's `partitioner` / `otherPartitioner`) → partitioner. */
export type PartitionerRegistry = Readonly<Record<string, StreamPartitioner>>;

/** In-process code a topology may refer to by name, and where print() writes. */
export interface CodeRegistries {
  functions?: FunctionRegistry;
  processors?: ProcessorRegistry;
  valueTransformers?: ValueTransformerRegistry;
  partitioners?: PartitionerRegistry;
  /** print()'s System.out: defaults to process.stdout. */
  printLine?: (line: string) => void;
  /**
   * Kafka's internal `__emit.interval.ms.kstreams.windowed.aggregation__`: how often (wall-clock
   * ms) onWindowClose aggregations look for closed windows. Default 1000; the test driver uses
   * 0, as TopologyTestDriver does.
   */
  windowedEmitIntervalMs?: number;
}
