// The sparse per-segment indexes, in Kafka's on-disk layout:
//   .index      entries of (relative offset int32, position int32), 8 bytes
//   .timeindex  entries of (timestamp int64, relative offset int32), 12 bytes
// Both live in memory (a 1 GiB segment with 4 KiB spacing is ~2 MiB of entries) and are appended
// to their files as the segment grows. Indexes are derived data: a missing or implausible index
// file is rebuilt from the log, never trusted.
import fs from 'node:fs';
import { readInt64, writeInt64 } from '../format/varint.js';
import { writeAllSync } from './fs-util.js';

class Growable {
  a: Float64Array;
  b: Int32Array;
  count = 0;
  constructor(capacity = 64) {
    this.a = new Float64Array(capacity);
    this.b = new Int32Array(capacity);
  }
  push(x: number, y: number): void {
    if (this.count === this.a.length) {
      const a = new Float64Array(this.a.length * 2);
      a.set(this.a);
      const b = new Int32Array(this.b.length * 2);
      b.set(this.b);
      this.a = a;
      this.b = b;
    }
    this.a[this.count] = x;
    this.b[this.count] = y;
    this.count++;
  }
  /** Index of the last entry with a[i] <= key (or < key when strict), -1 if none. */
  floor(key: number, strict: boolean): number {
    let lo = 0;
    let hi = this.count - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.a[mid]!;
      if (strict ? v < key : v <= key) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}

/**
 * Entries appended to an open index wait in memory and go to its file together, at the partition's
 * next flush or once this many are waiting: one small write per flush instead of one per indexed
 * batch. Lookups use the entries in memory, and an index file that lacks its last entries after
 * a crash only makes recovery scan a little more (indexes are derived data, checked on open).
 */
const MAX_UNWRITTEN_ENTRIES = 256;

abstract class FileIndex {
  protected readonly entries = new Growable();
  private fd: number | null = null;
  /** Entries in the file; those from here to `count` are still only in memory. */
  private written = 0;

  constructor(
    readonly file: string,
    readonly baseOffset: number,
  ) {}

  protected abstract readonly entrySize: number;
  protected abstract encode(i: number, out: Buffer): void;

  get count(): number {
    return this.entries.count;
  }

  /** Keeps the file open for appends (the active segment's indexes). */
  openForAppend(): void {
    if (this.fd === null) this.fd = fs.openSync(this.file, fs.existsSync(this.file) ? 'r+' : 'w+');
  }

  /** Marks the entries in memory as the file's (after a load). */
  protected loaded(): this {
    this.written = this.entries.count;
    return this;
  }

  /** Called after an entry was added in memory. */
  protected appended(): void {
    if (this.fd !== null && this.entries.count - this.written >= MAX_UNWRITTEN_ENTRIES) {
      try {
        this.writePending();
      } catch {
        // An early write only (a full disk, say): the entries stay in memory and go out with the
        // next flush, which reports a failure to the appends waiting on it.
      }
    }
  }

  /** Writes the entries still only in memory to the open file, with one write. */
  writePending(): void {
    const n = this.entries.count - this.written;
    if (this.fd === null || n <= 0) return;
    const buf = Buffer.allocUnsafe(n * this.entrySize);
    for (let i = 0; i < n; i++) this.encode(this.written + i, buf.subarray(i * this.entrySize));
    writeAllSync(this.fd, buf, this.written * this.entrySize);
    this.written = this.entries.count;
  }

  /** Writes every entry to the file, replacing what was there. */
  writeFile(): void {
    const buf = Buffer.allocUnsafe(this.count * this.entrySize);
    for (let i = 0; i < this.count; i++) this.encode(i, buf.subarray(i * this.entrySize));
    if (this.fd !== null) {
      fs.ftruncateSync(this.fd, 0);
      writeAllSync(this.fd, buf, 0);
    } else fs.writeFileSync(this.file, buf);
    this.written = this.count;
  }

  /** Drops entries from `i` on, in memory and on disk. */
  protected truncateEntries(i: number): void {
    if (i >= this.entries.count) return;
    this.entries.count = i;
    if (this.written <= i) return; // what goes is not in the file yet
    this.written = i;
    if (this.fd !== null) fs.ftruncateSync(this.fd, i * this.entrySize);
    else if (fs.existsSync(this.file)) fs.truncateSync(this.file, i * this.entrySize);
  }

  fsyncSync(): void {
    this.writePending();
    if (this.fd !== null) fs.fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== null) {
      try {
        this.writePending();
      } finally {
        // A sealed index is exactly its entries; nothing is preallocated to trim. The file
        // closes even when they could not be written (a full disk): the index is rebuilt at open.
        fs.closeSync(this.fd);
        this.fd = null;
      }
    }
  }
}

