// Typed serdes for the DSL (Kafka's `Serdes` factory). Each is one of the engine's serdes, so the
// topology document records it by name and the running app uses exactly the same bytes.
import type { BuiltinSerdeName } from '@streamwright/topology-model';
import {
  bytesSerde,
  doubleSerde,
  integerSerde,
  jsonSerde,
  longSerde,
  stringSerde,
} from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { windowedKeySerde, type Windowed } from '../windows/windowed-key.js';

/** A serde the topology can name: its `name` is the document's serde name. */
export interface DslSerde<T> extends Serde<T> {
  readonly name: BuiltinSerdeName;
  /** WindowedSerdes: the sink's `windowedKey` option (`name` is then the inner serde's). */
  readonly windowed?: { windowedKey: 'time'; windowSizeMs: number } | { windowedKey: 'session' };
}

const typed = <T>(serde: Serde<unknown>): DslSerde<T> => serde as unknown as DslSerde<T>;

export const Serdes = {
  String: (): DslSerde<string> => typed(stringSerde),
  /** Java's LongSerde; numbers within ±2^53-1 come back as numbers, larger ones as bigints. */
  Long: (): DslSerde<number> => typed(longSerde),
  Integer: (): DslSerde<number> => typed(integerSerde),
  Double: (): DslSerde<number> => typed(doubleSerde),
  ByteArray: (): DslSerde<Uint8Array> => typed(bytesSerde),
  /** UTF-8 JSON (Streamwright's default value serde). */
  Json: <T = unknown>(): DslSerde<T> => typed(jsonSerde),
} as const;

/**
 * Kafka's WindowedSerdes for windowed keys at a sink (`Produced.with(WindowedSerdes
 * .timeWindowedSerdeFrom(Serdes.String(), 5000), …)`): the byte layouts of TimeWindowedSerde
 * (key, start; the end derived from the window size) and SessionWindowedSerde (key, end, start).
 */
export const WindowedSerdes = {
  timeWindowedSerdeFrom: <T>(inner: DslSerde<T>, windowSizeMs: number): DslSerde<Windowed<T>> => {
    const windowed = { windowedKey: 'time', windowSizeMs } as const;
    const serde = windowedKeySerde(inner as Serde<unknown>, windowed);
    return {
      ...typed<Windowed<T>>(serde),
      serialize: serde.serialize,
      deserialize: serde.deserialize,
      name: inner.name,
      windowed,
    } as DslSerde<Windowed<T>>;
  },
  sessionWindowedSerdeFrom: <T>(inner: DslSerde<T>): DslSerde<Windowed<T>> => {
    const windowed = { windowedKey: 'session' } as const;
    const serde = windowedKeySerde(inner as Serde<unknown>, windowed);
    return {
      ...typed<Windowed<T>>(serde),
      serialize: serde.serialize,
      deserialize: serde.deserialize,
      name: inner.name,
      windowed,
    } as DslSerde<Windowed<T>>;
  },
} as const;
