// Kafka Streams' record cache (ThreadCache + NamedCache behind CachingKeyValueStore), as far as it
// is visible downstream: with `statestore.cache.max.bytes` > 0 a caching store's updates are not
// forwarded one by one; the cache remembers which keys changed since the last flush and, at the
// next commit (or when the thread's cache is full), forwards one Change(latest value, value as of
// the last flush) per key, in the order of their last update, with the last update's timestamp
// and headers. A key created and deleted between two flushes forwards nothing. The store itself is
// written at once (it is in memory or has its own write-back buffer), so reads never go through
// the cache; the changelog already collapses per commit (the store's dirty keys). The same cache
// stands in front of window and session stores (Kafka's CachingWindowStore / CachingSessionStore),
// keyed by the windowed key: the key and its window's bounds. In front of those the cache also
// writes the changelog (`writer`): Kafka's CachingWindowStore#putAndMaybeForward puts each flushed
// entry into the change-logging store below (which logs it, expired or not) before forwarding it,
// and reads the old value from that store (null once the window expired there).
//
// Sizes follow Kafka's accounting only roughly: an entry costs its key and value bytes (measured
// when it enters the cache) plus ENTRY_OVERHEAD. When a thread's cache is over budget, the caches
// evict their longest-dirty entries (forwarding them) until it is not.
//
// Evictions take entries from the front of `#order` (the dirty keys in first-dirty order, the
// Map's own order) rather than iterating the Map: V8 leaves a deleted Map entry as a hole until the
// table is rehashed, and each new iterator walks every hole from the front again, so evicting one
// entry per put from a full cache of ~100k entries cost tens of microseconds per put.
//
// A window store's cache finds its entries by window start first, then by key (`windowOf`): a
// window's identity as one string (`<key>@<start>`) cost a string per put and string hashing in a
// Map of ~100k entries, a fifth of a windowed count's CPU; a Map per start keyed by the record's
// store key (a number for integer keys) holds only the few starts alive in the cache.
import type { Headers } from '../backend-spi.js';
import type { CacheMetrics } from '../metrics/metric-groups.js';
import type { StoreKey } from './store-key.js';
import type { CacheWriter } from './window-store.js';

/** Per-entry bytes on top of key and value (Kafka's LRUCacheEntry record context, roughly). */
export const ENTRY_OVERHEAD = 56;

/** One stream thread's budget (`statestore.cache.max.bytes` / `num.stream.threads`, as Kafka). */
export class ThreadCache {
  sizeBytes = 0;
  /** Update sequence, for flushing in last-update order. */
  seq = 0;
  /** Entries forwarded because the cache was full (not at a commit). */
  evictions = 0;

  constructor(readonly maxBytes: number) {}
}

interface DirtyEntry {
  /** The cache's identity of `key` (its Map key). */
  k: StoreKey;
  /** The window start of a window store's entry (0 otherwise). */
  w: number;
  key: unknown;
  /** The latest value (null: deleted). */
  value: unknown;
  /** The value as of the last flush (null: none). */
  old: unknown;
  timestamp: number;
  /** The timestamp of the record whose processing made the last update (Kafka's entry context). */
  contextTimestamp: number;
  headers: Headers;
  seq: number;
  size: number;
}

export type FlushListener = (
  key: unknown,
  newValue: unknown,
  oldValue: unknown,
  timestamp: number,
  headers: Headers,
) => void;

/** The dirty entries by identity: one Map, or (window stores) a Map per window start. */
interface DirtyIndex {
  readonly size: number;
  get(k: StoreKey, w: number): DirtyEntry | undefined;
  set(e: DirtyEntry): void;
  delete(e: DirtyEntry): void;
  values(): DirtyEntry[];
  clear(): void;
}

class FlatIndex implements DirtyIndex {
  readonly #map = new Map<StoreKey, DirtyEntry>();
  get size(): number {
    return this.#map.size;
  }
  get(k: StoreKey): DirtyEntry | undefined {
    return this.#map.get(k);
  }
  set(e: DirtyEntry): void {
    this.#map.set(e.k, e);
  }
  delete(e: DirtyEntry): void {
    this.#map.delete(e.k);
  }
  values(): DirtyEntry[] {
    return [...this.#map.values()];
  }
  clear(): void {
    this.#map.clear();
  }
}

class WindowIndex implements DirtyIndex {
  readonly #byStart = new Map<number, Map<StoreKey, DirtyEntry>>();
  size = 0;
  get(k: StoreKey, w: number): DirtyEntry | undefined {
    return this.#byStart.get(w)?.get(k);
  }
  set(e: DirtyEntry): void {
    let inner = this.#byStart.get(e.w);
    if (inner === undefined) this.#byStart.set(e.w, (inner = new Map()));
    inner.set(e.k, e);
    this.size++;
  }
  delete(e: DirtyEntry): void {
    const inner = this.#byStart.get(e.w);
    if (inner === undefined || !inner.delete(e.k)) return;
    this.size--;
    if (inner.size === 0) this.#byStart.delete(e.w);
  }
  values(): DirtyEntry[] {
    const out: DirtyEntry[] = [];
    for (const inner of this.#byStart.values()) for (const e of inner.values()) out.push(e);
    return out;
  }
  clear(): void {
    this.#byStart.clear();
    this.size = 0;
  }
}

export class NamedCache {
  readonly #dirty: DirtyIndex;
  /** The dirty entries in the Map's order from `#head` on (the front is evicted first). */
  #order: (DirtyEntry | undefined)[] = [];
  #head = 0;
  #listener: FlushListener | null = null;
  /**
   * Hit ratio (metrics.recording.level DEBUG). Kafka counts the store reads that go through the
   * cache; here each update counts, as a hit when its key is still in the cache (dirty).
   */
  metrics: CacheMetrics | null = null;
  /** A window or session store's changelog writes (null: the store logs by itself). */
  writer: CacheWriter | null = null;