/** Offset → byte position of the batch that starts at that offset. */
export class OffsetIndex extends FileIndex {
  protected readonly entrySize = 8;

  protected encode(i: number, out: Buffer): void {
    out.writeInt32BE(this.entries.a[i]! - this.baseOffset, 0);
    out.writeInt32BE(this.entries.b[i]!, 4);
  }

  /**
   * Loads and sanity-checks an index file: whole entries, strictly increasing offsets and
   * positions, positions inside the log. Returns null when missing or implausible.
   */
  static load(file: string, baseOffset: number, logSize: number): OffsetIndex | null {
    let data: Buffer;
    try {
      data = fs.readFileSync(file);
    } catch {
      return null;
    }
    if (data.length % 8 !== 0) return null;
    const index = new OffsetIndex(file, baseOffset);
    let lastRel = -1;
    let lastPos = -1;
    for (let p = 0; p < data.length; p += 8) {
      const rel = data.readInt32BE(p);
      const pos = data.readInt32BE(p + 4);
      if (rel <= lastRel || pos <= lastPos || pos >= logSize) return null;
      index.entries.push(baseOffset + rel, pos);
      lastRel = rel;
      lastPos = pos;
    }
    return index.loaded();
  }

  append(offset: number, position: number): void {
    const n = this.entries.count;
    if (n > 0 && (offset <= this.entries.a[n - 1]! || position <= this.entries.b[n - 1]!)) return;
    this.entries.push(offset, position);
    this.appended();
  }

  /** The entry with the largest offset <= `offset`, or the segment start. */
  lookup(offset: number): { offset: number; position: number } {
    const i = this.entries.floor(offset, false);
    return i < 0
      ? { offset: this.baseOffset, position: 0 }
      : { offset: this.entries.a[i]!, position: this.entries.b[i]! };
  }

  last(): { offset: number; position: number } | null {
    const n = this.entries.count;
    return n === 0 ? null : { offset: this.entries.a[n - 1]!, position: this.entries.b[n - 1]! };
  }

  /** Drops entries pointing at or beyond `position` (after the log is truncated there). */
  truncateToPosition(position: number): void {
    let i = this.entries.count;
    while (i > 0 && this.entries.b[i - 1]! >= position) i--;
    this.truncateEntries(i);
  }

  clear(): void {
    this.truncateEntries(0);
  }
}

/** Largest timestamp so far → offset of the batch where it was first reached. */
export class TimeIndex extends FileIndex {
  protected readonly entrySize = 12;

  protected encode(i: number, out: Buffer): void {
    writeInt64(new DataView(out.buffer, out.byteOffset, 12), 0, this.entries.a[i]!);
    out.writeInt32BE(this.entries.b[i]! - this.baseOffset, 8);
  }

  /**
   * Loads with checks: whole entries, non-decreasing timestamps and offsets. Entries at or past
   * `nextOffset` (left by a torn write that recovery truncated) are dropped.
   */
  static load(file: string, baseOffset: number, nextOffset: number): TimeIndex | null {
    let data: Buffer;
    try {
      data = fs.readFileSync(file);
    } catch {
      return null;
    }
    if (data.length % 12 !== 0) return null;
    const index = new TimeIndex(file, baseOffset);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let lastTs = -Infinity;
    let lastOffset = -1;
    for (let p = 0; p < data.length; p += 12) {
      const ts = readInt64(view, p);
      const offset = baseOffset + data.readInt32BE(p + 8);
      if (ts < lastTs || offset < lastOffset || offset < baseOffset) return null;
      if (offset >= nextOffset) {
        fs.truncateSync(file, p);
        break;
      }
      index.entries.push(ts, offset);
      lastTs = ts;
      lastOffset = offset;
    }
    return index.loaded();
  }

  /** Appends when `timestamp` is a new maximum; the entry stores the batch offset reaching it. */
  maybeAppend(timestamp: number, offset: number): void {
    const n = this.entries.count;
    if (n > 0 && timestamp <= this.entries.a[n - 1]!) return;
    this.entries.push(timestamp, offset);
    this.appended();
  }

  /** Offset from which a scan for the first record with timestamp >= `ts` can start. */
  lookupStart(ts: number): number {
    const i = this.entries.floor(ts, true);
    return i < 0 ? this.baseOffset : this.entries.b[i]!;
  }

  maxTimestamp(): number {
    return this.entries.count === 0 ? -1 : this.entries.a[this.entries.count - 1]!;
  }

  truncateToOffset(nextOffset: number): void {
    let i = this.entries.count;
    while (i > 0 && this.entries.b[i - 1]! >= nextOffset) i--;
    this.truncateEntries(i);
  }

  clear(): void {
    this.truncateEntries(0);
  }
}
