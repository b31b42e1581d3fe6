// One segment of a partition: `<base offset>.log` plus its `.index` and `.timeindex`. Only the last
// segment of a partition (the active one) is appended to. Readers hold a reference while a read is
// in flight, so a segment that retention deletes or the cleaner replaces closes its file only
// once the last read has finished.
import fs from 'node:fs';
import path from 'node:path';
import { LogError, LogErrorCode } from '../errors.js';
import {
  BATCH_HEADER_SIZE,
  batchSizeAt,
  checkBatch,
  lastOffsetOf,
  readBatchHeader,
  type BatchHeader,
} from '../format/record-batch.js';
import type { BatchAt } from '../format/batch-validate.js';
import { findValidBatchAfter, scanBatches } from './batch-scan.js';
import { readAt } from './fs-util.js';
import { offsetFileName } from './fs-util.js';
import { OffsetIndex, TimeIndex } from './indexes.js';

export interface RecoveryEvent {
  kind:
    | 'truncated-torn-tail'
    | 'rebuilt-index'
    | 'rebuilt-time-index'
    | 'completed-swap'
    | 'removed-leftover'
    /** Damage below the recovery point: the partition was refused, nothing cut (Topics#load). */
    | 'refused-partition';
  file: string;
  /** The partition repaired (set by Topics#load for every event of its partitions). */
  topic?: string;
  partition?: number;
  /** truncated-torn-tail: the first offset cut (the offset after the last intact batch). */
  offset?: number;
  position?: number;
  bytes?: number;
  detail?: string;
}

export class Segment {
  readonly logFile: string;
  fd: number;
  /** Bytes appended, counting those still queued for writing (see WriteQueue). */
  size: number;
  /** Bytes in the file: what readers may read. */
  writtenSize: number;
  /** The offset after the last batch (lastOffset + 1); the base offset when empty. */
  nextOffset: number;
  maxTimestamp = -1;
  private offsetOfMaxTimestamp: number;
  /** maxTimestamp of the first batch: segment.ms is measured in record time from it, as in Kafka. */
  firstBatchTimestamp = -1;
  index: OffsetIndex;
  timeIndex: TimeIndex;
  private bytesSinceIndexEntry = 0;
  private refs = 0;
  private retired = false;
  private onClosed: (() => void) | null = null;

  private constructor(
    readonly dir: string,
    readonly baseOffset: number,
    fd: number,
    size: number,
    private readonly indexIntervalBytes: number,
  ) {
    this.logFile = path.join(dir, offsetFileName(baseOffset, '.log'));
    this.fd = fd;
    this.size = size;
    this.writtenSize = size;
    this.nextOffset = baseOffset;
    this.offsetOfMaxTimestamp = baseOffset;
    this.index = new OffsetIndex(path.join(dir, offsetFileName(baseOffset, '.index')), baseOffset);
    this.timeIndex = new TimeIndex(
      path.join(dir, offsetFileName(baseOffset, '.timeindex')),
      baseOffset,
    );
  }

  static create(dir: string, baseOffset: number, indexIntervalBytes: number): Segment {
    const file = path.join(dir, offsetFileName(baseOffset, '.log'));
    const fd = fs.openSync(file, 'wx+');
    const seg = new Segment(dir, baseOffset, fd, 0, indexIntervalBytes);
    for (const f of [seg.index.file, seg.timeIndex.file]) fs.rmSync(f, { force: true });
    seg.index.openForAppend();
    seg.timeIndex.openForAppend();
    return seg;
  }

