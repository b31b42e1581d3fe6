// A stream–table join with a grace period survives a restart: the stream records waiting in its
// buffer (`<name>-Buffer`) are in the buffer's changelog, restored before processing resumes, and
// joined in timestamp order once stream time passes them. An application closed with records in
// the buffer and started again must produce exactly what Apache Kafka Streams 4.1 produces for
// the whole input without a restart (tools/ks-oracle), with the buffer in memory and persistent
// (on disk, read back at the restart). The inputs of each phase are produced
// before the application starts and ordered so that the task's merge of the two topics (lowest
// head timestamp first) is the order they are piped into Kafka's TopologyTestDriver.
import { runOracle, type OracleResult } from '@streamwright/ks-oracle';
import { validateTopology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsApp } from '../src/app/streams-app.js';
import { encode, readAll } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';

type Row = { topic: string; key: string; value: number; timestamp: number };

const topology = {
  schemaVersion: 1,
  application: { id: 'grace-restart' },
  topics: ['orders', 'prices', 'out'].map((name) => ({ name, partitions: 1 })),
  nodes: [
    { id: 'orders', kind: 'source', config: { topic: 'orders', valueSerde: 'long' } },
    {
      id: 'prices',
      kind: 'table',
      config: {
        topic: 'prices',
        valueSerde: 'long',
        store: 'prices-store',
        versioned: { historyRetentionMs: 1000 },
      },
    },
    {
      id: 'j',
      kind: 'streamTableJoin',
      config: { type: 'left', joiner: '{"qty": left, "price": right}', gracePeriodMs: 100 },
    },
    { id: 'out', kind: 'sink', config: { topic: 'out' } },
  ],
  edges: [
    { from: 'orders', to: 'j', toPort: 'left' },
    { from: 'prices', to: 'j', toPort: 'right' },
    { from: 'j', to: 'out' },
  ],
};

const row = (topic: string, key: string, value: number, timestamp: number): Row => ({
  topic,
  key,
  value,
  timestamp,
});

// Before the restart: a@150 is joined (stream time 250 − grace 100); a@250, b@180 and a@240 wait.
const before = [
  row('prices', 'a', 1, 100),
  row('prices', 'a', 2, 200),
  row('orders', 'a', 10, 250),
  row('orders', 'a', 20, 150),
  row('orders', 'b', 30, 180),
  row('orders', 'a', 40, 240),
];
// After it: a new price at 260 must not reach the buffered a@240 / a@250 (read as of their
// time); 400 releases b@180, a@240 and a@250; a@120 is late and joins at once; 600 releases a@400.
const after = [
  row('prices', 'a', 3, 260),
  row('orders', 'a', 50, 400),
  row('orders', 'a', 60, 120),
  row('orders', 'a', 70, 600),
];
const changelog = 'grace-restart-KSTREAM-LEFTJOIN-0000000003-Buffer-changelog';

async function runWithRestart(dir: string, expectedOut: number, store: 'in_memory' | 'rocksDB') {
  const validated = validateTopology(topology);
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  const doc = {
    ...validated.topology,
    application: { ...validated.topology.application, config: { 'default.dsl.store': store } },
  };
  const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
  try {
    const produce = (rows: Row[]) =>
      backend.produce(
        rows.map((r) => ({
          topic: r.topic,
          partition: 0,
          key: encode('string', r.key),
          value: encode('long', r.value),
          timestamp: r.timestamp,
        })),
      );
    const processed = (app: ReturnType<typeof createStreamsApp>, n: number) =>
      waitFor(
        () =>
          Object.values(app.metrics().threads).reduce((s, t) => s + (t['process-total'] ?? 0), 0) >=
          n,
        20_000,
        `${n} records processed`,
      );
    await backend.createTopics(doc.topics.map((t) => ({ name: t.name, partitions: 1 })));
    await produce(before);
    let app = createStreamsApp({ topology: doc, backend, stateDir: `${dir}/state` });
    await app.start();
    await processed(app, before.length);
    await app.close(); // commits: output, the buffer's changelog, offsets
    const outBefore = (await readAll(backend, 'out', 'string', 'json')).length;
    const logged = await readAll(backend, changelog, 'bytes', 'bytes');

    await produce(after);
    app = createStreamsApp({ topology: doc, backend, stateDir: `${dir}/state` });
    await app.start();
    await processed(app, after.length);
    await waitFor(
      async () => (await readAll(backend, 'out', 'string', 'json')).length >= expectedOut,
      20_000,
      `${expectedOut} output records`,
    );
    const restored = app.status().tasks.reduce((n, t) => n + t.restoredRecords, 0);
    await app.close();
    const out = await readAll(backend, 'out', 'string', 'json');
    return {
      out: out.map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
      outBefore,
      logged,
      restored,
    };
  } finally {
    await backend.close();
  }
}

describe('a stream–table join with a grace period survives a restart', () => {
  let expected: OracleResult;
  beforeAll(async () => {
    [expected] = (await runOracle([
      { name: 'grace restart', topology, inputs: [...before, ...after], outputs: ['out'] },
    ])) as [OracleResult];
  }, 300_000);

  it('the buffered records are restored from the changelog and joined as Kafka Streams joins them', async () => {
    expect(expected.error).toBeUndefined();
    const wanted = expected.outputs?.['out'] ?? [];
    expect(wanted.length).toBe(6);
    const restored: Record<string, number> = {};
    for (const store of ['in_memory', 'rocksDB'] as const) {
      await withTempDir(async (dir) => {
        const result = await runWithRestart(dir, wanted.length, store);
        // Only a@150 left the buffer before the restart; three records were still in it.
        expect(result.outBefore, store).toBe(1);
        expect(result.logged.filter((r) => r.value !== null).length, store).toBe(4);
        expect(result.logged.filter((r) => r.value === null).length, store).toBe(1);
        restored[store] = result.restored;
        expect(result.out, store).toEqual(wanted);
      });
    }
    // In memory the buffer replays its 5 changelog records; persistent, it reads its waiting
    // records from its lmdb files (the clean close checkpointed them) and replays none.
    expect(restored['in_memory']).toBeGreaterThanOrEqual(5);
    expect(restored['rocksDB']).toBe(restored['in_memory']! - 5);
  }, 90_000);
});
