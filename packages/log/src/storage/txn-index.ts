// Per-partition transaction state: which producers have a transaction open here (this bounds the
// last stable offset) and which ranges were aborted (read_committed readers skip those batches).
// The aborted ranges are persisted in `aborted.txnindex` as 28-byte entries
//   producerId int64 | firstOffset int64 | lastOffset int64 | CRC-32C of the 24 bytes
// written and fsynced BEFORE the abort marker is appended: after a crash an entry whose marker never
// made it to the log (lastOffset >= log end) is dropped on open, so a marker is never present
// without its entry.
import fs from 'node:fs';
import path from 'node:path';
import { LogError, LogErrorCode } from '../errors.js';
import { crc32c } from '../format/crc32c.js';
import { readInt64, writeInt64 } from '../format/varint.js';

export interface AbortedTxn {
  producerId: number;
  firstOffset: number;
  lastOffset: number;
}

const ENTRY = 28;

export class TxnIndex {
  readonly file: string;
  /** producerId → first offset of its open transaction in this partition */
  readonly ongoing = new Map<number, number>();
  private aborted: AbortedTxn[] = [];
  private byProducer = new Map<number, AbortedTxn[]>();
  /** producerId → the newest epoch that wrote here. */
  private readonly epochs = new Map<number, number>();

  constructor(dir: string) {
    this.file = path.join(dir, 'aborted.txnindex');
  }

  /**
   * Epoch fencing at the partition, as Kafka's producer state does: once a newer epoch of a
   * producer id has written here, the older one may not (PRODUCER_FENCED).
   */
  fence(producerId: number, epoch: number): void {
    const known = this.epochs.get(producerId);
    if (known !== undefined && epoch < known)
      throw new LogError(
        LogErrorCode.PRODUCER_FENCED,
        `producer ${producerId} epoch ${epoch} is fenced by epoch ${known}`,
      );
    this.epochs.set(producerId, epoch);
  }

  /** Loads entries, stopping at a torn one and dropping those whose marker is not in the log. */
  load(logEndOffset: number): void {
    let data: Buffer;
    try {
      data = fs.readFileSync(this.file);
    } catch {
      return;
    }
    let good = 0;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let p = 0; p + ENTRY <= data.length; p += ENTRY) {
      if (crc32c(data.subarray(p, p + 24)) !== view.getUint32(p + 24)) break;
      const entry = {
        producerId: readInt64(view, p),
        firstOffset: readInt64(view, p + 8),
        lastOffset: readInt64(view, p + 16),
      };
      if (entry.lastOffset >= logEndOffset) break;
      this.add(entry);
      good = p + ENTRY;
    }
    if (good !== data.length) fs.truncateSync(this.file, good);
  }

  private add(entry: AbortedTxn): void {
    this.aborted.push(entry);
    const list = this.byProducer.get(entry.producerId) ?? [];
    list.push(entry);
    this.byProducer.set(entry.producerId, list);
  }

  /** Persists an aborted range durably; call before appending the abort marker at `lastOffset`. */
  recordAbort(entry: AbortedTxn): void {
    const buf = Buffer.alloc(ENTRY);
    const view = new DataView(buf.buffer);
    writeInt64(view, 0, entry.producerId);
    writeInt64(view, 8, entry.firstOffset);
    writeInt64(view, 16, entry.lastOffset);
    view.setUint32(24, crc32c(buf.subarray(0, 24)));
    const fd = fs.openSync(this.file, 'a');
    try {
      fs.writeSync(fd, buf);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    this.add(entry);
  }

  isAborted(producerId: number, offset: number): boolean {
    const list = this.byProducer.get(producerId);
    if (!list) return false;
    for (const e of list) if (offset >= e.firstOffset && offset <= e.lastOffset) return true;
    return false;
  }

  /** Aborted ranges overlapping [from, to), for the cleaner. */
  abortedBetween(from: number, to: number): AbortedTxn[] {
    return this.aborted.filter((e) => e.lastOffset >= from && e.firstOffset < to);
  }

  firstUnstableOffset(): number | null {
    let min: number | null = null;
    for (const first of this.ongoing.values()) if (min === null || first < min) min = first;
    return min;
  }

  /** Drops entries wholly below the log start (after retention). */
  prune(logStartOffset: number): void {
    const keep = this.aborted.filter((e) => e.lastOffset >= logStartOffset);
    if (keep.length === this.aborted.length) return;
    this.aborted = [];
    this.byProducer.clear();
    const buf = Buffer.alloc(keep.length * ENTRY);
    keep.forEach((e, i) => {
      const view = new DataView(buf.buffer, i * ENTRY, ENTRY);
      writeInt64(view, 0, e.producerId);
      writeInt64(view, 8, e.firstOffset);
      writeInt64(view, 16, e.lastOffset);
      view.setUint32(24, crc32c(buf.subarray(i * ENTRY, i * ENTRY + 24)));
      this.add(e);
    });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, buf);
    fs.renameSync(tmp, this.file);
  }
}
