// Reads one partition's segment files directly, in whatever thread holds it, following a ReadPlan
// from the log's thread (read-plan.ts): its own file descriptors, its own buffers, every batch
// CRC-checked here. The log's thread does no per-byte work for such a reader.
//
// What can change under a reader, and what it does:
// - retention deletes a segment: a file the reader has open stays readable (Linux keeps the
//   inode until the last descriptor closes) and holds the same valid batches; one it has not
//   opened yet is gone (ENOENT) and the reader asks for a new plan;
// - the cleaner swaps a compacted copy in under the same name: an open descriptor keeps reading
//   the old file, consistently; an open that finds another inode asks for a new plan;
// - the active segment grows: the plan's size bounds what is read (whole batches), and a reader
//   at the end of its plan asks for a new one.
// Damaged bytes are a CORRUPT_MESSAGE error naming the file and position, never a record.
import fs from 'node:fs';
import { LogError, LogErrorCode } from '../errors.js';
import {
  BATCH_HEADER_SIZE,
  batchSizeAt,
  checkBatch,
  isControl,
  isTransactional,
  lastOffsetOf,
  readBatchHeader,
  type BatchHeader,
} from '../format/record-batch.js';
import type { ReadPlan, SegmentSpan } from './read-plan.js';

export interface FileBatch {
  batch: Buffer;
  header: BatchHeader;
}

export type FileRead =
  /**
   * Batches holding records from the offset asked for (the first may start before it), control
   * batches and (read_committed) aborted ones left out; `next` is where reading continues. Empty
   * when only such skipped batches were read: ask again from `next`.
   */
  | { kind: 'batches'; batches: FileBatch[]; next: number }
  /** The plan does not cover this offset (any more): ask the log's thread for a new one. */
  | { kind: 'needs-plan' };

interface Cursor {
  span: number;
  position: number;
  /** The offset this position continues (records below it in the next batch are skipped). */
  offset: number;
  /**
   * Offsets from here up to `offset` hold nothing a consumer sees (markers, aborted data, offsets
   * compacted away): a read asked at any of them continues at `offset`.
   */
  quietFrom: number;
  /** The base offset the batch at `position` must have (-1: any at or above the span's base). */
  expect: number;
  /** The offset after the previous batch of this span: batches must not go back. */
  prevNext: number;
}

export class PartitionFileReader {
  #plan: ReadPlan | null = null;
  #cursor: Cursor | null = null;
  #fd = -1;
  /** The file and inode #fd was opened for. */
  #open: { file: string; ino: number } | null = null;

  constructor(
    readonly topic: string,
    readonly partition: number,
  ) {}

  get plan(): ReadPlan | null {
    return this.#plan;
  }

  /**
   * Where a plan for a read at `offset` should start: past what this reader already skipped
   * (markers, aborted batches) when `offset` lies in that stretch, else `offset` itself.
   */
  resume(offset: number): number {
    const c = this.#cursor;
    return c !== null && c.quietFrom <= offset && offset <= c.offset ? c.offset : offset;
  }

  /**
   * Takes a new plan. `quietFrom` (at most the plan's offset) says from which offset on a read
   * continues at the plan's offset: nothing visible lies between (see resume()).
   */
  setPlan(plan: ReadPlan, quietFrom = plan.offset): void {
    this.#plan = plan;
    const first = plan.segments[0];
    // Without segments (nothing to read yet) the cursor still says where reading continues.
    this.#cursor = {
      span: 0,
      position: first?.position ?? 0,
      offset: plan.offset,
      quietFrom: Math.min(quietFrom, plan.offset),
      expect: first !== undefined && first.position > 0 ? first.positionOffset : -1,
      prevNext:
        first === undefined
          ? plan.offset
          : first.position > 0
            ? first.positionOffset
            : first.baseOffset,
    };
    if (first === undefined || this.#open?.file !== first.file || this.#open.ino !== first.ino)
      this.#closeFile();
  }

  /**
   * Reads whole batches from `offset`, about `maxBytes` of them (at least one batch when any is
   * there). Needs a plan that continues at `offset` with data left.
   */
  read(offset: number, maxBytes: number): FileRead {
    const plan = this.#plan;
    const c = this.#cursor;
    if (plan === null || c === null || offset < c.quietFrom || offset > c.offset)
      return { kind: 'needs-plan' };
    const startedAt = c.offset;
    const out: FileBatch[] = [];
    let taken = 0;
    while (c.span < plan.segments.length && c.offset < plan.bound && taken < maxBytes) {
      const span = plan.segments[c.span]!;
      if (c.position >= span.size) {
        // The active segment may have grown since the plan: only a new plan can tell.
        if (!span.sealed) break;
        this.#closeFile();
        c.span++;
        const next = plan.segments[c.span];
        c.position = 0;
        c.expect = -1;
        c.prevNext = next?.baseOffset ?? 0;
        continue;
      }
      if (!this.#openSpan(span)) {
        if (out.length > 0) break;
        this.#plan = null;
        this.#cursor = null;
        return { kind: 'needs-plan' };
      }
      taken += this.#readSpan(plan, span, c, out, maxBytes - taken);
      // Stopped inside the span with batches in hand: the budget is spent.
      if (out.length > 0 && c.position < span.size) break;
    }
    if (out.length > 0) {
      // Between the last batch handed out and the cursor lie only skipped batches.
      c.quietFrom = lastOffsetOf(out[out.length - 1]!.header) + 1;
      return { kind: 'batches', batches: out, next: c.offset };
    }
    if (c.offset > startedAt) return { kind: 'batches', batches: out, next: c.offset };
    return { kind: 'needs-plan' };
  }

