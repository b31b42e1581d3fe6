// A session store segmented by session end, as Kafka Streams' RocksDB session stores: sessions
// of a key are found by findSessions(key, earliestSessionEndTime, latestSessionStartTime); once
// stream time (the largest session end put) passes a segment's end + retention the segment is
// dropped; sessions ending at or before stream time − retention are invisible before that. Writes go to the task's changelogged key-value store too (key `<start>:<end>:<key id>`).
import type { KeyValueStore } from './key-value-store.js';
import { changelogKey, defaultSegmentInterval, keyId, parseChangelogKey } from './window-store.js';

export interface SessionEntry {
  key: unknown;
  start: number;
  end: number;
  value: unknown;
}

export class SegmentedSessionStore {
  readonly retentionMs: number;
  readonly segmentIntervalMs: number;
  /** segment id (by end) → key id → `start:end` → entry. */
  readonly #segments = new Map<number, Map<string, Map<string, SessionEntry>>>();
  #observedStreamTime = -1;
  expiredRecordsTotal = 0;

  constructor(
    options: { retentionMs: number; segmentIntervalMs?: number },
    private readonly changelog: KeyValueStore | null = null,
  ) {
    this.retentionMs = options.retentionMs;
    this.segmentIntervalMs =
      options.segmentIntervalMs ?? defaultSegmentInterval(options.retentionMs);
    if (changelog) {
      for (const e of changelog.all()) {
        const { numbers, key } = parseChangelogKey(e.key as string, 2);
        this.#write(
          { key, start: numbers[0] as number, end: numbers[1] as number, value: e.value },
          false,
        );
      }
    }
  }

  segmentId(timestamp: number): number {
    return Math.floor(timestamp / this.segmentIntervalMs);
  }

  get segmentCount(): number {
    return this.#segments.size;
  }

  put(session: SessionEntry): boolean {
    return this.#write(session, true);
  }

  remove(key: unknown, start: number, end: number): void {
    this.#write({ key, start, end, value: null }, true);
  }

  #write(session: SessionEntry, log: boolean): boolean {
    this.#observedStreamTime = Math.max(this.#observedStreamTime, session.end);
    const minLive = this.segmentId(this.#observedStreamTime - this.retentionMs);
    for (const [id, segment] of this.#segments) {
      if (id >= minLive) continue;
      this.#segments.delete(id);
      // No tombstones: the changelog (compact,delete) expires old sessions by its own retention.
      if (this.changelog)
        for (const sessions of segment.values())
          for (const s of sessions.values())
            this.changelog.evict?.(changelogKey([s.start, s.end], s.key));
    }
    const id = this.segmentId(session.end);
    if (id < minLive || session.end <= this.#observedStreamTime - this.retentionMs) {
      this.expiredRecordsTotal++;
      return false;
    }
    const kid = keyId(session.key);
    const sid = `${session.start}:${session.end}`;
    if (session.value === null || session.value === undefined) {
      this.#segments.get(id)?.get(kid)?.delete(sid);
    } else {
      let segment = this.#segments.get(id);
      if (!segment) this.#segments.set(id, (segment = new Map()));
      let sessions = segment.get(kid);
      if (!sessions) segment.set(kid, (sessions = new Map()));
      sessions.set(sid, { ...session });
    }
    if (log)
      this.changelog?.put(
        changelogKey([session.start, session.end], session.key),
        session.value,
        session.end,
      );
    return true;
  }

  /**
   * SessionStore#findSessions(key, earliestSessionEndTime, latestSessionStartTime): the key's
   * sessions ending at or after the first bound and starting at or before the second, ordered by
   * end then start (the store's byte order).
   */
  findSessions(key: unknown, earliestEnd: number, latestSessionStartTime: number): SessionEntry[] {
    // Sessions ending at or before stream time − retention are invisible (as RocksDB's actualFrom).
    const earliestSessionEndTime = Math.max(
      earliestEnd,
      this.#observedStreamTime - this.retentionMs + 1,
    );
    const kid = keyId(key);
    const out: SessionEntry[] = [];
    const minLive = this.segmentId(this.#observedStreamTime - this.retentionMs);
    for (const [id, segment] of this.#segments) {
      if (id < minLive || id < this.segmentId(earliestSessionEndTime)) continue;
      const sessions = segment.get(kid);
      if (!sessions) continue;
      for (const s of sessions.values())
        if (s.end >= earliestSessionEndTime && s.start <= latestSessionStartTime) out.push(s);
    }
    return out.sort((a, b) => a.end - b.end || a.start - b.start);
  }

  fetchSession(key: unknown, start: number, end: number): unknown {
    return (
      this.#segments.get(this.segmentId(end))?.get(keyId(key))?.get(`${start}:${end}`)?.value ??
      null
    );
  }

  all(): SessionEntry[] {
    const out: SessionEntry[] = [];
    for (const segment of this.#segments.values())
      for (const sessions of segment.values()) out.push(...sessions.values());
    return out.sort((a, b) => a.end - b.end || a.start - b.start);
  }
}
