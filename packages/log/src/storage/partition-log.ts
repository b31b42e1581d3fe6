// One partition's log: an ordered list of segments, the last one active. Appends are synchronous
// writes into the page cache (so offsets are assigned in call order); durability follows the
// flush policy, and the high watermark (what readers may see) is the durable end of the log, so a
// consumer never sees a record that a crash could take back.
import fs from 'node:fs';
import path from 'node:path';
import { LogError, LogErrorCode } from '../errors.js';
import type { BatchAt } from '../format/batch-validate.js';
import {
  encodeBatch,
  encodeControlRecord,
  lastOffsetOf,
  readBatchHeader,
  setBaseOffset,
  setLogAppendTime,
  type ControlType,
} from '../format/record-batch.js';
import type { TopicConfig } from '../config.js';
import { Flusher } from './flusher.js';
import { fdatasync, fsyncDirSync } from './fs-util.js';
import { segmentsToDelete } from './retention.js';
import { openSegments, swapInCleaned } from './partition-files.js';
import { Segment, type RecoveryEvent } from './segment.js';
import { waitUntil } from './wait-until.js';
import { isOutOfSpace, outOfSpace, WriteQueue } from './write-queue.js';
import { findOffsetForTimestamp } from './timestamp-lookup.js';
import { TxnIndex } from './txn-index.js';
import { readSegments } from './segment-reads.js';
import type {
  AppendInfo,
  IsolationLevel,
  PartitionCheckpoint,
  PartitionOptions,
  ReadBatch,
} from './partition-types.js';

export type {
  AppendInfo,
  IsolationLevel,
  PartitionCheckpoint,
  PartitionOptions,
  ReadBatch,
} from './partition-types.js';

export class PartitionLog {
  readonly topic: string;
  readonly partition: number;
  readonly dir: string;
  segments: Segment[] = [];
  logStartOffset = 0;
  /** Offset up to which the log is known to be fsynced; recovery scans from here. */
  recoveryPoint = 0;
  readonly txns: TxnIndex;
  readonly flusher: Flusher;
  /** Set while the cleaner works on this partition; retention waits for it. */
  cleaning: Promise<unknown> | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly dirty = new Set<Segment>();
  private dirNeedsSync = false;
  private closed = false;
  /**
   * Set when the partition's files were found damaged below the recovery point at open: the
   * partition is refused (nothing read, written or cut) while the rest of the log runs; every
   * read and append throws this error, which names the damage and the repair command.
   */
  refusal: LogError | null = null;
  /** A refused partition's checkpoint as read at open, written back unchanged (never lowered). */
  refusedCheckpoint: PartitionCheckpoint | undefined = undefined;
  /** Appended bytes on their way into the files (off this thread, in order). */
  private readonly writes = new WriteQueue(0);

  private constructor(private readonly opts: PartitionOptions) {
    this.topic = opts.topic;
    this.partition = opts.partition;
    this.dir = opts.dir;
    this.txns = new TxnIndex(opts.dir);
    this.flusher = new Flusher(
      {
        endOffset: () => this.logEndOffset,
        sync: () => this.sync(),
        written: (offset) => this.writes.written(offset),
        flushed: () => this.notify(),
      },
      () => this.config,
      0,
      opts.flushRounds,
    );
  }

  get config(): TopicConfig {
    return this.opts.config();
  }

  static create(opts: PartitionOptions): PartitionLog {
    fs.mkdirSync(opts.dir, { recursive: true });
    const log = new PartitionLog(opts);
    log.segments.push(Segment.create(opts.dir, 0, log.config.indexIntervalBytes));
    fsyncDirSync(opts.dir);
    fsyncDirSync(path.dirname(opts.dir));
    return log;
  }

  /** Opens and recovers a partition directory (see Segment.open for what is checked). */
  static open(
    opts: PartitionOptions,
    checkpoint: PartitionCheckpoint | undefined,
    events: RecoveryEvent[],
  ): PartitionLog {
    const log = new PartitionLog(opts);
    log.segments = openSegments(opts.dir, checkpoint, log.config.indexIntervalBytes, events);
    const rp = checkpoint?.recoveryPoint ?? 0;
    log.logStartOffset = Math.max(checkpoint?.logStartOffset ?? 0, log.segments[0]!.baseOffset);
    // What recovery accepted may still sit only in the page cache of a crashed process: make it
    // durable before counting it as recovered.
    if (rp < log.logEndOffset)
      for (const s of log.segments) if (s.nextOffset > rp) fs.fsyncSync(s.fd);
    log.recoveryPoint = log.logEndOffset;
    log.flusher.durableOffset = log.logEndOffset;
    log.writes.writtenOffset = log.logEndOffset;
    log.txns.load(log.logEndOffset);
    return log;
  }

