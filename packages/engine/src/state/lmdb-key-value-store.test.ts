import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Lmdb from 'lmdb';
import { describe, expect, it } from 'vitest';
import { flipStoredValue } from '../../test/fixtures/damage.js';
import { withTempDir } from '../test-helpers.js';
import { getSerde } from '../serdes/index.js';
import { CHECKSUM_MARKER, LmdbKeyValueStore, StoreCorruptedError } from './lmdb-key-value-store.js';

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

  it('detects a value damaged in its lmdb file (a checksum per value) instead of serving it', async () => {
    await withTempDir(async (dir) => {
      const path = `${dir}/counts`;
      let store = new LmdbKeyValueStore(spec, 0, path);
      for (let i = 0; i < 1000; i++) store.put(`key-${i}`, i, i);
      store.takeChangelogRecords();
      expect(store.verify()).toBeNull();
      store.close();
      await new Promise((r) => setTimeout(r, 50)); // lmdb closes its environment asynchronously

      // key-115 holds 115; one bit of it changed on disk (before: served as 99, no warning).
      const long = getSerde('long');
      const flipped = flipStoredValue(
        `${path}/data.mdb`,
        Buffer.from('key-115'),
        Buffer.from(long.serialize(115)!),
      );
      expect(flipped).toBeGreaterThan(0);
      store = new LmdbKeyValueStore(spec, 0, path);
      expect(store.verify()).toMatch(/1 stored value\(s\) in .*counts fail their checksum/);
      expect(() => store.get('key-115')).toThrow(StoreCorruptedError);
      expect(() => store.get('key-115')).toThrow(/damaged value for key "key-115"/);
      expect(() => store.all()).toThrow(StoreCorruptedError);
      expect(store.get('key-114')).toEqual({ key: 'key-114', value: 114, timestamp: 114 });
      store.wipe();
      expect(store.verify()).toBeNull();
      store.close();
    });
  });

  it('reads a store written before checksums as it is, and checksums it from its next wipe', async () => {
    await withTempDir(async (dir) => {
      const path = `${dir}/counts`;
      // The layout before checksums: [timestamp][value], and no marker file.
      const lmdb = createRequire(import.meta.url)('lmdb') as typeof Lmdb;
      const env = lmdb.open<Buffer, Buffer>({ path, keyEncoding: 'binary', encoding: 'binary' });
      const old = Buffer.alloc(16);
      old.writeBigInt64BE(7n, 0);
      old.set(getSerde('long').serialize(42)!, 8);
      await env.put(Buffer.from('a'), old);
      await env.close();
      expect(existsSync(`${path}/${CHECKSUM_MARKER}`)).toBe(false);

      const store = new LmdbKeyValueStore(spec, 0, path);
      expect(store.get('a')).toEqual({ key: 'a', value: 42, timestamp: 7 });
      store.put('b', 1, 8);
      store.takeChangelogRecords();
      expect(store.all().map((e) => [e.key, e.value])).toEqual([
        ['a', 42],
        ['b', 1],
      ]);
      expect(store.verify()).toBeNull();
      store.wipe();
      expect(existsSync(`${path}/${CHECKSUM_MARKER}`)).toBe(true);
      store.put('c', 3, 9);
      store.takeChangelogRecords();
      expect(store.verify()).toBeNull();
      expect(store.all().map((e) => [e.key, e.value])).toEqual([['c', 3]]);
      store.close();
    });
  });
});
