// Store metrics with Kafka Streams' names (stream-state-metrics of MeteredKeyValueStore): recorded
// at metrics.recording.level DEBUG only, as Kafka Streams does; latencies in nanoseconds. Also the
// record cache's stream-record-cache-metrics (hit-ratio-*, as NamedCache records them: the ratio
// so far at each hit) and a suppression buffer's suppression-buffer-size|count-* (sampled as
// InMemoryTimeOrderedKeyValueChangeBuffer#updateBufferMetrics does), for worker-thread tasks too.
import { describe, expect, it } from 'vitest';
import { createStreamsApp, createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import {
  BufferConfig,
  Consumed,
  KeyValue,
  Materialized,
  Produced,
  Serdes,
  StreamsBuilder,
  Suppressed,
  TimeWindows,
  type Windowed,
} from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode } from './fixtures/records.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';
import { tempStateDir } from './fixtures/state-dir.js';

const build = (level?: string) => {
  const builder = new StreamsBuilder();
  builder
    .stream('words', Consumed.with(Serdes.String(), Serdes.String()))
    .groupByKey()
    .count(Materialized.as('counts-store'))
    .toStream()
    .to('counts', Produced.with(Serdes.String(), Serdes.Long()));
  return createTestDriver(
    builder.build({
      applicationId: 'store-metrics',
      config: level === undefined ? {} : { 'metrics.recording.level': level },
    }),
  );
};

describe('store metrics', () => {
  it('DEBUG records get, put and flush per store with latency avg/max (ns) and rates', () => {
    const driver = build('DEBUG');
    for (const w of ['a', 'b', 'a']) driver.pipeInput('words', w, w, 1);
    const store = driver.metrics().stores?.['0_0']?.['counts-store'];
    expect(store?.scope).toBe('in-memory');
    const v = store!.values;
    for (const op of ['put', 'get', 'delete', 'range', 'flush', 'restore'])
      for (const suffix of ['latency-avg', 'latency-max', 'rate'])
        expect(v[`${op}-${suffix}`], `${op}-${suffix}`).toBeTypeOf('number');
    expect(v['restore-rate']).toBeTypeOf('number');
    expect(v['put-latency-avg']).toBeGreaterThan(0);
    expect(v['put-latency-max']).toBeGreaterThanOrEqual(v['put-latency-avg']!);
    expect(v['get-latency-max']).toBeGreaterThan(0);
    // The test driver commits (flushes the store into its changelog) after every record.
    expect(v['flush-latency-max']).toBeGreaterThan(0);
    expect(v['delete-latency-max']).toBe(0);
    expect(driver.readOutput('counts').map((r) => r.value)).toEqual([1, 1, 2]);
  });

  it('INFO (the default) records no store metrics', () => {
    const driver = build();
    driver.pipeInput('words', 'a', 'a', 1);
    expect(driver.metrics().stores).toBeUndefined();
  });
});

