// One partition of a topic: an ordered list of segments, the last one active. Offsets are assigned
// synchronously at append (so concurrent producers keep their order); records become visible to
// fetches (the high watermark moves) only once their bytes are written, so a consumer never sees
// data that a crash could take back. Writes of one partition are serialised on a promise chain.
import { Buffer } from 'node:buffer';
import { readdir, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Headers } from '../../api.js';
import type { LogConfig } from './log-config.js';
import { decodeRecords, encodeRecords, frameSize, type LogRecord } from './record-codec.js';
import { Segment } from './segment.js';

export interface AppendRecord {
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: Headers;
}

export class PartitionLog {
  readonly segments: Segment[] = [];
  #nextOffset = 0;
  #highWatermark = 0;
  #chain: Promise<void> = Promise.resolve();
  readonly #waiters = new Set<() => void>();
  #failure: Error | null = null;

  private constructor(
    readonly topic: string,
    readonly partition: number,
    readonly dir: string | null,
    public config: LogConfig,
    private readonly now: () => number,
  ) {}

  static async open(
    topic: string,
    partition: number,
    dir: string | null,
    config: LogConfig,
    now: () => number,
  ): Promise<PartitionLog> {
    const log = new PartitionLog(topic, partition, dir, config, now);
    if (dir !== null) await log.#load(dir);
    if (log.segments.length === 0) log.#newSegment(0);
    return log;
  }

  get highWatermark(): number {
    return this.#highWatermark;
  }

  get logStartOffset(): number {
    for (const s of this.segments) if (s.records.length > 0) return s.records[0]!.offset;
    return this.#highWatermark;
  }

  get sizeBytes(): number {
    let n = 0;
    for (const s of this.segments) n += s.bytes;
    return n;
  }

