// The record cache (`statestore.cache.max.bytes`, Kafka Streams' ThreadCache/CachingKeyValueStore).
// 1. With the cache on, TopologyTestDriver still commits after every record, so every update is
//    forwarded — but through the cache's flush, which is visible: a key created and deleted
//    between two flushes forwards nothing, and the old value of a new key is null (the
//    underlying store had none) instead of the aggregation's initializer. Checked against Kafka
//    Streams through tools/ks-oracle with the cache on in both.
// 2. In a running app the cache collapses the updates of a key between commits: Kafka Streams'
//    own KStreamAggregationDedupIntegrationTest#shouldReduce / shouldGroupByKey expect one output
//    per key and commit with the last value, and CachingInMemoryKeyValueStoreTest
//    #shouldForwardDirtyItemsWhenFlushCalled / #shouldFlushEvictedItemsIntoUnderlyingStore expect
//    dirty entries forwarded at flush and when the cache evicts. Expected values below follow them.
//    The same holds for a KGroupedTable aggregation and a materialized KTable filter
//    (CachingKeyValueStore behind KTableAggregate / KTableFilter): one change per key and commit,
//    nothing for a key created and removed (or never present) between two commits.
import type { OracleScenario } from '@streamwright/ks-oracle';
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
} from '../src/index.js';
import { compareWithOracle } from './fixtures/oracle-harness.js';
import { encode, readAll } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';
import { tempStateDir } from './fixtures/state-dir.js';

const CACHE_ON = { 'statestore.cache.max.bytes': 10_485_760 };
const doc = (id: string, topics: string[], nodes: unknown[], edges: [string, string][]) => ({
  schemaVersion: 1,
  application: { id, config: CACHE_ON },
  topics: topics.map((name) => ({ name, partitions: 1 })),
  nodes,
  edges: edges.map(([from, to]) => ({ from, to })),
});
const sink = (id: string, topic: string, valueSerde = 'json') => ({
  id,
  kind: 'sink',
  config: { topic, keySerde: 'string', valueSerde },
});

const scenarios: OracleScenario[] = [
  {
    name: 'cache on: a table source forwards no tombstone for a key it never had',
    topology: doc(
      'cached-table',
      ['orders', 'table-out'],
      [
        { id: 'src', kind: 'source', config: { topic: 'orders' } },
        { id: 'tt', kind: 'toTable', config: { store: 'latest' } },
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'table-out'),
      ],
      [
        ['src', 'tt'],
        ['tt', 'ts'],
        ['ts', 'o'],
      ],
    ),
    inputs: [
      { topic: 'orders', key: 'o1', value: { amount: 50 }, timestamp: 10 },
      { topic: 'orders', key: 'o4', value: null, timestamp: 40 },
      { topic: 'orders', key: 'o1', value: { amount: 90 }, timestamp: 60 },
      { topic: 'orders', key: 'o1', value: null, timestamp: 70 },
      { topic: 'orders', key: 'o1', value: null, timestamp: 80 },
    ],
    outputs: ['table-out'],
  },
  {
    name: 'cache on: count → table groupBy sees a null old value for a new key',
    topology: doc(
      'cached-count',
      ['words', 'counts', 'distinct'],
      [
        { id: 'words', kind: 'source', config: { topic: 'words', valueSerde: 'string' } },
        { id: 'g', kind: 'groupByKey', config: {} },
        { id: 'c', kind: 'count', config: { store: 'word-counts' } },
        { id: 'cs', kind: 'toStream', config: {} },
        sink('co', 'counts', 'long'),
        {
          id: 'all',
          kind: 'tableGroupBy',
          config: {
            expression: '{"key": "all", "value": value}',
            keySerde: 'string',
            valueSerde: 'long',
          },
        },
        { id: 'n', kind: 'tableCount', config: { store: 'distinct', caching: false } },
        { id: 'ts', kind: 'toStream', config: {} },
        sink('o', 'distinct', 'long'),
      ],
      [
        ['words', 'g'],
        ['g', 'c'],
        ['c', 'cs'],
        ['cs', 'co'],
        ['c', 'all'],
        ['all', 'n'],
        ['n', 'ts'],
        ['ts', 'o'],
      ],
    ),
    inputs: ['a', 'b', 'a', 'c', 'a'].map((key, i) => ({
      topic: 'words',
      key,
      value: key,
      timestamp: i + 1,
    })),
    outputs: ['counts', 'distinct'],
  },
];

