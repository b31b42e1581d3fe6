// A stream thread's worker that runs out of memory (its heap limit reached: here an in-memory store
// filled with distinct keys under STREAMWRIGHT_WORKER_MAX_HEAP_MB's small limit) stops with a clear
// error for its app (state ERROR, lastFailure naming the limit and what to do), and the process
// runs on: the backend still takes records and another app starts and processes on it. A real
// worker thread on a real embedded log; nothing is simulated.
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { createStreamsApp } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { configureWorkerPool, workerPool } from '../src/thread/worker/worker-pool.js';
import { encode, readAll } from './fixtures/records.js';
import { tempStateDir } from './fixtures/state-dir.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

const HEAP_MB = 32;

describe('a stream-thread worker out of memory', () => {
  afterAll(() => configureWorkerPool({ maxHeapMb: null }));

  it('ends in ERROR for its app, naming the limit; the process and other apps run on', async () => {
    // Workers spawned from here on get the small limit (none is pooled: a fresh one is spawned).
    configureWorkerPool({ maxIdle: 0, maxHeapMb: HEAP_MB });
    expect(workerPool.maxHeapMb).toBe(HEAP_MB);
    const backend = await createEmbeddedBackend({ dataDir: tempStateDir() });
    onTestFinished(() => backend.close());
    await backend.createTopics([
      { name: 'words', partitions: 2 },
      { name: 'counts', partitions: 1 },
    ]);
    // 20,000 distinct keys of 4 KB: ~80 MB of key strings in an in-memory count store, over
    // twice the worker's heap.
    const pad = 'k'.repeat(4096);
    for (let batch = 0; batch < 20; batch++)
      await backend.produce(
        Array.from({ length: 1000 }, (_, i) => ({
          topic: 'words',
          key: encode('string', `${batch * 1000 + i}${pad}`),
          value: encode('string', 'x'),
        })),
      );
    const errors: string[] = [];
    const logger = {
      info() {},
      warn() {},
      error: (_o: object, msg?: string) => errors.push(msg ?? ''),
    };
    const app = createStreamsApp({
      topology: countPipeline(
        { 'num.stream.threads': 2, 'default.dsl.store': 'in_memory', 'commit.interval.ms': 1000 },
        2,
      ),
      backend,
      stateDir: tempStateDir(),
      logger,
    });
    onTestFinished(() => app.close());
    await app.start();
    await waitFor(() => app.status().state === 'ERROR', 120_000, 'the app in ERROR');
    const failure = app.status().lastFailure;
    expect(failure).toMatchObject({ phase: 'run', code: 'OUT_OF_MEMORY' });
    expect(failure?.message).toMatch(
      new RegExp(`ran out of memory: its worker reached its heap limit \\(${HEAP_MB} MB`),
    );
    expect(failure?.message).toMatch(/STREAMWRIGHT_WORKER_MAX_HEAP_MB/);
    expect(errors.some((e) => /stream thread worker crashed/.test(e))).toBe(true);

    // The process runs on: the backend takes records, and a small app starts and counts them.
    await app.close();
    configureWorkerPool({ maxHeapMb: null });
    await backend.createTopics([
      { name: 'small', partitions: 1 },
      { name: 'small-counts', partitions: 1 },
    ]);
    await backend.produce([
      { topic: 'small', key: encode('string', 'a'), value: encode('string', 'x') },
    ]);
    const other = createStreamsApp({
      topology: {
        ...countPipeline({ 'num.stream.threads': 2 }, 1),
        application: {
          id: 'small-app',
          config: {
            'num.stream.threads': 2,
            'commit.interval.ms': 100,
            'statestore.cache.max.bytes': 0,
          },
        },
        topics: [
          { name: 'small', partitions: 1, config: {} },
          { name: 'small-counts', partitions: 1, config: {} },
        ],
        nodes: countPipeline({}, 1).nodes.map((n) =>
          n.kind === 'source'
            ? { ...n, config: { ...n.config, topic: 'small' } }
            : n.kind === 'sink'
              ? { ...n, config: { ...n.config, topic: 'small-counts' } }
              : n,
        ) as ReturnType<typeof countPipeline>['nodes'],
      },
      backend,
      stateDir: tempStateDir(),
    });
    onTestFinished(() => other.close());
    await other.start();
    await waitFor(
      async () => (await readAll(backend, 'small-counts', 'string', 'long')).length === 1,
      60_000,
      'the other app counting',
    );
    expect(other.state()).toBe('RUNNING');
  }, 180_000);
});
