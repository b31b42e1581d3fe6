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
   * Writes `data` at `position` of `segment` (the segment's end, before the append is counted).
   * The caller may reuse `data` once this returns. A disk that is full (ENOSPC, EDQUOT) refuses the
   * write cleanly: whatever part of it landed is cut off again and a retriable error is thrown with
   * nothing appended, so the partition takes appends again once space returns. Any other failed
   * write fails the queue: the flush and the acknowledgements waiting on it see the error.
   */
  write(segment: Segment, data: Uint8Array, position: number): void {
    if (this.failure) throw this.failure;
    // Deleted (retention, topic deletion) before its write: nothing left to write it to.
    if (!segment.acquire()) return;
    try {
      let n = 0;
      while (n < data.length) n += fs.writeSync(segment.fd, data, n, data.length - n, position + n);
    } catch (err) {
      if (isOutOfSpace(err)) {
        try {
          fs.ftruncateSync(segment.fd, position);
        } catch (cut) {
          this.fail(cut as Error);
          throw this.failure!;
        }
        throw outOfSpace(segment.logFile, err as Error);
      }
      this.fail(err as Error);
      throw this.failure!;
    } finally {
      segment.release();
    }
  }

  /** Marks the bytes up to `size` of `segment`, and the offsets below `end`, as in the files. */
  wrote(segment: Segment, size: number, end: number): void {
    // Only now, at a batch boundary, do readers see the new bytes.
    segment.writtenSize = size;
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

/** A write refused because the file system is full (or the user's quota is used up). */
export function isOutOfSpace(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The retriable KAFKA_STORAGE_ERROR of a full disk, naming the file and the cause. */
export function outOfSpace(file: string, cause: Error): LogError {
  return new LogError(
    LogErrorCode.KAFKA_STORAGE_ERROR,
    `no space left on the device for ${file} (${(cause as NodeJS.ErrnoException).code ?? cause.message}): nothing was appended; free space and retry`,
    { cause, retriable: true },
  );
}
