// StreamJoined's store options on stream–stream joins (withStoreName, withThisStoreSupplier /
// withOtherStoreSupplier, withDslStoreSuppliers, withLoggingDisabled / withLoggingEnabled),
// compared with Apache Kafka Streams 4.1 (tools/ks-oracle's TopologyTestDriver): the same
// describe() text, output records and dropped records; the same topics written (so the same
// changelog topics, and none when logging is off); and each store of the kind Kafka's supplier
// chose — persistent (lmdb here, RocksDB there) or in memory — on a test driver with a state dir.
// The same options written with the TypeScript DSL give the same documents.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import { effectiveStoreType, planTopology, validateTopology } from '@streamwright/topology-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BuiltInDslStoreSuppliers,
  JoinWindows,
  Produced,
  Serdes,
  StreamJoined,
  Stores,
  StreamsBuilder,
} from '../src/index.js';
import { runOurs as runOnOurDriver } from './fixtures/oracle-harness.js';

type JoinType = 'inner' | 'left' | 'outer';

/** before 1000, after 1000, grace 500: window size 2000, retention 2500. */
const WINDOW = { beforeMs: 1000, afterMs: 1000, graceMs: 500 };

function joinDoc(
  type: JoinType,
  streamJoined: Record<string, unknown>,
  appConfig: Record<string, string> = {},
  name?: string,
) {
  return {
    schemaVersion: 1,
    application: { id: 'stream-joined', config: appConfig },
    topics: ['a', 'b', 'out'].map((t) => ({ name: t, partitions: 1 })),
    nodes: [
      { id: 'a', kind: 'source', config: { topic: 'a' } },
      { id: 'b', kind: 'source', config: { topic: 'b' } },
      {
        id: 'j',
        kind: 'streamStreamJoin',
        ...(name === undefined ? {} : { name }),
        config: { type, joiner: '{"l": left, "r": right}', window: WINDOW, ...streamJoined },
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

// k matches; m (left) and n (right) stay unmatched and are emitted when 9000 closes their
// windows; so every store of every join type is written to.
const inputs = [
  { topic: 'a', key: 'k', value: { x: 1 }, timestamp: 1000 },
  { topic: 'b', key: 'k', value: { y: 1 }, timestamp: 1500 },
  { topic: 'a', key: 'm', value: { x: 2 }, timestamp: 2000 },
  { topic: 'b', key: 'n', value: { y: 2 }, timestamp: 2100 },
  { topic: 'a', key: 'z', value: { x: 3 }, timestamp: 9000 },
];

const supplier = (name: string, type: 'inMemory' | 'persistent') => ({
  name,
  type,
  retentionMs: 2500,
  windowSizeMs: 2000,
  retainDuplicates: true,
});

const scenario = (name: string, topology: unknown): OracleScenario => ({
  name,
  topology,
  inputs,
  outputs: ['out'],
});

const scenarios: OracleScenario[] = [
  scenario('withStoreName, inner join', joinDoc('inner', { storeName: 'pairs' })),
  scenario('withStoreName, left join', joinDoc('left', { storeName: 'pairs' })),
  scenario(
    'withStoreName and withName, outer join',
    joinDoc('outer', { storeName: 'pairs' }, {}, 'pj'),
  ),
  scenario(
    'in-memory suppliers under the persistent default, left join: the outer store is in memory',
    joinDoc('left', {
      thisStoreSupplier: supplier('this-mem', 'inMemory'),
      otherStoreSupplier: supplier('other-mem', 'inMemory'),
    }),
  ),
  scenario(
    'an in-memory this-side supplier only, outer join: the outer store follows it',
    joinDoc('outer', { thisStoreSupplier: supplier('this-mem', 'inMemory') }),
  ),
  scenario(
    'an in-memory other-side supplier only, outer join: the outer store keeps the default',
    joinDoc('outer', { otherStoreSupplier: supplier('other-mem', 'inMemory') }),
  ),
  scenario(
    'withDslStoreSuppliers(RocksDB) under default.dsl.store in_memory, outer join',
    joinDoc('outer', { dslStoreSuppliers: 'rocksDB' }, { 'default.dsl.store': 'in_memory' }),
  ),
  scenario(
    'withDslStoreSuppliers(InMemory) beats a persistent this-side supplier for the outer store',
    joinDoc('outer', {
      dslStoreSuppliers: 'in_memory',
      thisStoreSupplier: supplier('this-rocks', 'persistent'),
    }),
  ),
  scenario(
    'persistent suppliers under default.dsl.store in_memory, left join',
    joinDoc(
      'left',
      {
        thisStoreSupplier: supplier('this-rocks', 'persistent'),
        otherStoreSupplier: supplier('other-rocks', 'persistent'),
      },
      { 'default.dsl.store': 'in_memory' },
    ),
  ),
  scenario(
    'withLoggingDisabled, outer join: no changelog topics',
    joinDoc('outer', { logging: false }),
  ),
  scenario(
    'withLoggingDisabled with a this-side supplier: its store still logs',
    joinDoc('outer', { logging: false, thisStoreSupplier: supplier('this-mem', 'inMemory') }),
  ),
  scenario(
    'withLoggingEnabled(config), left join with a store name',
    joinDoc('left', { storeName: 'pairs', logConfig: { 'segment.bytes': '1048576' } }),
  ),
];

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

interface Ours {
  describe: string;
  outputs: Record<string, { key: unknown; value: unknown; timestamp: number }[]>;
  dropped: number;
  producedTopics: string[];
  /** Stores kept on disk (lmdb) by the driver. */
  onDisk: string[];
}

/** The shared harness's run, on persistent stores in a state dir of its own, with what it wrote. */
function runOurs(s: OracleScenario): Ours {
  const stateDir = mkdtempSync(join(tmpdir(), 'streamwright-stream-joined-'));
  roots.push(stateDir);
  const produced = new Set<string>();
  const ours = runOnOurDriver(s, {
    stateDir,
    config: { 'statestore.cache.max.bytes': 0 },
    onOutput: (r) => produced.add(r.topic),
  });
  const onDisk = readdirSync(stateDir, { recursive: true, encoding: 'utf8' })
    .filter((p) => /\/lmdb\/[^/]+$/.test(p))
    .map((p) => p.slice(p.lastIndexOf('/') + 1))
    .sort();
  return { ...ours, producedTopics: [...produced].sort(), onDisk };
}

describe('StreamJoined store options against Kafka Streams 4.1', () => {
  let expected: OracleResult[];
  beforeAll(async () => {
    expected = await runOracle(scenarios);
  }, 300_000);

  for (const [i, s] of scenarios.entries()) {
    it(s.name, () => {
      const reference = expected[i]!;
      expect(reference.error, `${s.name} failed on Kafka Streams`).toBeUndefined();
      const mine = runOurs(s);
      expect(mine.describe).toBe(reference.describe);
      expect(mine.outputs).toEqual(reference.outputs);
      expect(mine.dropped).toBe(reference.metrics?.['dropped-records-total']);
      // The same changelog topics (<application.id>-<store>-changelog), or none.
      expect(mine.producedTopics).toEqual(reference.producedTopics);
      // Each store of the type Kafka's suppliers chose: in the plan, and on disk for the logged
      // ones (a store with logging off stays in memory here: docs/STATE.md).
      const validated = validateTopology(s.topology);
      if (!validated.ok) throw new Error('invalid');
      const plan = planTopology(validated.topology);
      const dslStore =
        validated.topology.application.config['default.dsl.store'] === 'in_memory'
          ? 'in_memory'
          : 'rocksDB';
      const planned = Object.fromEntries(
        plan.stores.map((st) => [st.name, effectiveStoreType(st, dslStore)]),
      );
      expect(planned).toEqual(reference.storeTypes);
      const persistentLogged = plan.stores
        .filter((st) => st.changelogTopic !== null && planned[st.name] === 'persistent')
        .map((st) => st.name)
        .sort();
      expect(mine.onDisk).toEqual(persistentLogged);
    });
  }
});

describe('StreamJoined in the TypeScript DSL', () => {
  const program = (joined: StreamJoined<string, unknown, unknown>, type: JoinType = 'outer') => {
    const builder = new StreamsBuilder();
    const a = builder.stream<string, unknown>('a');
    const b = builder.stream<string, unknown>('b');
    const windows = JoinWindows.ofTimeDifferenceAndGrace(1000, 500);
    const joiner = '{"l": left, "r": right}';
    const joinedStream =
      type === 'left'
        ? a.leftJoin(b, joiner, windows, joined)
        : type === 'inner'
          ? a.join(b, joiner, windows, joined)
          : a.outerJoin(b, joiner, windows, joined);
    joinedStream.to('out', Produced.with(Serdes.String(), Serdes.Json()));
    return builder.build({ applicationId: 'stream-joined' }).topology;
  };
  const configOf = (doc: ReturnType<typeof program>) =>
    doc.nodes.find((n) => n.kind === 'streamStreamJoin')?.config;

  it('writes every option into the document, as Kafka Streams names them', () => {
    const joined = StreamJoined.with(Serdes.String(), Serdes.Json(), Serdes.Json())
      .withName('pj')
      .withStoreName('pairs')
      .withThisStoreSupplier(Stores.inMemoryWindowStore('this-mem', 2500, 2000, true))
      .withOtherStoreSupplier(Stores.persistentWindowStore('other-rocks', 2500, 2000, true))
      .withDslStoreSuppliers(new BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers())
      .withLoggingEnabled({ 'segment.bytes': '1048576' });
    const doc = program(joined);
    expect(doc.nodes.find((n) => n.kind === 'streamStreamJoin')?.name).toBe('pj');
    expect(configOf(doc)).toMatchObject({
      keySerde: 'string',
      valueSerde: 'json',
      otherValueSerde: 'json',
      storeName: 'pairs',
      thisStoreSupplier: supplier('this-mem', 'inMemory'),
      otherStoreSupplier: supplier('other-rocks', 'persistent'),
      dslStoreSuppliers: 'in_memory',
      logConfig: { 'segment.bytes': '1048576' },
    });
    expect(configOf(program(joined.withLoggingDisabled()))).toMatchObject({ logging: false });
    expect(configOf(program(joined.withLoggingDisabled()))).not.toHaveProperty('logConfig');
  });

  it('StreamJoined.as names the stores (withStoreName), not the processors', () => {
    const doc = program(StreamJoined.as('pairs'), 'left');
    expect(configOf(doc)).toMatchObject({ storeName: 'pairs' });
    expect(doc.nodes.find((n) => n.kind === 'streamStreamJoin')?.name).toBeUndefined();
    const plan = planTopology(doc);
    expect(plan.stores.map((s) => s.name)).toEqual([
      'pairs-this-join-store',
      'pairs-outer-other-join-store',
      'pairs-left-shared-join-store',
    ]);
  });

  it('StreamJoined.with(supplier, supplier) and with(DslStoreSuppliers)', () => {
    const suppliers = StreamJoined.with<string, unknown, unknown>(
      Stores.inMemoryWindowStore('this-mem', 2500, 2000, true),
      Stores.inMemoryWindowStore('other-mem', 2500, 2000, true),
    );
    expect(configOf(program(suppliers))).toMatchObject({
      thisStoreSupplier: supplier('this-mem', 'inMemory'),
      otherStoreSupplier: supplier('other-mem', 'inMemory'),
    });
    const dsl = StreamJoined.with<string, unknown, unknown>(
      new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers(),
    );
    expect(configOf(program(dsl))).toMatchObject({ dslStoreSuppliers: 'rocksDB' });
  });

  it("refuses suppliers Kafka Streams refuses, with Kafka's messages", () => {
    const sameNames = StreamJoined.with<string, unknown, unknown>(
      Stores.inMemoryWindowStore('s', 2500, 2000, true),
      Stores.inMemoryWindowStore('s', 2500, 2000, true),
    );
    expect(() => program(sameNames)).toThrow(
      'Both StoreSuppliers have the same name.  StoreSuppliers must provide unique names',
    );
    const wrongWindow = StreamJoined.with(Serdes.String(), Serdes.Json()).withThisStoreSupplier(
      Stores.inMemoryWindowStore('s', 3000, 2000, true),
    );
    expect(() => program(wrongWindow)).toThrow(
      "Window settings mismatch. WindowBytesStoreSupplier settings InMemoryWindowBytesStoreSupplier{name='s', retentionPeriod=3000, windowSize=2000, retainDuplicates=true} must match JoinWindows settings JoinWindows{beforeMs=1000, afterMs=1000, graceMs=500}",
    );
  });
});
