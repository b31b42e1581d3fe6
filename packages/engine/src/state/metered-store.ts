// Kafka Streams' MeteredKeyValueStore: times each store operation into the store's
// stream-state-metrics (<op>-latency-avg|max in ns, <op>-rate). Kafka records these at
// `metrics.recording.level` DEBUG only, so the task wraps its stores only then and the default
// record path pays nothing for them.
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import type { StoreMetrics, StoreOperation } from '../metrics/metric-groups.js';
import type { KeyValueEntry, TaskKeyValueStore, ValueAndTimestamp } from './key-value-store.js';

const now = (): bigint => process.hrtime.bigint();

export class MeteredKeyValueStore implements TaskKeyValueStore {
  constructor(
    private readonly inner: TaskKeyValueStore,
    private readonly metrics: StoreMetrics,
  ) {}

  get name(): string {
    return this.inner.name;
  }
  get changelogTopic(): string | null {
    return this.inner.changelogTopic;
  }
  get partition(): number {
    return this.inner.partition;
  }
  get persistent(): boolean {
    return this.inner.persistent;
  }

  #timed<T>(op: StoreOperation, fn: () => T): T {
    const started = now();
    try {
      return fn();
    } finally {
      this.metrics.record(op, Number(now() - started));
    }
  }

  get(key: unknown): ValueAndTimestamp | undefined {
    return this.#timed('get', () => this.inner.get(key));
  }
  put(key: unknown, value: unknown, timestamp: number): void {
    this.#timed('put', () => this.inner.put(key, value, timestamp));
  }
  delete(key: unknown, timestamp: number): void {
    this.#timed('delete', () => this.inner.delete(key, timestamp));
  }
  evict(key: unknown): void {
    this.inner.evict?.(key);
  }
  /** Kafka counts all() in the range sensor. */
  all(): KeyValueEntry[] {
    return this.#timed('range', () => this.inner.all());
  }
  approximateNumEntries(): number {
    return this.inner.approximateNumEntries();
  }
  serializeKey(key: unknown): Uint8Array | null {
    return this.inner.serializeKey(key);
  }
  /** The commit's flush: the changed entries go to the changelog. */
  takeChangelogRecords(): ProduceRecord[] {
    return this.#timed('flush', () => this.inner.takeChangelogRecords());
  }
  restore(record: StoredRecord): void {
    this.#timed('restore', () => this.inner.restore(record));
    this.metrics.restoredRecordsTotal++;
  }
  verify(): string | null {
    return this.inner.verify?.() ?? null;
  }

  wipe(): void {
    this.inner.wipe();
  }
  close(): void {
    this.inner.close();
  }
}
