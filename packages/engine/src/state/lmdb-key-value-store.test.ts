import { describe, expect, it } from 'vitest';
import { withTempDir } from '../test-helpers.js';
import { getSerde } from '../serdes/index.js';
import { LmdbKeyValueStore } from './lmdb-key-value-store.js';

const spec = {
  name: 'counts',
  keySerde: 'string' as const,
  valueSerde: 'long' as const,
  changelogTopic: 'app-counts-changelog',
};
const text = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString());

describe('lmdb key-value store', () => {
  it('reads its own buffered writes, writes them at commit as one changelog record per key, and keeps them across a reopen', async () => {
    await withTempDir(async (dir) => {
      let store = new LmdbKeyValueStore(spec, 1, `${dir}/counts`);
      store.put('a', 1, 10);
      store.put('a', 2, 11);
      store.put('b', 5, 12);
      store.put('c', 7, 13);
      store.delete('c', 14);
      expect(store.get('a')).toEqual({ key: 'a', value: 2, timestamp: 11 });
      expect(store.get('c')).toBeUndefined();
      const changelog = store.takeChangelogRecords();
      expect(
        changelog.map((r) => [
          text(r.key),
          r.value === null ? null : getSerde('long').deserialize(r.value),
          r.partition,
          r.timestamp,
        ]),
      ).toEqual([
        ['a', 2, 1, 11],
        ['b', 5, 1, 12],
        // The tombstone carries the deleting record's timestamp (Kafka's context.timestamp()).
        ['c', null, 1, 14],
      ]);
      expect(store.takeChangelogRecords()).toEqual([]);
      store.close();

      store = new LmdbKeyValueStore(spec, 1, `${dir}/counts`);
      expect(store.get('a')).toEqual({ key: 'a', value: 2, timestamp: 11 });
      expect(
        store
          .all()
          .map((e) => [e.key, e.value])
          .sort(),
      ).toEqual([
        ['a', 2],
        ['b', 5],
      ]);
      expect(store.approximateNumEntries()).toBe(2);
      store.wipe();
      expect(store.all()).toEqual([]);
      store.close();
    });
  });

  it('restores changelog records without logging them again', async () => {
    await withTempDir(async (dir) => {
      const store = new LmdbKeyValueStore(spec, 0, `${dir}/counts`);
      const long = getSerde('long');
      for (let i = 0; i < 25_000; i++) {
        store.restore({
          topic: spec.changelogTopic,
          partition: 0,
          offset: i,
          timestamp: i,
          key: Buffer.from(`k${i % 1000}`),
          value: long.serialize(i),
          headers: {},
        });
      }
      store.restore({
        topic: spec.changelogTopic,
        partition: 0,
        offset: 25_000,
        timestamp: 1,
        key: Buffer.from('k0'),
        value: null,
        headers: {},
      });
      expect(store.get('k999')).toEqual({ key: 'k999', value: 24_999, timestamp: 24_999 });
      expect(store.get('k0')).toBeUndefined();
      expect(store.takeChangelogRecords()).toEqual([]);
      expect(store.all()).toHaveLength(999);
      store.close();
    });
  });
});
