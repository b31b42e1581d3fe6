// An application whose window store's changelog holds records Streamwright wrote before commit
// 839d171 (2026-12-07: each value prefixed by its timestamp): restoring the store fails the
// application, and app.status' lastFailure names the store, the changelog partition and offset
// and what to do, instead of the store coming back with wrong counts (the timestamp's bytes read
// as the count). The store is in memory, so a start restores it from the changelog.
import { planTopology, validateTopology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsApp } from '../src/app/streams-app.js';
import { getSerde } from '../src/serdes/index.js';
import { WindowChangelogFormat } from '../src/state/window-changelog.js';
import { waitFor } from './fixtures/wait.js';

const doc = {
  schemaVersion: 1,
  application: {
    id: 'old-changelog',
    config: { 'statestore.cache.max.bytes': 0, 'default.dsl.store': 'in_memory' },
  },
  topics: ['clicks', 'out'].map((name) => ({ name, partitions: 1 })),
  nodes: [
    { id: 'src', kind: 'source', config: { topic: 'clicks' } },
    { id: 'g', kind: 'groupByKey', config: {} },
    { id: 'w', kind: 'windowedBy', config: { window: { type: 'tumbling', sizeMs: 5000 } } },
    { id: 'agg', kind: 'windowedCount', config: {} },
    { id: 'ts', kind: 'toStream', config: {} },
    {
      id: 'out',
      kind: 'sink',
      config: { topic: 'out', valueSerde: 'long', windowedKey: 'time', windowSizeMs: 5000 },
    },
  ],
  edges: ['src', 'g', 'w', 'agg', 'ts', 'out']
    .slice(1)
    .map((to, i, all) => ({ from: i === 0 ? 'src' : all[i - 1]!, to })),
};

describe('a window changelog written before 839d171', () => {
  it('fails the restore; lastFailure names the store, the changelog and what to do', async () => {
    const result = validateTopology(doc);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const topology = result.topology;
    const store = planTopology(topology).stores.find((s) => s.changelogTopic !== null)!;
    const changelog = store.changelogTopic!;
    await withTempDir(async (dir) => {
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      try {
        // Window [0, 5000) of key "a" counted 3 at timestamp 4000, as the old version logged it.
        const format = new WindowChangelogFormat(getSerde('string'), getSerde('long'), true);
        await backend.createTopics([{ name: changelog, partitions: 1 }]);
        await backend.produce([
          {
            topic: changelog,
            partition: 0,
            key: format.key('a', 0, 0),
            value: format.diskValue(3, 4000),
            timestamp: 4000,
          },
        ]);
        const app = createStreamsApp({ topology, backend, stateDir: `${dir}/state` });
        await app.start();
        try {
          await waitFor(() => app.state() === 'ERROR', 30_000, 'the application in ERROR');
          const failure = app.status().lastFailure;
          expect(failure?.message).toContain(
            `window store ${store.name} cannot be restored from its changelog ${changelog}-0: the record at offset 0 is in the changelog format Streamwright wrote before 2026-12-07 (commit 839d171`,
          );
          expect(failure?.message).toContain('streamwright app reset');
        } finally {
          await app.close();
        }
      } finally {
        await backend.close();
      }
    });
  });
});
