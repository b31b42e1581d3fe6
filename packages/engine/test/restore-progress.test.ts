// Restore progress as Kafka Streams reports it (restore-total, restore-remaining-records-total),
// in the task metrics and in each task's status, after a restart rebuilt a store from its changelog.
import { describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode } from './fixtures/records.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

describe('restore progress', () => {
  it('a restarted app reports the changelog records it replayed per task, with nothing remaining once RUNNING', async () => {
    await withTempDir(async (dir) => {
      // In memory: the restart replays the whole changelog (a persistent store would resume from its checkpoint).
      const topology = countPipeline({ 'default.dsl.store': 'in_memory' }, 2);
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      let streams = createStreamsAppFromPlan(
        { topology, backend, stateDir: `${dir}/state` },
        handPlan(topology),
      );
      await streams.start();
      const keys = Array.from({ length: 40 }, (_, i) => `w${i}`);
      await backend.produce(
        keys.map((k, i) => ({
          topic: 'words',
          key: encode('string', k),
          value: encode('string', 'x'),
          timestamp: i,
        })),
      );
      await waitFor(
        async () => ((await backend.describeTopic('counts'))?.offsets[0]?.latest ?? 0) >= 40,
        10_000,
        'counts',
      );
      await streams.close(); // commits: one changelog record per key

      streams = createStreamsAppFromPlan(
        { topology, backend, stateDir: `${dir}/state` },
        handPlan(topology),
      );
      await streams.start();
      await waitFor(
        () =>
          streams.status().tasks.length === 2 &&
          streams.status().tasks.every((t) => t.state === 'RUNNING'),
        10_000,
        'RUNNING',
      );
      const tasks = streams.status().tasks;
      expect(tasks.reduce((n, t) => n + t.restoredRecords, 0)).toBe(40);
      expect(tasks.every((t) => t.restoreRemainingRecords === 0)).toBe(true);
      const metrics = streams.metrics().tasks;
      expect(Object.values(metrics).reduce((n, t) => n + (t['restore-total'] ?? 0), 0)).toBe(40);
      await streams.close();
      await backend.close();
    });
  });
});
