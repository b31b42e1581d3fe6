// The main-thread side of compaction: picks what may be cleaned, hands the work to a worker
// thread, and swaps the cleaned segments in. Only sealed segments below the first uncleanable
// offset are cleaned: not the active segment, nothing at or past the last stable offset (open
// transactions) or the high watermark, nothing younger than min.compaction.lag.ms.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readCheckpoint, tpKey, writeCheckpoint } from '../data-dir.js';
import type { PartitionLog } from '../storage/partition-log.js';
import type { CleanJob, CleanResult } from './clean-segments.js';

export interface CompactionReport {
  topic: string;
  partition: number;
  /** Offsets [from, to) that were examined; empty when nothing was cleanable. */
  from: number;
  to: number;
  segmentsRewritten: number;
  bytesBefore: number;
  bytesAfter: number;
  recordsBefore: number;
  recordsAfter: number;
  tombstonesRemoved: number;
  durationMs: number;
}

const CHECKPOINT = 'cleaner-offset-checkpoint';

/** What the cleaner needs from the log (an interface, so the log can own a cleaner without a cycle). */
export interface CleanerHost {
  readonly dataDir: string;
  readonly clock: () => number;
  readonly isClosed: boolean;
  readonly maintenanceHooks: (() => unknown)[];
  partition(topic: string, partition: number): PartitionLog;
  allPartitions(): PartitionLog[];
  onClose(hook: () => Promise<void> | void): void;
}

/**
 * Starts the worker. Built, it is plain JavaScript; run from the TypeScript sources (tests, which
 * need no build), the worker loads them through tsx's require hook, a dev dependency.
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsxApi = createRequire(here).resolve('tsx/cjs/api');
    const entry = fileURLToPath(new URL('./cleaner-worker.ts', here));
    const code = `require(${JSON.stringify(tsxApi)}).require(${JSON.stringify(entry)}, ${JSON.stringify(entry)});`;
    return new Worker(code, { eval: true });
  }
  return new Worker(new URL('./cleaner-worker.js', here));
}

/**
 * One cleaner thread per process, shared by every open Log (Kafka runs log.cleaner.threads = 1 per
 * broker); it exists only while a Log has work for it or is open after having used it.
 */
const shared = {
  worker: null as Worker | null,
  /** Open Logs using it, for diagnostics. */
  users: 0,
  nextId: 1,
  pending: new Map<number, { resolve: (r: CleanResult) => void; reject: (e: Error) => void }>(),
};

function runOnWorker(job: CleanJob): Promise<CleanResult> {
  if (!shared.worker) {
    const w = startWorker();
    w.on('message', (msg: { id: number; result?: CleanResult; error?: string }) => {
      const p = shared.pending.get(msg.id);
      shared.pending.delete(msg.id);
      if (shared.pending.size === 0) w.unref();
      if (msg.error !== undefined) p?.reject(new Error(msg.error));
      else p?.resolve(msg.result!);
    });
    w.on('error', (err) => {
      for (const p of shared.pending.values()) p.reject(err);
      shared.pending.clear();
      if (shared.worker === w) shared.worker = null;
    });
    shared.worker = w;
  }
  const id = shared.nextId++;
  shared.worker.ref();
  return new Promise((resolve, reject) => {
    shared.pending.set(id, { resolve, reject });
    shared.worker!.postMessage({ id, job });
  });
}

export class Cleaner {
  /** First offset not yet cleaned, per partition (for the dirty ratio). */
  private readonly firstDirty: Map<string, number>;
  private running: Promise<unknown> | null = null;

  constructor(private readonly log: CleanerHost) {
    this.firstDirty = readCheckpoint(log.dataDir, CHECKPOINT);
    log.maintenanceHooks.push(() => this.cleanDirty());
    log.onClose(() => this.close());
    shared.users++;
  }

  /** The segments compaction may rewrite now, and the offset where that range ends. */
  private cleanable(p: PartitionLog): { count: number; end: number } {
    const cfg = p.config;
    const now = this.log.clock();
    const limit = Math.min(p.active.baseOffset, p.lastStableOffset, p.highWatermark);
    let count = 0;
    for (let i = 0; i < p.segments.length - 1; i++) {
      const s = p.segments[i]!;
      if (s.nextOffset > limit) break;
      if (cfg.minCompactionLagMs > 0 && s.maxTimestamp > now - cfg.minCompactionLagMs) break;
      count = i + 1;
    }
    return { count, end: count === 0 ? p.logStartOffset : p.segments[count]!.baseOffset };
  }