  /** Assigns offsets now; the promise resolves once the batch is durable in the page cache. */
  append(batch: readonly AppendRecord[]): { baseOffset: number; written: Promise<void> } {
    if (this.#failure) return { baseOffset: -1, written: Promise.reject(this.#failure) };
    const baseOffset = this.#nextOffset;
    const now = this.now();
    let segment = this.#active();
    let pending: LogRecord[] = [];
    const writes: { segment: Segment; records: LogRecord[] }[] = [];
    for (const r of batch) {
      const record: LogRecord = {
        topic: this.topic,
        partition: this.partition,
        offset: this.#nextOffset++,
        timestamp: r.timestamp,
        key: r.key,
        value: r.value,
        headers: r.headers,
      };
      const size = frameSize(record);
      if (segment.records.length > 0 && (segment.bytes + size > this.config.segmentBytes || now - segment.createdAt >= this.config.segmentMs)) {
        if (pending.length > 0) writes.push({ segment, records: pending });
        pending = [];
        segment = this.#newSegment(record.offset);
      }
      segment.add(record, size);
      pending.push(record);
    }
    if (pending.length > 0) writes.push({ segment, records: pending });
    const end = this.#nextOffset;
    const written = this.#enqueue(async () => {
      for (const w of writes) {
        if (w.segment.path !== null) await (await w.segment.handle()).write(encodeRecords(w.records));
      }
      this.#advanceHighWatermark(end);
    });
    return { baseOffset, written };
  }

  /** Records in [offset, highWatermark), at most `max`. An offset below the log start reads from it. */
  read(offset: number, max: number): LogRecord[] {
    const out: LogRecord[] = [];
    const hw = this.#highWatermark;
    if (offset >= hw || max <= 0) return out;
    let si = this.#segmentIndexFor(offset);
    while (si < this.segments.length && out.length < max) {
      const seg = this.segments[si]!;
      for (let i = seg.indexOf(offset); i < seg.records.length && out.length < max; i++) {
        const r = seg.records[i]!;
        if (r.offset >= hw) return out;
        out.push(r);
      }
      si++;
    }
    return out;
  }

  /** Resolves when the high watermark moves (or `wake()` is called). */
  onData(listener: () => void): () => void {
    this.#waiters.add(listener);
    return () => this.#waiters.delete(listener);
  }

  wake(): void {
    for (const w of [...this.#waiters]) w();
  }

  /** Drops whole old segments per retention.ms / retention.bytes and compacts closed segments. */
  enforceRetention(): Promise<void> {
    const now = this.now();
    const active = this.#active();
    if (this.config.delete && this.config.retentionMs >= 0 && active.records.length > 0) {
      if (active.maxTimestamp < now - this.config.retentionMs || this.#expiredForRoll(active)) this.#newSegment(this.#nextOffset);
    }
    const doomed: Segment[] = [];
    if (this.config.delete) {
      const closed = () => this.segments.length - 1;
      if (this.config.retentionMs >= 0) {
        while (closed() > 0 && this.segments[0]!.maxTimestamp < now - this.config.retentionMs) doomed.push(this.segments.shift()!);
      }
      if (this.config.retentionBytes >= 0) {
        let size = this.sizeBytes;
        while (closed() > 0 && size - this.segments[0]!.bytes >= this.config.retentionBytes) {
          size -= this.segments[0]!.bytes;
          doomed.push(this.segments.shift()!);
        }
      }
    }
    const work: Promise<void>[] = [];
    if (doomed.length > 0) work.push(this.#enqueue(async () => void (await Promise.all(doomed.map((s) => s.delete())))));
    if (this.config.compact && this.segments.length > 2) work.push(this.#compactClosed());
    return Promise.all(work).then(() => undefined);
  }

  async close(): Promise<void> {
    await this.#chain.catch(() => undefined);
    for (const s of this.segments) await s.close();
    this.wake();
  }

  async deleteFiles(): Promise<void> {
    await this.close();
    if (this.dir !== null) await rm(this.dir, { recursive: true, force: true });
  }

  /** Waits for every write issued so far. */
  flushed(): Promise<void> {
    return this.#chain;
  }

  // Compaction keeps the newest record per key among the closed segments, rewriting them into
  // one segment under the first one's name. Crash safety: the merged file is written aside and
  // renamed over the first segment before the others are removed; on reload, records whose offsets
  // were already seen (a half-finished cleanup) are skipped.
  #compactClosed(): Promise<void> {
    const closed = this.segments.slice(0, -1);
    const latest = new Map<string, number>();
    const all: LogRecord[] = [];
    for (const s of closed) for (const r of s.records) all.push(r);
    all.forEach((r, i) => {
      if (r.key !== null) latest.set(Buffer.from(r.key.buffer, r.key.byteOffset, r.key.byteLength).toString('latin1'), i);
    });
    const kept = all.filter((r, i) => r.key === null || latest.get(Buffer.from(r.key.buffer, r.key.byteOffset, r.key.byteLength).toString('latin1')) === i);
    const merged = new Segment(closed[0]!.baseOffset, this.dir, closed[0]!.createdAt);
    for (const r of kept) merged.add(r, frameSize(r));
    this.segments.splice(0, closed.length, merged);
    return this.#enqueue(async () => {
      if (merged.path === null) return;
      for (const s of closed) await s.close();
      const tmp = `${merged.path}.cleaned`;
      await writeFile(tmp, encodeRecords(kept));
      await rename(tmp, merged.path);
      for (const s of closed.slice(1)) await s.delete();
    });
  }

  #active(): Segment {
    return this.segments[this.segments.length - 1]!;
  }

  #expiredForRoll(segment: Segment): boolean {
    return this.now() - segment.createdAt >= this.config.segmentMs;
  }

  #newSegment(baseOffset: number): Segment {
    const previous = this.segments[this.segments.length - 1];
    const segment = new Segment(baseOffset, this.dir, this.now());
    this.segments.push(segment);
    if (segment.path !== null) {
      // Create the file now: an empty active segment still records the next offset across restarts.
      void this.#enqueue(async () => {
        await previous?.close();
        await segment.handle();
      });
    }
    return segment;
  }

  #segmentIndexFor(offset: number): number {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.segments[mid]!.baseOffset <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #advanceHighWatermark(end: number): void {
    if (end > this.#highWatermark) {
      this.#highWatermark = end;
      this.wake();
    }
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(work);
    this.#chain = next.catch((error: unknown) => {
      // A failed write leaves the log in an unknown state: refuse further appends loudly.
      this.#failure = error instanceof Error ? error : new Error(String(error));
    });
    return next;
  }

  async #load(dir: string): Promise<void> {
    const names = (await readdir(dir)).sort();
    for (const name of names) if (name.endsWith('.cleaned')) await rm(join(dir, name), { force: true });
    const files = names.filter((n) => /^\d{20}\.log$/.test(n));
    let expected = 0;
    for (const name of files) {
      const baseOffset = Number(name.slice(0, 20));
      const path = join(dir, name);
      const buf = await readFile(path);
      const { records, validLength } = decodeRecords(buf, this.topic, this.partition);
      // A torn tail (crash mid-write) is cut off, never served.
      if (validLength < buf.length) await truncate(path, validLength);
      const segment = new Segment(baseOffset, dir, this.now());
      let fresh = 0;
      for (const { record, size } of records) {
        if (record.offset < expected) continue;
        segment.add(record, size);
        expected = record.offset + 1;
        fresh++;
      }
      if (fresh === 0 && records.length > 0) {
        await rm(path, { force: true });
        continue;
      }
      if (segment.records.length > 0) segment.createdAt = Math.min(this.now(), segment.records[0]!.timestamp);
      expected = Math.max(expected, baseOffset);
      this.segments.push(segment);
    }
    this.#nextOffset = expected;
    this.#highWatermark = expected;
  }
}
