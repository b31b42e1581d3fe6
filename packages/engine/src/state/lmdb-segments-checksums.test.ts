// The segments of persistent window, session and join stores checksum each stored value (as the
// key-value store does): a value changed on disk is never served (StoreCorruptedError naming the
// store, the key and the path), verify() finds it, a wipe starts over; a store written before
// checksums keeps reading in its old layout. Real lmdb files, damaged in place.
import { Buffer } from 'node:buffer';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Lmdb from 'lmdb';
import { describe, expect, it } from 'vitest';
import { asRestored, withTempDir } from '../test-helpers.js';
import { CHECKSUM_MARKER, StoreCorruptedError } from './lmdb-key-value-store.js';
import { LmdbSegments } from './lmdb-segments.js';
import { LmdbWindowStore } from './lmdb-window-stores.js';

const lmdb = createRequire(import.meta.url)('lmdb') as typeof Lmdb;
const closed = () => new Promise((r) => setTimeout(r, 50)); // lmdb closes asynchronously

/** Flips the last byte of every stored copy of `key` followed by `value` in an lmdb file. */
function flip(file: string, key: Uint8Array, value: Uint8Array): number {
  const data = readFileSync(file);
  const needle = Buffer.concat([key, value]);
  let n = 0;
  for (let at = data.indexOf(needle); at >= 0; at = data.indexOf(needle, at + 1)) {
    data[at + needle.length - 1]! ^= 0x10;
    n++;
  }
  writeFileSync(file, data);
  return n;
}

/** The raw stored entries of one segment (the checksum included). */
function rawEntries(dir: string): { key: Buffer; value: Buffer }[] {
  const env = lmdb.open<Buffer, Buffer>({ path: dir, keyEncoding: 'binary', encoding: 'binary' });
  const out = [...env.getRange()].map((e) => ({
    key: Buffer.from(e.key),
    value: Buffer.from(e.value),
  }));
  void env.close();
  return out;
}

const k = (s: string) => Buffer.from(s);

describe('checksummed segments', () => {
  it('a damaged value is never served; verify names it; a wipe starts over', async () => {
    await withTempDir(async (dir) => {
      let segments = new LmdbSegments(dir, 'win');
      expect(existsSync(join(dir, CHECKSUM_MARKER))).toBe(true);
      for (const key of ['a', 'b', 'c'])
        segments.add(5, { key: k(key), value: k(`value-${key}`), timestamp: 42 });
      segments.flush();
      expect(segments.get(5, k('b'))?.subarray(8).toString()).toBe('value-b');
      expect(segments.verify()).toBeNull();
      segments.close();
      await closed();

      const [b] = rawEntries(join(dir, '5')).filter((e) => e.key.equals(k('b')));
      await closed();
      expect(b!.value.length).toBe(4 + 8 + 'value-b'.length);
      expect(flip(join(dir, '5', 'data.mdb'), b!.key, b!.value)).toBeGreaterThan(0);

      segments = new LmdbSegments(dir, 'win');
      expect(segments.get(5, k('a'))?.subarray(8).toString()).toBe('value-a');
      expect(() => segments.get(5, k('b'))).toThrow(StoreCorruptedError);
      expect(() => segments.get(5, k('b'))).toThrow(
        new RegExp(`store 'win' holds a damaged value for key bytes 62 in ${join(dir, '5')}`),
      );
      expect(() => [...segments.range(5)]).toThrow(StoreCorruptedError);
      expect(segments.verify()).toMatch(
        /^1 stored value\(s\) in .* fail their checksum \(the first at segment 5, key bytes 62\)$/,
      );
      segments.wipe();
      expect(segments.verify()).toBeNull();
      segments.add(5, { key: k('b'), value: k('again'), timestamp: 1 });
      expect(segments.get(5, k('b'))?.subarray(8).toString()).toBe('again');
      segments.close();
    });
  });

  it('a store written before checksums reads in its old layout until its wipe', async () => {
    await withTempDir(async (dir) => {
      const env = lmdb.open<Buffer, Buffer>({
        path: join(dir, '3'),
        keyEncoding: 'binary',
        encoding: 'binary',
      });
      const old = Buffer.alloc(8 + 3);
      old.writeBigInt64BE(7n, 0);
      old.write('old', 8);
      env.putSync(k('x'), old);
      void env.close();
      await closed();

      const segments = new LmdbSegments(dir, 'win');
      expect(existsSync(join(dir, CHECKSUM_MARKER))).toBe(false);
      expect(segments.get(3, k('x'))?.subarray(8).toString()).toBe('old');
      expect([...segments.range(3)].map((e) => e.value.readBigInt64BE(0))).toEqual([7n]);
      expect(segments.verify()).toBeNull();
      segments.wipe();
      expect(existsSync(join(dir, CHECKSUM_MARKER))).toBe(true);
      segments.add(3, { key: k('x'), value: k('new'), timestamp: 8 });
      segments.flush();
      segments.close();
      await closed();
      expect(rawEntries(join(dir, '3'))[0]!.value.length).toBe(4 + 8 + 3);
      await closed();
    });
  });

  it('a window store opened over a damaged segment does not serve it: verify reports it for the rebuild', async () => {
    await withTempDir(async (dir) => {
      const options = {
        name: 'w',
        keySerde: 'string' as const,
        valueSerde: 'long' as const,
        retentionMs: 60_000,
      };
      let store = new LmdbWindowStore({ ...options, changelogTopic: 'w-changelog' }, 0, dir);
      for (let i = 0; i < 5; i++) store.put(`k${i}`, i * 10, 1000, 1000 + i);
      const records = store.takeChangelogRecords();
      expect(records).toHaveLength(5);
      store.close();
      await closed();
      const segment = readdirSync(dir).find((f) => /^\d+$/.test(f))!;
      const entries = rawEntries(join(dir, segment));
      await closed();
      expect(flip(join(dir, segment, 'data.mdb'), entries[2]!.key, entries[2]!.value)).toBe(1);

      store = new LmdbWindowStore({ ...options, changelogTopic: 'w-changelog' }, 0, dir);
      expect(store.verify()).toMatch(/persistent store 'w' holds a damaged value for key bytes/);
      // The rebuild: wiped, then restored from the changelog.
      store.wipe();
      expect(store.verify()).toBeNull();
      for (const r of records) store.restore(asRestored(r));
      expect(store.fetch('k2', 1000)?.value).toBe(20);
      store.close();
    });
  });
});