  /** Share of the cleanable bytes written since the last cleaning (min.cleanable.dirty.ratio). */
  dirtyRatio(p: PartitionLog): number {
    const { count } = this.cleanable(p);
    const firstDirty = this.firstDirty.get(tpKey(p.topic, p.partition)) ?? 0;
    let total = 0;
    let dirty = 0;
    for (let i = 0; i < count; i++) {
      const s = p.segments[i]!;
      total += s.size;
      if (s.baseOffset >= firstDirty) dirty += s.size;
    }
    return total === 0 ? 0 : dirty / total;
  }

  /** Compacts one partition now, whatever its dirty ratio. */
  compact(topic: string, partition: number): Promise<CompactionReport> {
    const p = this.log.partition(topic, partition);
    const previous = p.cleaning ?? Promise.resolve();
    // The previous compaction's caller got its error; this one only waits for it to end.
    // eslint-disable-next-line no-restricted-syntax -- see above
    const work = previous.catch(() => undefined).then(() => this.compactNow(p));
    p.cleaning = work;
    // eslint-disable-next-line no-restricted-syntax -- the caller gets `work`'s error; this only clears the marker
    void work
      .catch(() => undefined)
      .then(() => {
        if (p.cleaning === work) p.cleaning = null;
      });
    return work;
  }

  private async compactNow(p: PartitionLog): Promise<CompactionReport> {
    const started = performance.now();
    const { count, end } = this.cleanable(p);
    const report: CompactionReport = {
      topic: p.topic,
      partition: p.partition,
      from: p.logStartOffset,
      to: end,
      segmentsRewritten: 0,
      bytesBefore: 0,
      bytesAfter: 0,
      recordsBefore: 0,
      recordsAfter: 0,
      tombstonesRemoved: 0,
      durationMs: 0,
    };
    if (count === 0 || !p.config.compact)
      return { ...report, durationMs: performance.now() - started };
    const segs = p.segments.slice(0, count);
    const result = await runOnWorker({
      dir: p.dir,
      segments: segs.map((s) => ({ baseOffset: s.baseOffset, size: s.size })),
      now: this.log.clock(),
      deleteRetentionMs: p.config.deleteRetentionMs,
      indexIntervalBytes: p.config.indexIntervalBytes,
      aborted: p.txns.abortedBetween(p.logStartOffset, end),
    });
    for (const s of result.segments) {
      report.bytesBefore += s.bytesBefore;
      report.bytesAfter += s.bytesAfter;
      report.recordsBefore += s.recordsBefore;
      report.recordsAfter += s.recordsAfter;
      if (s.rewritten && p.replaceWithCleaned(s.baseOffset)) report.segmentsRewritten++;
    }
    report.tombstonesRemoved = result.tombstonesRemoved;
    this.firstDirty.set(tpKey(p.topic, p.partition), end);
    this.saveCheckpoint();
    report.durationMs = performance.now() - started;
    return report;
  }

  private saveCheckpoint(): void {
    const entries = this.log.allPartitions().map((p) => ({
      topic: p.topic,
      partition: p.partition,
      offset: this.firstDirty.get(tpKey(p.topic, p.partition)) ?? 0,
    }));
    writeCheckpoint(this.log.dataDir, CHECKPOINT, entries);
  }

  /** The background pass: compacts, one at a time, partitions over their dirty ratio. */
  cleanDirty(): Promise<unknown> {
    if (this.running) return this.running;
    this.running = (async () => {
      for (const p of this.log.allPartitions()) {
        if (this.log.isClosed) return;
        const cfg = p.config;
        if (
          cfg.compact &&
          this.dirtyRatio(p) >= cfg.minCleanableDirtyRatio &&
          this.cleanable(p).count > 0
        ) {
          await this.compact(p.topic, p.partition);
        }
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async close(): Promise<void> {
    // Waits for running compactions to end; their failures were reported where they ran.
    await this.running?.catch(() => undefined);
    for (const p of this.log.allPartitions()) await p.cleaning?.catch(() => undefined);
    // An idle worker is unref'd (it never keeps the process alive) and kept for the next Log.
    shared.users--;
  }
}
