// KTable#transformValues' ValueTransformerWithKey as users write it (Kafka Streams'
// org.apache.kafka.streams.kstream.ValueTransformerWithKey): init / transform / close, with a
// context that reaches state stores and punctuators but cannot forward (Kafka hands transformers
// a ForwardingDisabledProcessorContext: the framework forwards the transformed value itself).
import type { Cancellable, PunctuationType, Punctuator } from '../processor/punctuation.js';
import type { Headers, KeyValueStore } from './types.js';

/** Kafka Streams' (old-API) ProcessorContext as a ValueTransformerWithKey sees it, minus forward. */
export interface ValueTransformerContext {
  readonly applicationId: string;
  /** `<subtopology>_<partition>`, e.g. `0_1`. */
  readonly taskId: string;
  /**
   * The timestamp of the record being transformed. When a downstream join reads the table through
   * the transformer (an unmaterialized transformValues), the timestamp of the value read, or -1
   * when there is none (KTableTransformValuesGetter's record context).
   */
  timestamp(): number;
  /** The input topic, or null when a reader goes through the transformer (as in Kafka). */
  topic(): string | null;
  /** -1 when a reader goes through the transformer. */
  partition(): number;
  /** -1 when a reader goes through the transformer. */
  offset(): number;
  headers(): Headers;
  /** The task's stream time, or -1 before the first record. */
  currentStreamTimeMs(): number;
  currentSystemTimeMs(): number;
  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable;
  /**
   * Only stores connected to the node are visible. A reader going through the transformer is
   * that reader's node, whose stores these are not: Kafka Streams throws there too.
   */
  getStateStore<S = KeyValueStore<unknown, unknown>>(name: string): S;
  /** Requests a commit as soon as possible (after the current record). */
  commit(): void;
}

export interface ValueTransformerWithKey<K = unknown, V = unknown, VR = unknown> {
  init?(context: ValueTransformerContext): void;
  /**
   * The new value for `readOnlyKey`. Called for tombstones too (`value` null), and, when old
   * values are sent downstream of an unmaterialized transformValues, for the old value as well.
   */
  transform(readOnlyKey: K, value: V | null): VR | null;
  close?(): void;
}

/** A new transformer per task, and per reader of the table (ValueTransformerWithKeySupplier#get). */
export type ValueTransformerWithKeySupplier<
  K = unknown,
  V = unknown,
  VR = unknown,
> = () => ValueTransformerWithKey<K, V, VR>;
