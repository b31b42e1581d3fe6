// A session store segmented by session end, as Kafka Streams' session stores: sessions of a key
// are found by findSessions(key, earliestSessionEndTime, latestSessionStartTime); once stream
// time (the largest session end put) passes a segment's end + retention the segment is dropped;
// sessions ending at or before stream time − retention are invisible before that.
//
// The store is also Kafka's ChangeLoggingSessionBytesStore: every put and remove is logged in
// Kafka's layout (SessionKeySchema: the key's bytes, the session end and start as int64; the
// value's bytes; a removed session is a tombstone), even a put the store drops as expired. With
// a record cache in front (CachingSessionStore) the cache's flushes are the writes instead
// (logThroughCache; see window-store.ts).
//
// A persistent store (lmdb-window-stores.ts) passes its segments on disk: it holds in memory only
// what fits its cache (evictTo) and what changed since the last commit; a segment it no longer
// holds in full (`complete` false; a removal held as a session of null value, hiding the one on
// disk until the commit) is read from disk and merged (session-disk-reads.ts).
import type { SerdeName } from '@streamwright/topology-model';
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { keyOrderFor, type KeyId, type KeyOrder } from './key-order.js';
import type { LmdbSegments } from './lmdb-segments.js';
import { SessionDiskReads } from './session-disk-reads.js';
import { readLong, viewOf, writeLong, type TaskStateStore } from './task-store.js';
import { defaultSegmentInterval } from './window-store-options.js';
import type { CacheWriter } from './window-store.js';

export interface SessionEntry {
  key: unknown;
  start: number;
  end: number;
  value: unknown;
}

export interface SessionStoreOptions {
  retentionMs: number;
  segmentIntervalMs?: number;
  name?: string;
  keySerde?: SerdeName;
  valueSerde?: SerdeName;
  changelogTopic?: string | null;
  logging?: boolean;
}

class Session implements SessionEntry {
  dirty = false;
  constructor(
    public key: unknown,
    public id: KeyId,
    public start: number,
    public end: number,
    public value: unknown,
    public timestamp: number,
  ) {}
}

/** A key's sessions in one segment, ordered by end then start (the store's byte order). */
type Sessions = Session[];

/** One segment's sessions by key; `complete` and `size` as Segment's (window-segments.ts). */
class SessionSegment {
  readonly byKey = new Map<KeyId, Sessions>();
  complete = true;
  size = 0;
  constructor(readonly id: number) {}

  /** Takes a session out of its key's list. */
  drop(sessions: Sessions, found: Session): void {
    sessions.splice(sessions.indexOf(found), 1);
    this.size--;
    if (sessions.length === 0) this.byKey.delete(found.id);
  }
}

const SUFFIX_BYTES = 16;

export class SegmentedSessionStore implements TaskStateStore {
  readonly name: string;
  readonly changelogTopic: string | null;
  readonly persistent: boolean = false;
  readonly retentionMs: number;
  readonly segmentIntervalMs: number;
  /** segment id (by end) → the segment. */
  readonly #segments = new Map<number, SessionSegment>();
  #segmentIds: number[] = [];
  #observedStreamTime = -1;
  #dirty: Session[] = [];
  readonly #logging: boolean;
  /** As SegmentedWindowStore's: stream time of the store below a record cache in Kafka. */
  #flushedStreamTime = -1;
  /** Changelog records written since the last commit, in write order. */
  #log: ProduceRecord[] = [];
  /** Writes come from the record cache's flushes (logThroughCache), not from put(). */
  #logByCache = false;
  /** Dirty tracking for the disk (a persistent store writes what changed at the commit). */
  readonly #tracksDirty: boolean;
  readonly #keys: KeyOrder;
  readonly #valueSerde: Serde<unknown>;
  /** A persistent store's segments on disk (null in memory). */
  readonly #disk: SessionDiskReads | null;
  expiredRecordsTotal = 0;

  constructor(
    options: SessionStoreOptions,
    readonly partition = 0,
    disk: LmdbSegments | null = null,
  ) {
    this.name = options.name ?? 'session-store';
    this.changelogTopic = options.changelogTopic ?? null;
    this.#logging = this.changelogTopic !== null && options.logging !== false;
    this.#tracksDirty = disk !== null;
    this.retentionMs = options.retentionMs;
    this.segmentIntervalMs =
      options.segmentIntervalMs ?? defaultSegmentInterval(options.retentionMs);
    this.#keys = keyOrderFor(options.keySerde ?? 'json');
    this.#valueSerde = getSerde(options.valueSerde ?? 'json');
    this.#disk = disk === null ? null : new SessionDiskReads(disk, this.#keys, this.#valueSerde);
  }

  get observedStreamTime(): number {
    return this.#observedStreamTime;
  }

