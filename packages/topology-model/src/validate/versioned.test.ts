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
    expect(
      issues(
        table({
          store: 's',
          caching: true,
          storeType: 'inMemory',
          versioned: { historyRetentionMs: 10 },
        }),
      ),
    ).toEqual([
      ['nodes[0].config.caching', 'Versioned stores do not support caching'],
      [
        'nodes[0].config.storeType',
        'a versioned table takes its store from `versioned`, not from storeType',
      ],
    ]);
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
    expect(issues(graceJoin(-1, versioned))).toEqual([
      [at, 'Too small: expected number to be >=0'],
    ]);
    expect(validateTopology(graceJoin(50, versioned)).ok).toBe(true);
  });
});