  /**
   * A partition whose files are damaged (see `refusal`): no file of it is kept open, its offsets
   * are those of its checkpoint, and it stays so until `streamwright log repair` cuts it.
   */
  static refused(
    opts: PartitionOptions,
    checkpoint: PartitionCheckpoint | undefined,
    error: LogError,
  ): PartitionLog {
    const log = new PartitionLog(opts);
    log.refusal = error;
    log.refusedCheckpoint = checkpoint;
    log.recoveryPoint = checkpoint?.recoveryPoint ?? 0;
    log.logStartOffset = checkpoint?.logStartOffset ?? 0;
    log.flusher.durableOffset = log.recoveryPoint;
    log.writes.writtenOffset = log.recoveryPoint;
    return log;
  }

  get active(): Segment {
    return this.segments[this.segments.length - 1]!;
  }

  get logEndOffset(): number {
    if (this.refusal) return this.recoveryPoint;
    return this.active.nextOffset;
  }

  /** What read_uncommitted readers may see: the durable end of the log. */
  get highWatermark(): number {
    return this.flusher.durableOffset;
  }

  /** What read_committed readers may see: below the first open transaction, and durable. */
  get lastStableOffset(): number {
    const first = this.txns.firstUnstableOffset();
    return first === null ? this.highWatermark : Math.min(first, this.highWatermark);
  }

  sizeInBytes(): number {
    let n = 0;
    for (const s of this.segments) n += s.size;
    return n;
  }

  private ensureOpen(): void {
    if (this.refusal) throw this.refusal;
    if (this.closed)
      throw new LogError(LogErrorCode.LOG_CLOSED, `${this.topic}-${this.partition} is closed`);
  }

  // ---- appends -------------------------------------------------------------------------------

  /**
   * Appends one batch the log built itself (a transaction marker), assigning its offsets.
   * Synchronous: offsets follow call order. Await `flusher.waitDurable(lastOffset)` for acks=all.
   */
  append(batch: Buffer): AppendInfo {
    return this.appendBatches(batch, [{ position: 0, header: readBatchHeader(batch) }]);
  }

  /**
   * Appends batches lying back to back in `buf` (already validated, see format/batch-validate),
   * assigning their offsets in place (baseOffset is outside the CRC) and LogAppendTime when the
   * topic uses it, then writes them with one write per segment they land in. Synchronous: offsets
   * follow call order. Await `flusher.waitDurable(lastOffset)` for acks=all.
   */
  appendBatches(buf: Buffer, batches: readonly BatchAt[]): AppendInfo {
    this.ensureOpen();
    const cfg = this.config;
    for (const { header: h } of batches)
      if ((h.attributes & 0x10) !== 0) this.txns.fence(h.producerId, h.producerEpoch);
    const logAppendTime = cfg.timestampType === 'LogAppendTime' ? this.opts.clock() : -1;
    const first = this.logEndOffset;
    let next = first;
    let runStart = 0;
    let run: BatchAt[] = [];
    let records = 0;
    const started: number[] = [];
    try {
      for (const b of batches) {
        const h = b.header;
        const pending = b.position - runStart;
        if (this.active.isFullFor(pending, h, run[0]?.header.maxTimestamp, next, cfg)) {
          if (run.length > 0) this.appendRun(buf, runStart, b.position, run);
          this.roll();
          runStart = b.position;
          run = [];
        }
        setBaseOffset(buf.subarray(b.position), next);
        h.baseOffset = next;
        if (logAppendTime >= 0 && (h.attributes & 0x20) === 0) {
          setLogAppendTime(buf.subarray(b.position, b.position + h.sizeInBytes), logAppendTime);
          h.maxTimestamp = logAppendTime;
          h.attributes |= 0x08;
        }
        if ((h.attributes & 0x30) === 0x10 && !this.txns.ongoing.has(h.producerId)) {
          this.txns.ongoing.set(h.producerId, next);
          started.push(h.producerId);
        }
        run.push(b);
        records += h.recordCount;
        next = lastOffsetOf(h) + 1;
      }
      const last = batches[batches.length - 1]!;
      this.appendRun(buf, runStart, last.position + last.header.sizeInBytes, run);
    } catch (err) {
      // A refused write (a full disk) appended nothing of its run: transactions it would have
      // started did not start, and what earlier runs appended is flushed as usual.
      for (const pid of started)
        if ((this.txns.ongoing.get(pid) ?? -1) >= this.logEndOffset) this.txns.ongoing.delete(pid);
      if (this.logEndOffset > first) this.flusher.noteAppend(0);
      throw err;
    }
    this.flusher.noteAppend(records);
    return { baseOffset: first, lastOffset: next - 1, logAppendTime };
  }

