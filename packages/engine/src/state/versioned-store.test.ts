// The versioned store against a model of Kafka Streams' VersionedKeyValueStore contract (KIP-889
// and RocksDBVersionedStore: the latest version never expires; history older than observed
// stream time − history retention is gone, so puts and deletes that old are refused with
// PUT_RETURN_CODE_NOT_PUT and gets as of then answer only with the latest version when it is old
// enough). Also: the changelog holds every put with its timestamp, and replaying it rebuilds the
// same answers. The DSL-level behaviour is compared with Kafka Streams itself in
// test/versioned-oracle.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InMemoryVersionedKeyValueStore,
  PUT_RETURN_CODE_NOT_PUT,
  PUT_RETURN_CODE_VALID_TO_UNDEFINED,
} from './versioned-store.js';

const RETENTION = 100;
const spec = {
  name: 'versions',
  keySerde: 'string' as const,
  valueSerde: 'long' as const,
  changelogTopic: 'app-versions-changelog',
  historyRetentionMs: RETENTION,
};

type Answer = { value: number; timestamp: number; validTo?: number } | null;

/** Every accepted put and the stream time: what the contract says the store answers. */
class Model {
  puts: { key: string; value: number | null; ts: number }[] = [];
  observed = -1;
  #expired = (ts: number) => ts < this.observed - RETENTION;
  #mine = (key: string) => this.puts.filter((p) => p.key === key).sort((a, b) => a.ts - b.ts);
  put(key: string, value: number | null, ts: number): number {
    if (this.#expired(ts)) return PUT_RETURN_CODE_NOT_PUT;
    this.observed = Math.max(this.observed, ts);
    this.puts = this.puts.filter((p) => !(p.key === key && p.ts === ts));
    this.puts.push({ key, value, ts });
    const later = this.#mine(key).filter((p) => p.ts > ts);
    return later.length === 0 ? PUT_RETURN_CODE_VALID_TO_UNDEFINED : later[0]!.ts;
  }
  delete(key: string, ts: number): Answer {
    if (this.#expired(ts)) return null;
    const before = this.get(key, ts);
    this.put(key, null, ts);
    return before;
  }
  get(key: string, asOf?: number): Answer {
    const mine = this.#mine(key);
    const latest = mine[mine.length - 1];
    if (asOf === undefined)
      return latest && latest.value !== null ? { value: latest.value, timestamp: latest.ts } : null;
    if (this.#expired(asOf))
      return latest && latest.value !== null && latest.ts <= asOf
        ? { value: latest.value, timestamp: latest.ts }
        : null;
    const valid = mine.filter((p) => p.ts <= asOf);
    const v = valid[valid.length - 1];
    if (!v || v.value === null) return null;
    const next = mine.find((p) => p.ts > v.ts);
    return next === undefined
      ? { value: v.value, timestamp: v.ts }
      : { value: v.value, timestamp: v.ts, validTo: next.ts };
  }
}

const op = fc.record({
  kind: fc.constantFrom('put', 'put', 'put', 'delete'),
  key: fc.constantFrom('a', 'b', 'c'),
  value: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
  ts: fc.integer({ min: 0, max: 400 }),
});

function answers(get: (key: string, asOf?: number) => Answer, probes: number[]): Answer[] {
  return ['a', 'b', 'c'].flatMap((key) => [get(key), ...probes.map((t) => get(key, t))]);
}

describe('versioned key-value store', () => {
  it('put / delete / get / get(asOf) match the contract, also after a restore (fast-check model)', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.array(fc.integer({ min: -10, max: 450 }), { maxLength: 20 }),
        (ops, probes) => {
          const store = new InMemoryVersionedKeyValueStore(spec, 0);
          const model = new Model();
          for (const o of ops) {
            if (o.kind === 'put')
              expect(store.putVersion(o.key, o.value, o.ts)).toBe(model.put(o.key, o.value, o.ts));
            else expect(store.deleteVersion(o.key, o.ts)).toEqual(model.delete(o.key, o.ts));
          }
          const expected = answers((k, t) => model.get(k, t), probes);
          const get = (s: InMemoryVersionedKeyValueStore) => (k: string, t?: number) =>
            (t === undefined ? s.getLatest(k) : s.getAsOf(k, t)) as Answer;
          expect(answers(get(store), probes)).toEqual(expected);
          const restored = new InMemoryVersionedKeyValueStore(spec, 0);
          for (const [i, r] of store.takeChangelogRecords().entries())
            restored.restore({
              ...r,
              partition: 0,
              offset: i,
              timestamp: r.timestamp!,
              headers: {},
            });
          expect(answers(get(restored), probes)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('RocksDBVersionedStoreTest-style cases: older puts, tombstones, the retention boundary', () => {
    const store = new InMemoryVersionedKeyValueStore(spec, 0);
    expect(store.putVersion('k', 1, 10)).toBe(PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    expect(store.putVersion('k', 3, 30)).toBe(PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // An out-of-order put lands in history and says until when it is valid.
    expect(store.putVersion('k', 2, 20)).toBe(30);
    expect(store.getLatest('k')).toEqual({ value: 3, timestamp: 30 });
    expect(store.getAsOf('k', 25)).toEqual({ value: 2, timestamp: 20, validTo: 30 });
    expect(store.getAsOf('k', 9)).toBeNull();
    expect(store.deleteVersion('k', 40)).toEqual({ value: 3, timestamp: 30 });
    expect(store.getLatest('k')).toBeNull();
    expect(store.getAsOf('k', 35)).toEqual({ value: 3, timestamp: 30, validTo: 40 });
    // Stream time 200: history before 100 is gone; a put before it is refused, one at it is not.
    store.putVersion('other', 1, 200);
    expect(store.getAsOf('k', 99)).toBeNull();
    expect(store.getAsOf('k', 100)).toBeNull(); // the tombstone at 40 is what was valid then
    expect(store.putVersion('k', 9, 99)).toBe(PUT_RETURN_CODE_NOT_PUT);
    expect(store.putVersion('k', 9, 100)).toBe(PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // The latest version never expires: an expired get still finds it when it is old enough.
    expect(store.getAsOf('other', 50)).toBeNull();
    store.putVersion('other', 2, 400);
    expect(store.getAsOf('k', 150)).toEqual({ value: 9, timestamp: 100 });
  });

  it('counts refused puts and deletes (dropped-records) but not refused restores', () => {
    const store = new InMemoryVersionedKeyValueStore(spec, 0);
    let expired = 0;
    store.onExpired = () => void expired++;
    store.putVersion('k', 1, 500);
    store.putVersion('k', 2, 10);
    expect(store.deleteVersion('k', 20)).toBeNull();
    expect(expired).toBe(2);
    const logged = store.takeChangelogRecords();
    // ChangeLoggingVersionedKeyValueBytesStore logs every put and delete, refused ones too.
    expect(logged.map((r) => [r.timestamp, r.value === null])).toEqual([
      [500, false],
      [10, false],
      [20, true],
    ]);
    const restored = new InMemoryVersionedKeyValueStore(spec, 0);
    restored.onExpired = () => void expired++;
    for (const [i, r] of logged.entries())
      restored.restore({ ...r, partition: 0, offset: i, timestamp: r.timestamp!, headers: {} });
    expect(expired).toBe(2);
    expect(restored.getLatest('k')).toEqual({ value: 1, timestamp: 500 });
  });
});
