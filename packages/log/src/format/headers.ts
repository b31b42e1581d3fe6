// Record headers as Kafka has them — an ordered list of (key, value bytes or null) in which a key
// may repeat — behind the convenient text view the engine has always offered (`Headers`, one
// UTF-8 string per key). A text view decoded from a batch carries its exact list as a hidden,
// non-enumerable property, so records passed on unchanged are written back byte for byte; a view
// built or edited by hand (`{ ...headers, k: 'v' }` copies no hidden property) is written as text.
// `headersOf` builds a view from an exact list (binary values, repeated keys, order).

/** Header text per key (the last value of a repeated key, as Java's Headers#lastHeader). */
export type Headers = Record<string, string>;

/** One Kafka header: a key, and bytes or null. */
export interface Header {
  readonly key: string;
  readonly value: Uint8Array | null;
}

const EXACT = Symbol.for('streamwright.headers.exact');
const utf8 = new TextEncoder();
const text = new TextDecoder('utf-8', { ignoreBOM: true });

/** A text view of `entries` that carries them exactly. */
export function headersOf(entries: readonly Header[]): Headers {
  const view: Headers = {};
  for (const h of entries) view[h.key] = h.value === null ? '' : text.decode(h.value);
  Object.defineProperty(view, EXACT, { value: entries, enumerable: false });
  return view;
}

/** The exact list a view carries, or undefined for a view built or edited as text. */
export function exactHeaders(headers: Headers | undefined): readonly Header[] | undefined {
  return headers === undefined ? undefined : (headers as { [EXACT]?: readonly Header[] })[EXACT];
}

/** The headers as Kafka writes them: the exact list, or the text view's entries as UTF-8. */
export function headerEntries(headers: Headers | undefined): readonly Header[] {
  if (headers === undefined) return [];
  const exact = exactHeaders(headers);
  if (exact !== undefined) return exact;
  const out: Header[] = [];
  for (const key in headers) out.push({ key, value: utf8.encode(headers[key]!) });
  return out;
}

/** Whether the view holds at least one header (exact or text). */
export function hasHeaders(headers: Headers | undefined): boolean {
  if (headers === undefined) return false;
  const exact = exactHeaders(headers);
  if (exact !== undefined) return exact.length > 0;
  for (const _ in headers) return true;
  return false;
}

/** Bytes a header list takes at most in a record (for batch size estimates). */
export function headersSizeEstimate(headers: Headers | undefined): number {
  if (headers === undefined) return 0;
  const exact = exactHeaders(headers);
  let n = 0;
  if (exact !== undefined) {
    for (const h of exact) n += h.key.length * 3 + (h.value?.length ?? 0) + 10;
    return n;
  }
  for (const k in headers) n += k.length * 3 + headers[k]!.length * 3 + 4;
  return n;
}
