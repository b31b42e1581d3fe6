// One log segment: its records in memory plus, when the log is durable, an append-only file
// named by its base offset (Kafka's `00000000000000000000.log` naming).
import type { FileHandle } from 'node:fs/promises';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LogRecord } from './record-codec.js';

export function segmentFileName(baseOffset: number): string {
  return `${String(baseOffset).padStart(20, '0')}.log`;
}

export class Segment {
  readonly records: LogRecord[] = [];
  bytes = 0;
  maxTimestamp = -Infinity;
  /** Wall clock of the first append (or load), for time-based rolling. */
  createdAt: number;
  readonly path: string | null;
  #handle: Promise<FileHandle> | null = null;

  constructor(
    readonly baseOffset: number,
    dir: string | null,
    createdAt: number,
  ) {
    this.path = dir === null ? null : join(dir, segmentFileName(baseOffset));
    this.createdAt = createdAt;
  }

  add(record: LogRecord, size: number): void {
    this.records.push(record);
    this.bytes += size;
    if (record.timestamp > this.maxTimestamp) this.maxTimestamp = record.timestamp;
  }

  /** Opens (creating it if needed) the file for appending; memoised. */
  handle(): Promise<FileHandle> {
    if (this.path === null) throw new Error('in-memory segment has no file');
    this.#handle ??= open(this.path, 'a');
    return this.#handle;
  }

  async close(): Promise<void> {
    const h = this.#handle;
    this.#handle = null;
    if (h) await (await h).close();
  }

  async delete(): Promise<void> {
    await this.close();
    if (this.path !== null) await rm(this.path, { force: true });
  }

  /** Index of the first record with offset >= `offset` (records are offset-ordered, maybe sparse). */
  indexOf(offset: number): number {
    const direct = offset - this.baseOffset;
    if (direct >= 0 && direct < this.records.length && this.records[direct]!.offset === offset) return direct;
    let lo = 0;
    let hi = this.records.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.records[mid]!.offset < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
