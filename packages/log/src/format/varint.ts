// Zig-zag varints as in Kafka's record format (protobuf encoding). Longs are JavaScript numbers;
// zig-zag doubles them, so varlongs are exact for magnitudes below 2^52 (timestamp deltas are
// far smaller), and fixed int64 fields are exact up to 2^53.

export function varintSize(value: number): number {
  let v = ((value << 1) ^ (value >> 31)) >>> 0;
  let n = 1;
  while (v >= 0x80) {
    v >>>= 7;
    n++;
  }
  return n;
}

export function writeVarint(buf: Uint8Array, pos: number, value: number): number {
  let v = ((value << 1) ^ (value >> 31)) >>> 0;
  while (v >= 0x80) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[pos++] = v;
  return pos;
}

function zigzagLong(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

export function varlongSize(value: number): number {
  let v = zigzagLong(value);
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

export function writeVarlong(buf: Uint8Array, pos: number, value: number): number {
  let v = zigzagLong(value);
  while (v >= 0x80) {
    buf[pos++] = (v % 128) | 0x80;
    v = Math.floor(v / 128);
  }
  buf[pos++] = v;
  return pos;
}

/** A read cursor; throws RangeError on a malformed or truncated varint. */
export class Reader {
  constructor(
    readonly buf: Uint8Array,
    public pos: number,
    readonly end: number,
  ) {}

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new RangeError('varint runs past the end');
      const b = this.buf[this.pos++]!;
      result |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7;
      if (shift > 28) throw new RangeError('varint is longer than 5 bytes');
    }
    return (result >>> 1) ^ -(result & 1);
  }

  varlong(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; ; i++) {
      if (this.pos >= this.end) throw new RangeError('varlong runs past the end');
      if (i > 9) throw new RangeError('varlong is longer than 10 bytes');
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) break;
      mul *= 128;
    }
    return result % 2 === 0 ? result / 2 : -(result + 1) / 2;
  }

  bytes(len: number): Uint8Array {
    if (len < 0 || this.pos + len > this.end) throw new RangeError('field runs past the end');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
}

// ---- fixed-width big-endian longs as numbers ---------------------------------------------------

const TWO32 = 4294967296;

export function writeInt64(view: DataView, pos: number, value: number): void {
  const hi = Math.floor(value / TWO32);
  view.setInt32(pos, hi);
  view.setUint32(pos + 4, value - hi * TWO32);
}

export function readInt64(view: DataView, pos: number): number {
  return view.getInt32(pos) * TWO32 + view.getUint32(pos + 4);
}