describe('record cache and suppression buffer metrics (DEBUG)', () => {
  it("a record cache reports Kafka's hit-ratio-avg|min|max, recorded at each hit", async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'words', partitions: 1 }]);
    await backend.produce(
      ['a', 'b', 'a', 'a'].map((w, i) => ({
        topic: 'words',
        key: encode('string', w),
        value: encode('string', w),
        timestamp: i,
      })),
    );
    const builder = new StreamsBuilder();
    builder
      .stream('words', Consumed.with(Serdes.String(), Serdes.String()))
      .groupByKey()
      .count(Materialized.as('counts-store'))
      .toStream()
      .to('counts', Produced.with(Serdes.String(), Serdes.Long()));
    const app = createStreamsApp({
      topology: builder.build({
        applicationId: 'cache-metrics',
        // No commit (flush) while the four records are processed.
        config: { 'metrics.recording.level': 'DEBUG', 'commit.interval.ms': 600_000 },
      }),
      backend,
      stateDir: tempStateDir(),
    });
    await app.start();
    await waitFor(() => (app.metrics().tasks['0_0']?.['process-total'] ?? 0) >= 4);
    // a miss, b miss, a hit (1/3), a hit (2/4), as Kafka's NamedCache records them.
    expect(app.metrics().caches?.['0_0']?.['counts-store']).toEqual({
      'hit-ratio-avg': (1 / 3 + 2 / 4) / 2,
      'hit-ratio-min': 1 / 3,
      'hit-ratio-max': 2 / 4,
    });
    await app.close();
    await backend.close();
  });

  it('a suppression buffer reports suppression-buffer-size-avg|max and -count-avg|max', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('clicks', Consumed.with(Serdes.String(), Serdes.String()))
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
      .count()
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName('final'))
      .toStream()
      .map((k: Windowed<string>, v: number) => KeyValue.pair(`${k.key}@${k.start}`, v))
      .to('out', Produced.with(Serdes.String(), Serdes.Long()));
    const driver = createTestDriver(
      builder.build({
        applicationId: 'buffer-metrics',
        config: { 'metrics.recording.level': 'DEBUG' },
      }),
    );
    for (const [k, t] of [
      ['a', 1],
      ['b', 2],
      ['a', 15],
    ] as const)
      driver.pipeInput('clicks', k, 'x', t);
    expect(driver.readOutput('out').map((r) => [r.key, r.value])).toEqual([
      ['a@0', 1],
      ['b@0', 1],
    ]);
    const buffer = driver.metrics().stores?.['0_0']?.['final-store'];
    expect(buffer?.scope).toBe('in-memory-suppression');
    const v = buffer!.values;
    // Sampled after each put and each run of evictions (Kafka's updateBufferMetrics): 1, 1, 2, 2,
    // then 3 entries and 1 once the records of [0, 10) are emitted.
    expect(v['suppression-buffer-count-max']).toBe(3);
    expect(v['suppression-buffer-count-avg']).toBeCloseTo(10 / 6, 10);
    expect(v['suppression-buffer-size-max']).toBeGreaterThan(0);
    expect(v['suppression-buffer-size-avg']).toBeGreaterThan(0);
    expect(v['suppression-buffer-size-avg']).toBeLessThan(v['suppression-buffer-size-max']!);
    driver.close();
  });

  it('tasks on worker threads (num.stream.threads 2) report store and cache metrics too', async () => {
    const backend = await createEmbeddedBackend();
    const t = countPipeline(
      {
        'num.stream.threads': 2,
        'metrics.recording.level': 'DEBUG',
        'statestore.cache.max.bytes': 10_485_760,
      },
      4,
    );
    const app = createStreamsAppFromPlan(
      { topology: t, backend, stateDir: tempStateDir() },
      handPlan(t),
    );
    await app.start();
    const words = Array.from({ length: 400 }, (_, i) => `w${(i * 7) % 13}`);
    await backend.produce(
      words.map((w, i) => ({
        topic: 'words',
        key: encode('string', w),
        value: encode('string', 'x'),
        timestamp: i,
      })),
    );
    await waitFor(
      () =>
        Object.values(app.metrics().tasks).reduce((n, m) => n + (m['process-total'] ?? 0), 0) >=
        words.length,
      20_000,
      'all records processed',
    );
    const status = app.status();
    expect(new Set(status.tasks.map((s) => s.thread)).size).toBe(2);
    const metrics = app.metrics();
    for (const task of status.tasks) {
      const store = metrics.stores?.[task.taskId]?.['counts-store'];
      // Persistent, the default store type (lmdb) in a running app.
      expect(store?.scope, task.taskId).toBe('lmdb');
      expect(store!.values['put-latency-max'], task.taskId).toBeGreaterThan(0);
      expect(store!.values['get-latency-max'], task.taskId).toBeGreaterThan(0);
      expect(metrics.caches?.[task.taskId]?.['counts-store']?.['hit-ratio-max']).toBeGreaterThan(0);
    }
    await app.close();
    await backend.close();
  }, 60_000);
});
