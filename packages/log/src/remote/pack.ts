// Records cross a thread boundary packed into one transferable buffer: structured cloning a record
// whose key is a view into a 1 MB read buffer would copy the whole megabyte, per record.
import { exactHeaders, headersOf, type Header, type Headers } from '../format/headers.js';

export interface PackableRecord {
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers?: Headers;
}

export interface Packed {
  /** Per record: key start, key length (-1 = null), value start, value length (-1 = null). */
  layout: Int32Array;
  data: ArrayBuffer;
  /** Text views, or (structured cloning drops their hidden exact list) the exact lists. */
  headers: (Headers | readonly Header[] | undefined)[];
}

export function pack(records: readonly PackableRecord[]): Packed {
  let total = 0;
  for (const r of records) total += (r.key?.length ?? 0) + (r.value?.length ?? 0);
  const data = new Uint8Array(total);
  const layout = new Int32Array(records.length * 4);
  let pos = 0;
  records.forEach((r, i) => {
    const put = (b: Uint8Array | null, slot: number): void => {
      layout[slot] = pos;
      layout[slot + 1] = b === null ? -1 : b.length;
      if (b !== null) {
        data.set(b, pos);
        pos += b.length;
      }
    };
    put(r.key, i * 4);
    put(r.value, i * 4 + 2);
  });
  return {
    layout,
    data: data.buffer,
    headers: records.map((r) => exactHeaders(r.headers) ?? r.headers),
  };
}

export function unpack(
  p: Packed,
): { key: Uint8Array | null; value: Uint8Array | null; headers: Headers | undefined }[] {
  const bytes = Buffer.from(p.data);
  const out = [];
  for (let i = 0; i < p.layout.length / 4; i++) {
    const view = (slot: number): Uint8Array | null => {
      const len = p.layout[slot + 1]!;
      return len < 0 ? null : bytes.subarray(p.layout[slot]!, p.layout[slot]! + len);
    };
    const h = p.headers[i];
    const headers = Array.isArray(h)
      ? headersOf(h as readonly Header[])
      : (h as Headers | undefined);
    out.push({ key: view(i * 4), value: view(i * 4 + 2), headers });
  }
  return out;
}

export function transferables(p: Packed): ArrayBuffer[] {
  return [p.data, p.layout.buffer as ArrayBuffer];
}
