// Versioned stores in topology documents (Materialized.as(Stores.persistentVersionedKeyValueStore)
// on a table; Stores.versionedKeyValueStoreBuilder as a document store): what is accepted, each
// mistake reported at its path with Kafka Streams' own message where it has one, and the plan
// (store, changelog config) compared with Kafka Streams in packages/engine's versioned oracle test.
import { describe, expect, it } from 'vitest';
import { doc } from '../../test/support/dsl-scenarios.js';
import { planTopology, validateTopology, type ValidationIssue } from '../index.js';

const issues = (input: unknown): [string, string][] => {
  const result = validateTopology(input);
  if (result.ok) throw new Error('expected validation errors');
  return result.errors.map((e: ValidationIssue) => [e.path, e.message]);
};

const table = (config: Record<string, unknown>) =>
  doc('app', [{ id: 't', kind: 'table', config: { topic: 'prices', ...config } }], []);

const withStore = (store: Record<string, unknown>) =>
  doc(
    'app',
    [
      { id: 's', kind: 'source', config: { topic: 'in' } },
      { id: 'p', kind: 'process', config: { processor: 'history', stores: ['h'] } },
    ],
    [{ from: 's', to: 'p' }],
    { stores: [{ name: 'h', ...store }] as never },
  );

describe('versioned stores in documents', () => {
  it('a versioned table plans a versioned store without cache and a versioned changelog', () => {
    const result = validateTopology(
      table({ store: 'prices-store', versioned: { historyRetentionMs: 3_600_000 } }),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const plan = planTopology(result.topology);
    expect(plan.stores[0]).toMatchObject({
      name: 'prices-store',
      type: 'keyValue',
      caching: false,
      // RocksDbVersionedKeyValueBytesStoreSupplier's default: max(retention / 12, 1 min).
      versioned: { historyRetentionMs: 3_600_000, segmentIntervalMs: 300_000 },
    });
    expect(plan.internalTopics).toEqual([
      {
        name: 'app-prices-store-changelog',
        kind: 'changelog',
        partitions: null,
        config: expect.objectContaining({
          'cleanup.policy': 'compact',
          'min.compaction.lag.ms': String(3_600_000 + 86_400_000),
        }) as unknown,
      },
    ]);
  });

  it('reports each mistake in a versioned table at its path', () => {
    expect(issues(table({ versioned: { historyRetentionMs: 10 } }))).toEqual([
      [
        'nodes[0].config.store',
        'a versioned table needs a store name (Materialized.as(versionedStoreSupplier))',
      ],
    ]);
    expect(
      issues(table({ store: 's', versioned: { historyRetentionMs: -1, segmentIntervalMs: 0 } })),
    ).toEqual([
      ['nodes[0].config.versioned.historyRetentionMs', 'historyRetention cannot be negative'],
      ['nodes[0].config.versioned.segmentIntervalMs', 'segmentInterval cannot be zero or negative'],
    ]);
    // Materialized#withStoreType refuses a pre-configured supplier with this message.
    expect(
      issues(table({ store: 's', storeType: 'inMemory', versioned: { historyRetentionMs: 10 } })),
    ).toEqual([
      ['nodes[0].config.storeType', 'Cannot set store type when store supplier is pre-configured.'],
    ]);
  });

  it('caching asked for on a versioned table is left off, as KeyValueStoreMaterializer does', () => {
    const result = validateTopology(
      table({ store: 's', caching: true, versioned: { historyRetentionMs: 10 } }),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(planTopology(result.topology).stores[0]).toMatchObject({ name: 's', caching: false });
  });

  it('document stores of type versioned need historyRetentionMs and take no window fields', () => {
    // (A refused store is also missing for the processor naming it: that second issue is left out.)
    const storeIssues = (input: unknown): [string, string][] =>
      issues(input).filter(([path]) => path.startsWith('stores'));
    const ok = validateTopology(withStore({ type: 'versioned', historyRetentionMs: 0 }));
    expect(ok.ok).toBe(true);
    expect(storeIssues(withStore({ type: 'versioned' }))).toEqual([
      [
        'stores[0].historyRetentionMs',
        'a versioned store needs historyRetentionMs (its history retention)',
      ],
    ]);
    expect(
      storeIssues(
        withStore({ type: 'versioned', historyRetentionMs: 5, retentionMs: 5, caching: true }),
      ),
    ).toEqual([
      [
        'stores[0].retentionMs',
        'retentionMs is for window and session stores, not versioned stores',
      ],
      ['stores[0].caching', 'Versioned stores do not support caching'],
    ]);
    expect(storeIssues(withStore({ type: 'keyValue', historyRetentionMs: 5 }))).toEqual([
      [
        'stores[0].historyRetentionMs',
        'historyRetentionMs is for versioned stores, not keyValue stores',
      ],
    ]);
  });

  // Every DSL operation whose result is a key-value table takes Materialized.as(versioned
  // supplier) in Kafka Streams 4.1: the store is versioned, without cache.
  const versioned = { store: 'v', versioned: { historyRetentionMs: 50 } };
  const tables = (kind: string, config: Record<string, unknown>) =>
    doc(
      'app',
      [
        { id: 'l', kind: 'table', config: { topic: 'l' } },
        { id: 'r', kind: 'table', config: { topic: 'r' } },
        { id: 'n', kind, config },
      ],
      [
        { from: 'l', to: 'n', toPort: 'left' },
        { from: 'r', to: 'n', toPort: 'right' },
      ],
    );
  const after = (steps: { kind: string; config: Record<string, unknown> }[], from = 'table') =>
    doc(
      'app',
      [
        from === 'table'
          ? { id: 'n0', kind: 'table', config: { topic: 'in' } }
          : { id: 'n0', kind: 'source', config: { topic: 'in' } },
        ...steps.map((s, i) => ({ id: `n${i + 1}`, ...s })),
      ],
      steps.map((_, i) => ({ from: `n${i}`, to: `n${i + 1}` })),
    );
  const cases: [string, unknown][] = [
    ['tableFilter', after([{ kind: 'tableFilter', config: { expression: 'true', ...versioned } }])],
    [
      'tableFilterNot',
      after([{ kind: 'tableFilterNot', config: { expression: 'false', ...versioned } }]),
    ],
    [
      'tableMapValues',
      after([{ kind: 'tableMapValues', config: { expression: 'value', ...versioned } }]),
    ],
    ['tableTableJoin', tables('tableTableJoin', { joiner: 'left', ...versioned })],
    [
      'foreignKeyJoin',
      tables('foreignKeyJoin', { foreignKeyExtractor: 'value', joiner: 'left', ...versioned }),
    ],
    [
      'tableCount',
      after([
        { kind: 'tableGroupBy', config: { expression: '{"key": value, "value": value}' } },
        { kind: 'tableCount', config: versioned },
      ]),
    ],
    [
      'tableReduce',
      after([
        { kind: 'tableGroupBy', config: { expression: '{"key": value, "value": value}' } },
        { kind: 'tableReduce', config: { adder: 'value', subtractor: 'agg', ...versioned } },
      ]),
    ],
    [
      'tableAggregate',
      after([
        { kind: 'tableGroupBy', config: { expression: '{"key": value, "value": value}' } },
        {
          kind: 'tableAggregate',
          config: { initializer: '0', adder: 'agg', subtractor: 'agg', ...versioned },
        },
      ]),
    ],
    [
      'count',
      after(
        [
          { kind: 'groupByKey', config: {} },
          { kind: 'count', config: versioned },
        ],
        'source',
      ),
    ],
    [
      'reduce',
      after(
        [
          { kind: 'groupByKey', config: {} },
          { kind: 'reduce', config: { expression: 'value', ...versioned } },
        ],
        'source',
      ),
    ],
    [
      'aggregate',
      after(
        [
          { kind: 'groupByKey', config: {} },
          { kind: 'aggregate', config: { initializer: '0', aggregator: 'agg', ...versioned } },
        ],
        'source',
      ),
    ],
  ];
  it.each(cases)('%s with a versioned store plans a versioned store without cache', (_, input) => {
    const result = validateTopology(input);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const plan = planTopology(result.topology);
    expect(plan.stores.find((s) => s.name === 'v')).toMatchObject({
      caching: false,
      versioned: { historyRetentionMs: 50, segmentIntervalMs: 2_000 },
    });
    expect(plan.internalTopics.find((t) => t.name === 'app-v-changelog')?.config).toMatchObject({
      'min.compaction.lag.ms': String(50 + 86_400_000),
    });
  });

  it('a versioned operation without a store name, or with a store type, is refused at its path', () => {
    expect(
      issues(
        after([
          {
            kind: 'tableMapValues',
            config: { expression: 'value', versioned: { historyRetentionMs: 1 } },
          },
        ]),
      ),
    ).toEqual([
      [
        'nodes[1].config.store',
        'a versioned table needs a store name (Materialized.as(versionedStoreSupplier))',
      ],
    ]);
    expect(
      issues(
        tables('tableTableJoin', {
          joiner: 'left',
          ...versioned,
          storeType: 'inMemory',
          versioned: { historyRetentionMs: -5 },
        }),
      ),
    ).toEqual([
      ['nodes[2].config.versioned.historyRetentionMs', 'historyRetention cannot be negative'],
      ['nodes[2].config.storeType', 'Cannot set store type when store supplier is pre-configured.'],
    ]);
  });
});

// Joined#withGracePeriod (KIP-923) on a stream–table join: Kafka Streams' refusals at
// `config.gracePeriodMs`, and the buffer store with its changelog in the plan (describe() and the
// changelog bytes are compared with Kafka Streams in packages/engine's grace oracle test).
describe('stream–table joins with a grace period', () => {
  const graceJoin = (gracePeriodMs: unknown, table: Record<string, unknown>, name?: string) =>
    doc(
      'app',
      [
        { id: 'orders', kind: 'source', config: { topic: 'orders' } },
        { id: 'prices', kind: 'table', config: { topic: 'prices', ...table } },
        {
          id: 'j',
          kind: 'streamTableJoin',
          ...(name === undefined ? {} : { name }),
          config: { type: 'left', joiner: 'right', gracePeriodMs },
        },
      ],
      [
        { from: 'orders', to: 'j', toPort: 'left' },
        { from: 'prices', to: 'j', toPort: 'right' },
      ],
    );
  const versioned = { store: 'p', versioned: { historyRetentionMs: 50 } };

  it('plans the join with its <name>-Buffer store, logged to <application.id>-<store>-changelog', () => {
    const result = validateTopology(graceJoin(50, versioned, 'priced'));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const plan = planTopology(result.topology);
    const join = plan.subtopologies[0]!.nodes.find((n) => n.name === 'priced')!;
    expect([...join.stores].sort()).toEqual(['p', 'priced-Buffer']);
    expect(plan.stores.find((s) => s.name === 'priced-Buffer')).toMatchObject({
      type: 'timeOrderedBuffer',
      changelogTopic: 'app-priced-Buffer-changelog',
      // The stream's serdes (Joined's when given): a source's default key serde is string.
      keySerde: 'string',
      valueSerde: 'json',
    });
    expect(plan.internalTopics.find((t) => t.name === 'app-priced-Buffer-changelog')).toEqual({
      name: 'app-priced-Buffer-changelog',
      kind: 'changelog',
      partitions: null,
      config: { 'message.timestamp.type': 'CreateTime', 'cleanup.policy': 'compact' },
    });
  });

  it('refuses a table that is not versioned, a history shorter than the grace, a bad grace', () => {
    const at = 'nodes[2].config.gracePeriodMs';
    expect(issues(graceJoin(10, {}))).toEqual([
      [at, 'KTable must be versioned to use a grace period in a stream table join.'],
    ]);
    expect(issues(graceJoin(10, { store: 'p' }))).toEqual([
      [at, 'KTable must be versioned to use a grace period in a stream table join.'],
    ]);
    expect(issues(graceJoin(51, versioned))).toEqual([
      [at, 'History retention must be at least grace period.'],
    ]);
    expect(issues(graceJoin(-1, versioned))).toEqual([[at, 'gracePeriodMs must be ≥ 0, got -1']]);
    expect(validateTopology(graceJoin(50, versioned)).ok).toBe(true);
  });
});

describe('what Kafka Streams refuses around versioned tables', () => {
  it('refuses suppress() of a versioned table at the suppress node (messages checked against Kafka in the engine)', () => {
    const versioned = { store: 'v', versioned: { historyRetentionMs: 50 } };
    const suppressAfter = (steps: { kind: string; config: Record<string, unknown> }[]) => {
      const all = [...steps, { kind: 'suppress', config: { until: 'timeLimit', timeLimitMs: 10 } }];
      return doc(
        'app',
        [
          { id: 'n0', kind: 'table', config: { topic: 'in' } },
          ...all.map((step, i) => ({ id: `n${i + 1}`, ...step })),
        ],
        all.map((_, i) => ({ from: `n${i}`, to: `n${i + 1}` })),
      );
    };
    const filter = (extra: Record<string, unknown>) => ({
      kind: 'tableFilter',
      config: { expression: 'true', ...extra },
    });
    const codes = (input: unknown) => {
      const result = validateTopology(input);
      return result.ok ? [] : result.errors.map((e) => [e.path, e.code]);
    };
    expect(codes(suppressAfter([filter(versioned)]))).toEqual([
      ['nodes[2]', 'suppress_of_versioned_table'],
    ]);
    expect(codes(suppressAfter([filter(versioned), filter({})]))).toEqual([
      ['nodes[3]', 'suppress_of_versioned_table'],
    ]);
    // A non-versioned materialization in between turns versioned semantics off.
    expect(codes(suppressAfter([filter(versioned), filter({ store: 'plain' })]))).toEqual([]);
  });

  it("refuses a versioned global table with Kafka Streams' message (InternalStreamsBuilder#globalTable)", () => {
    const globalTable = (config: Record<string, unknown>) =>
      doc('app', [{ id: 'g', kind: 'globalTable', config: { topic: 'in', ...config } }], []);
    expect(issues(globalTable({ store: 's', versioned: { historyRetentionMs: 5 } }))).toEqual([
      ['nodes[0].config.versioned', 'Invalid topology: GlobalTables cannot be versioned.'],
    ]);
    expect(issues(globalTable({ versioned: {}, cachng: true }))).toEqual([
      ['nodes[0].config.versioned', 'Invalid topology: GlobalTables cannot be versioned.'],
      ['nodes[0].config', 'unknown key: "cachng"'],
    ]);
  });
});
