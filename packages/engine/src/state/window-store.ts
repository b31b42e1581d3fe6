// A window store segmented by time, as Kafka Streams' segmented window stores: entries live in
// segments of `segmentIntervalMs` by window start; once stream time (the largest window start put)
// moves past a segment's end + retention, the whole segment is dropped. Windows starting at or
// before stream time − retention are invisible to reads and skipped by puts even while their
// segment lives (AbstractRocksDBSegmentedBytesStore's actualFrom). Each write also goes to the task's changelogged key-value store (string key
// `<start>:<key id>`) so that the window store is restored from its changelog like any store.
import type { KeyValueStore, ValueAndTimestamp } from './key-value-store.js';

export interface WindowEntry extends ValueAndTimestamp {
  key: unknown;
  start: number;
}

export interface WindowStoreOptions {
  retentionMs: number;
  /** Default retention / 2 (see defaultSegmentInterval). */
  segmentIntervalMs?: number;
}

/** An identity for a record key (keys are compared by value, as bytes in Kafka Streams). */
export function keyId(key: unknown): string {
  if (typeof key === 'string') return `s${key}`;
  if (typeof key === 'number') return `n${key}`;
  return `j${JSON.stringify(key)}`;
}

/** The key a keyId stands for (restoring from a changelog). */
export function keyOfId(id: string): unknown {
  const rest = id.slice(1);
  return id[0] === 's' ? rest : id[0] === 'n' ? Number(rest) : JSON.parse(rest);
}

/** A changelog key: the window's numbers, then the key id (which may itself contain ':'). */
export function changelogKey(numbers: number[], key: unknown): string {
  return `${numbers.join(':')}:${keyId(key)}`;
}

export function parseChangelogKey(
  text: string,
  count: number,
): { numbers: number[]; key: unknown } {
  const parts = text.split(':');
  return { numbers: parts.slice(0, count).map(Number), key: keyOfId(parts.slice(count).join(':')) };
}

/**
 * Kafka's persistent stores use max(retention / 2, 60 s) segments; what a reader sees does not
 * depend on it (windows older than stream time − retention are invisible either way), only how
 * long expired entries linger. In memory we use retention / 2 without the 60 s floor, so short
 * windows do not keep a minute of expired entries around.
 */
export function defaultSegmentInterval(retentionMs: number): number {
  return Math.max(Math.floor(retentionMs / 2), 1);
}

export class SegmentedWindowStore {
  readonly retentionMs: number;
  readonly segmentIntervalMs: number;
  /** segment id → key id → window start → entry. */
  readonly #segments = new Map<number, Map<string, Map<number, WindowEntry>>>();
  #observedStreamTime = -1;
  /** Puts skipped because their segment had expired (Kafka: expired-window-record-drop). */
  expiredRecordsTotal = 0;

  constructor(
    options: WindowStoreOptions,
    private readonly changelog: KeyValueStore | null = null,
  ) {
    this.retentionMs = options.retentionMs;
    this.segmentIntervalMs =
      options.segmentIntervalMs ?? defaultSegmentInterval(options.retentionMs);
    if (changelog) for (const e of changelog.all()) this.#restore(e.key, e.value, e.timestamp);
  }

  #restore(storeKey: unknown, value: unknown, timestamp: number): void {
    const { numbers, key } = parseChangelogKey(storeKey as string, 1);
    this.#write(key, numbers[0] as number, value, timestamp, false);
  }

  segmentId(timestamp: number): number {
    return Math.floor(timestamp / this.segmentIntervalMs);
  }

  get observedStreamTime(): number {
    return this.#observedStreamTime;
  }

  /** The number of live segments (tests check that retention drops whole segments). */
  get segmentCount(): number {
    return this.#segments.size;
  }

  /** put(key, value, windowStart); a null value deletes. False when skipped as expired. */
  put(key: unknown, value: unknown, windowStart: number, timestamp: number): boolean {
    return this.#write(key, windowStart, value, timestamp, true);
  }

  #write(key: unknown, start: number, value: unknown, timestamp: number, log: boolean): boolean {
    this.#observedStreamTime = Math.max(this.#observedStreamTime, start);
    const minLive = this.segmentId(this.#observedStreamTime - this.retentionMs);
    this.#dropSegmentsBefore(minLive);
    const id = this.segmentId(start);
    if (id < minLive || start <= this.#observedStreamTime - this.retentionMs) {
      this.expiredRecordsTotal++;
      return false;
    }
    const kid = keyId(key);
    if (value === null || value === undefined) {
      this.#segments.get(id)?.get(kid)?.delete(start);
    } else {
      let segment = this.#segments.get(id);
      if (!segment) this.#segments.set(id, (segment = new Map()));
      let windows = segment.get(kid);
      if (!windows) segment.set(kid, (windows = new Map()));
      windows.set(start, { key, start, value, timestamp });
    }
    if (log) this.changelog?.put(changelogKey([start], key), value, timestamp);
    return true;
  }

  #dropSegmentsBefore(minLive: number): void {
    for (const [id, segment] of this.#segments) {
      if (id >= minLive) continue;
      this.#segments.delete(id);
      // No tombstones: the changelog (compact,delete) expires old windows by its own retention.
      if (!this.changelog) continue;
      for (const windows of segment.values())
        for (const e of windows.values()) this.changelog.evict?.(changelogKey([e.start], e.key));
    }
  }

  #live(start: number): boolean {
    return start > this.#observedStreamTime - this.retentionMs;
  }

  /** fetch(key, windowStart): the window's value, or undefined (also when expired). */
  fetch(key: unknown, windowStart: number): ValueAndTimestamp | undefined {
    if (!this.#live(windowStart)) return undefined;
    return this.#segments.get(this.segmentId(windowStart))?.get(keyId(key))?.get(windowStart);
  }

  /** fetch(key, timeFrom, timeTo): the key's windows starting within [from, to], by start. */
  fetchRange(key: unknown, from: number, timeTo: number): WindowEntry[] {
    const timeFrom = Math.max(from, this.#observedStreamTime - this.retentionMs + 1);
    const kid = keyId(key);
    const out: WindowEntry[] = [];
    for (const [id, segment] of this.#segments) {
      if (id < this.segmentId(timeFrom) || id > this.segmentId(timeTo)) continue;
      const windows = segment.get(kid);
      if (!windows) continue;
      for (const e of windows.values()) if (e.start >= timeFrom && e.start <= timeTo) out.push(e);
    }
    return out.sort((a, b) => a.start - b.start);
  }

  /**
   * fetchAll(timeFrom, timeTo): every window starting within [from, to], by start.
   * `retentionEdge`: also the window starting exactly at stream time − retention (Kafka's
   * time-ordered store, which onWindowClose aggregations read, still shows it).
   */
  fetchAll(from: number, timeTo: number, retentionEdge = false): WindowEntry[] {
    const edge = retentionEdge ? 0 : 1;
    const timeFrom = Math.max(from, this.#observedStreamTime - this.retentionMs + edge);
    const out: WindowEntry[] = [];
    for (const [id, segment] of this.#segments) {
      if (id < this.segmentId(timeFrom) || id > this.segmentId(timeTo)) continue;
      for (const windows of segment.values())
        for (const e of windows.values()) if (e.start >= timeFrom && e.start <= timeTo) out.push(e);
    }
    return out.sort((a, b) => a.start - b.start);
  }

  all(): WindowEntry[] {
    return this.fetchAll(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  }
}
