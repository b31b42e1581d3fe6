// How the `produce` and `consume` commands write keys and values as JSON: `string` (UTF-8 text,
// the default), `json` (the JSON value itself, stored as JSON text, as the json serde writes
// it), `base64` (any bytes) and `long` (Java's 8-byte big-endian long, as count() writes).
// A JSON null is a null key or value (a tombstone), whatever the format.
import { getSerde } from '@streamwright/engine';
import type { SerdeName } from '@streamwright/topology-model';
import {
  decodeBytes,
  decodeWindowedKey,
  parseText,
  type KeyWindow,
} from '../service/record-codec.js';

import type { RecordFormat } from './formats.js';

export { RECORD_FORMATS, parseFormat, type RecordFormat } from './formats.js';

const SERDE_OF: Record<RecordFormat, SerdeName> = {
  string: 'string',
  json: 'json',
  base64: 'bytes',
  long: 'long',
};

/** A value a format cannot take; the message names the field. */
export class FormatError extends Error {
  override readonly name = 'FormatError';
}

export function encodeField(
  value: unknown,
  format: RecordFormat,
  field: 'key' | 'value',
): Uint8Array | null {
  if (value === null) return null;
  switch (format) {
    case 'string':
      if (typeof value !== 'string') {
        throw new FormatError(
          `${field}: the string format takes a JSON string (or null), got ${kindOf(value)}; use --${field}-format json for other JSON values`,
        );
      }
      return getSerde('string').serialize(value);
    case 'json':
      return getSerde('json').serialize(value);
    case 'base64':
      if (typeof value !== 'string') {
        throw new FormatError(`${field}: the base64 format takes a string, got ${kindOf(value)}`);
      }
      return fromText(value, 'bytes', field) as Uint8Array;
    case 'long': {
      if (typeof value === 'number' && !Number.isSafeInteger(value)) {
        throw new FormatError(`${field}: the long format takes an integer, got ${value}`);
      }
      if (typeof value !== 'number' && typeof value !== 'string') {
        throw new FormatError(
          `${field}: the long format takes an integer (a number or a string of digits), got ${kindOf(value)}`,
        );
      }
      return getSerde('long').serialize(fromText(String(value), 'long', field));
    }
  }
}

export interface DecodedField {
  value: unknown;
  /** The bytes did not decode in the format and `value` is their base64 text. */
  undecodable: boolean;
}

export function decodeField(bytes: Uint8Array | null, format: RecordFormat): DecodedField {
  return decodeBytes(bytes, SERDE_OF[format]);
}

/** A windowed key: `{key, start, end}`, the key decoded per `format`. */
export function decodeWindowedField(
  bytes: Uint8Array | null,
  format: RecordFormat,
  window: KeyWindow,
): DecodedField {
  return decodeWindowedKey(bytes, SERDE_OF[format], window);
}

function fromText(text: string, serde: SerdeName, field: 'key' | 'value'): unknown {
  try {
    return parseText(text, serde, field);
  } catch (error) {
    throw new FormatError(error instanceof Error ? error.message : String(error));
  }
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
