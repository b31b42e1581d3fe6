// A smoke test on Apache Kafka 3.9.1 (the other suites run on 4.1.1, tools/kafka's default): a
// broker of its own, started only in this file. The Kafka backend produces and fetches, and the
// seed's table sum (a consumer group, a repartition topic, a changelog) runs as an application
// whose output equals Apache Kafka Streams' (tools/ks-oracle) before and after a restart that
// resumes from the group's committed offsets on an empty state dir.
import { startBroker, type RunningBroker } from '@streamwright/kafka-broker';
import { runOracle, type OracleRecord } from '@streamwright/ks-oracle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { getSerde } from '../../src/serdes/index.js';
import { encode } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend, readLongs, seedTopology } from './kafka-fixtures.js';

const RECORDS = [
  ['Jack', 1],
  ['Lily', 2],
  ['Mike', 4],
  ['Jack', 3],
  ['Lily', 5],
  ['Mike', 10],
  ['Ann', 7],
].map(([key, value], i) => ({
  key: key as string,
  value: value as number,
  timestamp: 1000 * (i + 1),
}));
const FIRST = 4;

describe('on an Apache Kafka 3.9.1 broker', () => {
  let broker: RunningBroker;
  const backend = () => kafkaBackend({ bootstrapServers: [broker.bootstrapServers] });
  beforeAll(async () => {
    broker = await startBroker({ version: '3.9.1', startTimeoutMs: 180_000 });
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('the backend produces and fetches', async () => {
    expect(broker.version).toBe('3.9.1');
    const b = await backend();
    try {
      await b.createTopics([{ name: 'smoke', partitions: 2 }]);
      const acks = await b.produce(
        ['a', 'b', 'c'].map((v) => ({
          topic: 'smoke',
          key: encode('string', v),
          value: encode('string', v),
        })),
      );
      const got = [];
      for (const partition of [0, 1]) {
        const records = await b.fetch({ topic: 'smoke', partition }, 0, 10, 500);
        got.push(...records.map((r) => getSerde('string').deserialize(r.value)));
      }
      expect(acks).toHaveLength(3);
      expect(got.toSorted()).toEqual(['a', 'b', 'c']);
    } finally {
      await b.close();
    }
  });

  it("the seed's table sum: Kafka Streams' records, also after a restart from the group's offsets", async () => {
    const oracle = (n: number) => ({
      name: `table-${n}`,
      topology: seedTopology('table-sum.topology.json', 'oracle-table', 'in', 'out'),
      inputs: RECORDS.slice(0, n).map((r) => ({ topic: 'in', ...r })),
      outputs: ['out'],
    });
    const [first, all] = await runOracle([oracle(FIRST), oracle(RECORDS.length)]);
    expect(first!.error ?? all!.error).toBeUndefined();
    const want = (r: typeof first) => r!.outputs!.out! as OracleRecord[];

    const b = await backend();
    try {
      const topology = seedTopology(
        'table-sum.topology.json',
        'smoke-table',
        'smoke-in',
        'smoke-out',
      );
      const produce = (records: typeof RECORDS) =>
        b.produce(
          records.map((r) => ({
            topic: 'smoke-in',
            key: encode('string', r.key),
            value: encode('long', r.value),
            timestamp: r.timestamp,
          })),
        );
      const written = async (n: number) => {
        const got = await readLongs(b, 'smoke-out');
        return got.length >= n ? got : undefined;
      };
      const app = createStreamsApp({ topology, backend: b, stateDir: tempStateDir() });
      await app.start();
      await produce(RECORDS.slice(0, FIRST));
      expect(await waitFor(() => written(want(first).length), 60_000, 'first output')).toEqual(
        want(first),
      );
      await app.close();

      await produce(RECORDS.slice(FIRST));
      const again = createStreamsApp({ topology, backend: b, stateDir: tempStateDir() });
      await again.start();
      expect(await waitFor(() => written(want(all).length), 60_000, 'all output')).toEqual(
        want(all),
      );
      await again.close();
    } finally {
      await b.close();
    }
  });
});