  /** Sessions held in memory (a persistent store keeps this near its cache: evictTo). */
  get residentEntries(): number {
    let n = 0;
    for (const segment of this.#segments.values()) n += segment.size;
    return n;
  }

  segmentId(timestamp: number): number {
    return Math.floor(timestamp / this.segmentIntervalMs);
  }

  get segmentCount(): number {
    return this.#segments.size;
  }

  /** Orders keys as their serialized bytes. */
  compareKeys(a: unknown, b: unknown): number {
    return this.#keys.compare(a, b);
  }

  /** The key's serialized bytes (the order compareKeys goes by). */
  serializeKey(key: unknown): Uint8Array | null {
    return this.#keys.serde.serialize(key);
  }

  /** put(session); a null value removes it. `timestamp`: what the changelog record carries. */
  put(session: SessionEntry, timestamp: number = session.end): boolean {
    const id = this.#keys.id(session.key);
    const deleting = session.value === null || session.value === undefined;
    // ChangeLoggingSessionBytesStore#put / #remove: logged whether or not the store keeps it.
    if (this.#logging && !this.#logByCache)
      this.#log.push(this.#record(session, deleting ? null : session.value, timestamp));
    if (!this.#advance(session.end)) return false;
    const segment = this.#segments.get(this.segmentId(session.end));
    const sessions = segment?.byKey.get(id);
    const found = sessions?.find((s) => s.start === session.start && s.end === session.end);
    if (found !== undefined) {
      // A segment held in part keeps the removal: it hides the session on disk until the commit.
      if (deleting && segment!.complete) segment!.drop(sessions!, found);
      found.value = deleting ? null : session.value;
      found.timestamp = timestamp;
      this.#markDirty(found);
      return true;
    }
    const entry = new Session(
      session.key,
      id,
      session.start,
      session.end,
      deleting ? null : session.value,
      timestamp,
    );
    if (!deleting || (segment !== undefined && !segment.complete)) this.#insert(entry);
    this.#markDirty(entry);
    return true;
  }

  remove(key: unknown, start: number, end: number, timestamp: number = end): void {
    this.put({ key, start, end, value: null }, timestamp);
  }

  #advance(end: number, counted = true): boolean {
    if (end > this.#observedStreamTime) {
      this.#observedStreamTime = end;
      const minLive = this.segmentId(end - this.retentionMs);
      while (this.#segmentIds.length > 0 && this.#segmentIds[0]! < minLive) {
        // No tombstones: the changelog (compact,delete) expires old sessions by its own retention.
        this.#segments.delete(this.#segmentIds.shift()!);
      }
    }
    if (end <= this.#observedStreamTime - this.retentionMs) {
      if (counted) this.expiredRecordsTotal++;
      return false;
    }
    return true;
  }

  #segment(segmentId: number): SessionSegment {
    let segment = this.#segments.get(segmentId);
    if (segment === undefined) {
      this.#segments.set(segmentId, (segment = new SessionSegment(segmentId)));
      const ids = this.#segmentIds;
      let i = ids.length;
      while (i > 0 && ids[i - 1]! > segmentId) i--;
      ids.splice(i, 0, segmentId);
    }
    return segment;
  }

  #insert(entry: Session): void {
    const segment = this.#segment(this.segmentId(entry.end));
    segment.size++;
    let sessions = segment.byKey.get(entry.id);
    if (sessions === undefined) segment.byKey.set(entry.id, (sessions = []));
    let i = sessions.length;
    while (
      i > 0 &&
      (sessions[i - 1]!.end > entry.end ||
        (sessions[i - 1]!.end === entry.end && sessions[i - 1]!.start > entry.start))
    )
      i--;
    sessions.splice(i, 0, entry);
  }

  #markDirty(entry: Session): void {
    if (!this.#tracksDirty || entry.dirty) return;
    entry.dirty = true;
    this.#dirty.push(entry);
  }

