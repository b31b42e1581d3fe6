// The seed's KStream vs KTable sums (a groupByKey → reduce, and a table groupBy → repartition
// topic → reduce) as running applications on a real Kafka broker: the records they write equal
// Apache Kafka Streams' own output for the same input (tools/ks-oracle, TopologyTestDriver), also
// across a restart with an empty state dir (stores restored from the changelog topics, input
// resumed from the committed offsets).
import { runOracle, type OracleRecord } from '@streamwright/ks-oracle';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { encode } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend, readLongs, seedTopology } from './kafka-fixtures.js';

const FIRST = [
  ['Jack', 1],
  ['Lily', 2],
  ['Mike', 4],
  ['Jack', 3],
  ['Lily', 5],
] as const;
const SECOND = [
  ['Mike', 10],
  ['Jack', 20],
  ['Ann', 7],
  ['Lily', 1],
] as const;
const inputs = (records: readonly (readonly [string, number])[], from: number) =>
  records.map(([key, value], i) => ({ key, value, timestamp: 1000 * (from + i + 1) }));
const all = [...inputs(FIRST, 0), ...inputs(SECOND, FIRST.length)];

const cases = [
  { name: 'stream', file: 'stream-sum.topology.json' },
  { name: 'table', file: 'table-sum.topology.json' },
] as const;

describe('the seed topologies on Kafka', () => {
  // Kafka Streams' output after the first five records and after all nine.
  const expected = new Map<string, { first: OracleRecord[]; all: OracleRecord[] }>();
  beforeAll(async () => {
    const scenarios = cases.flatMap((c) =>
      [FIRST.length, all.length].map((n) => ({
        name: `${c.name}-${n}`,
        topology: seedTopology(c.file, `oracle-${c.name}`, 'in', 'out'),
        inputs: all.slice(0, n).map((r) => ({ topic: 'in', ...r })),
        outputs: ['out'],
      })),
    );
    const results = await runOracle(scenarios);
    for (const [i, c] of cases.entries()) {
      const [first, whole] = [results[2 * i]!, results[2 * i + 1]!];
      expect(first.error ?? whole.error).toBeUndefined();
      expect(whole.outputs!.out!.length).toBeGreaterThan(first.outputs!.out!.length);
      expect(whole.outputs!.out!.slice(0, first.outputs!.out!.length)).toEqual(first.outputs!.out);
      expect(expected.set(c.name, { first: first.outputs!.out!, all: whole.outputs!.out! }));
    }
  }, 300_000);

  it.each(cases)(
    '$name sum: the same records as Kafka Streams, before and after a restart from the changelog',
    async ({ name, file }) => {
      const backend = await kafkaBackend();
      try {
        const [input, output, appId] = [`seed-${name}-in`, `seed-${name}-out`, `seed-${name}`];
        const topology = seedTopology(file, appId, input, output);
        const produce = (records: typeof all) =>
          backend.produce(
            records.map((r) => ({
              topic: input,
              key: encode('string', r.key),
              value: encode('long', r.value),
              timestamp: r.timestamp,
            })),
          );
        const want = expected.get(name)!;
        const written = async (n: number) => {
          const got = await readLongs(backend, output);
          return got.length >= n ? got : undefined;
        };

        const first = createStreamsApp({ topology, backend, stateDir: tempStateDir() });
        await first.start();
        await produce(all.slice(0, FIRST.length));
        expect(await waitFor(() => written(want.first.length), 60_000, 'first output')).toEqual(
          want.first,
        );
        // The internal topics carry Kafka Streams' names.
        const topics = (await backend.listTopics()).map((t) => t.name);
        expect(topics).toContain(`${appId}-${name}-sums-changelog`);
        if (name === 'table')
          expect(
            topics.filter((t) => t.startsWith(`${appId}-`) && t.endsWith('-repartition')),
          ).toHaveLength(1);
        await first.close();

        // A new instance on an empty state dir: the store comes back from its changelog topic,
        // the input resumes at the committed offsets (nothing is read twice after a clean close).
        await produce(all.slice(FIRST.length));
        const second = createStreamsApp({ topology, backend, stateDir: tempStateDir() });
        await second.start();
        expect(await waitFor(() => written(want.all.length), 60_000, 'all output')).toEqual(
          want.all,
        );
        await second.close();
      } finally {
        await backend.close();
      }
    },
  );
});
