import { describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/embedded-backend.js';
import { withTempDir } from '../src/backends/embedded/test-helpers.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { handPlan } from './fixtures/hand-planner.js';
import { readAll } from './fixtures/records.js';
import { topology } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

const generated = topology(
  'gen-app',
  { 'commit.interval.ms': 100 },
  [
    { name: 'gen', partitions: 2, config: { 'retention.bytes': 100_000 } },
    { name: 'gen-out', partitions: 1, config: {} },
  ],
  [
    {
      id: 'g',
      kind: 'generator',
      config: { topic: 'gen', ratePerSecond: 40, key: 'string(seq % 3)', value: '{"n": seq}', keySerde: 'string', valueSerde: 'json' },
    },
    { id: 'p', kind: 'peek', config: {} },
    { id: 'out', kind: 'sink', config: { topic: 'gen-out', keySerde: 'string', valueSerde: 'json' } },
  ],
  [
    ['g', 'p'],
    ['p', 'out'],
  ],
);

describe('generator nodes', () => {
  it('produce at about the configured rate, feed the downstream, and continue seq after a restart', async () => {
    await withTempDir(async (dir) => {
      let backend = await createEmbeddedBackend({ dataDir: dir });
      let app = createStreamsAppFromPlan({ topology: generated, backend, stateDir: dir }, handPlan(generated));
      const started = Date.now();
      await app.start();
      await new Promise((r) => setTimeout(r, 1000));
      await app.close();
      const elapsed = (Date.now() - started) / 1000;
      const first = await readAll(backend, 'gen', 'string', 'json');
      // 40/s: loose bounds, so a slow machine cannot make this flaky, but no unbounded burst either.
      expect(first.length).toBeGreaterThanOrEqual(10);
      expect(first.length).toBeLessThanOrEqual(Math.ceil(40 * elapsed) + 5);
      const seqs = first.map((r) => (r.value as { n: number }).n).sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: first.length }, (_, i) => i));
      expect(first.every((r) => r.key === String((r.value as { n: number }).n % 3))).toBe(true);
      // Everything generated before the close was processed downstream (the close commits).
      expect((await readAll(backend, 'gen-out', 'string', 'json')).length).toBe(first.length);
      await backend.close();

      backend = await createEmbeddedBackend({ dataDir: dir });
      app = createStreamsAppFromPlan({ topology: generated, backend, stateDir: dir }, handPlan(generated));
      await app.start();
      await waitFor(async () => (await readAll(backend, 'gen', 'string', 'json')).length >= first.length + 5);
      await app.close();
      const all = (await readAll(backend, 'gen', 'string', 'json')).map((r) => (r.value as { n: number }).n).sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i));
      await backend.close();
    });
  });
});
