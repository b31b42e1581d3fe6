// A partition's appends reach the page cache here, written on the appending thread as each append
// is made (offsets and file positions are assigned synchronously, so appends keep call order and
// the file only ever grows as a prefix of what was appended: a crash leaves at most a torn tail,
// which recovery truncates). Writing at once copies memory the producer wrote moments ago, still in
// the CPU's cache, and needs nothing else to run before the next fsync can cover it. (Writes on
// libuv's thread pool, one in flight, each next one started by a callback on this thread, stalled
// whenever this thread was busy with a burst of produce calls: the fsync then waited for the queue
// to drain, and the flush interval stretched to the whole burst.)
import fs from 'node:fs';
import { LogError, LogErrorCode } from '../errors.js';
import type { Segment } from './segment.js';

export class WriteQueue {
  private failure: Error | null = null;

  /** @param writtenOffset the offset after the last record already in the files. */
  constructor(public writtenOffset: number) {}

  /**
   * Writes `data` at the end of `segment` (its bytes were counted in `segment.size` already). The
   * caller may reuse `data` once this returns. A failed write fails the queue: the flush and the
   * acknowledgements waiting on it see the error.
   */
  push(segment: Segment, data: Uint8Array, end: number): void {
    if (this.failure) throw this.failure;
    const position = segment.size - data.length;
    // Deleted (retention, topic deletion) before its write: nothing left to write it to.
    if (segment.acquire()) {
      try {
        let n = 0;
        while (n < data.length)
          n += fs.writeSync(segment.fd, data, n, data.length - n, position + n);
      } catch (err) {
        this.fail(err as Error);
        return;
      } finally {
        segment.release();
      }
      // Only now, at a batch boundary, do readers see the new bytes.
      segment.writtenSize = position + data.length;
    }
    this.writtenOffset = end;
  }

  /** Throws the error a write failed with, if one did. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  /** Resolves once every record below `offset + 1` is in the page cache: at once, or fails. */
  written(_offset: number): Promise<void> {
    return this.failure ? Promise.reject(this.failure) : Promise.resolve();
  }

  private fail(cause: Error): void {
    this.failure = new LogError(
      LogErrorCode.KAFKA_STORAGE_ERROR,
      `write failed: ${cause.message}`,
      { cause },
    );
  }
}
