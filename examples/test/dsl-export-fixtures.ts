// Designs with every window, join and suppress node kind, for the code export round trip
// (dsl-export.test.ts). Node ids sort in the order the exported program creates them (the DSL's
// depth-first order), so the generated processor names of both sides are the same.
import type { TopologyDocument } from '@streamwright/topology-model';

type Node = TopologyDocument['nodes'][number];

function doc(
  id: string,
  topics: string[],
  nodes: Node[],
  edges: [string, string, string?][],
): TopologyDocument {
  return {
    schemaVersion: 1,
    application: { id, config: { 'commit.interval.ms': 100 } },
    topics: topics.map((name) => ({ name, partitions: 2, config: {} })),
    stores: [],
    nodes,
    edges: edges.map(([from, to, toPort]) => ({
      from,
      to,
      fromPort: 'out',
      toPort: toPort ?? 'in',
    })),
    layout: { nodes: {} },
  };
}

const source = (id: string, topic: string): Node => ({
  id,
  kind: 'source',
  config: { topic, keySerde: 'string', valueSerde: 'json' },
});

export const windowedDesigns: TopologyDocument[] = [
  doc(
    'tumbling-final-counts',
    ['clicks', 'click-counts'],
    [
      source('n01', 'clicks'),
      { id: 'n02', kind: 'groupByKey', config: {} },
      {
        id: 'n03',
        kind: 'windowedBy',
        config: { window: { type: 'tumbling', sizeMs: 5000, graceMs: 2000 } },
      },
      {
        id: 'n04',
        kind: 'windowedCount',
        config: { store: 'clicks-per-window', retentionMs: 60000 },
      },
      {
        id: 'n05',
        kind: 'suppress',
        name: 'final-counts',
        config: { until: 'windowCloses', whenFull: 'shutDown' },
      },
      { id: 'n06', kind: 'toStream', config: {} },
      {
        id: 'n07',
        kind: 'sink',
        config: {
          topic: 'click-counts',
          keySerde: 'string',
          valueSerde: 'long',
          windowedKey: 'time',
          windowSizeMs: 5000,
        },
      },
    ],
    [
      ['n01', 'n02'],
      ['n02', 'n03'],
      ['n03', 'n04'],
      ['n04', 'n05'],
      ['n05', 'n06'],
      ['n06', 'n07'],
    ],
  ),
  {
    ...doc(
      'hopping-session-sliding',
      ['clicks', 'views', 'hop-sums', 'sessions', 'sliding'],
      [
        source('n01', 'clicks'),
        { id: 'n02', kind: 'groupByKey', config: {} },
        {
          id: 'n03',
          kind: 'windowedBy',
          config: { window: { type: 'hopping', sizeMs: 10000, advanceMs: 5000, graceMs: 0 } },
        },
        {
          id: 'n04',
          kind: 'windowedReduce',
          config: { expression: 'agg + value', store: 'hop-sums', caching: false },
        },
        {
          id: 'n05',
          kind: 'suppress',
          config: { until: 'timeLimit', timeLimitMs: 1000, maxRecords: 100, whenFull: 'emitEarly' },
        },
        { id: 'n06', kind: 'toStream', config: {} },
        {
          id: 'n07',
          kind: 'sink',
          config: { topic: 'hop-sums', windowedKey: 'time', windowSizeMs: 10000 },
        },
        { id: 'n08', kind: 'groupBy', config: { expression: 'value.user' } },
        {
          id: 'n09',
          kind: 'windowedBy',
          config: { window: { type: 'session', gapMs: 3000, graceMs: 1000 } },
        },
        {
          id: 'n10',
          kind: 'windowedAggregate',
          name: 'sessions',
          config: { initializer: '0', aggregator: 'agg + 1', merger: 'agg + value' },
        },
        { id: 'n11', kind: 'toStream', config: {} },
        {
          id: 'n12',
          kind: 'sink',
          config: { topic: 'sessions', windowedKey: 'session', valueSerde: 'long' },
        },
        source('n13', 'views'),
        { id: 'n14', kind: 'groupByKey', config: {} },
        {
          id: 'n15',
          kind: 'windowedBy',
          config: {
            window: { type: 'sliding', timeDifferenceMs: 2000, graceMs: 500 },
            emitStrategy: 'onWindowClose',
          },
        },
        {
          id: 'n16',
          kind: 'windowedAggregate',
          config: {
            initializer: { function: 'zero' },
            aggregator: { function: 'addOne' },
            store: 'sliding-counts',
            retentionMs: 30000,
          },
        },
        { id: 'n17', kind: 'toStream', config: {} },
        {
          id: 'n18',
          kind: 'sink',
          config: { topic: 'sliding', windowedKey: 'time', windowSizeMs: 2000 },
        },
      ],
      [
        ['n01', 'n02'],
        ['n02', 'n03'],
        ['n03', 'n04'],
        ['n04', 'n05'],
        ['n05', 'n06'],
        ['n06', 'n07'],
        ['n01', 'n08'],
        ['n08', 'n09'],
        ['n09', 'n10'],
        ['n10', 'n11'],
        ['n11', 'n12'],
        ['n13', 'n14'],
        ['n14', 'n15'],
        ['n15', 'n16'],
        ['n16', 'n17'],
        ['n17', 'n18'],
      ],
    ),
    // Processor API stores beside the DSL's (StreamsBuilder#addStateStore)
    stores: [
      {
        name: 'recent',
        type: 'window',
        keySerde: 'string',
        valueSerde: 'long',
        logging: true,
        caching: true,
        storeType: 'persistent',
        retentionMs: 60000,
        windowSizeMs: 10000,
        retainDuplicates: true,
      },
      {
        name: 'visits',
        type: 'session',
        keySerde: 'string',
        valueSerde: 'json',
        logging: false,
        caching: false,
        storeType: 'inMemory',
        retentionMs: 30000,
      },
      {
        name: 'totals',
        type: 'keyValue',
        keySerde: 'string',
        valueSerde: 'double',
        logging: true,
        caching: false,
        storeType: 'inMemory',
      },
    ],
  },
];