  /** Closes the file the reader has open. */
  close(): void {
    this.#closeFile();
    this.#plan = null;
    this.#cursor = null;
  }

  /** Opens the span's file unless already open; false when it is gone or is another file now. */
  #openSpan(span: SegmentSpan): boolean {
    if (this.#open !== null && this.#open.file === span.file && this.#open.ino === span.ino)
      return true;
    this.#closeFile();
    let fd: number;
    try {
      fd = fs.openSync(span.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    const stat = fs.fstatSync(fd);
    // Another inode: a compacted copy swapped in under the same name. (The file may still be
    // shorter than planned while queued appends land: only batches below the bound are read, and
    // those are written.)
    if (stat.ino !== span.ino || stat.size < span.position) {
      fs.closeSync(fd);
      return false;
    }
    this.#fd = fd;
    this.#open = { file: span.file, ino: span.ino };
    return true;
  }

  /** Reads batches of one span into `out` (stopping at the plan's bound); returns the bytes taken. */
  #readSpan(
    plan: ReadPlan,
    span: SegmentSpan,
    c: Cursor,
    out: FileBatch[],
    budget: number,
  ): number {
    const slack = c.expect >= 0 ? plan.indexIntervalBytes + BATCH_HEADER_SIZE : BATCH_HEADER_SIZE;
    let chunk = this.#readAt(Math.min(span.size - c.position, budget + slack), c.position);
    let chunkStart = c.position;
    let taken = 0;
    while (c.position < span.size) {
      // Everything below the bound is read: what follows may not even be written yet.
      if (c.offset >= plan.bound) return taken;
      let at = c.position - chunkStart;
      let size = batchSizeAt(chunk, at, chunk.length);
      if (size < BATCH_HEADER_SIZE || at + size > chunk.length) {
        if (out.length > 0) return taken; // return what fitted; the next read continues here
        // A batch larger than what was read: read it whole.
        const head = this.#readAt(Math.min(BATCH_HEADER_SIZE, span.size - c.position), c.position);
        size = batchSizeAt(head, 0, head.length);
        if (size < BATCH_HEADER_SIZE || c.position + size > span.size)
          throw this.#corrupt(span, c, 'batch runs past the end of the segment');
        chunk = this.#readAt(size, c.position);
        chunkStart = c.position;
        at = 0;
      }
      const reason = checkBatch(chunk, at, chunk.length);
      if (reason !== null) throw this.#corrupt(span, c, reason);
      const header = readBatchHeader(chunk, at);
      const last = lastOffsetOf(header);
      // Offsets sit outside the CRC: they must be the planned ones, in order, inside the span.
      if (
        (c.expect >= 0 && header.baseOffset !== c.expect) ||
        header.baseOffset < Math.max(span.baseOffset, c.prevNext) ||
        last >= span.nextOffset
      )
        throw this.#corrupt(span, c, `batch offset ${header.baseOffset} is out of order`);
      if (header.baseOffset >= plan.bound) {
        c.offset = Math.max(c.offset, header.baseOffset);
        return taken;
      }
      if (last >= c.offset) {
        if (out.length > 0 && taken + size > budget) return taken;
        if (!isControl(header) && !this.#aborted(plan, header)) {
          out.push({ batch: chunk.subarray(at, at + size), header });
          taken += size;
        }
        c.offset = last + 1;
      }
      c.expect = -1;
      c.prevNext = last + 1;
      c.position += size;
    }
    return taken;
  }

  /** read_committed: a batch of an aborted transaction is skipped (its marker is returned). */
  #aborted(plan: ReadPlan, h: BatchHeader): boolean {
    if (plan.aborted.length === 0 || !isTransactional(h)) return false;
    for (const a of plan.aborted)
      if (
        a.producerId === h.producerId &&
        h.baseOffset >= a.firstOffset &&
        h.baseOffset <= a.lastOffset
      )
        return true;
    return false;
  }

  #readAt(length: number, position: number): Buffer {
    // A buffer of its own per read: the records handed out are views into it.
    const buf = Buffer.allocUnsafeSlow(length);
    let filled = 0;
    while (filled < length) {
      const n = fs.readSync(this.#fd, buf, filled, length - filled, position + filled);
      if (n === 0) break;
      filled += n;
    }
    return filled === length ? buf : buf.subarray(0, filled);
  }

  #corrupt(span: SegmentSpan, c: Cursor, reason: string): LogError {
    return new LogError(
      LogErrorCode.CORRUPT_MESSAGE,
      `corrupt record batch in ${span.file} at position ${c.position} (offset ${c.offset}): ${reason}`,
      { file: span.file, offset: c.offset, position: c.position },
    );
  }

  #closeFile(): void {
    if (this.#fd >= 0) fs.closeSync(this.#fd);
    this.#fd = -1;
    this.#open = null;
  }
}