  constructor(
    readonly name: string,
    readonly thread: ThreadCache,
    /** The cache's identity of a key (for a window store with `windowOf`: of its record key). */
    private readonly keyOf: (key: unknown) => StoreKey,
    private readonly sizeOf: (key: unknown, value: unknown) => number,
    /** A window store's: the window start of a windowed key (entries are found by it first). */
    private readonly windowOf: ((key: unknown) => number) | null = null,
  ) {
    this.#dirty = windowOf === null ? new FlatIndex() : new WindowIndex();
  }

  /** Who forwards what the cache flushes (the store's processor). */
  setListener(listener: FlushListener): void {
    this.#listener = listener;
  }

  get dirtyCount(): number {
    return this.#dirty.size;
  }

  /**
   * Records an update of `key`, whose stored value before it was `before` (null: none). Called
   * instead of forwarding; the store has been (or is being) written by the caller.
   */
  put(
    key: unknown,
    before: unknown,
    value: unknown,
    timestamp: number,
    headers: Headers,
    contextTimestamp: number = timestamp,
  ): void {
    const k = this.keyOf(key);
    const w = this.windowOf === null ? 0 : this.windowOf(key);
    const thread = this.thread;
    const e = this.#dirty.get(k, w);
    if (this.metrics !== null) {
      if (e === undefined) this.metrics.miss();
      else this.metrics.hit();
    }
    if (e !== undefined) {
      e.value = value;
      e.timestamp = timestamp;
      e.contextTimestamp = contextTimestamp;
      e.headers = headers;
      e.seq = ++thread.seq;
      return;
    }
    const size = this.sizeOf(key, value) + ENTRY_OVERHEAD;
    const entry: DirtyEntry = {
      k,
      w,
      key,
      value,
      old: before,
      timestamp,
      contextTimestamp,
      headers,
      seq: ++thread.seq,
      size,
    };
    this.#dirty.set(entry);
    this.#order.push(entry);
    thread.sizeBytes += size;
    if (thread.sizeBytes > thread.maxBytes) this.#evict();
  }

  /** Forwards every dirty key (a commit); synchronous. */
  flush(): void {
    if (this.#dirty.size === 0) return;
    const entries = this.#dirty.values();
    this.#dirty.clear();
    this.#resetOrder();
    if (entries.length > 1) entries.sort((a, b) => a.seq - b.seq);
    for (const e of entries) this.thread.sizeBytes -= e.size;
    for (const e of entries) this.#emit(e);
  }

  /** Drops the dirty keys without forwarding (a dirty close: the task's state is discarded). */
  clear(): void {
    for (const e of this.#dirty.values()) this.thread.sizeBytes -= e.size;
    this.#dirty.clear();
    this.#resetOrder();
  }

  #resetOrder(): void {
    this.#order = [];
    this.#head = 0;
  }

  #evict(): void {
    const thread = this.thread;
    const order = this.#order;
    // Re-reads the length: an entry put while one is emitted is evicted after it, as the Map's
    // iteration would visit it (and a flush meanwhile ends the eviction).
    while (this.#order === order && this.#head < order.length) {
      if (thread.sizeBytes <= thread.maxBytes) break;
      const e = order[this.#head]!;
      order[this.#head++] = undefined;
      this.#dirty.delete(e);
      thread.sizeBytes -= e.size;
      thread.evictions++;
      this.#emit(e);
    }
    // Drops the evicted front once it is most of the array (amortised O(1) per eviction).
    if (this.#order === order && this.#head > 1024 && this.#head * 2 > order.length) {
      this.#order = order.slice(this.#head);
      this.#head = 0;
    }
  }

  #emit(e: DirtyEntry): void {
    const value = e.value ?? null;
    const writer = this.writer;
    const old = writer === null ? e.old : (writer.old(e.key, e.old) ?? null);
    // Created and deleted since the last flush (or the old one expired below the cache): nothing
    // to say or write (CachingKeyValueStore / CachingWindowStore skip it).
    if (value === null && old === null) return;
    writer?.write(e.key, value, e.timestamp, e.contextTimestamp);
    this.#listener?.(e.key, value, old, e.timestamp, e.headers);
  }
}
