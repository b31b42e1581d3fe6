// What a task needs of any of its state stores, whatever the kind (key-value, window, session,
// suppression buffer, a stream–stream join's outer store): the store produces its own changelog
// records at commit, applies changelog records while restoring, and can be wiped and closed.
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';

export interface TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly partition: number;
  /** Persistent stores keep their contents across restarts (checkpointed); in-memory ones do not. */
  readonly persistent: boolean;
  /** The changelog records for everything changed since the last call (synchronous). */
  takeChangelogRecords(): ProduceRecord[];
  /**
   * Optional, for stores that log each write as it happens rather than what changed per commit
   * (window stores): hands the changelog records written so far to `send` and forgets them, so
   * they go out as the task runs, as Kafka's change-logging stores send every write to the
   * record collector at once, instead of piling up until the commit (a windowed count logs two
   * windows per record: 30 s of them held in memory cost more in garbage collection than the
   * rest of the record path). Returns how many. The commit's takeChangelogRecords gives the rest.
   */
  drainLoggedWrites?(send: (record: ProduceRecord) => void): number;
  /** Applies one changelog record while restoring (no logging). */
  restore(record: StoredRecord): void;
  /**
   * Optional, for persistent stores that checksum what they store: checks every stored entry and
   * returns what is damaged, or null. A checkpointed store that fails it is rebuilt.
   */
  verify?(): string | null;
  /** Drops the contents (a persistent store without a valid checkpoint is rebuilt from the changelog). */
  wipe(): void;
  close(): void;
}

/** Big-endian int64 of a safe integer, without BigInt. */
export function writeLong(view: DataView, offset: number, value: number): void {
  const hi = Math.floor(value / 0x1_0000_0000);
  view.setInt32(offset, hi, false);
  view.setUint32(offset + 4, value - hi * 0x1_0000_0000, false);
}

export function readLong(view: DataView, offset: number): number {
  return view.getInt32(offset, false) * 0x1_0000_0000 + view.getUint32(offset + 4, false);
}

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
