// A partition's appends reach the page cache through this queue: offsets and file positions are
// assigned synchronously (so appends keep call order), while the copy into the page cache runs on
// libuv's thread pool instead of the thread that serves producers. One write is in flight at a
// time, so the file only ever grows as a prefix of what was appended (a crash leaves at most a
// torn tail, which recovery truncates); everything queued behind it goes out as one writev.
// Readers never see unwritten bytes: the high watermark follows the written end (and the fsync).
import fs from 'node:fs';
import { LogError, LogErrorCode } from '../errors.js';
import type { Segment } from './segment.js';

interface Pending {
  segment: Segment;
  data: Uint8Array;
  /** The offset after the last record in `data`. */
  end: number;
}

/** Enough buffers for one writev (IOV_MAX is 1024 on Linux). */
const MAX_IOV = 512;
/**
 * About this much per writev: the kernel copies the bytes soon after they were encoded, while they
 * are still in the CPU's cache. Unbounded, a queue that fell behind went out as one 16 MB writev
 * of cold memory, which cost up to 10× the system time per MB of a plain sequential write.
 */
const MAX_WRITE_BYTES = 1024 * 1024;

export class WriteQueue {
  private queue: Pending[] = [];
  private writing = false;
  private waiters: { offset: number; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private failure: Error | null = null;

  /** @param writtenOffset the offset after the last record already in the files. */
  constructor(public writtenOffset: number) {}

  /** Queues `data` for the end of `segment` (its bytes were counted in `segment.size` already). */
  push(segment: Segment, data: Uint8Array, end: number): void {
    if (this.failure) throw this.failure;
    this.queue.push({ segment, data, end });
    if (!this.writing) this.next();
  }

  /** Resolves once every record below `offset + 1` is in the page cache. */
  written(offset: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    // Idle: everything appended is written (offsets past 2^53 cannot be compared exactly).
    if (offset < this.writtenOffset || this.idle) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ offset, resolve, reject }));
  }

  get idle(): boolean {
    return !this.writing && this.queue.length === 0;
  }

  private next(): void {
    const first = this.queue[0];
    if (!first) return;
    let n = 1;
    let bytes = first.data.length;
    while (
      n < this.queue.length &&
      n < MAX_IOV &&
      bytes < MAX_WRITE_BYTES &&
      this.queue[n]!.segment === first.segment
    )
      bytes += this.queue[n++]!.data.length;
    const batch = this.queue.splice(0, n);
    const seg = first.segment;
    const end = batch[batch.length - 1]!.end;
    if (!seg.acquire()) {
      // Deleted (retention, topic deletion) before its write: nothing left to write it to.
      this.done(end);
      this.next();
      return;
    }
    this.writing = true;
    const buffers = batch.map((p) => p.data);
    const start = seg.writtenSize;
    const write = (bufs: Uint8Array[], position: number): void => {
      fs.writev(seg.fd, bufs, position, (err, n) => {
        if (err) {
          seg.release();
          this.fail(err);
          return;
        }
        const rest = remainder(bufs, n);
        if (rest.length > 0) return write(rest, position + n);
        // Only now, at a batch boundary, do readers see the new bytes.
        seg.writtenSize = position + n;
        seg.release();
        this.writing = false;
        this.done(end);
        this.next();
      });
    };
    write(buffers, start);
  }

  private done(end: number): void {
    this.writtenOffset = end;
    if (this.waiters.length === 0) return;
    const all = this.queue.length === 0;
    const ready = all ? this.waiters : this.waiters.filter((w) => w.offset < end);
    this.waiters = all ? [] : this.waiters.filter((w) => w.offset >= end);
    for (const w of ready) w.resolve();
  }

  private fail(cause: Error): void {
    const err = new LogError(LogErrorCode.KAFKA_STORAGE_ERROR, `write failed: ${cause.message}`, {
      cause,
    });
    this.failure = err;
    this.writing = false;
    this.queue = [];
    for (const w of this.waiters) w.reject(err);
    this.waiters = [];
  }
}

/** The buffers left after `n` bytes of `bufs` were written. */
function remainder(bufs: Uint8Array[], n: number): Uint8Array[] {
  let i = 0;
  while (i < bufs.length && n >= bufs[i]!.length) n -= bufs[i++]!.length;
  if (i === bufs.length) return [];
  return [bufs[i]!.subarray(n), ...bufs.slice(i + 1)];
}