compareWithOracle(
  'record cache vs Apache Kafka Streams 4.1 (cache on, TTD commits per record)',
  scenarios,
);

describe('record cache in a running app', () => {
  const run = async (
    cacheBytes: number | undefined,
    words: string[],
    check: (out: { key: unknown; value: unknown }[]) => void,
  ) => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'words', partitions: 1 }]);
    const builder = new StreamsBuilder();
    builder
      .stream('words', Consumed.with(Serdes.String(), Serdes.String()))
      .groupByKey()
      .count()
      .toStream()
      .to('counts', Produced.with(Serdes.String(), Serdes.Long()));
    await backend.produce(
      words.map((w, i) => ({
        topic: 'words',
        key: encode('string', w),
        value: encode('string', w),
        timestamp: i,
      })),
    );
    const app = createStreamsApp({
      topology: builder.build({
        applicationId: `cache-${cacheBytes ?? 'default'}`,
        // One commit after everything is processed (the close), so collapsing is deterministic.
        config: {
          'commit.interval.ms': 600_000,
          ...(cacheBytes === undefined ? {} : { 'statestore.cache.max.bytes': cacheBytes }),
        },
      }),
      backend,
      stateDir: tempStateDir(),
    });
    await app.start();
    await waitFor(() => (app.metrics().tasks['0_0']?.['process-total'] ?? 0) >= words.length);
    await app.close();
    check(
      (await readAll(backend, 'counts', 'string', 'long')).map((r) => ({
        key: r.key,
        value: r.value,
      })),
    );
    await backend.close();
  };
  const words = ['a', 'b', 'a', 'c', 'a', 'b'];

  it('the default 10 MB cache forwards one update per key and commit, in last-update order', async () => {
    await run(undefined, words, (out) =>
      expect(out).toEqual([
        { key: 'c', value: 1 },
        { key: 'a', value: 3 },
        { key: 'b', value: 2 },
      ]),
    );
  });

  it('statestore.cache.max.bytes = 0 forwards every update', async () => {
    await run(0, words, (out) => expect(out.map((r) => r.value)).toEqual([1, 1, 2, 1, 3, 2]));
  });

  it('a cache too small for two entries evicts (forwards) the longest-dirty key early', async () => {
    // One entry is key + value bytes + 56; 130 bytes hold two entries, not three.
    await run(130, words, (out) =>
      expect(out).toEqual([
        { key: 'a', value: 2 },
        { key: 'b', value: 1 },
        { key: 'c', value: 1 },
        { key: 'a', value: 3 },
        { key: 'b', value: 2 },
      ]),
    );
  });
});

