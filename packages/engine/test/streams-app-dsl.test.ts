// DSL programs and Processor API processors running as a real app on the (in-memory) embedded
// backend: a global table is loaded completely before any stream record is processed, a
// processor's commit() request commits long before commit.interval.ms, wall-clock punctuations
// fire in the stream thread, and a table groupBy runs across a repartition topic with 2 partitions.
import { describe, expect, it } from 'vitest';
import { createStreamsApp } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import {
  Consumed,
  Grouped,
  KeyValue,
  Materialized,
  Produced,
  Serdes,
  StreamsBuilder,
  type KeyValueStore,
  type ProcessorContext,
} from '../src/index.js';
import { encode, readAll } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';
import { tempStateDir } from './fixtures/state-dir.js';

describe('DSL programs on the embedded backend', () => {
  it('loads a globalTable completely before processing; processors read it; commit() commits early', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([
      { name: 'countries', partitions: 2 },
      { name: 'orders', partitions: 1 },
    ]);
    // The table's data and the orders are both there before the app starts.
    const countries = Array.from({ length: 200 }, (_, i) => [`c${i}`, `Country ${i}`] as const);
    await backend.produce(
      countries.map(([k, v]) => ({
        topic: 'countries',
        key: encode('string', k),
        value: encode('string', v),
      })),
    );
    await backend.produce(
      Array.from({ length: 50 }, (_, i) => ({
        topic: 'orders',
        key: encode('string', `o${i}`),
        value: encode('string', `c${(i * 7) % 200}`),
        timestamp: i,
      })),
    );

    const builder = new StreamsBuilder();
    builder.globalTable(
      'countries',
      Consumed.with(Serdes.String(), Serdes.String()),
      Materialized.as('countries-store'),
    );
    builder
      .stream('orders', Consumed.with(Serdes.String(), Serdes.String()))
      .process(() => {
        let ctx: ProcessorContext<string, string>;
        let store: KeyValueStore<string, string>;
        return {
          init(c) {
            ctx = c;
            store = c.getStateStore('countries-store');
          },
          process(r) {
            ctx.forward({ ...r, value: store.get(r.value) ?? 'MISSING' });
            ctx.commit();
          },
        };
      })
      .to('enriched', Produced.with(Serdes.String(), Serdes.String()));
    const app = createStreamsApp({
      topology: builder.build({
        applicationId: 'enrich',
        config: { 'commit.interval.ms': 600_000 },
      }),
      backend,
      stateDir: tempStateDir(),
    });
    await app.start();
    try {
      const out = await waitFor(async () => {
        const records = await readAll(backend, 'enriched', 'string', 'string');
        return records.length >= 50 ? records : undefined;
      });
      expect(out.filter((r) => r.value === 'MISSING')).toEqual([]);
      expect(out[7]).toMatchObject({ key: 'o7', value: 'Country 49' });
      // commit() asked for it: offsets are committed although the interval is 10 minutes.
      await waitFor(
        async () =>
          (await backend.committedOffsets('enrich', [{ topic: 'orders', partition: 0 }])).get(
            'orders:0',
          ) === 50,
        5000,
        'commit',
      );
    } finally {
      await app.close();
      await backend.close();
    }
  });

  it('runs a table groupBy / reduce over a 2-partition repartition topic; wall-clock punctuation fires in the thread', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'scores', partitions: 2 }]);
    const ticks: number[] = [];
    const builder = new StreamsBuilder();
    builder
      .table('scores', Consumed.with(Serdes.String(), Serdes.Long()))
      .groupBy(
        (name, score) => KeyValue.pair(name.slice(0, 1), score),
        Grouped.with(Serdes.String(), Serdes.Long()),
      )
      .reduce(
        (sum, v) => sum + v,
        (sum, v) => sum - v,
        Materialized.as('by-initial'),
      )
      .toStream()
      .process(() => ({
        init: (c) => void c.schedule(50, 'WALL_CLOCK_TIME', (ts) => ticks.push(ts)),
        process: () => undefined,
      }));
    const built = builder.build({ applicationId: 'sums', config: { 'commit.interval.ms': 100 } });
    const app = createStreamsApp({ topology: built, backend, stateDir: tempStateDir() });
    await app.start();
    try {
      const input: [string, number][] = [
        ['jack', 1],
        ['jill', 2],
        ['mike', 4],
        ['jack', 3],
        ['jill', 5],
      ];
      for (const [k, v] of input)
        await backend.produce([
          { topic: 'scores', key: encode('string', k), value: encode('long', v) },
        ]);
      // Final per-initial sums: j = 3 + 5, m = 4 (the table keeps the latest score per name).
      const changelog = 'sums-by-initial-changelog';
      await waitFor(
        async () => {
          const records = await readAll(backend, changelog, 'string', 'long');
          const latest = Object.fromEntries(records.map((r) => [r.key, r.value]));
          return latest['j'] === 8 && latest['m'] === 4 ? latest : undefined;
        },
        10_000,
        'sums in the changelog',
      );
      const topics = await backend.listTopics();
      expect(topics.find((t) => t.name === 'sums-by-initial-repartition')?.partitions).toBe(2);
      await waitFor(() => ticks.length >= 2, 5000, 'wall-clock punctuations');
    } finally {
      await app.close();
      await backend.close();
    }
  });

  it('reuse.ktable.source.topics: a restarted app restores the table from its source topic up to the committed offset', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'settings', partitions: 1 }]);
    const program = () => {
      const builder = new StreamsBuilder();
      builder
        .table(
          'settings',
          Consumed.with(Serdes.String(), Serdes.String()),
          Materialized.as('settings-store'),
        )
        .groupBy(
          (key, value) => KeyValue.pair(value, key),
          Grouped.with(Serdes.String(), Serdes.String()),
        )
        .count(Materialized.as('per-value'))
        .toStream()
        .to('per-value', Produced.with(Serdes.String(), Serdes.Long()));
      return builder.build({
        applicationId: 'reuse',
        config: {
          'commit.interval.ms': 50,
          'topology.optimization': 'reuse.ktable.source.topics',
          'statestore.cache.max.bytes': 0,
        },
      });
    };
    const put = (value: string) =>
      backend.produce([
        { topic: 'settings', key: encode('string', 'k'), value: encode('string', value) },
      ]);
    const output = async (n: number) =>
      waitFor(
        async () => {
          const records = await readAll(backend, 'per-value', 'string', 'long');
          return records.length >= n ? records.map((r) => [r.key, r.value]) : undefined;
        },
        10_000,
        `${n} output records`,
      );
    try {
      const first = createStreamsApp({ topology: program(), backend, stateDir: tempStateDir() });
      await first.start();
      await put('v1');
      await put('v2');
      await output(3);
      await first.close();
      // No changelog topic for the table's store: its source topic is the changelog.
      expect((await backend.listTopics()).map((t) => t.name)).not.toContain(
        'reuse-settings-store-changelog',
      );

      await put('v3');
      const second = createStreamsApp({ topology: program(), backend, stateDir: tempStateDir() });
      await second.start();
      // The restored table knows k was v2, so v3 is an update: v2 loses k, v3 gains it.
      expect(await output(5)).toEqual([
        ['v1', 1],
        ['v1', 0],
        ['v2', 1],
        ['v2', 0],
        ['v3', 1],
      ]);
      await second.close();
    } finally {
      await backend.close();
    }
  });
});
