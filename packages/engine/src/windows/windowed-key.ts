// Windowed keys (Kafka Streams' Windowed<K>): the record's key plus its window's bounds. Keys are
// plain objects `{key, start, end}` so CEL reads `key.key`, `key.start`, `key.end` and the JSON
// serde writes them as such; a symbol marks them so sinks know to use Kafka's windowed layouts.
import type { Serde } from '../serdes/serde.js';

const WINDOWED = Symbol.for('streamwright.windowed');

/** A windowed key (Kafka's Windowed<K>): the key and its window's bounds (epoch ms). */
export interface Windowed<K> {
  readonly key: K;
  readonly start: number;
  readonly end: number;
}
export type WindowedKey = Windowed<unknown>;

// The marker lives on a shared prototype (non-enumerable), so making a key is one allocation.
const PROTO: object = Object.create(Object.prototype, {
  [WINDOWED]: { value: true, enumerable: false },
});

export function windowedKey(key: unknown, start: number, end: number): WindowedKey {
  const out = Object.create(PROTO) as { key: unknown; start: number; end: number };
  out.key = key;
  out.start = start;
  out.end = end;
  return out;
}

export function isWindowedKey(value: unknown): value is WindowedKey {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[WINDOWED] === true
  );
}

function withLongs(inner: Uint8Array, longs: number[]): Uint8Array {
  const out = new Uint8Array(inner.byteLength + 8 * longs.length);
  out.set(inner, 0);
  const view = new DataView(out.buffer);
  longs.forEach((v, i) => view.setBigInt64(inner.byteLength + 8 * i, BigInt(v), false));
  return out;
}

function longAt(bytes: Uint8Array, offset: number): number {
  return Number(
    new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigInt64(offset, false),
  );
}

function requireWindowed(value: unknown, serde: string): WindowedKey {
  if (isWindowedKey(value)) return value;
  throw new Error(
    `${serde} serializes windowed keys (a windowed aggregation's results), got ${JSON.stringify(value)}`,
  );
}

/** A sink's `windowedKey` / `windowSizeMs` options: its key serde wrapped in Kafka's WindowedSerdes. */
export function windowedKeySerde(
  inner: Serde<unknown>,
  config: { windowedKey?: unknown; windowSizeMs?: unknown },
): Serde<unknown> {
  if (config.windowedKey === 'time')
    return timeWindowedSerde(inner, config.windowSizeMs as number) as Serde<unknown>;
  if (config.windowedKey === 'session') return sessionWindowedSerde(inner) as Serde<unknown>;
  return inner;
}

/**
 * TimeWindowedSerializer: the inner key's bytes, then the window start as a big-endian int64.
 * The end is not written: TimeWindowedDeserializer derives it from the window size.
 */
export function timeWindowedSerde(inner: Serde<unknown>, windowSizeMs: number): Serde<WindowedKey> {
  return {
    name: `timeWindowed(${inner.name})`,
    serialize(value) {
      if (value === null) return null;
      const w = requireWindowed(value, 'TimeWindowedSerde');
      const key = inner.serialize(w.key) ?? new Uint8Array(0);
      return withLongs(key, [w.start]);
    },
    deserialize(bytes) {
      if (bytes === null) return null;
      const start = longAt(bytes, bytes.byteLength - 8);
      const key = inner.deserialize(bytes.subarray(0, bytes.byteLength - 8));
      // TimeWindow end saturates at Long.MAX_VALUE in Kafka; JS numbers stay exact to 2^53.
      return windowedKey(key, start, start + windowSizeMs);
    },
  };
}

/** SessionWindowedSerializer (SessionKeySchema#toBinary): key bytes, end, then start (int64 BE). */
export function sessionWindowedSerde(inner: Serde<unknown>): Serde<WindowedKey> {
  return {
    name: `sessionWindowed(${inner.name})`,
    serialize(value) {
      if (value === null) return null;
      const w = requireWindowed(value, 'SessionWindowedSerde');
      const key = inner.serialize(w.key) ?? new Uint8Array(0);
      return withLongs(key, [w.end, w.start]);
    },
    deserialize(bytes) {
      if (bytes === null) return null;
      const n = bytes.byteLength;
      const end = longAt(bytes, n - 16);
      const start = longAt(bytes, n - 8);
      return windowedKey(inner.deserialize(bytes.subarray(0, n - 16)), start, end);
    },
  };
}
