// A left or outer stream–stream join's shared outer store (Kafka Streams'
// KSTREAM-OUTERSHARED-<n>-store): the records that found no partner yet, ordered by timestamp,
// then side (right first), then key, until their join window closes. The store owns its
// changelog, in Kafka's layouts: key = TimestampedKeyAndJoinSide (timestamp int64, 1 byte: left
// side, the key's bytes), value = LeftOrRightValue (1 byte: left side, the value's bytes); the
// record's headers travel as the changelog record's headers. Emitted or matched records are
// deleted: a tombstone at the next commit if the record reached the changelog, nothing if it was
// buffered and matched between two commits (the common case).
//
// Persistent (with a disk, outer-join-store-disk.ts: what `default.dsl.store: rocksDB` gives a
// logged outer store, as Kafka keeps it in RocksDB) the store writes each commit's changelog
// records to lmdb as well and then holds in memory at most its bound of committed records, the
// newest (matches delete records near stream time), plus every record changed since the commit.
// The older ones, below `#high`, are on disk only (the "region" (#low, #high)); a scan that may
// emit some of them reads them back in store order, a chunk at a time, merged with those held;
// a put or delete of a record in the region looks it up on disk.
import type { SerdeName } from '@streamwright/topology-model';
import type { Headers, ProduceRecord, StoredRecord } from '../backend-spi.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { keyOrderFor, type KeyId, type KeyOrder } from './key-order.js';
import {
  OUTER_READ_CHUNK,
  OuterJoinStoreDisk,
  outerJoinStoreCache,
  type StoredOuterRecord,
} from './outer-join-store-disk.js';
import {
  after,
  END,
  identity,
  Pending,
  type Ident,
  type JoinSide,
  type PendingRecord,
} from './outer-join-pending.js';
import { readLong, viewOf, writeLong, type TaskStateStore } from './task-store.js';

export type { JoinSide, PendingRecord } from './outer-join-pending.js';

export interface OuterJoinStoreOptions {
  name: string;
  changelogTopic: string | null;
  logging?: boolean;
  keySerde: SerdeName;
  leftValueSerde: SerdeName;
  rightValueSerde: SerdeName;
}

