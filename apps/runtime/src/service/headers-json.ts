// Headers in JSON (`drive`'s and `produce`/`consume`'s lines, the tRPC API), as Kafka has them: an
// ordered array [{"key", "value"}] — repeated keys and order kept — with `value` as text when it
// is valid UTF-8, {"base64": "…"} otherwise, and null for a null value. The older object form
// {"name": "text"} is still read.
import { exactHeaders, headerEntries, headersOf, type Header } from '@streamwright/log/reader';

type Headers = Record<string, string>;
export type HeaderJson = { key: string; value: string | { base64: string } | null };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8 = new TextEncoder();

/**
 * Headers from a line's "headers" field (array or object form), carrying binary and null values
 * and repeated keys exactly; throws a message naming the entry at fault.
 */
export function parseHeadersField(value: unknown): Headers {
  if (Array.isArray(value)) {
    const entries: Header[] = value.map((entry, i) => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
        throw new Error(`headers[${i}]: expected {"key", "value"}`);
      const { key, value: v, ...rest } = entry as Record<string, unknown>;
      const extra = Object.keys(rest);
      if (extra.length > 0)
        throw new Error(`headers[${i}]: unknown field ${JSON.stringify(extra[0])}`);
      if (typeof key !== 'string') throw new Error(`headers[${i}].key: expected a string`);
      return { key, value: headerValue(v, i) };
    });
    return headersOf(entries);
  }
  if (typeof value === 'object' && value !== null) {
    for (const [name, v] of Object.entries(value))
      if (typeof v !== 'string')
        throw new Error(`headers.${name}: expected a string, got ${JSON.stringify(v)}`);
    return { ...(value as Headers) };
  }
  throw new Error(
    'headers: expected an array [{"key", "value"}] (value: text, {"base64": …} or null) or an object of strings',
  );
}

function headerValue(v: unknown, i: number): Uint8Array | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return utf8.encode(v);
  if (typeof v === 'object' && !Array.isArray(v)) {
    const b64 = (v as Record<string, unknown>).base64;
    if (typeof b64 === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(b64) && b64.length % 4 === 0)
      return new Uint8Array(Buffer.from(b64, 'base64'));
  }
  throw new Error(`headers[${i}].value: expected text, {"base64": "…"} or null`);
}

/** Headers as the ordered array form; an empty list when there are none. */
export function headersJson(headers: Headers | undefined): HeaderJson[] {
  if (headers === undefined) return [];
  const entries = exactHeaders(headers) ?? headerEntries(headers);
  return entries.map(({ key, value }) => {
    if (value === null) return { key, value: null };
    try {
      return { key, value: strictUtf8.decode(value) };
    } catch {
      return { key, value: { base64: Buffer.from(value).toString('base64') } };
    }
  });
}
