// A versioned table → KTable#mapValues materialized in a versioned store → groupBy/count, run as
// an application on the embedded backend (real files) over a 2-partition topic and restarted.
// Each task has its own instance of a versioned store, with its own observed stream time: a
// record is refused when it is older than the highest timestamp seen *in its partition* − the
// history retention, whatever the other partition saw. So the same records give different
// stores than a 1-partition run (TopologyTestDriver, where every key shares one stream time).
// Expected values come from Apache Kafka Streams 4.1 (tools/ks-oracle): a task of the source
// sub-topology processes its partition's records in offset order, so each partition's records
// run as one TopologyTestDriver scenario, and the app's interactive queries (over both tasks)
// must answer what the scenario of the key's partition answers, before and after a restart (the
// versioned stores are in memory and rebuilt from their changelogs).
import { partitionForKey } from '@streamwright/log';
import { runOracle, type OracleResult } from '@streamwright/ks-oracle';
import { validateTopology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StreamsApp } from '../src/api.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsApp } from '../src/app/streams-app.js';
import { encode } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';

const versioned = (store: string) => ({ store, versioned: { historyRetentionMs: 1000 } });
const topology = (partitions: number) => ({
  schemaVersion: 1,
  application: { id: 'versioned-app', config: { 'commit.interval.ms': 50 } },
  topics: ['t', 'counts'].map((name) => ({ name, partitions })),
  nodes: [
    { id: 't', kind: 'table', config: { topic: 't', valueSerde: 'long', ...versioned('t-store') } },
    {
      id: 'm',
      kind: 'tableMapValues',
      config: { expression: 'value * 2', valueSerde: 'long', ...versioned('m') },
    },
    {
      id: 'g',
      kind: 'tableGroupBy',
      config: { expression: '{"key": "all", "value": value}', valueSerde: 'json' },
    },
    { id: 'c', kind: 'tableCount', config: { store: 'c' } },
    { id: 'cs', kind: 'toStream', config: {} },
    { id: 'counts', kind: 'sink', config: { topic: 'counts', valueSerde: 'long' } },
  ],
  edges: [
    { from: 't', to: 'm' },
    { from: 'm', to: 'g' },
    { from: 'g', to: 'c' },
    { from: 'c', to: 'cs' },
    { from: 'cs', to: 'counts' },
  ],
});

type Row = { topic: string; key: string; value: number; timestamp: number };
const row = (key: string, value: number, timestamp: number): Row => ({
  topic: 't',
  key,
  value,
  timestamp,
});
const partitionOf = (key: string) => partitionForKey(encode('string', key)!, 2);

// a and c share partition 0, d is in partition 1 (murmur2, as the producer partitions them).
// c@2000 moves partition 0's stream time to 2000: a@100 and a@300 are older than 2000 − 1000 and
// refused by the table's store (so never reach mapValues); a@1500 is kept. d@100 and d@300 are
// kept: partition 1 has seen nothing newer. (A 1-partition run, where d shares the stream time
// 2000, refuses them too: the last scenario below.)
const input = [
  row('c', 1, 2000),
  row('a', 2, 100),
  row('d', 3, 100),
  row('a', 4, 300),
  row('d', 5, 300),
  row('a', 6, 1500),
];
type Get = { store: string; key: string; asOf?: number };
const gets: Get[] = ['t-store', 'm'].flatMap((store): Get[] =>
  ['a', 'c', 'd'].flatMap((key) => [
    { store, key },
    ...[100, 300, 1500, 2000].map((asOf) => ({ store, key, asOf })),
  ]),
);