export const joinDesigns: TopologyDocument[] = [
  doc(
    'order-enrichment',
    ['orders', 'payments', 'customers', 'products', 'enriched'],
    [
      source('a01', 'orders'),
      source('a02', 'payments'),
      {
        id: 'a03',
        kind: 'streamStreamJoin',
        name: 'order-payments',
        config: {
          type: 'inner',
          joiner: '{"order": left, "payment": right}',
          window: { beforeMs: 1000, afterMs: 2000, graceMs: 500 },
          keySerde: 'string',
          valueSerde: 'json',
        },
      },
      {
        id: 'a04',
        kind: 'table',
        config: { topic: 'customers', keySerde: 'string', valueSerde: 'json', store: 'customers' },
      },
      {
        id: 'a05',
        kind: 'streamTableJoin',
        config: { type: 'left', joiner: { function: 'withCustomer' } },
      },
      {
        id: 'a06',
        kind: 'globalTable',
        config: { topic: 'products', keySerde: 'string', valueSerde: 'json', store: 'products' },
      },
      {
        id: 'a07',
        kind: 'streamGlobalTableJoin',
        name: 'with-product',
        config: { type: 'inner', keySelector: 'value.order.product', joiner: 'left' },
      },
      { id: 'a08', kind: 'sink', config: { topic: 'enriched' } },
    ],
    [
      ['a01', 'a03', 'left'],
      ['a02', 'a03', 'right'],
      ['a03', 'a05', 'left'],
      ['a04', 'a05', 'right'],
      ['a05', 'a07', 'left'],
      ['a06', 'a07', 'right'],
      ['a07', 'a08'],
    ],
  ),
  doc(
    'table-and-outer-joins',
    ['users', 'accounts', 'user-accounts', 's1', 's2', 'pairs', 'lefts'],
    [
      {
        id: 'b01',
        kind: 'table',
        config: { topic: 'users', keySerde: 'string', valueSerde: 'json', store: 'users' },
      },
      {
        id: 'b02',
        kind: 'table',
        config: { topic: 'accounts', keySerde: 'string', valueSerde: 'json', store: 'accounts' },
      },
      {
        id: 'b03',
        kind: 'tableTableJoin',
        name: 'user-accounts-join',
        config: { type: 'outer', joiner: '[left, right]', store: 'user-accounts' },
      },
      {
        id: 'b04',
        kind: 'suppress',
        config: { until: 'timeLimit', timeLimitMs: 2000, whenFull: 'shutDown' },
      },
      { id: 'b05', kind: 'toStream', config: {} },
      { id: 'b06', kind: 'sink', config: { topic: 'user-accounts' } },
      source('b10', 's1'),
      source('b11', 's2'),
      {
        id: 'b12',
        kind: 'streamStreamJoin',
        config: {
          type: 'outer',
          joiner: '[left, right]',
          window: { beforeMs: 1000, afterMs: 1000, graceMs: 0 },
          otherValueSerde: 'json',
          storeName: 'pairs',
          thisStoreSupplier: {
            name: 'pairs-mem',
            type: 'inMemory',
            retentionMs: 2000,
            windowSizeMs: 2000,
            retainDuplicates: true,
          },
          logConfig: { 'segment.bytes': '1048576' },
        },
      },
      { id: 'b13', kind: 'sink', config: { topic: 'pairs' } },
      {
        id: 'b14',
        kind: 'streamStreamJoin',
        name: 'lefts',
        config: {
          type: 'left',
          joiner: { function: 'pair' },
          window: { beforeMs: 500, afterMs: 500, graceMs: 100 },
          otherStoreSupplier: {
            name: 'lefts-rocks',
            type: 'persistent',
            retentionMs: 1100,
            windowSizeMs: 1000,
            retainDuplicates: true,
          },
          dslStoreSuppliers: 'in_memory',
          logging: false,
        },
      },
      { id: 'b07', kind: 'tableTableJoin', config: { type: 'left', joiner: 'left' } },
      { id: 'b08', kind: 'toStream', config: {} },
      { id: 'b09', kind: 'sink', config: { topic: 'lefts' } },
    ],
    [
      ['b01', 'b03', 'left'],
      ['b02', 'b03', 'right'],
      ['b03', 'b04'],
      ['b04', 'b05'],
      ['b05', 'b06'],
      ['b10', 'b12', 'left'],
      ['b11', 'b12', 'right'],
      ['b12', 'b13'],
      ['b11', 'b14', 'left'],
      ['b10', 'b14', 'right'],
      ['b01', 'b07', 'left'],
      ['b02', 'b07', 'right'],
      ['b07', 'b08'],
      ['b08', 'b09'],
    ],
  ),
  doc(
    'foreign-key-joins',
    ['orders-t', 'customers-t', 'order-customers', 'order-names'],
    [
      {
        id: 'c01',
        kind: 'table',
        config: { topic: 'orders-t', keySerde: 'string', valueSerde: 'json', store: 'orders-t' },
      },
      {
        id: 'c02',
        kind: 'table',
        config: { topic: 'customers-t', keySerde: 'string', valueSerde: 'json' },
      },
      {
        id: 'c03',
        kind: 'foreignKeyJoin',
        name: 'order-customer',
        config: {
          type: 'left',
          foreignKeyExtractor: 'value.customer',
          joiner: '[left, right]',
          store: 'order-customers',
        },
      },
      { id: 'c04', kind: 'toStream', config: {} },
      { id: 'c05', kind: 'sink', config: { topic: 'order-customers' } },
      {
        id: 'c06',
        kind: 'foreignKeyJoin',
        config: {
          foreignKeyExtractor: 'value.customer',
          joiner: { function: 'pair' },
          otherPartitioner: 'byCustomer',
        },
      },
      { id: 'c07', kind: 'toStream', config: {} },
      { id: 'c08', kind: 'sink', config: { topic: 'order-names' } },
    ],
    [
      ['c01', 'c03', 'left'],
      ['c02', 'c03', 'right'],
      ['c03', 'c04'],
      ['c04', 'c05'],
      ['c01', 'c06', 'left'],
      ['c02', 'c06', 'right'],
      ['c06', 'c07'],
      ['c07', 'c08'],
    ],
  ),
];

/** The TypeScript functions the designs refer to by name (the exported program's ./functions.js). */
export const functionsModule = `export const zero = (): number => 0;
export const addOne = (_key: unknown, _value: unknown, agg: number): number => agg + 1;
export const withCustomer = (order: unknown, customer: unknown) => ({ order, customer });
export const pair = (left: unknown, right: unknown) => [left, right];
`;

/** The partitioners the designs refer to by name (the exported program's ./partitioners.js). */
export const partitionersModule = `export const byCustomer = (_topic: string, key: unknown, _value: unknown, n: number): number =>
  String(key).length % n;
`;
