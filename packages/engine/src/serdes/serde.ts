/**
 * A serializer/deserializer pair, as Kafka's `Serde<T>`. Both directions map null to null (a
 * Kafka tombstone), exactly like the Java serdes do.
 */
/**
 * Where a serde's bytes go or come from, as Kafka's `Serializer#serialize(topic, data)` is told
 * (and whether they are a key): schema registry serdes name their subject after it. Serdes that
 * ignore it (all but the registry's) may be called without it.
 */
export interface SerdeContext {
  topic: string;
  isKey: boolean;
}

export interface Serde<T = unknown> {
  /** The serde's name as the topology spells it (`string`, `long`, `avro`, …). */
  readonly name: string;
  /** @throws SerializationError when the value does not fit the format. */
  serialize(value: T | null, context?: SerdeContext): Uint8Array | null;
  /** @throws DeserializationError when the bytes are not in the format. */
  deserialize(bytes: Uint8Array | null, context?: SerdeContext): T | null;
  /**
   * True when serializing what `deserialize` returned gives back exactly the bytes it was given
   * (and `===` values serialize alike): then a sink writing a source's key unchanged with the same
   * serde may write the source's key bytes instead of serializing again (see sinkLogicProcessor).
   * Not so for strings (invalid UTF-8 decodes to U+FFFD) or doubles (NaN payloads).
   */
  readonly exactBytes?: boolean;
}
