// Turns the text a user types into record bytes with a serde, and record bytes back into values
// that survive JSON (the tRPC wire format). Bytes the serde cannot decode are shown base64-encoded
// with a flag rather than failing the whole read.
import { getSerde, WindowedSerdes, type DslSerde } from '@streamwright/engine';
import type { SerdeName } from '@streamwright/topology-model';
import { RuntimeError } from '../errors.js';

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Parses user text into the value the serde serializes; `field` names the input in errors. */
export function parseText(text: string, serde: SerdeName, field: 'key' | 'value'): unknown {
  switch (serde) {
    case 'string':
      return text;
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new RuntimeError(
          'BAD_RECORD',
          `${field}: not valid JSON for the json serde (${reason})`,
        );
      }
    case 'long': {
      const trimmed = text.trim();
      if (!/^[+-]?\d+$/.test(trimmed)) {
        throw new RuntimeError(
          'BAD_RECORD',
          `${field}: the long serde needs an integer, got ${JSON.stringify(text)}`,
        );
      }
      const long = BigInt(trimmed);
      if (long < LONG_MIN || long > LONG_MAX) {
        throw new RuntimeError(
          'BAD_RECORD',
          `${field}: ${trimmed} is outside the range of a 64-bit long`,
        );
      }
      return long;
    }
    case 'bytes': {
      const compact = text.replace(/\s+/g, '');
      if (!BASE64.test(compact)) {
        throw new RuntimeError('BAD_RECORD', `${field}: the bytes serde takes base64 text`);
      }
      return new Uint8Array(Buffer.from(compact, 'base64'));
    }
    default:
      // A serde added to the schema later is refused clearly until it gets a text form here.
      throw new RuntimeError(
        'BAD_RECORD',
        `${field}: the ${String(serde)} serde cannot be produced from text`,
      );
  }
}

/** Encodes user text with a serde; null stays null (a tombstone value or a null key). */
export function encodeText(
  text: string | null,
  serde: SerdeName,
  field: 'key' | 'value',
): Uint8Array | null {
  if (text === null) return null;
  const parsed = parseText(text, serde, field);
  try {
    return getSerde(serde).serialize(parsed);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RuntimeError(
      'BAD_RECORD',
      `${field}: cannot be serialized with the ${serde} serde (${reason})`,
    );
  }
}

export interface Decoded {
  value: unknown;
  /** True when the bytes did not decode with the serde and `value` is their base64 text. */
  undecodable: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes record bytes with a serde into a JSON-safe value. */
export function decodeBytes(bytes: Uint8Array | null, serde: SerdeName): Decoded {
  if (bytes === null) return { value: null, undecodable: false };
  if (serde === 'bytes') return { value: toBase64(bytes), undecodable: false };
  try {
    // Replacement characters would hide corrupt text; refuse it so it is shown as base64.
    if (serde === 'string' || serde === 'json') strictUtf8.decode(bytes);
    return { value: jsonSafe(getSerde(serde).deserialize(bytes)), undecodable: false };
  } catch {
    return { value: toBase64(bytes), undecodable: true };
  }
}

/** A windowed key's byte layout (see `keyWindowInput`). */
export type KeyWindow =
  { kind: 'time'; sizeMs: number } | { kind: 'session' } | { kind: 'windowStore'; sizeMs: number };

/** WindowKeySchema's sequence number after the start, which keeps duplicates apart in a store. */
const SEQNUM_BYTES = 4;

/**
 * Decodes a windowed key into `{key, start, end}` with the inner key decoded by `serde`; bytes too
 * short for the layout, or an inner key the serde refuses, are shown as base64.
 */
export function decodeWindowedKey(
  bytes: Uint8Array | null,
  serde: SerdeName,
  window: KeyWindow,
): Decoded {
  if (bytes === null) return { value: null, undecodable: false };
  // What follows the inner key: start (time); end, start (session); start, seqnum (window store).
  const keyBytes =
    window.kind === 'windowStore' ? bytes.subarray(0, bytes.byteLength - SEQNUM_BYTES) : bytes;
  const longs = window.kind === 'session' ? 2 : 1;
  if (keyBytes.byteLength < 8 * longs || keyBytes.byteLength > bytes.byteLength)
    return { value: toBase64(bytes), undecodable: true };
  const innerKey = decodeBytes(keyBytes.subarray(0, keyBytes.byteLength - 8 * longs), serde);
  if (innerKey.undecodable) return { value: toBase64(bytes), undecodable: true };
  const inner = getSerde(serde) as DslSerde<unknown>;
  const windowed =
    window.kind === 'session'
      ? WindowedSerdes.sessionWindowedSerdeFrom(inner)
      : WindowedSerdes.timeWindowedSerdeFrom(inner, window.sizeMs);
  const decoded = windowed.deserialize(keyBytes);
  if (decoded === null) return { value: null, undecodable: false };
  return {
    value: { key: innerKey.value, start: decoded.start, end: decoded.end },
    undecodable: false,
  };
}

/** A long beyond 2^53 cannot be a JSON number without losing digits: it is sent as a string. */
function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Uint8Array) return toBase64(value);
  return value;
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