  /**
   * Live sessions matching `accept`, ordered by end, then key bytes, then start. `key`: one key's
   * (keysOf gives its lists); `range`: keys within it (what a disk scan of a segment reads).
   */
  #scan(
    earliestEnd: number,
    accept: (id: KeyId) => boolean,
    keysOf: ((segment: Map<KeyId, Sessions>) => Iterable<Sessions>) | null,
    latestStart: number,
    disk: { key: unknown } | { keyFrom: unknown; keyTo: unknown },
  ): SessionEntry[] {
    // Sessions ending at or before stream time − retention are invisible (as RocksDB's actualFrom).
    const from = Math.max(earliestEnd, this.#observedStreamTime - this.retentionMs + 1);
    const lo = this.segmentId(from);
    const out: (SessionEntry & { id: KeyId })[] = [];
    for (const segmentId of this.#segmentIds) {
      if (segmentId < lo) continue;
      const segment = this.#segments.get(segmentId)!;
      const lists = keysOf === null ? segment.byKey.values() : keysOf(segment.byKey);
      for (const sessions of lists) {
        if (sessions.length === 0 || !accept(sessions[0]!.id)) continue;
        for (const s of sessions)
          if (s.end >= from && s.start <= latestStart && s.value !== null) out.push(s);
      }
      if (!segment.complete) this.#diskSessions(segment, from, latestStart, disk, out);
    }
    if (out.length < 2) return out;
    return out.sort(
      (a, b) =>
        a.end - b.end ||
        (a.id === b.id ? 0 : this.#keys.compare(a.key, b.key)) ||
        a.start - b.start,
    );
  }

  /** What is on disk of a segment held in part, minus what it holds (held sessions win). */
  #diskSessions(
    segment: SessionSegment,
    from: number,
    latestStart: number,
    which: { key: unknown } | { keyFrom: unknown; keyTo: unknown },
    out: (SessionEntry & { id: KeyId })[],
  ): void {
    const found =
      'key' in which
        ? this.#disk!.ofKey(segment.id, which.key, from, latestStart)
        : this.#disk!.scan(segment.id, from, latestStart, which.keyFrom, which.keyTo);
    for (const d of found) {
      const held = segment.byKey.get(d.id);
      if (held === undefined || !held.some((s) => s.start === d.start && s.end === d.end))
        out.push(d);
    }
  }

  /**
   * SessionStore#findSessions(key, earliestSessionEndTime, latestSessionStartTime): the key's
   * sessions ending at or after the first bound and starting at or before the second, ordered by
   * end then start (the store's byte order).
   */
  findSessions(key: unknown, earliestEnd: number, latestSessionStartTime: number): SessionEntry[] {
    const id = this.#keys.id(key);
    return this.#scan(
      earliestEnd,
      () => true,
      (segment) => {
        const s = segment.get(id);
        return s === undefined ? [] : [s];
      },
      latestSessionStartTime,
      { key },
    );
  }

  /** findSessions(keyFrom, keyTo, …): the same for keys within [from, to] (byte order; null: open). */
  findSessionsInRange(
    keyFrom: unknown,
    keyTo: unknown,
    earliestEnd: number,
    latestSessionStartTime: number,
  ): SessionEntry[] {
    const hasFrom = keyFrom !== null && keyFrom !== undefined;
    const hasTo = keyTo !== null && keyTo !== undefined;
    if (hasFrom && hasTo && this.#keys.compare(keyFrom, keyTo) > 0) return [];
    const byKey = new Map<KeyId, unknown>();
    return this.#scan(
      earliestEnd,
      (id) => {
        let ok = byKey.get(id) as boolean | undefined;
        if (ok === undefined) {
          const key = this.#keyOfId(id);
          ok =
            (!hasFrom || this.#keys.compare(key, keyFrom) >= 0) &&
            (!hasTo || this.#keys.compare(key, keyTo) <= 0);
          byKey.set(id, ok);
        }
        return ok;
      },
      null,
      latestSessionStartTime,
      { keyFrom, keyTo },
    );
  }

  #keyOfId(id: KeyId): unknown {
    for (const segment of this.#segments.values()) {
      const s = segment.byKey.get(id);
      if (s !== undefined && s.length > 0) return s[0]!.key;
    }
    return undefined;
  }

  fetchSession(key: unknown, start: number, end: number): unknown {
    if (end <= this.#observedStreamTime - this.retentionMs) return null;
    const segment = this.#segments.get(this.segmentId(end));
    if (segment === undefined) return null;
    const sessions = segment.byKey.get(this.#keys.id(key));
    const held = sessions?.find((s) => s.start === start && s.end === end);
    if (held !== undefined || segment.complete) return held?.value ?? null;
    return this.#disk!.one(segment.id, key, start, end) ?? null;
  }

  all(): SessionEntry[] {
    return this.#scan(Number.MIN_SAFE_INTEGER, () => true, null, Number.MAX_SAFE_INTEGER, {
      keyFrom: null,
      keyTo: null,
    });
  }

  /** Sessions held, plus those on disk of segments held in part (an estimate, as RocksDB's). */
  approximateNumEntries(): number {
    let n = 0;
    for (const segment of this.#segments.values()) {
      if (!segment.complete) n += this.#disk!.disk.count(segment.id);
      n += segment.size;
    }
    return n;
  }

  /**
   * After a persistent store wrote a commit's sessions to disk: segments held in part forget the
   * removals they held, then sessions are evicted, oldest segment first, until at most `limit`
   * are held. Only sessions on disk go.
   */
  evictTo(limit: number): void {
    let resident = this.residentEntries;
    for (const segmentId of this.#segmentIds) {
      const segment = this.#segments.get(segmentId)!;
      for (const [id, sessions] of segment.byKey) {
        if (sessions.some((s) => s.dirty)) continue;
        const removals = sessions.some((s) => s.value === null);
        if (resident <= limit && !removals) {
          if (segment.complete) break;
          continue;
        }
        segment.byKey.delete(id);
        segment.size -= sessions.length;
        resident -= sessions.length;
        segment.complete = false;
      }
    }
  }

  /**
   * A segment on disk that a persistent store does not load (it would not fit its cache): reads
   * of it go to disk; stream time moves past what it holds.
   */
  adoptOnDisk(segmentId: number): void {
    const maxEnd = this.#disk!.maxEnd(segmentId);
    if (maxEnd > this.#flushedStreamTime) this.#flushedStreamTime = maxEnd;
    if (!this.#advance(this.#disk!.maxEnd(segmentId), false)) return;
    this.#segment(segmentId).complete = false;
  }

  /** One changelog record of a session (a null value: a tombstone). */
  #record(
    s: { key: unknown; start: number; end: number },
    value: unknown,
    timestamp: number,
  ): ProduceRecord {
    const key = this.#keys.serde.serialize(s.key) ?? new Uint8Array(0);
    const bytes = new Uint8Array(key.byteLength + SUFFIX_BYTES);
    bytes.set(key, 0);
    const view = viewOf(bytes);
    writeLong(view, key.byteLength, s.end);
    writeLong(view, key.byteLength + 8, s.start);
    return {
      topic: this.changelogTopic ?? '',
      partition: this.partition,
      key: bytes,
      value: value === null ? null : this.#valueSerde.serialize(value),
      timestamp,
    };
  }

  /**
   * The changelog records written since the last commit, in write order (each put and remove,
   * or each session the record cache flushed or evicted).
   */
  takeChangelogRecords(): ProduceRecord[] {
    this.#flushedStreamTime = this.#observedStreamTime;
    if (this.#log.length === 0) return [];
    const out = this.#log;
    this.#log = [];
    return out;
  }

  /** The record cache takes over the changelog writes (as SegmentedWindowStore's). */
  logThroughCache(): CacheWriter {
    this.#logByCache = true;
    return {
      old: (windowedKey, before) =>
        (windowedKey as SessionEntry).end > this.#flushedStreamTime - this.retentionMs
          ? before
          : null,
      write: (windowedKey, value, _timestamp, contextTimestamp) => {
        const s = windowedKey as SessionEntry;
        if (s.end > this.#flushedStreamTime) this.#flushedStreamTime = s.end;
        // ChangeLoggingSessionBytesStore logs with the record context's timestamp.
        if (this.#logging) this.#log.push(this.#record(s, value ?? null, contextTimestamp));
      },
    };
  }

  /**
   * The sessions changed since the last commit that are still live (removed ones as
   * tombstones), marked clean: what a persistent store writes to disk.
   */
  takeDirtyRecords(): ProduceRecord[] {
    const dirty = this.#dirty;
    if (dirty.length === 0) return [];
    this.#dirty = [];
    const out: ProduceRecord[] = [];
    for (const s of dirty) {
      s.dirty = false;
      if (s.value !== null && s.end <= this.#observedStreamTime - this.retentionMs) continue;
      out.push(this.#record(s, s.value, s.timestamp));
    }
    return out;
  }

  restore(record: StoredRecord): void {
    const bytes = record.key;
    if (bytes === null || bytes.byteLength < SUFFIX_BYTES) return;
    const n = bytes.byteLength - SUFFIX_BYTES;
    const view = viewOf(bytes);
    const end = readLong(view, n);
    const start = readLong(view, n + 8);
    const key = this.#keys.serde.deserialize(bytes.subarray(0, n));
    const id = this.#keys.id(key);
    if (end > this.#flushedStreamTime) this.#flushedStreamTime = end;
    if (!this.#advance(end)) return;
    const segment = this.#segments.get(this.segmentId(end));
    const sessions = segment?.byKey.get(id);
    const found = sessions?.find((s) => s.start === start && s.end === end);
    // Held in part: the record goes to disk only (the persistent store writes it).
    if (record.value === null || (segment !== undefined && !segment.complete)) {
      if (found !== undefined) segment!.drop(sessions!, found);
      return;
    }
    const value = this.#valueSerde.deserialize(record.value);
    if (found !== undefined) found.value = value;
    else this.#insert(new Session(key, id, start, end, value, record.timestamp));
  }

  wipe(): void {
    this.#segments.clear();
    this.#segmentIds = [];
    this.#dirty = [];
    this.#log = [];
    this.#observedStreamTime = -1;
    this.#flushedStreamTime = -1;
  }

  close(): void {
    this.wipe();
  }
}
