// num.stream.threads = 2: a transformValues whose transformer comes from the worker module runs in
// both worker threads, each task with its own transformer and connected store.
import { validateTopology } from '@streamwright/topology-model';
import { expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { createStreamsApp } from '../src/app/streams-app.js';
import { encode, readAll } from './fixtures/records.js';
import { tempStateDir } from './fixtures/state-dir.js';
import { valueTransformers } from './fixtures/value-transformers.js';
import { waitFor } from './fixtures/wait.js';

const document = {
  schemaVersion: 1,
  application: {
    id: 'tv-threads',
    config: { 'commit.interval.ms': 100, 'num.stream.threads': 2 },
  },
  topics: [
    { name: 'names', partitions: 4 },
    { name: 'counted', partitions: 1 },
  ],
  stores: [{ name: 'calls', type: 'keyValue', keySerde: 'string', valueSerde: 'long' }],
  nodes: [
    {
      id: 'names',
      kind: 'table',
      config: { topic: 'names', valueSerde: 'string', offsetReset: 'earliest' },
    },
    {
      id: 'tv',
      kind: 'transformValues',
      config: { transformer: 'runningCount', stores: ['calls'], params: { store: 'calls' } },
    },
    { id: 't', kind: 'toStream', config: {} },
    { id: 'out', kind: 'sink', config: { topic: 'counted' } },
  ],
  edges: [
    { from: 'names', to: 'tv' },
    { from: 'tv', to: 't' },
    { from: 't', to: 'out' },
  ],
};

it('2 worker threads run transformValues with the worker module’s transformer and their tasks’ stores', async () => {
  const result = validateTopology(document, { valueTransformers: ['runningCount'] });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const backend = await createEmbeddedBackend();
  const app = createStreamsApp({
    topology: result.topology,
    backend,
    stateDir: tempStateDir(),
    // The main thread compiles the plan too (errors surface at creation), as the runtime does.
    valueTransformers,
    workerModule: new URL('./fixtures/value-transformer-worker.ts', import.meta.url),
  });
  await app.start();
  try {
    const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
    const records = [1, 2, 3].flatMap((round) =>
      keys.map((key) => ({ key, value: `${key}-${round}` })),
    );
    await backend.produce(
      records.map((r, i) => ({
        topic: 'names',
        key: encode('string', r.key),
        value: encode('string', r.value),
        timestamp: 1000 + i,
      })),
    );
    await waitFor(
      async () => (await readAll(backend, 'counted', 'string', 'json')).length >= records.length,
      20_000,
      'every change',
    );
    const out = await readAll(backend, 'counted', 'string', 'json');
    // Per key, in order: the transformer's running count of its calls (no old values asked for).
    const byKey = new Map<string, unknown[]>();
    for (const r of out)
      byKey.set(r.key as string, [...(byKey.get(r.key as string) ?? []), r.value]);
    expect(Object.fromEntries(byKey)).toEqual(
      Object.fromEntries(keys.map((k) => [k, [1, 2, 3].map((n) => `${k}-${n}#${n}`)])),
    );
    const threads = new Set(app.status().tasks.map((t) => t.thread));
    expect(threads.size).toBe(2);
  } finally {
    await app.close();
  }
}, 60_000);
