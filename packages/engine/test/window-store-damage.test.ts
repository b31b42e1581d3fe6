// A persistent window store's value changed on disk under its checkpoint (a flipped bit in a
// segment's data.mdb) is not served: at the next start the task finds it (the segments'
// checksums), wipes the store and rebuilds it from its changelog, a store-rebuilt recovery; the
// counts go on from the true value. Before, the window store's values had no checksum.
import { Buffer } from 'node:buffer';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Lmdb from 'lmdb';
import { describe, expect, it } from 'vitest';
import { validateTopology } from '@streamwright/topology-model';
import { createEmbeddedBackend, type EmbeddedBackend } from '../src/backends/embedded/index.js';
import { createStreamsApp } from '../src/app/streams-app.js';
import { withTempDir } from '../src/test-helpers.js';
import { encode, readAll } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';

const lmdb = createRequire(import.meta.url)('lmdb') as typeof Lmdb;

const windowedCountDoc = {
  schemaVersion: 1,
  application: {
    id: 'wcount',
    config: { 'statestore.cache.max.bytes': 0, 'commit.interval.ms': 100 },
  },
  topics: [
    { name: 'clicks', partitions: 1, config: {} },
    { name: 'out', partitions: 1, config: {} },
  ],
  stores: [],
  nodes: [
    { id: 'src', kind: 'source', config: { topic: 'clicks', valueSerde: 'string' } },
    { id: 'g', kind: 'groupByKey', config: {} },
    { id: 'w', kind: 'windowedBy', config: { window: { type: 'tumbling', sizeMs: 10_000 } } },
    { id: 'agg', kind: 'windowedCount', config: { store: 'clicks-per-window' } },
    { id: 'ts', kind: 'toStream', config: {} },
    { id: 'm', kind: 'map', config: { expression: '{"key": key.key, "value": value}' } },
    { id: 'out', kind: 'sink', config: { topic: 'out', valueSerde: 'long' } },
  ],
  edges: ['g', 'w', 'agg', 'ts', 'm', 'out'].map((to, i, all) => ({
    from: i === 0 ? 'src' : all[i - 1]!,
    fromPort: 'out',
    to,
    toPort: 'in',
  })),
  layout: { nodes: {} },
};
const validated = validateTopology(windowedCountDoc);
if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
const windowedCount = validated.topology;

async function run(backend: EmbeddedBackend, stateDir: string, users: string[], from: number) {
  const app = createStreamsApp({ topology: windowedCount, backend, stateDir });
  await app.start();
  await waitFor(() => app.status().tasks[0]?.state === 'RUNNING', 20_000, 'RUNNING');
  await backend.produce(
    users.map((u, i) => ({
      topic: 'clicks',
      partition: 0,
      key: encode('string', u),
      value: encode('string', 'x'),
      timestamp: 1000 + from + i,
    })),
  );
  await waitFor(
    async () => (await readAll(backend, 'out', 'string', 'long')).length >= from + users.length,
    20_000,
    'counts',
  );
  return app;
}

/** Flips the last byte of every stored copy of a segment entry in its data.mdb. */
function damageOneEntry(storeDir: string, keyStart: string): number {
  const segment = readdirSync(storeDir).find((f) => /^\d+$/.test(f))!;
  const env = lmdb.open<Buffer, Buffer>({
    path: join(storeDir, segment),
    keyEncoding: 'binary',
    encoding: 'binary',
  });
  const entry = [...env.getRange()].find((e) =>
    Buffer.from(e.key).toString().startsWith(keyStart),
  )!;
  const needle = Buffer.concat([Buffer.from(entry.key), Buffer.from(entry.value)]);
  void env.close();
  const file = join(storeDir, segment, 'data.mdb');
  const data = readFileSync(file);
  let n = 0;
  for (let at = data.indexOf(needle); at >= 0; at = data.indexOf(needle, at + 1)) {
    data[at + needle.length - 1]! ^= 0x10;
    n++;
  }
  writeFileSync(file, data);
  return n;
}

describe('persistent window store damage', () => {
  it('a damaged window value under the checkpoint is rebuilt from the changelog, loudly', async () => {
    await withTempDir(async (dir) => {
      const stateDir = `${dir}/state`;
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const users = Array.from({ length: 20 }, (_, i) => `u${i % 4}`);
      let app = await run(backend, stateDir, users, 0);
      await app.close();
      await new Promise((r) => setTimeout(r, 50)); // lmdb closes its environments asynchronously
      const storeDir = `${stateDir}/wcount/0_0/lmdb/clicks-per-window`;
      await new Promise((r) => setTimeout(r, 50));
      expect(damageOneEntry(storeDir, 'u2')).toBeGreaterThan(0);

      app = await run(backend, stateDir, ['u2'], 20);
      const out = await readAll(backend, 'out', 'string', 'long');
      expect(out.at(-1)).toMatchObject({ key: 'u2', value: 6 });
      expect(app.status().recoveries).toEqual([
        expect.objectContaining({
          kind: 'store-rebuilt',
          store: 'clicks-per-window',
          taskId: '0_0',
          topic: 'wcount-clicks-per-window-changelog',
          message: expect.stringMatching(
            /store clicks-per-window .* damaged: persistent store 'clicks-per-window' holds a damaged value/,
          ),
        }),
      ]);
      await app.close();
      await backend.close();
    });
  });
});
