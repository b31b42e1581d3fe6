// Persistent window and session stores: each segment on disk (one lmdb environment per segment
// directory), written at commit, loaded when the store opens again, dropped whole by retention,
// emptied by a wipe; restored changelog records reach the disk too.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../test-helpers.js';
import { LmdbSessionStore, LmdbWindowStore } from './lmdb-window-stores.js';
import { SegmentedWindowStore } from './window-store.js';

const windowSpec = {
  name: 'w',
  keySerde: 'string' as const,
  valueSerde: 'long' as const,
  changelogTopic: 'app-w-changelog',
  retentionMs: 100,
  segmentIntervalMs: 50,
};
// The segment directories (beside them: the checksum marker file).
const segmentsOn = (path: string) =>
  readdirSync(path)
    .filter((name) => /^-?\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);

describe('LmdbWindowStore', () => {
  it('keeps committed windows across a reopen, one directory per segment, dropped whole by retention', async () => {
    await withTempDir(async (dir) => {
      const path = `${dir}/w`;
      let store = new LmdbWindowStore(windowSpec, 0, path);
      store.put('a', 1, 0, 5);
      store.put('a', 2, 60, 61);
      store.put('b', 3, 60, 62);
      store.put('b', null, 60, 63); // deleted before the commit: nothing on disk
      store.takeChangelogRecords();
      expect(segmentsOn(path)).toEqual([0, 1]);
      store.put('a', 9, 70, 75); // uncommitted: lost with the close, as in memory
      store.close();

      store = new LmdbWindowStore(windowSpec, 0, path);
      expect(store.persistent).toBe(true);
      expect(store.fetch('a', 0)).toMatchObject({ key: 'a', value: 1, timestamp: 5 });
      expect(store.fetch('a', 60)).toMatchObject({ value: 2, timestamp: 61 });
      expect(store.fetch('b', 60)).toBeUndefined();
      expect(store.fetch('a', 70)).toBeUndefined();
      expect(store.observedStreamTime).toBe(60);

      // Stream time 160: segment 0 ([0, 50)) is past retention and goes as a whole, on disk too.
      store.put('c', 4, 160, 160);
      store.takeChangelogRecords();
      expect(segmentsOn(path)).toEqual([1, 3]);
      store.close();
      store = new LmdbWindowStore(windowSpec, 0, path);
      expect(store.all().map((e) => [e.key, e.start])).toEqual([['c', 160]]); // 60 expired
      store.wipe();
      store.close();
      store = new LmdbWindowStore(windowSpec, 0, path);
      expect(store.all()).toEqual([]);
      store.close();
    });
  });

  it('writes restored changelog records to disk, with duplicates (join buffers) kept apart', async () => {
    await withTempDir(async (dir) => {
      const spec = { ...windowSpec, retentionMs: 10_000, retainDuplicates: true };
      const source = new SegmentedWindowStore(spec, 0);
      source.put('k', 1, 100, 100);
      source.put('k', 2, 100, 101);
      source.put('k', 3, 200, 200);
      const changelog = source.takeChangelogRecords();
      let store = new LmdbWindowStore(spec, 0, `${dir}/w`);
      changelog.forEach((r, offset) =>
        store.restore({
          topic: spec.changelogTopic,
          partition: 0,
          offset,
          key: r.key ?? null,
          value: r.value ?? null,
          timestamp: r.timestamp ?? 0,
          headers: {},
        }),
      );
      expect(store.takeChangelogRecords()).toEqual([]); // restoring logs nothing
      store.close();
      store = new LmdbWindowStore(spec, 0, `${dir}/w`);
      expect(store.fetchRange('k', 0, 1000).map((e) => e.value)).toEqual([1, 2, 3]);
      store.close();
    });
  });
});

describe('LmdbSessionStore', () => {
  it('keeps committed sessions across a reopen, segmented by end; removes and retention reach the disk', async () => {
    await withTempDir(async (dir) => {
      const spec = { ...windowSpec, name: 's', changelogTopic: 'app-s-changelog' };
      const path = `${dir}/s`;
      let store = new LmdbSessionStore(spec, 0, path);
      store.put({ key: 'a', start: 0, end: 10, value: 1 });
      store.put({ key: 'a', start: 20, end: 55, value: 2 });
      store.put({ key: 'b', start: 30, end: 40, value: 3 });
      store.takeChangelogRecords();
      store.remove('b', 30, 40);
      store.takeChangelogRecords();
      expect(segmentsOn(path)).toEqual([0, 1]);
      store.close();

      store = new LmdbSessionStore(spec, 0, path);
      expect(store.findSessions('a', 0, 100).map((s) => [s.start, s.end, s.value])).toEqual([
        [0, 10, 1],
        [20, 55, 2],
      ]);
      expect(store.findSessions('b', 0, 100)).toEqual([]);
      store.put({ key: 'c', start: 150, end: 160, value: 4 }); // stream time 160: segment 0 goes
      store.takeChangelogRecords();
      expect(segmentsOn(path)).toEqual([1, 3]);
      store.close();
      store = new LmdbSessionStore(spec, 0, path);
      expect(store.all().map((s) => s.key)).toEqual(['c']);
      store.close();
    });
  });
});
