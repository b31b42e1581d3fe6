// Persistent (lmdb) stores with `default.dsl.store: rocksDB`: a clean restart continues from the
// `.checkpoint` and replays only the changelog's tail; a wiped state dir is rebuilt from the
// changelog; either way the counts continue correctly.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Topology } from '@streamwright/topology-model';
import type { StreamsApp } from '../src/api.js';
import { createEmbeddedBackend, type EmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { handPlan } from './fixtures/hand-planner.js';
import { flipStoredValue } from './fixtures/damage.js';
import { encode, readAll } from './fixtures/records.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

const topology = countPipeline({ 'default.dsl.store': 'rocksDB' }, 1);

async function run(
  backend: EmbeddedBackend,
  stateDir: string,
  words: string[],
  from: number,
  t: Topology = topology,
): Promise<{ restored: number; app: StreamsApp }> {
  const app = createStreamsAppFromPlan({ topology: t, backend, stateDir }, handPlan(t));
  await app.start();
  await waitFor(
    () => app.status().tasks.length === 1 && app.status().tasks[0]!.state === 'RUNNING',
    10_000,
    'RUNNING',
  );
  const restored = app.status().tasks[0]!.restoredRecords;
  await backend.produce(
    words.map((w, i) => ({
      topic: 'words',
      partition: 0,
      key: encode('string', w),
      value: encode('string', 'x'),
      timestamp: from + i,
    })),
  );
  await waitFor(
    async () => (await readAll(backend, 'counts', 'string', 'long')).length >= from + words.length,
    10_000,
    'counts',
  );
  return { restored, app };
}

const latestCounts = async (backend: EmbeddedBackend) =>
  new Map((await readAll(backend, 'counts', 'string', 'long')).map((r) => [r.key, r.value]));

describe('persistent stores', () => {
  it("are the default (Kafka Streams' default.dsl.store rocksDB); in_memory writes no store files", async () => {
    await withTempDir(async (dir) => {
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const byDefault = countPipeline({}, 1);
      let { app } = await run(backend, `${dir}/default`, ['a', 'b', 'a'], 0, byDefault);
      expect(existsSync(`${dir}/default/count-app/0_0/lmdb/counts-store`)).toBe(true);
      await app.close();
      const inMemory = countPipeline({ 'default.dsl.store': 'in_memory' }, 1);
      ({ app } = await run(backend, `${dir}/memory`, ['a'], 3, inMemory));
      expect(app.store('counts-store')!.get('a')?.value).toBe(3);
      await app.close();
      expect(existsSync(`${dir}/memory/count-app/0_0/lmdb`)).toBe(false);
      expect(existsSync(`${dir}/memory/count-app/0_0/.checkpoint`)).toBe(false);
      await backend.close();
    });
  });

  it('a state dir that cannot be written fails the task with the store and the path', async () => {
    await withTempDir(async (dir) => {
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      writeFileSync(`${dir}/a-file`, 'not a directory');
      const t = countPipeline({}, 1);
      const app = createStreamsAppFromPlan(
        { topology: t, backend, stateDir: `${dir}/a-file` },
        handPlan(t),
      );
      await app.start().catch(() => undefined);
      await waitFor(() => app.status().errors.length > 0, 10_000, 'an error');
      expect(app.status().errors[0]!.message).toMatch(
        /persistent store 'counts-store' cannot open its lmdb files in .*a-file\/count-app\/0_0\/lmdb\/counts-store/,
      );
      await app.close();
      await backend.close();
    });
  });

  it('restart from the checkpoint replays only the tail; a wiped state dir is rebuilt from the changelog', async () => {
    await withTempDir(async (dir) => {
      const stateDir = `${dir}/state`;
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const words = (n: number, tag: string) =>
        Array.from({ length: n }, (_, i) => `${tag}${i % 20}`);

      let { restored, app } = await run(backend, stateDir, words(100, 'w'), 0);
      expect(restored).toBe(0);
      expect(existsSync(`${stateDir}/count-app/0_0/lmdb/counts-store`)).toBe(true);
      await app.close();
      expect(existsSync(`${stateDir}/count-app/0_0/.checkpoint`)).toBe(true);

      // Clean restart: the store is on disk and checkpointed, nothing to replay.
      ({ restored, app } = await run(backend, stateDir, words(40, 'w'), 100));
      expect(restored).toBe(0);
      expect((await latestCounts(backend)).get('w0')).toBe(7); // 5 + 2
      await app.close();

      // The state dir is gone: rebuilt from the changelog (one record per key and commit).
      rmSync(stateDir, { recursive: true, force: true });
      ({ restored, app } = await run(backend, stateDir, words(20, 'w'), 140));
      expect(restored).toBeGreaterThanOrEqual(20);
      const counts = await latestCounts(backend);
      for (let i = 0; i < 20; i++) expect(counts.get(`w${i}`)).toBe(8);
      expect(app.store('counts-store')!.get('w3')?.value).toBe(8);
      await app.close();
      await backend.close();
    });
  });

  it('a store directory deleted while its checkpoint stays is rebuilt from the changelog, loudly', async () => {
    await withTempDir(async (dir) => {
      const stateDir = `${dir}/state`;
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const words = Array.from({ length: 100 }, (_, i) => `w${i % 20}`);
      let { app } = await run(backend, stateDir, words, 0);
      await app.close();
      expect(existsSync(`${stateDir}/count-app/0_0/.checkpoint`)).toBe(true);
      // Only the store's files go; the checkpoint still claims they hold the changelog's end.
      rmSync(`${stateDir}/count-app/0_0/lmdb/counts-store`, { recursive: true, force: true });
      const again = await run(backend, stateDir, ['w0'], 100);
      app = again.app;
      expect(again.restored).toBeGreaterThanOrEqual(20);
      // 5 before, one more now: not 1 from an empty store.
      expect((await latestCounts(backend)).get('w0')).toBe(6);
      expect(app.store('counts-store')!.get('w7')?.value).toBe(5);
      expect(app.status().recoveries).toEqual([
        expect.objectContaining({
          kind: 'store-rebuilt',
          store: 'counts-store',
          taskId: '0_0',
          topic: 'count-app-counts-store-changelog',
          partition: 0,
          message: expect.stringMatching(/local files of store counts-store .* are missing/),
        }),
      ]);
      await app.close();
      await backend.close();
    });
  });

  it('a value damaged in the lmdb file under its checkpoint is detected and rebuilt, loudly', async () => {
    await withTempDir(async (dir) => {
      const stateDir = `${dir}/state`;
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const words = Array.from({ length: 100 }, (_, i) => `w${i % 20}`);
      let { app } = await run(backend, stateDir, words, 0);
      await app.close();
      await new Promise((r) => setTimeout(r, 50)); // lmdb closes its environment asynchronously
      expect(existsSync(`${stateDir}/count-app/0_0/.checkpoint`)).toBe(true);
      // w7's count (5) changed on disk to 21 (before: served, and counted on from there).
      const flipped = flipStoredValue(
        `${stateDir}/count-app/0_0/lmdb/counts-store/data.mdb`,
        encode('string', 'w7')!,
        encode('long', 5)!,
      );
      expect(flipped).toBeGreaterThan(0);
      const again = await run(backend, stateDir, ['w7'], 100);
      app = again.app;
      expect(again.restored).toBeGreaterThanOrEqual(20);
      expect((await latestCounts(backend)).get('w7')).toBe(6);
      expect(app.store('counts-store')!.get('w8')?.value).toBe(5);
      expect(app.status().recoveries).toEqual([
        expect.objectContaining({
          kind: 'store-rebuilt',
          store: 'counts-store',
          taskId: '0_0',
          topic: 'count-app-counts-store-changelog',
          partition: 0,
          message: expect.stringMatching(/store counts-store .* damaged: 1 stored value/),
        }),
      ]);
      await app.close();
      await backend.close();
    });
  });

  it('a checkpoint past the changelog end (the changelog was recreated) wipes the local store and rebuilds it', async () => {
    await withTempDir(async (dir) => {
      const stateDir = `${dir}/state`;
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      let { app } = await run(backend, stateDir, ['a', 'b', 'a'], 0);
      await app.close();
      // Local state that the changelog does not back: a stale checkpoint far beyond its end.
      writeFileSync(
        `${stateDir}/count-app/0_0/.checkpoint`,
        JSON.stringify({ 'count-app-counts-store-changelog:0': 1_000_000 }),
      );
      const again = await run(backend, stateDir, ['a'], 3);
      app = again.app;
      expect(again.restored).toBe(2); // a and b, from the changelog
      expect((await latestCounts(backend)).get('a')).toBe(3);
      // Loudly: a store-rebuilt recovery in the status.
      expect(app.status().recoveries).toEqual([
        expect.objectContaining({
          kind: 'store-rebuilt',
          store: 'counts-store',
          taskId: '0_0',
          topic: 'count-app-counts-store-changelog',
          partition: 0,
          fromOffset: 1_000_000,
          toOffset: 2,
        }),
      ]);
      expect(app.status().recoveryCounts).toEqual({ 'store-rebuilt': 1 });
      await app.close();
      await backend.close();
    });
  });
});
