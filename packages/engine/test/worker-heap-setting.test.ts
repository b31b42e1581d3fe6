// STREAMWRIGHT_WORKER_MEMORY_REDUCER (worker-heap.ts): read once, before the process's first
// stream-thread worker spawns, so this file must spawn none before its first test (vitest gives each
// file its own modules). A value that is neither `on` nor `off` fails start() naming the variable;
// once a valid value is settled, the app runs on workers as always.
import { afterAll, describe, expect, it } from 'vitest';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/embedded-backend.js';
import { drainWorkerPool } from '../src/thread/worker/worker-pool.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode, readAll } from './fixtures/records.js';
import { tempStateDir } from './fixtures/state-dir.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

const VARIABLE = 'STREAMWRIGHT_WORKER_MEMORY_REDUCER';
const before = process.env[VARIABLE];
afterAll(async () => {
  if (before === undefined) delete process.env[VARIABLE];
  else process.env[VARIABLE] = before;
  await drainWorkerPool();
});

async function startCount(): Promise<{
  start: Promise<void>;
  run: () => Promise<unknown[]>;
  close: () => Promise<void>;
}> {
  const backend = await createEmbeddedBackend();
  const t = countPipeline({ 'num.stream.threads': 2 }, 2);
  const app = createStreamsAppFromPlan(
    { topology: t, backend, stateDir: tempStateDir() },
    handPlan(t),
  );
  return {
    start: app.start(),
    run: async () => {
      await backend.produce(
        ['a', 'b', 'a'].map((k, i) => ({
          topic: 'words',
          key: encode('string', k),
          value: encode('string', `v${i}`),
          timestamp: 1000 + i,
        })),
      );
      let out: unknown[] = [];
      await waitFor(
        async () => (out = await readAll(backend, 'counts', 'string', 'long')).length >= 3,
        20_000,
        '3 counts',
      );
      return out;
    },
    close: async () => {
      await app.close().catch(() => undefined);
      await backend.close();
    },
  };
}

describe(VARIABLE, () => {
  it('neither on nor off: start() fails with an error naming the variable and the value', async () => {
    process.env[VARIABLE] = 'maybe';
    const app = await startCount();
    await expect(app.start).rejects.toThrow(
      /STREAMWRIGHT_WORKER_MEMORY_REDUCER must be 'on' or 'off', got 'maybe'/,
    );
    await app.close();
  });

  it('off (the default): the app runs on its two workers', async () => {
    process.env[VARIABLE] = 'off';
    const app = await startCount();
    await app.start;
    const out = (await app.run()) as { key: unknown; value: unknown }[];
    expect(out.map((r) => [r.key, r.value]).sort()).toEqual([
      ['a', 1],
      ['a', 2],
      ['b', 1],
    ]);
    await app.close();
  });
});
