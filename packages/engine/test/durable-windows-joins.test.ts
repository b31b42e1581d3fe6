// Stream–stream join buffers, the outer join store, window stores and the suppression buffer are
// changelogged under Kafka Streams' names and restored: an application closed halfway through its
// input and started again must produce exactly what Apache Kafka Streams 4.1 produces for the
// whole input without a restart (tools/ks-oracle) — with in-memory stores (everything it knows
// comes back from the changelogs) and with persistent ones (the default: window stores, join
// buffers and the outer join store come back from their lmdb files after the clean close's
// checkpoint, so the join replays nothing and only the in-memory suppression buffer replays its
// changelog). Inputs are in timestamp order, so the order in which the task merges its
// partitions is the order they are piped into Kafka's TopologyTestDriver.
import { runOracle, type OracleResult, type OracleScenario } from '@streamwright/ks-oracle';
import { planTopology, validateTopology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsApp } from '../src/app/streams-app.js';
import { encode, readAll } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';

type Row = { topic: string; key: string; value: unknown; timestamp: number };

const streamStreamLeftJoin = {
  schemaVersion: 1,
  application: { id: 'durable-join' },
  topics: ['a', 'b', 'out'].map((name) => ({ name, partitions: 1 })),
  nodes: [
    { id: 'a', kind: 'source', config: { topic: 'a' } },
    { id: 'b', kind: 'source', config: { topic: 'b' } },
    {
      id: 'j',
      kind: 'streamStreamJoin',
      config: {
        type: 'left',
        joiner: '{"l": left, "r": right}',
        window: { beforeMs: 1000, afterMs: 1000, graceMs: 500 },
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

const suppressedWindowedCount = {
  schemaVersion: 1,
  // Cache off in both (as tools/ks-oracle's default): Kafka forwards each window update at once,
  // not at the next commit, which this test does not wait for.
  application: { id: 'durable-suppress', config: { 'statestore.cache.max.bytes': 0 } },
  topics: ['clicks', 'out'].map((name) => ({ name, partitions: 1 })),
  nodes: [
    { id: 'src', kind: 'source', config: { topic: 'clicks' } },
    { id: 'g', kind: 'groupByKey', config: {} },
    {
      id: 'w',
      kind: 'windowedBy',
      config: { window: { type: 'tumbling', sizeMs: 5000, graceMs: 1000 } },
    },
    { id: 'agg', kind: 'windowedCount', config: {} },
    { id: 'sup', kind: 'suppress', config: { until: 'windowCloses' } },
    { id: 'ts', kind: 'toStream', config: {} },
    {
      id: 'm',
      kind: 'map',
      config: {
        expression:
          '{"key": key.key + "@" + string(key.start) + "/" + string(key.end), "value": value}',
      },
    },
    { id: 'out', kind: 'sink', config: { topic: 'out', valueSerde: 'long' } },
  ],
  edges: ['src', 'g', 'w', 'agg', 'sup', 'ts', 'm', 'out']
    .slice(1)
    .map((to, i, all) => ({ from: i === 0 ? 'src' : all[i - 1]!, to })),
};

const row = (topic: string, key: string, value: unknown, timestamp: number): Row => ({
  topic,
  key,
  value,
  timestamp,
});

interface Case {
  name: string;
  topology: typeof streamStreamLeftJoin | typeof suppressedWindowedCount;
  /** Processed, then the application is closed. */
  before: Row[];
  /** Processed by the restarted application. */
  after: Row[];
  valueSerde: 'json' | 'long';
  /** Changelog topics (Kafka Streams' names) that must have been written before the restart. */
  changelogs: string[];
  /** Whether every store is persistent (rocksDB): then a clean restart replays nothing. */
  allPersistent: boolean;
}

const cases: Case[] = [
  {
    name: 'stream–stream left join: a buffered record matches, an unmatched one is emitted at window close',
    topology: streamStreamLeftJoin,
    // k1 waits in the left window store, k2 in the outer store; k3 (right) has no left partner.
    before: [row('a', 'k1', 1, 1000), row('a', 'k2', 2, 1200), row('b', 'k3', 3, 1300)],
    // k1's partner arrives after the restart; 4000 closes k2's window (1200 + 1000 + 500).
    after: [row('b', 'k1', 4, 1500), row('a', 'k4', 5, 4000), row('b', 'k4', 6, 4100)],
    valueSerde: 'json',
    changelogs: [
      'durable-join-KSTREAM-JOINTHIS-0000000004-store-changelog',
      'durable-join-KSTREAM-OUTEROTHER-0000000005-store-changelog',
      'durable-join-KSTREAM-OUTERSHARED-0000000004-store-changelog',
    ],
    allPersistent: true,
  },
  {
    name: 'windowed count under suppress(untilWindowCloses): the final count includes what came before the restart',
    topology: suppressedWindowedCount,
    before: [
      row('clicks', 'u1', 'x', 1000),
      row('clicks', 'u1', 'x', 2000),
      row('clicks', 'u2', 'x', 3000),
      row('clicks', 'u3', 'x', 5500),
    ],
    // 6500 closes [0, 5000) (end + grace 1000 ≤ stream time); 12000 closes [5000, 10000).
    after: [
      row('clicks', 'u1', 'x', 4000),
      row('clicks', 'u1', 'x', 6500),
      row('clicks', 'u9', 'x', 12000),
    ],
    valueSerde: 'long',
    changelogs: [
      'durable-suppress-KSTREAM-AGGREGATE-STATE-STORE-0000000001-changelog',
      'durable-suppress-KTABLE-SUPPRESS-STATE-STORE-0000000004-changelog',
    ],
    allPersistent: false,
  },
];

async function runWithRestart(
  c: Case,
  dir: string,
  expectedOut: number,
  store: 'in_memory' | 'rocksDB',
) {
  const validated = validateTopology(c.topology);
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  const topology = {
    ...validated.topology,
    application: {
      ...validated.topology.application,
      config: { ...validated.topology.application.config, 'default.dsl.store': store },
    },
  };
  const plan = planTopology(topology);
  const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
  try {
    const produce = (rows: Row[]) =>
      backend.produce(
        rows.map((r) => ({
          topic: r.topic,
          partition: 0,
          key: encode('string', r.key),
          value: encode('json', r.value),
          timestamp: r.timestamp,
        })),
      );
    const processed = async (app: ReturnType<typeof createStreamsApp>, n: number) =>
      waitFor(
        () =>
          Object.values(app.metrics().threads).reduce((s, t) => s + (t['process-total'] ?? 0), 0) >=
          n,
        20_000,
        `${n} records processed`,
      );
    // Produced before each start, so the task sees both partitions and merges them by timestamp.
    await backend.createTopics(topology.topics.map((t) => ({ name: t.name, partitions: 1 })));
    await produce(c.before);
    let app = createStreamsApp({ topology, backend, stateDir: `${dir}/state` });
    await app.start();
    await processed(app, c.before.length);
    await app.close(); // commits: output, changelogs, offsets
    const logged: Record<string, number> = {};
    for (const topic of c.changelogs)
      logged[topic] = (await readAll(backend, topic, 'bytes', 'bytes')).length;

    await produce(c.after);
    app = createStreamsApp({ topology, backend, stateDir: `${dir}/state` });
    await app.start();
    await processed(app, c.after.length);
    // Then until the output is complete (it is compared exactly below: nothing more may come).
    await waitFor(
      async () => (await readAll(backend, 'out', 'string', c.valueSerde)).length >= expectedOut,
      20_000,
      `${expectedOut} output records`,
    );
    const restored = app.status().tasks.reduce((n, t) => n + t.restoredRecords, 0);
    await app.close();
    const out = await readAll(backend, 'out', 'string', c.valueSerde);
    return {
      out: out.map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
      logged,
      restored,
      changelogTopics: plan.internalTopics.filter((t) => t.kind === 'changelog').map((t) => t.name),
    };
  } finally {
    await backend.close();
  }
}

describe('windows, joins and suppression survive a restart (changelogged, restored)', () => {
  let expected: OracleResult[];
  beforeAll(async () => {
    const scenarios: OracleScenario[] = cases.map((c) => ({
      name: c.name,
      topology: c.topology,
      inputs: [...c.before, ...c.after],
      outputs: ['out'],
    }));
    expected = await runOracle(scenarios);
  }, 300_000);

  for (const [i, c] of cases.entries()) {
    it(
      c.name,
      async () => {
        const reference = expected[i]!;
        expect(reference.error, `${c.name} failed on Kafka Streams`).toBeUndefined();
        const wanted = reference.outputs?.['out']?.length ?? 0;
        const restored: Record<string, number> = {};
        for (const store of ['in_memory', 'rocksDB'] as const) {
          await withTempDir(async (dir) => {
            const result = await runWithRestart(c, dir, wanted, store);
            // The stores' changelogs carry Kafka Streams' names and were written before the restart.
            for (const topic of c.changelogs) {
              expect(result.changelogTopics).toContain(topic);
              expect(result.logged[topic], topic).toBeGreaterThan(0);
            }
            restored[store] = result.restored;
            expect(result.out, store).toEqual(reference.outputs?.['out']);
          });
        }
        expect(restored['in_memory']).toBeGreaterThan(0);
        // Persistent window stores, join buffers and outer stores load from disk instead of
        // replaying (the join's outer store held k2 and k3 across the restart).
        expect(restored['rocksDB']).toBeLessThan(restored['in_memory']!);
        if (c.allPersistent) expect(restored['rocksDB']).toBe(0);
      },
      90_000,
    );
  }
});
