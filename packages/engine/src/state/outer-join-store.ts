// A left or outer stream–stream join's shared outer store (Kafka Streams'
// KSTREAM-OUTERSHARED-<n>-store): the records that found no partner yet, ordered by timestamp,
// then side (right first), then key, until their join window closes. The store owns its
// changelog, in Kafka's layouts: key = TimestampedKeyAndJoinSide (timestamp int64, 1 byte: left
// side, the key's bytes), value = LeftOrRightValue (1 byte: left side, the value's bytes); the
// record's headers travel as the changelog record's headers. Emitted or matched records are
// deleted: a tombstone at the next commit if the record reached the changelog, nothing if it was
// buffered and matched between two commits (the common case).
import type { SerdeName } from '@streamwright/topology-model';
import type { Headers, ProduceRecord, StoredRecord } from '../api.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { keyOrderFor, type KeyId, type KeyOrder } from './key-order.js';
import { readLong, viewOf, writeLong, type TaskStateStore } from './task-store.js';

export type JoinSide = 'left' | 'right';

export interface PendingRecord {
  readonly side: JoinSide;
  readonly key: unknown;
  readonly timestamp: number;
  value: unknown;
  headers: Headers;
}

class Pending implements PendingRecord {
  /** Changed since the last commit (in the store's change list). */
  dirty = false;
  /** Written to the changelog (its deletion needs a tombstone). */
  logged = false;
  removed = false;
  constructor(
    readonly side: JoinSide,
    readonly key: unknown,
    readonly id: KeyId,
    readonly timestamp: number,
    public value: unknown,
    public headers: Headers,
  ) {}
}

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
  readonly persistent = false;
  /**
   * Every record in store order, so by timestamp: a record is found by binary search on its
   * timestamp (few records share one), with no per-key index to keep up.
   */
  #ordered: Pending[] = [];
  #changes: Pending[] = [];
  /** Entries of #changes removed before they were logged: nothing to write, dropped lazily. */
  #unloggedRemovals = 0;
  readonly #logging: boolean;
  readonly #keys: KeyOrder;
  readonly #values: Record<JoinSide, Serde<unknown>>;

  constructor(
    options: OuterJoinStoreOptions,
    readonly partition = 0,
  ) {
    this.name = options.name;
    this.changelogTopic = options.changelogTopic;
    this.#logging = options.changelogTopic !== null && options.logging !== false;
    this.#keys = keyOrderFor(options.keySerde);
    this.#values = {
      left: getSerde(options.leftValueSerde),
      right: getSerde(options.rightValueSerde),
    };
  }

  get size(): number {
    return this.#ordered.length;
  }

  /** Store order: timestamp, then side (right first: false < true), then key bytes. */
  #before(a: Pending, b: Pending): boolean {
    if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
    if (a.side !== b.side) return a.side === 'right';
    return a.id !== b.id && this.#keys.compare(a.key, b.key) < 0;
  }

  /** The index in #ordered of the record of `id`, `side` and `timestamp`, or -1. */
  #find(id: KeyId, side: JoinSide, timestamp: number): number {
    const list = this.#ordered;
    let lo = 0;
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
    const id = this.#keys.id(key);
    const at = this.#find(id, side, timestamp);
    if (at >= 0) {
      const existing = this.#ordered[at]!;
      existing.value = value;
      existing.headers = headers;
      this.#changed(existing);
      return;
    }
    this.#add(new Pending(side, key, id, timestamp, value, headers));
  }

  #add(record: Pending, log = true): void {
    const ordered = this.#ordered;
    let i = ordered.length;
    while (i > 0 && this.#before(record, ordered[i - 1]!)) i--;
    if (i === ordered.length) ordered.push(record);
    else ordered.splice(i, 0, record);
    if (log) this.#changed(record);
  }

  #changed(record: Pending): void {
    if (!this.#logging || record.dirty) return;
    record.dirty = true;
    this.#changes.push(record);
  }

  delete(side: JoinSide, key: unknown, timestamp: number): void {
    const at = this.#find(this.#keys.id(key), side, timestamp);
    if (at < 0) return;
    const record = this.#ordered[at]!;
    this.#ordered.splice(at, 1);
    this.#unlink(record);
  }

  #unlink(record: Pending): void {
    record.removed = true;
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
   * 'keep' to go on, 'stop' to end the scan.
   */
  scan(visit: (record: PendingRecord) => 'emit' | 'keep' | 'stop'): void {
    const list = this.#ordered;
    let i = 0;
    while (i < list.length) {
      const record = list[i]!;
      const verdict = visit(record);
      if (verdict === 'stop') return;
      if (verdict === 'keep') {
        i++;
        continue;
      }
      list.splice(i, 1);
      this.#unlink(record);
    }
  }

  takeChangelogRecords(): ProduceRecord[] {
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

  #keyBytes(record: Pending): Uint8Array {
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
    const timestamp = readLong(viewOf(bytes), 0);
    const side: JoinSide = bytes[8] === 1 ? 'left' : 'right';
    const key = this.#keys.serde.deserialize(bytes.subarray(9));
    const id = this.#keys.id(key);
    const found = this.#find(id, side, timestamp);
    if (found >= 0) this.#ordered.splice(found, 1);
    if (record.value === null) return;
    const value = this.#values[side].deserialize(record.value.subarray(1));
    const restored = new Pending(side, key, id, timestamp, value, { ...record.headers });
    restored.logged = true;
    this.#add(restored, false); // restoring does not log
  }

  wipe(): void {
    this.#ordered = [];
    this.#changes = [];
    this.#unloggedRemovals = 0;
  }

  close(): void {
    this.wipe();
  }
}