  /**
   * Opens an existing segment. A sealed segment trusts its indexes when they pass their checks and
   * verifies only its last batches; `recoverFrom` (an offset) asks for a CRC scan from there to the
   * end, as after an unclean shutdown. Only the active segment may end in a torn write, which is
   * truncated; damage anywhere else is a CORRUPT_MESSAGE error naming the file and offset.
   */
  static open(
    dir: string,
    baseOffset: number,
    indexIntervalBytes: number,
    opts: {
      active: boolean;
      recoverFrom: number | null;
      events: RecoveryEvent[];
      /** Offsets below it were fsynced (the checkpoint): damage there is never a torn write. */
      recoveryPoint?: number;
    },
  ): Segment {
    const file = path.join(dir, offsetFileName(baseOffset, '.log'));
    const fd = fs.openSync(file, 'r+');
    const seg = new Segment(dir, baseOffset, fd, fs.fstatSync(fd).size, indexIntervalBytes);
    const loaded = OffsetIndex.load(seg.index.file, baseOffset, seg.size);
    let scanFrom: number;
    // The offset of the batch at scanFrom: where the log ends if that batch is a torn tail.
    let scanOffset = baseOffset;
    if (loaded === null) {
      seg.index = new OffsetIndex(seg.index.file, baseOffset);
      seg.index.clear();
      opts.events.push({
        kind: 'rebuilt-index',
        file: seg.index.file,
        detail: 'missing or implausible',
      });
      scanFrom = 0;
    } else {
      seg.index = loaded;
      const startAt = opts.recoverFrom === null ? Infinity : opts.recoverFrom;
      const entry = seg.index.lookup(Math.min(startAt, Number.MAX_SAFE_INTEGER));
      scanFrom = seg.checkIndexEntry(entry) ? entry.position : -1;
      scanOffset = entry.offset;
      if (scanFrom < 0) {
        scanOffset = baseOffset;
        seg.index = new OffsetIndex(seg.index.file, baseOffset);
        seg.index.clear();
        opts.events.push({
          kind: 'rebuilt-index',
          file: seg.index.file,
          detail: 'entry does not point at its batch',
        });
        scanFrom = 0;
      }
    }
    seg.nextOffset = scanOffset;
    seg.recover(scanFrom, opts.active, opts.events, opts.recoveryPoint ?? 0);
    const time = TimeIndex.load(seg.timeIndex.file, baseOffset, seg.nextOffset);
    if (time === null) seg.rebuildTimeIndex(opts.events);
    else {
      seg.timeIndex = time;
      if (time.maxTimestamp() > seg.maxTimestamp) {
        seg.maxTimestamp = time.maxTimestamp();
      }
    }
    seg.firstBatchTimestamp = seg.readFirstBatchTimestamp();
    if (opts.active) {
      seg.index.openForAppend();
      seg.timeIndex.openForAppend();
    }
    return seg;
  }

  /** Does the index entry point at the start of a valid batch with that base offset? */
  private checkIndexEntry(entry: { offset: number; position: number }): boolean {
    if (entry.position === 0 && entry.offset === this.baseOffset) return true;
    const head = Buffer.allocUnsafe(BATCH_HEADER_SIZE);
    const n = fs.readSync(this.fd, head, 0, BATCH_HEADER_SIZE, entry.position);
    if (n < BATCH_HEADER_SIZE) return false;
    const h = readBatchHeader(head);
    return h.baseOffset === entry.offset && h.magic === 2;
  }

  /** CRC-scans from `from` to the end, extending the index; truncates a torn tail when active. */
  private recover(
    from: number,
    active: boolean,
    events: RecoveryEvent[],
    recoveryPoint: number,
  ): void {
    const entriesBefore = this.index.count;
    let bytesSinceEntry = from === 0 ? 0 : Infinity;
    const result = scanBatches(this.fd, from, this.size, (h, pos) => {
      // The base offset sits outside the CRC (as in Kafka), so it is checked for order instead.
      if (h.baseOffset < this.baseOffset || (h.baseOffset < this.nextOffset && pos > from)) {
        throw this.corrupt(
          pos,
          this.nextOffset,
          `batch offset ${h.baseOffset} does not follow ${this.nextOffset - 1}`,
        );
      }
      if (bytesSinceEntry >= this.indexIntervalBytes) {
        this.index.append(h.baseOffset, pos);
        bytesSinceEntry = 0;
      }
      bytesSinceEntry += h.sizeInBytes;
      this.noteBatch(h);
    });
    this.bytesSinceIndexEntry = Number.isFinite(bytesSinceEntry) ? bytesSinceEntry : 0;
    if (result.bad) {
      const { position, reason } = result.bad;
      // Below the recovery point the bytes were fsynced and checkpointed: a crash cannot have
      // torn them, so a bad batch there is damage, never cut silently (nor is one followed by a
      // valid batch, or one in a sealed segment).
      if (this.nextOffset < recoveryPoint)
        throw this.corrupt(
          position,
          this.nextOffset,
          `${reason}; offsets below ${recoveryPoint} were fsynced (the recovery point), so this is damage, not a torn write`,
        );
      const later = findValidBatchAfter(this.fd, position, this.size, this.nextOffset);
      if (!active || later !== null) throw this.corrupt(position, this.nextOffset, reason);
      events.push({
        kind: 'truncated-torn-tail',
        file: this.logFile,
        offset: this.nextOffset,
        position,
        bytes: this.size - position,
        detail: reason,
      });
      fs.ftruncateSync(this.fd, position);
      fs.fsyncSync(this.fd);
      this.size = position;
      this.writtenSize = position;
      this.index.truncateToPosition(position);
    }
    if (this.index.count !== entriesBefore || result.bad) this.index.writeFile();
  }