export class OuterJoinStore implements TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  /**
   * Every record in store order, so by timestamp: a record is found by binary search on its
   * timestamp (few records share one), with no per-key index to keep up.
   */
  #ordered: (Pending | undefined)[] = [];
  /** The records before it are gone (emitted from the front without a splice each). */
  #head = 0;
  #changes: Pending[] = [];
  /** Entries of #changes removed before they were logged: nothing to write, dropped lazily. */
  #unloggedRemovals = 0;
  readonly #logging: boolean;
  readonly #keys: KeyOrder;
  readonly #values: Record<JoinSide, Serde<unknown>>;
  /** Persistent: the committed records, of which the store holds the newest. */
  readonly #disk: OuterJoinStoreDisk | null;
  /** Persistent: the disk has records (found at open, or restored) not read into memory yet. */
  #needsLoad: boolean;
  /** Null: every record is held. Otherwise records in (#low, #high) may be on disk only. */
  #high: Ident | null = null;
  #highKey: Uint8Array | null = null;
  /** The last record read back from the region (null: the region starts at the first record). */
  #low: Ident | null = null;
  #lowKey: Uint8Array | null = null;
  /** No record on disk only is older than this. */
  #regionMin = Infinity;
  /** Records of the region deleted since the commit (their disk copies are gone at the commit). */
  readonly #regionRemoved = new Set<string>();
  #closed = false;

  constructor(
    options: OuterJoinStoreOptions,
    readonly partition = 0,
    /** `<task dir>/lmdb/<store>` for a persistent store; null keeps everything in memory. */
    path: string | null = null,
    cacheEntries: number = outerJoinStoreCache.entries,
  ) {
    this.name = options.name;
    this.changelogTopic = options.changelogTopic;
    this.#logging = options.changelogTopic !== null && options.logging !== false;
    this.#keys = keyOrderFor(options.keySerde);
    this.#values = {
      left: getSerde(options.leftValueSerde),
      right: getSerde(options.rightValueSerde),
    };
    this.#disk = path === null ? null : new OuterJoinStoreDisk(path, options.name, cacheEntries);
    this.#needsLoad = path !== null;
  }

  get persistent(): boolean {
    return this.#disk !== null;
  }

  /** Whether no record waits (in memory or on disk). */
  get empty(): boolean {
    return this.#ordered.length === this.#head && this.#high === null && !this.#needsLoad;
  }

  /** How many records wait, held in memory or on disk (reads the disk: for tests). */
  get size(): number {
    this.#ready();
    let n = this.#ordered.length - this.#head;
    if (this.#high === null) return n;
    let from = this.#lowKey ?? undefined;
    for (;;) {
      const chunk = this.#disk!.range(from, this.#highKey ?? undefined, OUTER_READ_CHUNK);
      for (const d of chunk) if (this.#shadowed(this.#pendingOf(d)) === false) n++;
      if (chunk.length < OUTER_READ_CHUNK) return n;
      from = after(chunk[chunk.length - 1]!.storeKey);
    }
  }

  /** How many records are held in memory. */
  get residentEntries(): number {
    return this.#ordered.length - this.#head;
  }

  #ready(): void {
    if (this.#needsLoad) this.#load();
  }

  /** Store order: timestamp, then side (right first: false < true), then key bytes. */
  #before(a: Ident, b: Ident): boolean {
    if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
    if (a.side !== b.side) return a.side === 'right';
    return a.id !== b.id && this.#keys.compare(a.key, b.key) < 0;
  }

  /** The index in #ordered of the record of `id`, `side` and `timestamp`, or -1. */
  #find(id: KeyId, side: JoinSide, timestamp: number): number {
    const list = this.#ordered;
    let lo = this.#head;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.timestamp < timestamp) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < list.length && list[i]!.timestamp === timestamp; i++) {
      const p = list[i]!;
      if (p.side === side && p.id === id) return i;
    }
    return -1;
  }

  put(side: JoinSide, key: unknown, timestamp: number, value: unknown, headers: Headers): void {
    if (this.#needsLoad) this.#load();
    const id = this.#keys.id(key);
    const at = this.#find(id, side, timestamp);
    if (at >= 0) {
      const existing = this.#ordered[at]!;
      existing.value = value;
      existing.headers = headers;
      this.#changed(existing);
      return;
    }
    const record = new Pending(side, key, id, timestamp, value, headers);
    // On disk only: held from now on, as the record it replaces (its deletion needs a tombstone).
    if (this.#high !== null && this.#onDiskOnly(record)) record.logged = true;
    this.#add(record);
  }

  /** Whether the record, not held, is on disk (in the region, not deleted since the commit). */
  #onDiskOnly(record: Ident): boolean {
    if (!this.#before(record, this.#high!)) return false;
    if (this.#low !== null && !this.#before(this.#low, record)) return false;
    if (this.#regionRemoved.has(identity(record))) return false;
    return this.#disk!.get(this.#keyBytes(record)) !== undefined;
  }

  #add(record: Pending, log = true): void {
    const ordered = this.#ordered;
    let i = ordered.length;
    while (i > this.#head && this.#before(record, ordered[i - 1]!)) i--;
    if (i === ordered.length) ordered.push(record);
    else if (i === this.#head && i > 0) ordered[--this.#head] = record;
    else ordered.splice(i, 0, record);
    if (log) this.#changed(record);
  }

  #changed(record: Pending): void {
    if (!this.#logging || record.dirty) return;
    record.dirty = true;
    this.#changes.push(record);
  }

  delete(side: JoinSide, key: unknown, timestamp: number): void {
    if (this.#needsLoad) this.#load();
    const id = this.#keys.id(key);
    const at = this.#find(id, side, timestamp);
    if (at >= 0) {
      const record = this.#ordered[at]!;
      this.#removeAt(at);
      this.#unlink(record);
      return;
    }
    if (this.#high === null) return;
    const probe = new Pending(side, key, id, timestamp, undefined, {});
    if (!this.#onDiskOnly(probe)) return;
    probe.logged = true;
    this.#unlink(probe);
  }

  #removeAt(at: number): void {
    const list = this.#ordered;
    if (at !== this.#head) {
      list.splice(at, 1);
      return;
    }
    list[this.#head++] = undefined;
    // Drop the emptied front once it is most of the array.
    if (this.#head === list.length) {
      list.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > list.length) {
      this.#ordered = list.slice(this.#head);
      this.#head = 0;
    }
  }

  #unlink(record: Pending): void {
    record.removed = true;
    // Its disk copy stays until the commit: a read of the region must skip it.
    if (this.#high !== null && record.logged && this.#before(record, this.#high))
      this.#regionRemoved.add(identity(record));
    if (record.logged) this.#changed(record);
    else if (record.dirty && ++this.#unloggedRemovals > 1024) this.#compactChanges();
  }

  /**
   * Drops the records buffered and matched since the last commit from the change list once they
   * are most of it, so a long commit interval does not keep every matched record alive.
   */
  #compactChanges(): void {
    if (this.#unloggedRemovals * 2 < this.#changes.length) return;
    const changes = this.#changes;
    let kept = 0;
    for (const record of changes) {
      if (record.removed && !record.logged) record.dirty = false;
      else changes[kept++] = record;
    }
    changes.length = kept;
    this.#unloggedRemovals = 0;
  }

  /**
   * Visits records in store order; `visit` returns 'emit' to delete the record (it was emitted),
   * 'keep' to go on, 'stop' to end the scan. `openFrom`: the visitor keeps every record from this
   * timestamp on, so the records on disk only from there on need not be read.
   */
  scan(openFrom: number, visit: (record: PendingRecord) => 'emit' | 'keep' | 'stop'): void {
    if (this.#needsLoad) this.#load();
    let kept = 0;
    for (;;) {
      const i = this.#head + kept;
      // The next held record may come after records on disk only that could be emitted: read
      // them first (the records visited so far are all before the region's start).
      if (
        this.#high !== null &&
        this.#regionMin < openFrom &&
        (i >= this.#ordered.length ||
          this.#low === null ||
          !this.#before(this.#ordered[i]!, this.#low))
      ) {
        this.#readRegion();
        continue;
      }
      const list = this.#ordered;
      if (i >= list.length) return;
      const record = list[i]!;
      const verdict = visit(record);
      if (verdict === 'stop') return;
      if (verdict === 'keep') {
        kept++;
        continue;
      }
      this.#removeAt(i);
      this.#unlink(record);
    }
  }

  /** Reads the next chunk of the region into memory, merged with the records held. */
  #readRegion(): void {
    const chunk = this.#disk!.range(
      this.#lowKey ?? undefined,
      this.#highKey ?? undefined,
      OUTER_READ_CHUNK + 1,
    );
    const more = chunk.length > OUTER_READ_CHUNK;
    if (more) chunk.length = OUTER_READ_CHUNK;
    const loaded: Pending[] = [];
    for (const d of chunk) {
      const p = this.#pendingOf(d);
      if (!this.#shadowed(p)) loaded.push(p);
    }
    if (more) {
      const last = chunk[chunk.length - 1]!;
      this.#low = this.#pendingOf(last);
      this.#lowKey = after(last.storeKey);
      // The next record on disk (skipped or not) is not older than the last one read.
      this.#regionMin = this.#low.timestamp;
    } else this.#clearRegion();
    if (loaded.length === 0) return;
    const held = this.#ordered;
    const merged: Pending[] = new Array<Pending>(held.length - this.#head + loaded.length);
    let a = this.#head;
    let b = 0;
    let k = 0;
    while (a < held.length && b < loaded.length)
      merged[k++] = this.#before(loaded[b]!, held[a]!) ? loaded[b++]! : held[a++]!;
    while (a < held.length) merged[k++] = held[a++]!;
    while (b < loaded.length) merged[k++] = loaded[b++]!;
    this.#ordered = merged;
    this.#head = 0;
  }

  /** A record read from disk that a held record or a deletion since the commit replaces. */
  #shadowed(p: Pending): boolean {
    return this.#find(p.id, p.side, p.timestamp) >= 0 || this.#regionRemoved.has(identity(p));
  }

  #clearRegion(): void {
    this.#high = this.#low = null;
    this.#highKey = this.#lowKey = null;
    this.#regionMin = Infinity;
  }

  #pendingOf(stored: StoredOuterRecord): Pending {
    const bytes = stored.storeKey;
    const timestamp = readLong(viewOf(bytes), 0);
    const side: JoinSide = bytes[8] === 1 ? 'left' : 'right';
    const key = this.#keys.serde.deserialize(bytes.subarray(9));
    const value = this.#values[side].deserialize(stored.value.subarray(1));
    const p = new Pending(side, key, this.#keys.id(key), timestamp, value, stored.headers);
    p.logged = true;
    return p;
  }

  /** Persistent: reads the newest records on disk into memory (at open, after a restore). */
  #load(): void {
    this.#needsLoad = false;
    const disk = this.#disk!;
    disk.flush();
    const { records, more } = disk.newest(disk.limit);
    this.#ordered = records.map((r) => this.#pendingOf(r));
    this.#head = 0;
    this.#changes = [];
    this.#unloggedRemovals = 0;
    this.#regionRemoved.clear();
    this.#clearRegion();
    if (!more) return;
    this.#high = this.#ordered[0] ?? END;
    this.#highKey = records[0]?.storeKey ?? null;
    const oldest = disk.range(undefined, undefined, 1)[0]!;
    this.#regionMin = readLong(viewOf(oldest.storeKey), 0);
  }

  /** Persistent: writes the commit and drops the oldest held records down to the bound. */
  #commit(records: readonly ProduceRecord[]): void {
    const disk = this.#disk!;
    for (const r of records) disk.add(r.key!, r.value ?? null, r.headers ?? {}, r.timestamp ?? 0);
    disk.flush();
    this.#regionRemoved.clear();
    const held = this.#ordered;
    const head = this.#head;
    if (held.length - head <= disk.limit) return;
    // Everything below the first record kept (or the region's end, if later) is on disk only.
    let high = held[held.length - disk.limit] ?? END;
    if (this.#high !== null && this.#before(high, this.#high)) high = this.#high;
    let drop = head;
    while (drop < held.length && this.#before(held[drop]!, high)) drop++;
    this.#regionMin = Math.min(
      this.#high === null ? Infinity : this.#regionMin,
      held[head]!.timestamp,
    );
    this.#ordered = held.slice(drop);
    this.#head = 0;
    this.#high = high;
    this.#highKey = high === END ? null : this.#keyBytes(high);
    this.#low = null;
    this.#lowKey = null;
  }

  takeChangelogRecords(): ProduceRecord[] {
    if (this.#needsLoad || this.#closed) return [];
    const out = this.#logChanges();
    if (this.#disk !== null) this.#commit(out);
    return out;
  }

  #logChanges(): ProduceRecord[] {
    if (this.#changes.length === 0 || this.changelogTopic === null) return [];
    const out: ProduceRecord[] = [];
    const changes = this.#changes;
    this.#changes = [];
    this.#unloggedRemovals = 0;
    for (const record of changes) {
      record.dirty = false;
      if (record.removed) {
        // Buffered and gone between two commits: the changelog never saw it.
        if (!record.logged) continue;
        record.logged = false;
        out.push({
          topic: this.changelogTopic,
          partition: this.partition,
          key: this.#keyBytes(record),
          value: null,
          timestamp: record.timestamp,
        });
        continue;
      }
      record.logged = true;
      const value = this.#values[record.side].serialize(record.value) ?? new Uint8Array(0);
      const bytes = new Uint8Array(1 + value.byteLength);
      bytes[0] = record.side === 'left' ? 1 : 0;
      bytes.set(value, 1);
      out.push({
        topic: this.changelogTopic,
        partition: this.partition,
        key: this.#keyBytes(record),
        value: bytes,
        timestamp: record.timestamp,
        headers: record.headers,
      });
    }
    return out;
  }

  #keyBytes(record: Ident): Uint8Array {
    const keyBytes = this.#keys.serde.serialize(record.key) ?? new Uint8Array(0);
    const out = new Uint8Array(9 + keyBytes.byteLength);
    writeLong(viewOf(out), 0, record.timestamp);
    out[8] = record.side === 'left' ? 1 : 0;
    out.set(keyBytes, 9);
    return out;
  }

  restore(record: StoredRecord): void {
    const bytes = record.key;
    if (bytes === null || bytes.byteLength < 9) return;
    // Persistent: to disk, read back (the newest into memory) when the store is next used.
    if (this.#disk !== null) {
      this.#disk.restore(record);
      this.#needsLoad = true;
      return;
    }
    const timestamp = readLong(viewOf(bytes), 0);
    const side: JoinSide = bytes[8] === 1 ? 'left' : 'right';
    const key = this.#keys.serde.deserialize(bytes.subarray(9));
    const id = this.#keys.id(key);
    const found = this.#find(id, side, timestamp);
    if (found >= 0) this.#removeAt(found);
    if (record.value === null) return;
    const value = this.#values[side].deserialize(record.value.subarray(1));
    const restored = new Pending(side, key, id, timestamp, value, { ...record.headers });
    restored.logged = true;
    this.#add(restored, false); // restoring does not log
  }

  /** The persistent store's checksums over its disk: what is damaged, or null. */
  verify(): string | null {
    return this.#disk?.verify() ?? null;
  }

  wipe(): void {
    this.#ordered = [];
    this.#head = 0;
    this.#changes = [];
    this.#unloggedRemovals = 0;
    this.#regionRemoved.clear();
    this.#clearRegion();
    if (this.#disk !== null && !this.#closed) {
      this.#disk.wipe();
      this.#needsLoad = false;
    }
  }

  close(): void {
    if (this.#disk !== null && !this.#closed) this.#disk.close();
    this.#closed = true;
    this.wipe();
  }
}
