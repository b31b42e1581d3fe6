// A bounds-checked big-endian reader the generated decoders read from. Every read checks what
// is left first, so truncated or malformed bytes fail with the field's label instead of
// yielding garbage. Byte fields can be views of the input (records, zero-copy bytes).
import { FieldError } from './errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: false });

export class Reader {
  readonly buf: Buffer;
  pos: number;
  end: number;

  constructor(bytes: Uint8Array, start = 0, end = bytes.length) {
    this.buf = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  need(n: number, label: string): void {
    if (this.pos + n > this.end) {
      throw new FieldError(
        'malformed',
        label,
        `truncated: needs ${n} byte(s) at offset ${this.pos}, ${this.end - this.pos} left`,
      );
    }
  }

  bool(label: string): boolean {
    this.need(1, label);
    return this.buf[this.pos++] !== 0;
  }

  int8(label: string): number {
    this.need(1, label);
    return (this.buf[this.pos++]! << 24) >> 24;
  }

  int16(label: string): number {
    this.need(2, label);
    const b = this.buf;
    const v = ((b[this.pos]! << 24) >> 16) | b[this.pos + 1]!;
    this.pos += 2;
    return v;
  }

  uint16(label: string): number {
    this.need(2, label);
    const b = this.buf;
    const v = (b[this.pos]! << 8) | b[this.pos + 1]!;
    this.pos += 2;
    return v;
  }

  int32(label: string): number {
    this.need(4, label);
    const b = this.buf;
    const p = this.pos;
    this.pos = p + 4;
    return (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
  }

  uint32(label: string): number {
    return this.int32(label) >>> 0;
  }

  int64(label: string): bigint {
    this.need(8, label);
    const v = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return v;
  }

  float64(label: string): number {
    this.need(8, label);
    const v = this.buf.readDoubleBE(this.pos);
    this.pos += 8;
    return v;
  }

  uuid(label: string): string {
    this.need(16, label);
    const v = this.buf.toString('base64url', this.pos, this.pos + 16);
    this.pos += 16;
    return v;
  }

  /** An unsigned varint of at most 5 bytes that fits an int32 (Java's readUnsignedVarint). */
  uvarint(label: string): number {
    let value = 0;
    let shift = 0;
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.end) {
        throw new FieldError('malformed', label, `truncated varint at offset ${this.pos}`);
      }
      const byte = this.buf[this.pos++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) {
        if (value > 0x7fffffff) {
          throw new FieldError('malformed', label, `varint ${value} does not fit an int32`);
        }
        return value;
      }
      shift += 7;
    }
    throw new FieldError('malformed', label, `varint longer than 5 bytes at offset ${this.pos}`);
  }

  /**
   * A length prefix: int16 (strings) or int32 (bytes, arrays) when not compact, unsigned varint
   * minus one when compact. -1 means null.
   */
  length(compact: boolean, wide: boolean, label: string): number {
    if (compact) return this.uvarint(label) - 1;
    return wide ? this.int32(label) : this.int16(label);
  }

  string(n: number, label: string): string {
    if (n > 0x7fff) throw new FieldError('malformed', label, `string had invalid length ${n}`);
    this.need(n, label);
    const p = this.pos;
    this.pos = p + n;
    // Short ASCII strings (topic names, ids) are the common case; decoding them by hand skips
    // the TextDecoder call.
    if (n < 32) {
      const b = this.buf;
      let ascii = true;
      for (let i = p; i < p + n; i++) {
        if (b[i]! >= 0x80) {
          ascii = false;
          break;
        }
      }
      if (ascii) return b.toString('latin1', p, p + n);
    }
    return utf8.decode(this.buf.subarray(p, p + n));
  }

  /** n bytes as a view of the input (no copy). */
  view(n: number, label: string): Buffer {
    this.need(n, label);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** n bytes as a copy (the input buffer can be reused by the caller). */
  copy(n: number, label: string): Buffer {
    this.need(n, label);
    const v = Buffer.from(this.buf.subarray(this.pos, this.pos + n));
    this.pos += n;
    return v;
  }

  /** Java's guard against absurd element counts: at least one byte per element must remain. */
  arrayLength(n: number, label: string): void {
    if (n > this.end - this.pos) {
      throw new FieldError(
        'malformed',
        label,
        `array of ${n} elements, but only ${this.end - this.pos} bytes remain`,
      );
    }
  }
}