describe('a versioned table and a versioned mapValues in a 2-partition app', () => {
  let perPartition: OracleResult[];
  let onePartition: OracleResult;
  beforeAll(async () => {
    const scenario = (name: string, inputs: Row[]) => ({
      name,
      topology: topology(1),
      inputs,
      outputs: ['counts'],
      versionedGets: gets,
    });
    const results = await runOracle([
      ...[0, 1].map((p) =>
        scenario(
          `partition ${p}`,
          input.filter((r) => partitionOf(r.key) === p),
        ),
      ),
      scenario('one partition', input),
    ]);
    perPartition = results.slice(0, 2);
    onePartition = results[2]!;
  }, 300_000);

  it('answers get / get(asOf) as Kafka Streams does per partition, before and after a restart', async () => {
    expect(['a', 'c', 'd'].map(partitionOf)).toEqual([0, 0, 1]);
    for (const r of perPartition) expect(r.error).toBeUndefined();
    // What Kafka Streams answers for each query: from the scenario of the key's partition.
    const expected = gets.map(
      (q, i) => perPartition[partitionOf(q.key)]!.versionedGets![i] ?? null,
    );
    // Kafka refused a@100 and a@300 (partition 0's stream time 2000), kept d@100 and d@300.
    expect(expected[gets.findIndex((q) => q.key === 'a' && q.asOf === 300)]).toBeNull();
    expect(expected[gets.findIndex((q) => q.key === 'd' && q.asOf === 100)]).toEqual({
      value: 3,
      timestamp: 100,
    });
    expect(onePartition.error).toBeUndefined();
    expect(
      onePartition.versionedGets![gets.findIndex((q) => q.key === 'd' && q.asOf === 100)],
    ).toBeNull();
    const droppedByKafka = perPartition.reduce(
      (n, r) => n + (r.metrics?.['dropped-records-total'] ?? 0),
      0,
    );
    expect(droppedByKafka).toBe(2);
    // The count over both partitions: the sum of each partition's last count.
    const lastCount = (r: OracleResult) => Number(r.outputs?.['counts']?.at(-1)?.value ?? 0);
    const total = perPartition.reduce((n, r) => n + lastCount(r), 0);
    expect(total).toBe(3);

    const validated = validateTopology(topology(2));
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    await withTempDir(async (dir) => {
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      // Value and timestamp: the oracle reads the store itself (MeteredVersionedKeyValueStore
      // answers without validTo), where IQv2's VersionedKeyQuery adds it.
      const answers = async (app: StreamsApp) => {
        const out: unknown[] = [];
        for (const q of gets) {
          const found = (await app.queryStore(
            q.store,
            'keyValue',
            q.asOf === undefined ? 'get' : 'getAsOf',
            q.asOf === undefined ? [q.key] : [q.key, q.asOf],
          )) as { value: unknown; timestamp: number } | null;
          out.push(found === null ? null : { value: found.value, timestamp: found.timestamp });
        }
        return out;
      };
      const settled = (app: StreamsApp) =>
        waitFor(
          async () =>
            (await app.queryStore('m', 'keyValue', 'get', ['a'])) !== null &&
            (await app.queryStore('m', 'keyValue', 'get', ['d'])) !== null &&
            ((await app.queryStore('c', 'keyValue', 'get', ['all'])) as { value: number } | null)
              ?.value === total,
          20_000,
          'all records processed',
        );
      try {
        await backend.createTopics(['t', 'counts'].map((name) => ({ name, partitions: 2 })));
        // The producer's partitioner (murmur2 of the key) places them as partitionOf does.
        const acks = await backend.produce(
          input.map((r) => ({
            topic: 't',
            key: encode('string', r.key),
            value: encode('long', r.value),
            timestamp: r.timestamp,
          })),
        );
        expect(acks.map((a) => a.partition)).toEqual(input.map((r) => partitionOf(r.key)));
        let app = createStreamsApp({
          topology: validated.topology,
          backend,
          stateDir: `${dir}/state`,
        });
        await app.start();
        await settled(app);
        expect(await answers(app)).toEqual(expected);
        // a@100 and a@300, refused by the table's store, are dropped records as in Kafka.
        const dropped = (a: StreamsApp) =>
          Object.values(a.metrics().tasks).reduce(
            (n, t) => n + (t['dropped-records-total'] ?? 0),
            0,
          );
        expect(dropped(app)).toBe(droppedByKafka);
        await app.close();

        app = createStreamsApp({ topology: validated.topology, backend, stateDir: `${dir}/state` });
        await app.start();
        // Nothing new to process: what the stores answer once restored is what the restore built.
        const restarted = app;
        await waitFor(
          () =>
            restarted.status().tasks.length === 4 &&
            restarted.status().tasks.every((t) => t.state === 'RUNNING'),
          20_000,
          'the four tasks restored',
        );
        expect(await answers(app)).toEqual(expected);
        await app.close();
      } finally {
        await backend.close();
      }
    });
  }, 60_000);
});
