// Read plans: what a reader in another thread needs to read a partition's segment files itself
// (file-reader.ts), so the thread that owns the log hands out positions instead of bytes — as
// Kafka's broker answers a fetch with sendfile from file positions, never copying the records
// through its own heap. A plan is plain data (structured-clonable): the segments from the
// requested offset with their file, identity and readable size, the bound no batch may reach
// (the high watermark, or the last stable offset for read_committed), and for read_committed the
// aborted transactions in that range (Kafka's fetch response carries the same list).
import fs from 'node:fs';
import type { AbortedTxn } from '../storage/txn-index.js';
import type { PartitionLog } from '../storage/partition-log.js';
import type { Segment } from '../storage/segment.js';
import type { IsolationLevel } from '../types.js';

/** One segment file as the plan's reader may read it. */
export interface SegmentSpan {
  /** The `.log` file. */
  file: string;
  /**
   * The file's inode when planned. The cleaner swaps a compacted copy in under the same name: a
   * reader whose open finds another inode asks for a new plan instead of reading other bytes.
   */
  ino: number;
  baseOffset: number;
  /** Where reading starts: a batch boundary at or before the plan's offset (0 after the first span). */
  position: number;
  /** The base offset of the batch at `position`, checked by the reader. */
  positionOffset: number;
  /** Bytes in the file when planned: whole batches only (the write queue's completed writes). */
  size: number;
  /** The offset after the last batch within `size`. */
  nextOffset: number;
  /** Sealed segments never grow: their size is their final size. */
  sealed: boolean;
}

export interface ReadPlan {
  topic: string;
  partition: number;
  isolation: IsolationLevel;
  /** Where the reader starts (the offset asked for, moved up to the log start when below it). */
  offset: number;
  /** No batch with a base offset at or past this is read (high watermark or last stable offset). */
  bound: number;
  highWatermark: number;
  lastStableOffset: number;
  logStartOffset: number;
  /** Bytes between index entries: how far before the offset the first span's position may be. */
  indexIntervalBytes: number;
  segments: SegmentSpan[];
  /** read_committed: aborted ranges overlapping [offset, bound); their batches are skipped. */
  aborted: AbortedTxn[];
  /** The offset is past the log end (a reset is needed). */
  error?: 'OFFSET_OUT_OF_RANGE';
}

/** Spans per plan: a reader asks again when it reaches the last one. */
const MAX_SPANS = 8;

const inodes = new WeakMap<Segment, number>();

function inodeOf(seg: Segment): number {
  let ino = inodes.get(seg);
  if (ino === undefined) {
    ino = fs.fstatSync(seg.fd).ino;
    inodes.set(seg, ino);
  }
  return ino;
}

/** The plan for reading `log` from `offset` (below the log start: from the log start). */
export function planRead(log: PartitionLog, offset: number, isolation: IsolationLevel): ReadPlan {
  const highWatermark = log.highWatermark;
  const lastStableOffset = log.lastStableOffset;
  const bound = isolation === 'read_committed' ? lastStableOffset : highWatermark;
  const from = Math.max(offset, log.logStartOffset);
  const plan: ReadPlan = {
    topic: log.topic,
    partition: log.partition,
    isolation,
    offset: from,
    bound,
    highWatermark,
    lastStableOffset,
    logStartOffset: log.logStartOffset,
    indexIntervalBytes: log.config.indexIntervalBytes,
    segments: [],
    aborted: [],
  };
  if (from > log.logEndOffset) {
    plan.error = 'OFFSET_OUT_OF_RANGE';
    return plan;
  }
  if (from >= bound) return plan;
  const segments = log.segments;
  let i = segments.length - 1;
  while (i > 0 && segments[i]!.baseOffset > from) i--;
  const active = segments[segments.length - 1];
  for (; i < segments.length && plan.segments.length < MAX_SPANS; i++) {
    const seg = segments[i]!;
    if (seg.baseOffset >= bound) break;
    // Only what is in the file: appends reach it through the write queue, after their offsets.
    if (seg.nextOffset <= from || seg.writtenSize === 0) continue;
    const entry =
      plan.segments.length === 0 ? seg.index.lookup(from) : { offset: seg.baseOffset, position: 0 };
    plan.segments.push({
      file: seg.logFile,
      ino: inodeOf(seg),
      baseOffset: seg.baseOffset,
      position: entry.position,
      positionOffset: entry.offset,
      size: seg.writtenSize,
      nextOffset: Math.min(seg.nextOffset, log.writtenEnd),
      // A segment just rolled may still have writes queued: sealed once they are in the file.
      sealed: seg !== active && seg.writtenSize === seg.size,
    });
  }
  if (isolation === 'read_committed') plan.aborted = log.txns.abortedBetween(from, bound);
  return plan;
}

/** Whether a plan has anything to read (else a reader long-polls for a new one). */
export function planHasData(plan: ReadPlan): boolean {
  return plan.error !== undefined || plan.offset < plan.bound;
}

/**
 * Plans for several partitions, long-polling like a fetch: returns as soon as any plan has data
 * (or an error), or when `maxWaitMs` has passed or `signal` aborted.
 */
export async function pollReadPlans(
  entries: { log: PartitionLog; offset: number }[],
  opts: { maxWaitMs?: number; isolationLevel?: IsolationLevel; signal?: AbortSignal } = {},
): Promise<ReadPlan[]> {
  const isolation = opts.isolationLevel ?? 'read_uncommitted';
  const deadline = Date.now() + (opts.maxWaitMs ?? 0);
  for (;;) {
    const plans = entries.map((e) => planRead(e.log, e.offset, isolation));
    const remaining = deadline - Date.now();
    if (plans.some(planHasData) || remaining <= 0 || opts.signal?.aborted) return plans;
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race(
        entries.map((e, i) =>
          e.log.waitForData(plans[i]!.offset, isolation, remaining, stop.signal),
        ),
      );
    } finally {
      stop.abort();
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }
}