  /** Writes one run of batches to the active segment, then counts it (nothing, if the write fails). */
  private appendRun(buf: Buffer, start: number, end: number, run: readonly BatchAt[]): void {
    const seg = this.active;
    const position = seg.size;
    this.writes.write(
      seg,
      start === 0 && end === buf.length ? buf : buf.subarray(start, end),
      position,
    );
    seg.appendRun(start, end, run);
    this.writes.wrote(seg, seg.size, seg.nextOffset);
  }

  /** The offset after the last record in the files (readers never go past it). */
  get writtenEnd(): number {
    return this.writes.writtenOffset;
  }

  /** Resolves once every record below `offset + 1` is in the page cache (acks=1). */
  whenWritten(offset: number): Promise<void> {
    return this.writes.written(offset);
  }

  /**
   * Ends a producer's transaction in this partition with a COMMIT or ABORT marker. For an abort,
   * the aborted range is made durable first (see TxnIndex). `firstOffset` covers the case where
   * the transaction's first offset is only known from the coordinator (recovery after a crash).
   */
  appendMarker(
    producerId: number,
    producerEpoch: number,
    type: ControlType,
    firstOffset?: number,
  ): AppendInfo {
    this.ensureOpen();
    this.txns.fence(producerId, producerEpoch);
    const markerOffset = this.logEndOffset;
    const first = this.txns.ongoing.get(producerId) ?? firstOffset;
    if (type === 'ABORT' && first !== undefined && first < markerOffset) {
      this.txns.recordAbort({ producerId, firstOffset: first, lastOffset: markerOffset });
    }
    const now = this.opts.clock();
    const batch = encodeBatch([encodeControlRecord(type, now)], {
      control: true,
      transactional: true,
      producerId,
      producerEpoch,
    });
    const info = this.append(batch);
    this.txns.ongoing.delete(producerId);
    this.notify();
    return info;
  }

  /** Seals the active segment and starts a new one at the log end. */
  roll(): void {
    const old = this.active;
    if (old.size === 0) return;
    old.seal();
    this.dirty.add(old);
    this.segments.push(Segment.create(this.dir, this.logEndOffset, this.config.indexIntervalBytes));
    this.dirNeedsSync = true;
  }

  /**
   * fsyncs everything appended so far and returns the offset after it. The fdatasync calls are
   * issued before the first await: appends are written as they are made (see WriteQueue).
   */
  private async sync(): Promise<number> {
    this.writes.check();
    try {
      this.active.writeIndexes();
    } catch (err) {
      // Index entries stay in memory until written: a full disk fails this flush, not the log.
      if (isOutOfSpace(err)) throw outOfSpace(this.active.index.file, err as Error);
      throw err;
    }
    const segs = [...this.dirty, this.active];
    this.dirty.clear();
    const dir = this.dirNeedsSync;
    this.dirNeedsSync = false;
    const end = this.logEndOffset;
    await Promise.all(
      segs.map(async (s) => {
        if (!s.acquire()) return;
        try {
          await fdatasync(s.fd);
        } finally {
          s.release();
        }
      }),
    );
    if (dir) fsyncDirSync(this.dir);
    this.recoveryPoint = Math.max(this.recoveryPoint, end);
    return end;
  }

  // ---- reads ---------------------------------------------------------------------------------

  /**
   * Reads batches from `offset` up to about `maxBytes`, below the high watermark (or the last stable
   * offset for read_committed). An offset below the log start or past the log end is
   * OFFSET_OUT_OF_RANGE, as in Kafka.
   */
  async read(offset: number, maxBytes: number, isolation: IsolationLevel): Promise<ReadBatch[]> {
    this.ensureOpen();
    if (offset < this.logStartOffset || offset > this.logEndOffset) {
      throw new LogError(
        LogErrorCode.OFFSET_OUT_OF_RANGE,
        `offset ${offset} is out of range for ${this.topic}-${this.partition} [${this.logStartOffset}, ${this.logEndOffset}]`,
      );
    }
    const bound = isolation === 'read_committed' ? this.lastStableOffset : this.highWatermark;
    return readSegments(
      () => this.segments,
      offset,
      maxBytes,
      bound,
      () => this.read(offset, maxBytes, isolation),
    );
  }

