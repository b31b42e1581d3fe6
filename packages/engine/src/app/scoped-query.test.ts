// Queries routed across instances (the runtime's state queries on Kafka): queryLocalStore answers
// an instance's share of a store (some of its tasks) with each range row's serialized key, and
// mergeStoreParts merges the shares into what one view over every task returns. Here one app holds
// every task and its tasks are split into two "instances" by scope.
import { validateTopology } from '@streamwright/topology-model';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamsApp } from '../api.js';
import { createEmbeddedBackend } from '../backends/embedded/index.js';
import { stringSerde } from '../serdes/index.js';
import { createStreamsApp } from './streams-app.js';
import { tempStateDir } from '../../test/fixtures/state-dir.js';

let app: StreamsApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function until(probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('StreamsApp#queryLocalStore and #mergeStoreParts', () => {
  it('answers a share of the tasks, and the shares merge into the one-view answer', async () => {
    const result = validateTopology({
      schemaVersion: 1,
      application: { id: 'iq-scoped', config: { 'commit.interval.ms': 50 } },
      topics: [{ name: 'words', partitions: 3 }],
      nodes: [
        { id: 'words', kind: 'source', config: { topic: 'words', valueSerde: 'string' } },
        { id: 'group', kind: 'groupByKey', config: {} },
        { id: 'count', kind: 'count', config: { store: 'word-counts' } },
        {
          id: 'w',
          kind: 'windowedBy',
          config: { window: { type: 'tumbling', sizeMs: 1000, graceMs: 60_000 } },
        },
        { id: 'wcount', kind: 'windowedCount', config: { store: 'per-second' } },
      ],
      edges: [
        { from: 'words', to: 'group' },
        { from: 'group', to: 'count' },
        { from: 'group', to: 'w' },
        { from: 'w', to: 'wcount' },
      ],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const backend = await createEmbeddedBackend();
    app = createStreamsApp({ topology: result.topology, backend, stateDir: tempStateDir() });
    await app.start();
    const words = ['d', 'a', 'c', 'b', 'a', 'e', 'a', 'c', 'f', 'g', 'h'];
    await backend.produce(
      words.map((w, i) => ({
        topic: 'words',
        key: stringSerde.serialize(w),
        value: stringSerde.serialize(w),
        timestamp: 1000 * (i % 3),
      })),
    );
    const store = app.store('word-counts')!;
    await until(() => store.approximateNumEntries() === 8 && store.get('a')?.value === 3);

    expect(await app.storeTaskIds('word-counts')).toEqual(['0_0', '0_1', '0_2']);
    const one = await app.queryLocalStore('word-counts', 'keyValue', 'all', [], {
      tasks: ['0_1'],
    });
    const other = await app.queryLocalStore('word-counts', 'keyValue', 'all', [], {
      tasks: ['0_0', '0_2'],
    });
    expect(one.tasks).toEqual([{ taskId: '0_1', standby: false, lag: 0 }]);
    expect(other.tasks.map((t) => t.taskId).sort()).toEqual(['0_0', '0_2']);
    const shares = [...other.parts, ...one.parts];
    const rows = (v: unknown) =>
      (v as { key: unknown; value: unknown }[]).map((e) => [e.key, e.value]);
    // Neither share alone is the store; merged, they are the one view's all(), in key order.
    expect(rows(one.parts[0]!.value).length).toBeLessThan(8);
    expect(rows(app.mergeStoreParts('word-counts', 'keyValue', 'all', [], shares))).toEqual(
      rows(store.all()),
    );
    // A key read: the share of the key's task answers it; the other share has nothing.
    const metadata = await app.queryMetadataForKey('word-counts', 'a');
    const own = await app.queryLocalStore('word-counts', 'keyValue', 'get', ['a'], {
      tasks: [`0_${metadata!.partition}`],
    });
    expect(app.mergeStoreParts('word-counts', 'keyValue', 'get', ['a'], own.parts)).toMatchObject({
      value: 3,
    });
    // A task not here (not asked, or no such task) answers nothing and is not named.
    const none = await app.queryLocalStore('word-counts', 'keyValue', 'all', [], {
      tasks: ['9_9'],
    });
    expect(none.tasks).toEqual([]);
    expect(rows(app.mergeStoreParts('word-counts', 'keyValue', 'all', [], none.parts))).toEqual([]);

    // Window stores: fetchAll and backwardFetchAll merge into the view's order.
    const windows = app.windowStore('per-second')!;
    for (const method of ['fetchAll', 'backwardFetchAll'] as const) {
      const parts = [
        ...(
          await app.queryLocalStore('per-second', 'window', method, [0, 10_000], { tasks: ['0_2'] })
        ).parts,
        ...(
          await app.queryLocalStore('per-second', 'window', method, [0, 10_000], {
            tasks: ['0_0', '0_1'],
          })
        ).parts,
      ];
      expect(app.mergeStoreParts('per-second', 'window', method, [0, 10_000], parts)).toEqual(
        windows[method](0, 10_000),
      );
    }
    await backend.close();
  });
});
