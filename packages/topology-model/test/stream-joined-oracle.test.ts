// StreamJoined in the document (streamStreamJoin's storeName, thisStoreSupplier /
// otherStoreSupplier, dslStoreSuppliers, logging, logConfig, otherValueSerde) against Apache
// Kafka Streams 4.1 (tools/ks-oracle): random combinations of the options must give Kafka's
// describe() text, Kafka's store types (persistent / in memory, as its suppliers choose them) and
// Kafka's changelog topics; the documents Kafka refuses must be refused at the option's path
// with Kafka's message. Export → import → export of those documents is byte-identical.
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  describeTopology,
  effectiveStoreType,
  exportTopology,
  importTopology,
  planTopology,
  validateTopology,
} from '../src/index.js';

type JoinType = 'inner' | 'left' | 'outer';
interface Options {
  type: JoinType;
  name?: string;
  window: { beforeMs: number; afterMs: number; graceMs: number };
  streamJoined: Record<string, unknown>;
  appConfig: Record<string, string>;
}

function joinDoc(o: Options) {
  return {
    schemaVersion: 1,
    application: { id: 'sj', config: o.appConfig },
    topics: ['a', 'b', 'out'].map((t) => ({ name: t, partitions: 1 })),
    nodes: [
      { id: 'a', kind: 'source', config: { topic: 'a' } },
      { id: 'b', kind: 'source', config: { topic: 'b' } },
      {
        id: 'j',
        kind: 'streamStreamJoin',
        ...(o.name === undefined ? {} : { name: o.name }),
        config: {
          type: o.type,
          joiner: '{"l": left, "r": right}',
          window: o.window,
          ...o.streamJoined,
        },
      },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ],
    edges: [
      { from: 'a', to: 'j', toPort: 'left' },
      { from: 'b', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
  };
}

const window = fc.record({
  beforeMs: fc.integer({ min: 0, max: 3000 }),
  afterMs: fc.integer({ min: 0, max: 3000 }),
  graceMs: fc.integer({ min: 0, max: 2000 }),
});
const storeType = fc.constantFrom('inMemory' as const, 'persistent' as const);
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

// Valid StreamJoined options: suppliers match the join window (size before + after, retention
// size + grace) and keep duplicates; names differ.
const validOptions: fc.Arbitrary<Options> = fc
  .record({
    type: fc.constantFrom<JoinType>('inner', 'left', 'outer'),
    name: optional(fc.constantFrom('pj', 'orders-pay')),
    window,
    storeName: optional(fc.constantFrom('pairs', 'st.x')),
    thisType: optional(storeType),
    otherType: optional(storeType),
    dsl: optional(fc.constantFrom('in_memory' as const, 'rocksDB' as const)),
    logging: optional(fc.boolean()),
    logConfig: fc.boolean(),
    defaultDsl: optional(fc.constantFrom('in_memory', 'rocksDB')),
  })
  .map((r): Options => {
    const size = r.window.beforeMs + r.window.afterMs;
    const supplier = (name: string, type: 'inMemory' | 'persistent') => ({
      name,
      type,
      retentionMs: size + r.window.graceMs,
      windowSizeMs: size,
      retainDuplicates: true,
    });
    const streamJoined: Record<string, unknown> = {};
    if (r.storeName !== undefined) streamJoined.storeName = r.storeName;
    if (r.thisType !== undefined) streamJoined.thisStoreSupplier = supplier('this-s', r.thisType);
    if (r.otherType !== undefined)
      streamJoined.otherStoreSupplier = supplier('other-s', r.otherType);
    if (r.dsl !== undefined) streamJoined.dslStoreSuppliers = r.dsl;
    if (r.logging !== undefined) streamJoined.logging = r.logging;
    if (r.logConfig && r.logging !== false)
      streamJoined.logConfig = { 'segment.bytes': '1048576', 'retention.ms': '90000000' };
    return {
      type: r.type,
      ...(r.name === undefined ? {} : { name: r.name }),
      window: r.window,
      streamJoined,
      appConfig: r.defaultDsl === undefined ? {} : ({ 'default.dsl.store': r.defaultDsl } as const),
    };
  });

// k matches (1000 / 1000 + 0..3000), m and n stay unmatched until 20000 closes their windows, so
// every store of every join type is written (and so is its changelog, when it has one).
const inputs = (w: Options['window']) => [
  { topic: 'a', key: 'k', value: 1, timestamp: 5000 },
  { topic: 'b', key: 'k', value: 2, timestamp: 5000 + Math.min(w.afterMs, 1) },
  { topic: 'a', key: 'm', value: 3, timestamp: 6000 },
  { topic: 'b', key: 'n', value: 4, timestamp: 6000 },
  { topic: 'a', key: 'z', value: 5, timestamp: 20000 },
];

const samples = fc.sample(validOptions, { numRuns: 40, seed: 20261202 });
const scenarios: OracleScenario[] = samples.map((o, i) => ({
  name: `random StreamJoined ${i}: ${JSON.stringify(o)}`,
  topology: joinDoc(o),
  inputs: inputs(o.window),
  outputs: ['out'],
}));

const WINDOW = { beforeMs: 1000, afterMs: 1000, graceMs: 500 };
const memory = (name: string) => ({
  name,
  type: 'inMemory',
  retentionMs: 2500,
  windowSizeMs: 2000,
  retainDuplicates: true,
});
/** Documents Kafka Streams refuses: [title, options, path of our issue]. */
const refused: [string, Record<string, unknown>, string][] = [
  [
    'two suppliers of one name',
    { thisStoreSupplier: memory('s'), otherStoreSupplier: memory('s') },
    'nodes[2].config.otherStoreSupplier.name',
  ],
  [
    'a supplier without duplicates',
    { thisStoreSupplier: { ...memory('s'), retainDuplicates: false } },
    'nodes[2].config.thisStoreSupplier.retainDuplicates',
  ],
  [
    "an in-memory supplier whose retention is not the join's",
    { thisStoreSupplier: { ...memory('s'), retentionMs: 3000 } },
    'nodes[2].config.thisStoreSupplier',
  ],
  [
    "a persistent supplier whose window size is not the join's",
    { otherStoreSupplier: { ...memory('s'), type: 'persistent', windowSizeMs: 1000 } },
    'nodes[2].config.otherStoreSupplier',
  ],
];
const refusedScenarios: OracleScenario[] = refused.map(([title, streamJoined]) => ({
  name: title,
  topology: joinDoc({ type: 'outer', window: WINDOW, streamJoined, appConfig: {} }),
  describeOnly: true,
}));

describe('StreamJoined against Kafka Streams 4.1', () => {
  let expected: OracleResult[];
  beforeAll(async () => {
    expected = await runOracle([...scenarios, ...refusedScenarios]);
  }, 300_000);

  it('random StreamJoined options: describe(), store types and changelog topics are Kafka’s', () => {
    for (const [i, s] of scenarios.entries()) {
      const reference = expected[i]!;
      expect(reference.error, s.name).toBeUndefined();
      const result = validateTopology(s.topology);
      expect(result.ok, `${s.name}: ${JSON.stringify(result.ok || result.errors)}`).toBe(true);
      if (!result.ok) continue;
      const plan = planTopology(result.topology);
      expect(describeTopology(plan), s.name).toBe(reference.describe);
      const dslStore =
        result.topology.application.config['default.dsl.store'] === 'in_memory'
          ? 'in_memory'
          : 'rocksDB';
      const types = Object.fromEntries(
        plan.stores.map((st) => [st.name, effectiveStoreType(st, dslStore)]),
      );
      expect(types, s.name).toEqual(reference.storeTypes);
      const changelogs = plan.internalTopics.filter((t) => t.kind === 'changelog');
      expect(changelogs.map((t) => t.name).sort(), s.name).toEqual(
        (reference.producedTopics ?? []).filter((t) => t.endsWith('-changelog')),
      );
      expect(plan.stores.filter((st) => st.changelogTopic !== null).length).toBe(changelogs.length);
    }
  });

  for (const [i, [title, , path]] of refused.entries()) {
    it(`refuses ${title} at ${path} with Kafka's message`, () => {
      const reference = expected[scenarios.length + i]!;
      expect(reference.error).toMatch(/^StreamsException: /);
      const kafkaMessage = reference.error!.replace(/^StreamsException: /, '');
      const result = validateTopology(refusedScenarios[i]!.topology);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.errors.map((e) => e.path)).toEqual([path]);
      expect(result.errors[0]!.message).toContain(kafkaMessage);
    });
  }
});

describe('StreamJoined in the document', () => {
  it('export → import → export is byte-identical, logConfig keys sorted', () => {
    for (const o of samples) {
      const first = exportTopology(validated(joinDoc(o)));
      const again = importTopology(first);
      expect(again.ok).toBe(true);
      if (!again.ok) continue;
      expect(exportTopology(again.topology)).toBe(first);
      if (o.streamJoined.logConfig !== undefined)
        expect(first).toContain(
          '"logConfig": {\n          "retention.ms": "90000000",\n          "segment.bytes": "1048576"\n        }',
        );
    }
  });

  it('changelogs: window stores delete over the given config, suppliers keep compact,delete', () => {
    const plan = planTopology(
      validated(
        joinDoc({
          type: 'left',
          window: WINDOW,
          streamJoined: {
            storeName: 'pairs',
            otherStoreSupplier: memory('other-mem'),
            logConfig: { 'cleanup.policy': 'compact', 'segment.bytes': '1048576' },
          },
          appConfig: {},
        }),
      ),
    );
    const config = (name: string) => plan.internalTopics.find((t) => t.name === name)?.config;
    // StreamJoinedStoreFactory puts cleanup.policy=delete over withLoggingEnabled's config.
    expect(config('sj-pairs-this-join-store-changelog')).toMatchObject({
      'cleanup.policy': 'delete',
      'retention.ms': String(2500 + 86_400_000),
      'segment.bytes': '1048576',
    });
    // Stores.windowStoreBuilder(supplier): Kafka's windowed defaults, StreamJoined's config unused.
    expect(config('sj-other-mem-changelog')).toEqual({
      'message.timestamp.type': 'CreateTime',
      'cleanup.policy': 'compact,delete',
      'retention.ms': String(2500 + 86_400_000),
    });
    // The outer store: a key-value changelog with the given config as is.
    expect(config('sj-pairs-left-shared-join-store-changelog')).toMatchObject({
      'cleanup.policy': 'compact',
      'segment.bytes': '1048576',
    });
  });

  it('refuses logConfig with logging off, bad store names and a supplier smaller than its window', () => {
    const errors = (streamJoined: Record<string, unknown>) => {
      const r = validateTopology(
        joinDoc({ type: 'inner', window: WINDOW, streamJoined, appConfig: {} }),
      );
      return r.ok ? [] : r.errors.map((e) => [e.path, e.message]);
    };
    expect(errors({ logging: false, logConfig: { 'segment.bytes': '1' } })).toEqual([
      [
        'nodes[2].config.logConfig',
        'logConfig needs logging (withLoggingEnabled(config)); logging is false',
      ],
    ]);
    expect(errors({ storeName: 'a b' })).toEqual([
      [
        'nodes[2].config.storeName',
        'store names may only contain letters, digits, ".", "_" and "-"',
      ],
    ]);
    expect(errors({ thisStoreSupplier: { ...memory('s'), retentionMs: 1000 } })[0]).toEqual([
      'nodes[2].config.thisStoreSupplier.windowSizeMs',
      'The retention period of the window store s must be no smaller than its window size. Got size=[2000], retention=[1000]',
    ]);
  });
});

function validated(doc: unknown) {
  const r = validateTopology(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.topology;
}