  /** Resolves when data at `offset` becomes visible, after `timeoutMs`, or on abort. */
  waitForData(
    offset: number,
    isolation: IsolationLevel,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const visible = (): boolean =>
      this.closed ||
      (isolation === 'read_committed' ? this.lastStableOffset : this.highWatermark) > offset ||
      offset < this.logStartOffset;
    return waitUntil(visible, this.listeners, timeoutMs, signal);
  }

  /** Registers a callback for any change of what readers can see; returns its remover. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }

  /** The first offset whose record timestamp is >= `timestamp` (Kafka's ListOffsets by time). */
  offsetForTimestamp(timestamp: number): Promise<{ offset: number; timestamp: number } | null> {
    if (this.refusal) return Promise.reject(this.refusal);
    return findOffsetForTimestamp(
      this.segments,
      timestamp,
      this.logStartOffset,
      this.highWatermark,
    );
  }

  // ---- retention -----------------------------------------------------------------------------

  /**
   * Deletes old segments per retention and the log start offset; returns how many went. With
   * `onlyBelowLogStart` (after deleteRecords) time and size retention are left for their own run.
   */
  deleteOldSegments(now: number, onlyBelowLogStart = false): number {
    this.ensureOpen();
    const cfg = this.config;
    const count = segmentsToDelete({
      segments: this.segments,
      deletePolicy: cfg.delete && !onlyBelowLogStart,
      retentionMs: cfg.retentionMs,
      retentionBytes: cfg.retentionBytes,
      logStartOffset: this.logStartOffset,
      highWatermark: this.highWatermark,
      now,
    });
    if (count === 0) return 0;
    if (count === this.segments.length) this.roll();
    const gone = this.segments.splice(0, count);
    for (const seg of gone) this.removeSegmentFiles(seg);
    fsyncDirSync(this.dir);
    this.logStartOffset = Math.max(this.logStartOffset, this.segments[0]!.baseOffset);
    this.txns.prune(this.logStartOffset);
    this.notify();
    return count;
  }

  private removeSegmentFiles(seg: Segment): void {
    this.dirty.delete(seg);
    // Unlinking keeps the inode alive for in-flight reads; the fd closes when the last finishes.
    for (const f of seg.files) fs.rmSync(f, { force: true });
    seg.retire();
  }

  /** Kafka's deleteRecords: moves the log start offset forward (durably, via the checkpoint). */
  advanceLogStartOffset(offset: number): void {
    this.ensureOpen();
    if (offset > this.highWatermark) {
      throw new LogError(
        LogErrorCode.OFFSET_OUT_OF_RANGE,
        `cannot delete records past the high watermark ${this.highWatermark}`,
      );
    }
    if (offset > this.logStartOffset) {
      this.logStartOffset = offset;
      this.notify();
    }
  }

  /** Swaps a segment for its cleaned copy (written beside it as `<base>.log.cleaned` etc.). */
  replaceWithCleaned(baseOffset: number): boolean {
    this.ensureOpen();
    const i = this.segments.findIndex((s) => s.baseOffset === baseOffset);
    if (i < 0 || i === this.segments.length - 1) return false;
    const old = this.segments[i]!;
    swapInCleaned(this.dir, baseOffset);
    const events: RecoveryEvent[] = [];
    const fresh = Segment.open(this.dir, baseOffset, this.config.indexIntervalBytes, {
      active: false,
      recoverFrom: null,
      events,
    });
    this.segments[i] = fresh;
    old.retire();
    return true;
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** fsyncs everything regardless of policy (a clean shutdown). */
  async flushAll(): Promise<void> {
    if (this.refusal) return;
    this.writes.check();
    await this.flusher.flushAll();
    if (this.flusher.disabled || this.dirty.size > 0) {
      await this.sync();
      this.recoveryPoint = this.logEndOffset;
    }
  }

  /**
   * Flushes and closes every file. A failure on the way (a full disk, a failed write earlier) is
   * thrown once every file is closed all the same: the partition is closed either way.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    let failure: unknown = undefined;
    try {
      await this.flushAll();
    } catch (err) {
      failure = err;
    }
    this.closed = true;
    this.flusher.stop();
    this.notify();
    for (const s of this.segments) {
      try {
        s.seal();
      } catch (err) {
        failure ??= err;
      }
      try {
        s.retire();
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /** Closes without flushing and removes the directory (topic deletion). */
  async destroy(): Promise<void> {
    this.closed = true;
    this.flusher.stop();
    this.notify();
    // Destroying: a compaction that failed only waited to end; its caller got the error.
    if (this.cleaning) await this.cleaning.catch(() => undefined);
    for (const s of this.segments) s.retire();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export type { ControlType };
