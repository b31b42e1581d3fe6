import { describe, expect, it } from 'vitest';
import type { TopologyDocument } from '@streamwright/topology-model';
import { exportDsl } from './index.js';

function doc(
  nodes: TopologyDocument['nodes'],
  edges: [string, string, string?, string?][],
): TopologyDocument {
  return {
    schemaVersion: 1,
    application: { id: 'word-count', config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: 'lines', partitions: 2, config: {} },
      { name: 'counts', partitions: 2, config: {} },
    ],
    stores: [],
    nodes,
    edges: edges.map(([from, to, fromPort, toPort]) => ({
      from,
      to,
      fromPort: fromPort ?? 'out',
      toPort: toPort ?? 'in',
    })),
    layout: { nodes: {} },
  };
}

describe('export as TypeScript DSL code', () => {
  it('writes the word count as the StreamsBuilder program a developer would', () => {
    const { code, unsupported } = exportDsl(
      doc(
        [
          {
            id: 'src',
            kind: 'source',
            config: { topic: 'lines', keySerde: 'string', valueSerde: 'string' },
          },
          { id: 'words', kind: 'flatMapValues', config: { expression: 'value.split(" ")' } },
          { id: 'byWord', kind: 'groupBy', config: { expression: 'value' } },
          { id: 'count', kind: 'count', config: { store: 'word-counts' } },
          { id: 'changes', kind: 'toStream', config: {} },
          {
            id: 'out',
            kind: 'sink',
            config: { topic: 'counts', keySerde: 'string', valueSerde: 'long' },
          },
        ],
        [
          ['src', 'words'],
          ['words', 'byWord'],
          ['byWord', 'count'],
          ['count', 'changes'],
          ['changes', 'out'],
        ],
      ),
    );
    expect(unsupported).toEqual([]);
    expect(code)
      .toBe(`import { Consumed, Materialized, Produced, Serdes, StreamsBuilder } from '@streamwright/engine';

const builder = new StreamsBuilder();
const src = builder.stream('lines', Consumed.with(Serdes.String(), Serdes.String()));
const words = src.flatMapValues('value.split(" ")');
const byWord = words.groupBy('value');
const count = byWord.count(Materialized.as('word-counts'));
const changes = count.toStream();
changes.to('counts', Produced.with(Serdes.String(), Serdes.Long()));

export const built = builder.build({
  applicationId: 'word-count',
  config: {"commit.interval.ms":100},
  topics: [
    { name: 'lines', partitions: 2 },
    { name: 'counts', partitions: 2 },
  ],
});
`);
  });

  it('spells split branches, merge, names and function references with the DSL API', () => {
    const { code } = exportDsl(
      doc(
        [
          { id: 'src', kind: 'source', config: { topic: 'lines' } },
          {
            id: 'route',
            kind: 'split',
            name: 'route-',
            config: {
              branches: [{ name: 'big', predicate: { function: 'isBig' } }, { predicate: 'true' }],
              defaultBranch: {},
            },
          },
          { id: 'm', kind: 'merge', name: 'joined', config: {} },
          { id: 'out', kind: 'sink', config: { topic: 'counts' } },
          { id: 'big', kind: 'sink', config: { topic: 'counts' } },
        ],
        [
          ['src', 'route'],
          ['route', 'big', 'big'],
          ['route', 'm', '2'],
          ['route', 'm', '0'],
          ['m', 'out'],
        ],
      ),
    );
    expect(code).toContain(`import { isBig } from './functions.js';`);
    expect(code).toContain(`const route = src.split(Named.as('route-'))
  .branch(isBig, Branched.as('big'))
  .branch('true')
  .defaultBranch();`);
    expect(code).toContain(`route.get('route-big')!.to('counts'`);
    expect(code).toContain(
      `const m = route.get('route-2')!.merge(route.get('route-0')!, Named.as('joined'));`,
    );
  });

  it('spells windows, windowed aggregations, suppress and WindowedSerdes with the DSL API', () => {
    const { code, unsupported } = exportDsl(
      doc(
        [
          {
            id: 'src',
            kind: 'source',
            config: { topic: 'lines', keySerde: 'string', valueSerde: 'json' },
          },
          { id: 'byKey', kind: 'groupByKey', config: {} },
          {
            id: 'w',
            kind: 'windowedBy',
            config: { window: { type: 'tumbling', sizeMs: 5000, graceMs: 2000 } },
          },
          { id: 'perWindow', kind: 'windowedCount', config: { store: 'c', retentionMs: 60000 } },
          {
            id: 'final',
            kind: 'suppress',
            name: 'final',
            config: { until: 'windowCloses', whenFull: 'shutDown' },
          },
          { id: 'changes', kind: 'toStream', config: {} },
          {
            id: 'out',
            kind: 'sink',
            config: {
              topic: 'counts',
              valueSerde: 'long',
              windowedKey: 'time',
              windowSizeMs: 5000,
            },
          },
          {
            id: 'hop',
            kind: 'windowedBy',
            config: {
              window: { type: 'hopping', sizeMs: 10000, advanceMs: 5000, graceMs: 0 },
              emitStrategy: 'onWindowClose',
            },
          },
          { id: 'sum', kind: 'windowedReduce', config: { expression: 'agg + value' } },
          {
            id: 'early',
            kind: 'suppress',
            config: {
              until: 'timeLimit',
              timeLimitMs: 1000,
              maxRecords: 10,
              whenFull: 'emitEarly',
            },
          },
          {
            id: 'sess',
            kind: 'windowedBy',
            config: { window: { type: 'session', gapMs: 3000, graceMs: 0 } },
          },
          {
            id: 'agg',
            kind: 'windowedAggregate',
            config: { initializer: '0', aggregator: { function: 'add' }, merger: 'agg + value' },
          },
          {
            id: 'slide',
            kind: 'windowedBy',
            config: { window: { type: 'sliding', timeDifferenceMs: 2000, graceMs: 500 } },
          },
          {
            id: 'slideCount',
            kind: 'windowedCount',
            config: { keySerde: 'string', caching: false },
          },
        ],
        [
          ['src', 'byKey'],
          ['byKey', 'w'],
          ['w', 'perWindow'],
          ['perWindow', 'final'],
          ['final', 'changes'],
          ['changes', 'out'],
          ['byKey', 'hop'],
          ['hop', 'sum'],
          ['sum', 'early'],
          ['byKey', 'sess'],
          ['sess', 'agg'],
          ['byKey', 'slide'],
          ['slide', 'slideCount'],
        ],
      ),
    );
    expect(unsupported).toEqual([]);
    expect(code).toContain(
      `import { BufferConfig, Consumed, EmitStrategy, Materialized, Produced, Serdes, SessionWindows, SlidingWindows, StreamsBuilder, Suppressed, TimeWindows, WindowedSerdes } from '@streamwright/engine';`,
    );
    expect(code).toContain(`import { add } from './functions.js';`);
    expect(code).toContain(`const w = byKey.windowedBy(TimeWindows.ofSizeAndGrace(5000, 2000));
const perWindow = w.count(Materialized.as<never, never>('c').withRetention(60000));
const final = perWindow.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName('final'));
const changes = final.toStream();
changes.to('counts', Produced.with(WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), 5000), Serdes.Long()));`);
    expect(code)
      .toContain(`const hop = byKey.windowedBy(TimeWindows.ofSizeWithNoGrace(10000).advanceBy(5000))
  .emitStrategy(EmitStrategy.onWindowClose());
const sum = hop.reduce('agg + value');
const early = sum.suppress(Suppressed.untilTimeLimit(1000, BufferConfig.maxRecords(10)));`);
    expect(code)
      .toContain(`const sess = byKey.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(3000));
const agg = sess.aggregate('0', add, 'agg + value');`);
    expect(code)
      .toContain(`const slide = byKey.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(2000, 500));
const slideCount = slide.count(Materialized.with(Serdes.String(), Serdes.Long()).withCachingDisabled());`);
  });

  it('spells a windowed cogroup as CogroupedKStream#windowedBy (time and session windows)', () => {
    const cogroup = (id: string, extra: Record<string, unknown>) => ({
      id,
      kind: 'cogroup' as const,
      config: {
        inputs: [
          { port: 'a', aggregator: 'agg + 1' },
          { port: 'b', aggregator: 'agg + 10' },
        ],
        initializer: '0',
        ...extra,
      },
    });
    const { code, unsupported } = exportDsl(
      doc(
        [
          { id: 'src', kind: 'source', config: { topic: 'lines' } },
          { id: 'ga', kind: 'groupByKey', config: {} },
          { id: 'gb', kind: 'groupByKey', config: {} },
          cogroup('timed', {
            window: { type: 'hopping', sizeMs: 1000, advanceMs: 500, graceMs: 200 },
            store: 'hops',
            retentionMs: 5000,
          }),
          cogroup('sessions', {
            window: { type: 'session', gapMs: 300, graceMs: 0 },
            merger: 'agg + value',
          }),
        ],
        [
          ['src', 'ga'],
          ['src', 'gb'],
          ['ga', 'timed', 'out', 'a'],
          ['gb', 'timed', 'out', 'b'],
          ['ga', 'sessions', 'out', 'a'],
          ['gb', 'sessions', 'out', 'b'],
        ],
      ),
    );
    expect(unsupported).toEqual([]);
    expect(code).toContain(`const timed = ga.cogroup('agg + 1')
  .cogroup(gb, 'agg + 10')
  .windowedBy(TimeWindows.ofSizeAndGrace(1000, 200).advanceBy(500))
  .aggregate('0', Materialized.as<never, never>('hops').withRetention(5000));`);
    expect(code).toContain(`const sessions = ga.cogroup('agg + 1')
  .cogroup(gb, 'agg + 10')
  .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(300))
  .aggregate('0', 'agg + value');`);
  });

  it('spells every join kind with its windows, StreamJoined / Joined, Named and Materialized', () => {
    const { code, unsupported } = exportDsl(
      doc(
        [
          { id: 'orders', kind: 'source', config: { topic: 'orders' } },
          { id: 'payments', kind: 'source', config: { topic: 'payments' } },
          {
            id: 'paid',
            kind: 'streamStreamJoin',
            name: 'order-payments',
            config: {
              type: 'inner',
              joiner: '[left, right]',
              window: { beforeMs: 1000, afterMs: 2000, graceMs: 500 },
              keySerde: 'string',
              valueSerde: 'json',
            },
          },
          {
            id: 'either',
            kind: 'streamStreamJoin',
            name: 'either',
            config: {
              type: 'outer',
              joiner: { function: 'pair' },
              window: { beforeMs: 100, afterMs: 100, graceMs: 0 },
              storeName: 'either-st',
              thisStoreSupplier: {
                name: 'either-mem',
                type: 'inMemory',
                retentionMs: 200,
                windowSizeMs: 200,
                retainDuplicates: true,
              },
              dslStoreSuppliers: 'rocksDB',
              logConfig: { 'segment.bytes': '1048576' },
            },
          },
          { id: 'customers', kind: 'table', config: { topic: 'customers' } },
          {
            id: 'withCustomer',
            kind: 'streamTableJoin',
            name: 'with-customer',
            config: { type: 'left', joiner: 'right' },
          },
          { id: 'products', kind: 'globalTable', config: { topic: 'products' } },
          {
            id: 'withProduct',
            kind: 'streamGlobalTableJoin',
            config: { type: 'inner', keySelector: 'value.product', joiner: 'left' },
          },
          { id: 'accounts', kind: 'table', config: { topic: 'accounts' } },
          {
            id: 'tt',
            kind: 'tableTableJoin',
            name: 'tt',
            config: { type: 'left', joiner: 'left', store: 'tt-store' },
          },
          {
            id: 'fk',
            kind: 'foreignKeyJoin',
            name: 'by-account',
            config: { type: 'left', foreignKeyExtractor: 'value.account', joiner: 'right' },
          },
          {
            id: 'fkInner',
            kind: 'foreignKeyJoin',
            config: { foreignKeyExtractor: 'value.account', joiner: 'left' },
          },
          {
            id: 'fkRouted',
            kind: 'foreignKeyJoin',
            name: 'routed',
            config: {
              foreignKeyExtractor: 'value.account',
              joiner: 'left',
              otherPartitioner: 'byAccount',
            },
          },
        ],
        [
          ['orders', 'paid', 'out', 'left'],
          ['payments', 'paid', 'out', 'right'],
          ['payments', 'either', 'out', 'left'],
          ['orders', 'either', 'out', 'right'],
          ['paid', 'withCustomer', 'out', 'left'],
          ['customers', 'withCustomer', 'out', 'right'],
          ['withCustomer', 'withProduct', 'out', 'left'],
          ['products', 'withProduct', 'out', 'right'],
          ['customers', 'tt', 'out', 'left'],
          ['accounts', 'tt', 'out', 'right'],
          ['customers', 'fk', 'out', 'left'],
          ['accounts', 'fk', 'out', 'right'],
          ['customers', 'fkInner', 'out', 'left'],
          ['accounts', 'fkInner', 'out', 'right'],
          ['customers', 'fkRouted', 'out', 'left'],
          ['accounts', 'fkRouted', 'out', 'right'],
        ],
      ),
    );
    expect(unsupported).toEqual([]);
    expect(code).toContain(`import { pair } from './functions.js';`);
    expect(code).toContain(
      `const paid = orders.join(payments, '[left, right]', JoinWindows.ofTimeDifferenceAndGrace(2000, 500).before(1000), StreamJoined.with(Serdes.String(), Serdes.Json()).withName('order-payments'));`,
    );
    expect(code).toContain(
      `const either = payments.outerJoin(orders, pair, JoinWindows.ofTimeDifferenceWithNoGrace(100), StreamJoined.with(null, null).withName('either').withStoreName('either-st').withThisStoreSupplier(Stores.inMemoryWindowStore('either-mem', 200, 200, true)).withDslStoreSuppliers(new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers()).withLoggingEnabled({"segment.bytes":"1048576"}));`,
    );
    expect(code).toContain(
      `const withCustomer = paid.leftJoin(customers, 'right', Joined.as('with-customer'));`,
    );
    expect(code).toContain(
      `const withProduct = withCustomer.join(products, 'value.product', 'left');`,
    );
    expect(code).toContain(
      `const tt = customers.leftJoin(accounts, 'left', Named.as('tt'), Materialized.as('tt-store'));`,
    );
    expect(code).toContain(
      `const fk = customers.leftJoin(accounts, 'value.account', 'right', TableJoined.as('by-account'));`,
    );
    expect(code).toContain(`const fkInner = customers.join(accounts, 'value.account', 'left');`);
    expect(code).toContain(
      `const fkRouted = customers.join(accounts, 'value.account', 'left', TableJoined.with(null, byAccount).withName('routed'));`,
    );
    expect(code).toContain(`import { byAccount } from './partitioners.js';`);
    expect(code).toMatch(/import \{[^}]*\bTableJoined\b[^}]*\} from '@streamwright\/engine'/);
  });

  it('adds window, session and key-value stores with their Stores suppliers', () => {
    const design = doc([{ id: 'src', kind: 'source', config: { topic: 'lines' } }], []);
    const store = {
      keySerde: 'string',
      valueSerde: 'long',
      logging: true,
      caching: false,
    } as const;
    design.stores = [
      {
        ...store,
        name: 'recent',
        type: 'window',
        storeType: 'persistent',
        retentionMs: 60000,
        windowSizeMs: 10000,
        retainDuplicates: false,
      },
      { ...store, name: 'visits', type: 'session', storeType: 'inMemory', retentionMs: 30000 },
      { ...store, name: 'totals', type: 'keyValue', storeType: 'persistent', logging: false },
    ];
    const { code } = exportDsl(design);
    expect(code).toContain(`const builder = new StreamsBuilder();
builder.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore('recent', 60000, 10000, false), Serdes.String(), Serdes.Long()));
builder.addStateStore(Stores.sessionStoreBuilder(Stores.inMemorySessionStore('visits', 30000), Serdes.String(), Serdes.Long()));
builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore('totals'), Serdes.String(), Serdes.Long()).withLoggingDisabled());
`);
  });

  it('spells versioned tables and versioned stores with Stores.persistentVersionedKeyValueStore', () => {
    const design = doc(
      [
        {
          id: 'prices',
          kind: 'table',
          config: {
            topic: 'prices',
            store: 'prices-store',
            versioned: { historyRetentionMs: 60000 },
          },
        },
      ],
      [],
    );
    design.stores = [
      {
        name: 'history',
        type: 'versioned',
        keySerde: 'string',
        valueSerde: 'long',
        logging: true,
        caching: false,
        storeType: 'persistent',
        historyRetentionMs: 3600000,
        segmentIntervalMs: 600000,
      },
    ];
    const { code } = exportDsl(design);
    expect(code).toContain(
      `builder.table('prices', Consumed.with(Serdes.String(), Serdes.Json()), Materialized.as(Stores.persistentVersionedKeyValueStore('prices-store', 60000)));`,
    );
    expect(code).toContain(
      `builder.addStateStore(Stores.versionedKeyValueStoreBuilder(Stores.persistentVersionedKeyValueStore('history', 3600000, 600000), Serdes.String(), Serdes.Long()));`,
    );
  });

  it('spells a stream–table join’s grace period with Joined#withGracePeriod', () => {
    const { code, unsupported } = exportDsl(
      doc(
        [
          { id: 'orders', kind: 'source', config: { topic: 'orders' } },
          {
            id: 'prices',
            kind: 'table',
            config: { topic: 'prices', store: 'p', versioned: { historyRetentionMs: 60000 } },
          },
          {
            id: 'priced',
            kind: 'streamTableJoin',
            name: 'priced',
            config: { type: 'left', joiner: 'right', gracePeriodMs: 5000, keySerde: 'string' },
          },
          {
            id: 'late',
            kind: 'streamTableJoin',
            config: { type: 'inner', joiner: 'right', gracePeriodMs: 0 },
          },
        ],
        [
          ['orders', 'priced', 'out', 'left'],
          ['prices', 'priced', 'out', 'right'],
          ['orders', 'late', 'out', 'left'],
          ['prices', 'late', 'out', 'right'],
        ],
      ),
    );
    expect(unsupported).toEqual([]);
    expect(code).toContain(
      `const priced = orders.leftJoin(prices, 'right', Joined.with(Serdes.String(), Serdes.Json()).withName('priced').withGracePeriod(5000));`,
    );
    expect(code).toContain(
      `const late = orders.join(prices, 'right', Joined.with(null, null).withGracePeriod(0));`,
    );
  });

  it('spells a versioned store on KTable filter / mapValues, joins and aggregations (KIP-914)', () => {
    const v = (store: string) => ({ store, versioned: { historyRetentionMs: 5000 } });
    const { code, unsupported } = exportDsl(
      doc(
        [
          { id: 'l', kind: 'table', config: { topic: 'lines' } },
          { id: 'r', kind: 'table', config: { topic: 'counts' } },
          { id: 'f', kind: 'tableFilter', config: { expression: 'value > 1', ...v('f-store') } },
          {
            id: 'm',
            kind: 'tableMapValues',
            config: { expression: 'value * 2', caching: true, ...v('m-store') },
          },
          { id: 'j', kind: 'tableTableJoin', config: { joiner: 'left + right', ...v('j-store') } },
          { id: 'g', kind: 'tableGroupBy', config: { expression: '{"key": value, "value": key}' } },
          { id: 'c', kind: 'tableCount', config: v('c-store') },
        ],
        [
          ['l', 'f'],
          ['f', 'm'],
          ['m', 'j', 'out', 'left'],
          ['r', 'j', 'out', 'right'],
          ['j', 'g'],
          ['g', 'c'],
        ],
      ),
    );
    expect(unsupported).toEqual([]);
    for (const [store, extra] of [
      ['f-store', ''],
      ['m-store', '.withCachingEnabled()'],
      ['j-store', ''],
      ['c-store', ''],
    ])
      expect(code).toContain(`(Stores.persistentVersionedKeyValueStore('${store}', 5000))${extra}`);
  });
});