  private corrupt(position: number, offset: number, reason: string): LogError {
    return new LogError(
      LogErrorCode.CORRUPT_MESSAGE,
      `corrupt record batch in ${this.logFile} at position ${position} (offset ${offset}): ${reason}`,
      { file: this.logFile, offset, position },
    );
  }

  private noteBatch(h: BatchHeader): void {
    this.nextOffset = lastOffsetOf(h) + 1;
    if (h.maxTimestamp > this.maxTimestamp) {
      this.maxTimestamp = h.maxTimestamp;
      this.offsetOfMaxTimestamp = h.baseOffset;
    }
  }

  private rebuildTimeIndex(events: RecoveryEvent[]): void {
    this.timeIndex.clear();
    let bytes = Infinity;
    let max = -1;
    const result = scanBatches(this.fd, 0, this.size, (h) => {
      if (h.maxTimestamp > max) max = h.maxTimestamp;
      if (bytes >= this.indexIntervalBytes) {
        this.timeIndex.maybeAppend(max, h.baseOffset);
        bytes = 0;
      }
      bytes += h.sizeInBytes;
    });
    if (result.bad) throw this.corrupt(result.bad.position, this.nextOffset, result.bad.reason);
    if (this.maxTimestamp >= 0)
      this.timeIndex.maybeAppend(this.maxTimestamp, this.offsetOfMaxTimestamp);
    this.timeIndex.writeFile();
    events.push({ kind: 'rebuilt-time-index', file: this.timeIndex.file });
  }

  private readFirstBatchTimestamp(): number {
    if (this.size < BATCH_HEADER_SIZE) return -1;
    const head = Buffer.allocUnsafe(BATCH_HEADER_SIZE);
    fs.readSync(this.fd, head, 0, BATCH_HEADER_SIZE, 0);
    return readBatchHeader(head).maxTimestamp;
  }

  // ---- appends -------------------------------------------------------------------------------

  /**
   * Counts `buf[start, end)`, whole batches whose offsets are already assigned, as appended: the
   * indexes and offsets move on now; the bytes are written by the partition's WriteQueue.
   * `batches` are their headers with positions in `buf`.
   */
  appendRun(start: number, end: number, batches: readonly BatchAt[]): void {
    for (const { position, header: h } of batches) {
      const at = this.size + position - start;
      if (at === 0) this.firstBatchTimestamp = h.maxTimestamp;
      if (this.bytesSinceIndexEntry >= this.indexIntervalBytes || at === 0) {
        if (at > 0) this.index.append(h.baseOffset, at);
        const max = Math.max(this.maxTimestamp, h.maxTimestamp);
        const first = h.maxTimestamp > this.maxTimestamp ? h.baseOffset : this.offsetOfMaxTimestamp;
        this.timeIndex.maybeAppend(max, first);
        this.bytesSinceIndexEntry = 0;
      }
      this.bytesSinceIndexEntry += h.sizeInBytes;
      this.noteBatch(h);
    }
    this.size += end - start;
  }

  /**
   * Does a batch belong in a new segment (segment.bytes, segment.ms, or int32 relative offsets
   * running out, as in Kafka)? `pending` bytes, whose first batch has `pendingFirstTimestamp`, are
   * about to be written here before it; `nextOffset` is the batch's base offset.
   */
  isFullFor(
    pending: number,
    h: BatchHeader,
    pendingFirstTimestamp: number | undefined,
    nextOffset: number,
    cfg: { segmentBytes: number; segmentMs: number },
  ): boolean {
    const size = this.size + pending;
    if (size === 0) return false;
    const first = this.size > 0 ? this.firstBatchTimestamp : pendingFirstTimestamp!;
    return (
      size + h.sizeInBytes > cfg.segmentBytes ||
      (first >= 0 && h.maxTimestamp - first > cfg.segmentMs) ||
      nextOffset - this.baseOffset > 0x7fffffff - 100000
    );
  }

  /** Writes the index entries still only in memory to their files (at each flush). */
  writeIndexes(): void {
    this.index.writePending();
    this.timeIndex.writePending();
  }

  /** Called when a newer segment takes over appends: records the exact max timestamp, closes files. */
  seal(): void {
    if (this.maxTimestamp >= 0)
      this.timeIndex.maybeAppend(this.maxTimestamp, this.offsetOfMaxTimestamp);
    this.index.fsyncSync();
    this.timeIndex.fsyncSync();
    this.index.close();
    this.timeIndex.close();
  }

