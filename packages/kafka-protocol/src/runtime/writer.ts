// A growable big-endian buffer the generated encoders write into. Values are range-checked as
// Java's typed fields would be (a number outside int16 is a bug, not something to wrap
// silently); `label` names the field in the error.
import { FieldError } from './errors.js';

const INITIAL_CAPACITY = 256;

export class Writer {
  buf: Buffer;
  pos = 0;

  constructor(capacity = INITIAL_CAPACITY) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** The bytes written so far (a view of the internal buffer, not a copy). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  bool(v: boolean, label: string): void {
    if (typeof v !== 'boolean') throw invalid(label, v, 'a boolean');
    this.ensure(1);
    this.buf[this.pos++] = v ? 1 : 0;
  }

  int8(v: number, label: string): void {
    if (!Number.isInteger(v) || v < -128 || v > 127) throw invalid(label, v, 'an int8');
    this.ensure(1);
    this.buf[this.pos++] = v & 0xff;
  }

  int16(v: number, label: string): void {
    if (!Number.isInteger(v) || v < -32768 || v > 32767) throw invalid(label, v, 'an int16');
    this.ensure(2);
    const b = this.buf;
    b[this.pos] = (v >> 8) & 0xff;
    b[this.pos + 1] = v & 0xff;
    this.pos += 2;
  }

  uint16(v: number, label: string): void {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw invalid(label, v, 'a uint16');
    this.ensure(2);
    const b = this.buf;
    b[this.pos] = v >>> 8;
    b[this.pos + 1] = v & 0xff;
    this.pos += 2;
  }

  int32(v: number, label: string): void {
    if (!Number.isInteger(v) || v < -2147483648 || v > 2147483647) {
      throw invalid(label, v, 'an int32');
    }
    this.rawInt32(v);
  }

  uint32(v: number, label: string): void {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw invalid(label, v, 'a uint32');
    this.rawInt32(v | 0);
  }

  /** An int32 the caller knows is in range (lengths, sizes). */
  rawInt32(v: number): void {
    this.ensure(4);
    const b = this.buf;
    const p = this.pos;
    b[p] = (v >>> 24) & 0xff;
    b[p + 1] = (v >>> 16) & 0xff;
    b[p + 2] = (v >>> 8) & 0xff;
    b[p + 3] = v & 0xff;
    this.pos = p + 4;
  }

  int64(v: bigint, label: string): void {
    if (typeof v !== 'bigint' || v < -0x8000000000000000n || v > 0x7fffffffffffffffn) {
      throw invalid(label, v, 'an int64 (bigint)');
    }
    this.ensure(8);
    this.buf.writeBigInt64BE(v, this.pos);
    this.pos += 8;
  }

  float64(v: number, label: string): void {
    if (typeof v !== 'number') throw invalid(label, v, 'a float64');
    this.ensure(8);
    this.buf.writeDoubleBE(v, this.pos);
    this.pos += 8;
  }

  uuid(v: string, label: string): void {
    const bytes = typeof v === 'string' && v.length === 22 ? Buffer.from(v, 'base64url') : null;
    if (bytes === null || bytes.length !== 16 || bytes.toString('base64url') !== v) {
      throw invalid(label, v, 'a Kafka Uuid (22 characters of URL-safe base64, Uuid.toString())');
    }
    this.ensure(16);
    bytes.copy(this.buf, this.pos);
    this.pos += 16;
  }

  uvarint(v: number): void {
    this.ensure(5);
    const b = this.buf;
    while (v >= 0x80) {
      b[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[this.pos++] = v;
  }

  /** A string's UTF-8 bytes with its length prefix (int16, or unsigned varint + 1 if compact). */
  string(v: string, compact: boolean, label: string): void {
    if (typeof v !== 'string') throw invalid(label, v, 'a string');
    const n = Buffer.byteLength(v, 'utf8');
    if (n > 0x7fff) {
      throw new FieldError('invalid', label, `is too long to be serialized (${n} bytes)`);
    }
    if (compact) this.uvarint(n + 1);
    else {
      this.ensure(2);
      this.buf[this.pos] = n >>> 8;
      this.buf[this.pos + 1] = n & 0xff;
      this.pos += 2;
    }
    this.ensure(n);
    this.pos += this.buf.write(v, this.pos, n, 'utf8');
  }

  /** bytes/records with their length prefix (int32, or unsigned varint + 1 if compact). */
  bytes(v: Uint8Array, compact: boolean, label: string): void {
    if (!(v instanceof Uint8Array)) throw invalid(label, v, 'a Uint8Array');
    if (compact) this.uvarint(v.length + 1);
    else this.rawInt32(v.length);
    this.raw(v);
  }

  raw(v: Uint8Array): void {
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
  }

  /** Null of a nullable string (int16 -1, or varint 0 if compact). */
  nullString(compact: boolean): void {
    if (compact) this.uvarint(0);
    else {
      this.ensure(2);
      this.buf[this.pos++] = 0xff;
      this.buf[this.pos++] = 0xff;
    }
  }

  /** Null of a nullable bytes/records/array (int32 -1, or varint 0 if compact). */
  nullBytes(compact: boolean): void {
    if (compact) this.uvarint(0);
    else this.rawInt32(-1);
  }

  /** An array's element count (int32, or unsigned varint + 1 if compact). */
  arrayLength(n: number, compact: boolean): void {
    if (compact) this.uvarint(n + 1);
    else this.rawInt32(n);
  }

  /**
   * Starts a size-prefixed section (a tagged field's value): reserves one byte for the size
   * varint and returns the section's start. Tagged values are small, so the rare size >= 128
   * costs one move of the section in `endSized`.
   */
  beginSized(): number {
    this.ensure(1);
    return ++this.pos;
  }

  endSized(start: number): void {
    const size = this.pos - start;
    if (size < 0x80) {
      this.buf[start - 1] = size;
      return;
    }
    let width = 1;
    for (let s = size; s >= 0x80; s >>>= 7) width++;
    this.ensure(width - 1);
    this.buf.copy(this.buf, start + width - 1, start, this.pos);
    this.pos = start - 1;
    this.uvarint(size);
    this.pos += size;
  }
}

export function invalid(label: string, value: unknown, what: string): FieldError {
  let shown: string;
  try {
    shown = typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  } catch {
    shown = String(value);
  }
  if (shown.length > 60) shown = `${shown.slice(0, 57)}...`;
  return new FieldError('invalid', label, `${shown} is not ${what}`);
}
