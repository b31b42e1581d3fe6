// The model-based tests of the persistent join stores (the outer join store, the grace buffer):
// an in-memory store is the model, the store on lmdb files must answer as it does, and the two
// commit and start again together.
import { expect } from 'vitest';
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';

/** What the tests drive of a store with a changelog and, for the persistent one, lmdb files. */
export interface ChangeloggedStore {
  readonly residentEntries: number;
  takeChangelogRecords(): ProduceRecord[];
  restore(record: StoredRecord): void;
  wipe(): void;
  close(): void;
}

export interface StorePairOptions<S> {
  memory: () => S;
  /** Opens the persistent store on the same files each time. */
  disk: () => S;
  /** How many committed records the persistent store may hold in memory. */
  limit: number;
  /** The changelog records as the comparison sees them (bytes as hex, …). */
  compare: (records: ProduceRecord[]) => unknown;
  /** A changelog record as a restore reads it back. */
  restored: (record: ProduceRecord) => StoredRecord;
}

export class StorePair<S extends ChangeloggedStore> {
  memory: S;
  disk: S;
  readonly #options: StorePairOptions<S>;
  /** Everything both stores wrote to their changelog, in order. */
  readonly #changelog: ProduceRecord[] = [];

  constructor(options: StorePairOptions<S>) {
    this.#options = options;
    this.memory = options.memory();
    this.disk = options.disk();
  }

  /** Both commit: the same changelog records, and no more than `limit` left in memory. */
  commit(): void {
    const m = this.memory.takeChangelogRecords();
    const d = this.disk.takeChangelogRecords();
    expect(this.#options.compare(d)).toEqual(this.#options.compare(m));
    this.#changelog.push(...m);
    expect(this.disk.residentEntries).toBeLessThanOrEqual(this.#options.limit);
  }

  /**
   * Both start again after a commit: the in-memory store from its whole changelog; the persistent
   * one from its files (`reopen`, a checkpointed restart) or, wiped, from the changelog too
   * (`rebuild`).
   */
  restart(kind: 'reopen' | 'rebuild'): void {
    const { restored } = this.#options;
    this.memory = this.#options.memory();
    for (const r of this.#changelog) this.memory.restore(restored(r));
    this.disk.close();
    this.disk = this.#options.disk();
    if (kind === 'rebuild') {
      this.disk.wipe();
      for (const r of this.#changelog) this.disk.restore(restored(r));
    }
  }
}