describe('record cache in a running app: table aggregations and materialized filters', () => {
  // One commit after everything is processed (the close), so collapsing is deterministic.
  const run = async (
    id: string,
    input: [string, string][],
    build: (b: StreamsBuilder) => void,
    out: string,
    /** Records the last sub-topology (after a repartition topic) must have processed. */
    downstream?: { taskId: string; records: number },
  ) => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 'in', partitions: 1 }]);
    const builder = new StreamsBuilder();
    build(builder);
    await backend.produce(
      input.map(([k, v], i) => ({
        topic: 'in',
        key: encode('string', k),
        value: encode('string', v),
        timestamp: i,
      })),
    );
    const app = createStreamsApp({
      topology: builder.build({ applicationId: id, config: { 'commit.interval.ms': 600_000 } }),
      backend,
      stateDir: tempStateDir(),
    });
    await app.start();
    await waitFor(() => (app.metrics().tasks['0_0']?.['process-total'] ?? 0) >= input.length);
    if (downstream !== undefined)
      await waitFor(
        () =>
          (app.metrics().tasks[downstream.taskId]?.['process-total'] ?? 0) >= downstream.records,
      );
    await app.close();
    const records = (await readAll(backend, out, 'string', 'string')).map((r) => ({
      key: r.key,
      value: r.value,
    }));
    await backend.close();
    return records;
  };
  const strings = Consumed.with(Serdes.String(), Serdes.String());

  it('a KGroupedTable count forwards each group once per commit, in last-update order', async () => {
    const out = await run(
      'cache-table-count',
      [
        ['u1', 'oslo'],
        ['u2', 'oslo'],
        ['u1', 'rome'],
        ['u3', 'rome'],
      ],
      (b) =>
        b
          .stream('in', strings)
          .toTable(Materialized.as<string, string>('where').withCachingDisabled())
          .groupBy(
            (user: string, city: string) => KeyValue.pair(city, user),
            Grouped.with(Serdes.String(), Serdes.String()),
          )
          .count()
          .toStream()
          .mapValues((n: number) => String(n))
          .to('per-city', Produced.with(Serdes.String(), Serdes.String())),
      'per-city',
      // The repartition topic carries oslo+, oslo+, oslo− and rome+ (u1 moves), rome+.
      { taskId: '1_0', records: 5 },
    );
    // Uncached: oslo 1, oslo 2, oslo 1, rome 1, rome 2. oslo's last update (u1 leaving) comes
    // before rome's.
    expect(out).toEqual([
      { key: 'oslo', value: '1' },
      { key: 'rome', value: '2' },
    ]);
  });

  it('a materialized table–table join forwards each joined key once per commit', async () => {
    // One input topic feeds both tables (values "l:…" go left, "r:…" right), so one task sees
    // the records in order: k1 joins at r:x, then l:2 updates the result; k2 never matches.
    const out = await run(
      'cache-table-join',
      [
        ['k1', 'l:1'],
        ['k2', 'l:5'],
        ['k1', 'r:x'],
        ['k1', 'l:2'],
      ],
      (b) => {
        const input = b.stream('in', strings);
        const side = (prefix: string, store: string) =>
          input
            .filter((_k: string, v: string) => v.startsWith(prefix))
            .toTable(Materialized.as<string, string>(store).withCachingDisabled());
        side('l:', 'lefts')
          .join(
            side('r:', 'rights'),
            (l: string, r: string) => `${l}+${r}`,
            Materialized.as('joined'),
          )
          .toStream()
          .to('joined', Produced.with(Serdes.String(), Serdes.String()));
      },
      'joined',
    );
    // Uncached: k1 l:1+r:x, then k1 l:2+r:x.
    expect(out).toEqual([{ key: 'k1', value: 'l:2+r:x' }]);
  });

  it('a materialized KTable filter forwards nothing for keys filtered out since the last commit', async () => {
    const out = await run(
      'cache-table-filter',
      [
        ['u1', 'adult'],
        ['u2', 'child'],
        ['u1', 'child'],
        ['u2', 'adult'],
        ['u3', 'child'],
      ],
      (b) =>
        b
          .stream('in', strings)
          .toTable(Materialized.as<string, string>('people').withCachingDisabled())
          .filter((_k: string, v: string) => v === 'adult', Materialized.as('adults'))
          .toStream()
          .to('adults', Produced.with(Serdes.String(), Serdes.String())),
      'adults',
    );
    // Uncached: u1 adult, u2 null, u1 null, u2 adult, u3 null. u1 was added and removed, u3 never
    // passed: only u2 is forwarded.
    expect(out).toEqual([{ key: 'u2', value: 'adult' }]);
  });
});