  // ---- reads ---------------------------------------------------------------------------------

  acquire(): boolean {
    if (this.retired) return false;
    this.refs++;
    return true;
  }

  release(): void {
    this.refs--;
    if (this.retired && this.refs === 0) this.closeNow();
  }

  /**
   * Reads whole batches holding offsets >= `offset` and starting before `bound`, up to about
   * `maxBytes` (at least one batch, as Kafka returns at least one batch even when it is larger).
   * Every batch is CRC-checked before it is returned; the buffers are views of one read.
   * `size` is captured by the caller before awaiting, so a concurrent append is never half-read.
   */
  async read(
    offset: number,
    bound: number,
    maxBytes: number,
    size: number,
  ): Promise<{ batch: Buffer; header: BatchHeader }[]> {
    const entry = this.index.lookup(offset);
    let pos = entry.position;
    let chunkStart = pos;
    let chunk = await readAt(
      this.fd,
      Math.min(size - pos, maxBytes + this.indexIntervalBytes + BATCH_HEADER_SIZE),
      pos,
    );
    if (
      entry.position > 0 &&
      (chunk.length < BATCH_HEADER_SIZE || readBatchHeader(chunk).baseOffset !== entry.offset)
    ) {
      throw new LogError(
        LogErrorCode.CORRUPT_MESSAGE,
        `index ${this.index.file} points at a bad position for offset ${entry.offset}`,
        {
          file: this.index.file,
          offset: entry.offset,
          position: entry.position,
        },
      );
    }
    const out: { batch: Buffer; header: BatchHeader }[] = [];
    let taken = 0;
    let prevNext = entry.offset;
    while (pos < size) {
      let at = pos - chunkStart;
      let bsize = batchSizeAt(chunk, at, chunk.length);
      if (bsize < BATCH_HEADER_SIZE || at + bsize > chunk.length) {
        if (out.length > 0) break; // return what fitted; the next fetch continues from here
        const head = await readAt(this.fd, Math.min(BATCH_HEADER_SIZE, size - pos), pos);
        bsize = batchSizeAt(head, 0, head.length);
        if (bsize < BATCH_HEADER_SIZE || pos + bsize > size)
          throw this.corrupt(pos, prevNext, 'batch runs past the end of the segment');
        chunk = await readAt(this.fd, Math.min(size - pos, Math.max(bsize, maxBytes)), pos);
        chunkStart = pos;
        at = 0;
      }
      const reason = checkBatch(chunk, at, chunk.length);
      // What comes before the damage is served; the read from the damaged batch fails, naming
      // its offset (the one after the last good batch), not where this read started.
      if (reason !== null) {
        if (out.length > 0) break;
        throw this.corrupt(pos, prevNext, reason);
      }
      const header = readBatchHeader(chunk, at);
      // Offsets are outside the CRC: they must lie in this segment and increase.
      if (
        header.baseOffset < Math.max(this.baseOffset, prevNext) ||
        lastOffsetOf(header) >= this.nextOffset
      ) {
        if (out.length > 0) break;
        throw this.corrupt(
          pos,
          prevNext,
          `batch offset ${header.baseOffset} is out of order in its segment`,
        );
      }
      prevNext = lastOffsetOf(header) + 1;
      if (header.baseOffset >= bound) break;
      if (lastOffsetOf(header) >= offset) {
        if (out.length > 0 && taken + bsize > maxBytes) break;
        out.push({ batch: chunk.subarray(at, at + bsize), header });
        taken += bsize;
      }
      pos += bsize;
    }
    return out;
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** Truncates to `position` (a batch boundary) and forgets everything after it. */
  truncateTo(position: number, nextOffset: number): void {
    fs.ftruncateSync(this.fd, position);
    this.size = position;
    this.writtenSize = position;
    this.nextOffset = nextOffset;
    this.index.truncateToPosition(position);
    this.timeIndex.truncateToOffset(nextOffset);
  }

  /** Stops new reads; closes once the in-flight ones are done. */
  retire(onClosed?: () => void): void {
    this.retired = true;
    this.onClosed = onClosed ?? null;
    try {
      this.index.close();
      this.timeIndex.close();
    } finally {
      // The log file closes even when an index's last entries could not be written (ENOSPC).
      if (this.refs === 0) this.closeNow();
    }
  }

  private closeNow(): void {
    if (this.fd >= 0) {
      fs.closeSync(this.fd);
      this.fd = -1;
    }
    this.onClosed?.();
    this.onClosed = null;
  }

  get files(): string[] {
    return [this.logFile, this.index.file, this.timeIndex.file];
  }
}

export { checkBatch };
