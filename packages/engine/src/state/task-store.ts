// What a task needs of any of its state stores, whatever the kind (key-value, window, session,
// suppression buffer, a stream–stream join's outer store): the store produces its own changelog
// records at commit, applies changelog records while restoring, and can be wiped and closed.
import type { ProduceRecord, StoredRecord } from '../api.js';

export interface TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly partition: number;
  /** Persistent stores keep their contents across restarts (checkpointed); in-memory ones do not. */
  readonly persistent: boolean;
  /** The changelog records for everything changed since the last call (synchronous). */
  takeChangelogRecords(): ProduceRecord[];
  /** Applies one changelog record while restoring (no logging). */
  restore(record: StoredRecord): void;
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
