// A repartitioning application (the seed's table sum: table → groupBy → repartition topic →
// reduce) on 4 partitions, run as two instances of one consumer group on a real Kafka broker:
// the groupBy's records cross from one instance's tasks to the other's through the repartition
// topic, and after one instance closes the other carries on with every task. Each key's final sum
// equals Kafka Streams' own (tools/ks-oracle); with several partitions only the per-key order is
// fixed, so the final value per key is what is compared (as Kafka Streams' own integration tests
// of multi-partition apps do), with the values each key went through, in order.
import { runOracle } from '@streamwright/ks-oracle';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { StreamsApp } from '../../src/api.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { encode } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend, readLongs, seedTopology } from './kafka-fixtures.js';

const KEYS = ['Jack', 'Lily', 'Mike', 'Ann', 'Bob', 'Cleo', 'Dan', 'Eve'];
const round = (r: number) =>
  KEYS.map((key, i) => ({
    key,
    value: (i + 1) * (r + 1),
    timestamp: 1000 * (r * KEYS.length + i + 1),
  }));
const tasksOf = (app: StreamsApp) => app.status().tasks.map((t) => t.taskId);

/** Each key's values in the order written (per key the order is fixed by its partition). */
function perKey(records: { key: unknown; value: unknown }[]): Map<unknown, unknown[]> {
  const out = new Map<unknown, unknown[]>();
  for (const r of records) {
    let list = out.get(r.key);
    if (!list) out.set(r.key, (list = []));
    list.push(r.value);
  }
  return out;
}

describe('a repartitioning application as two instances on Kafka', () => {
  it('gives every key the sums Kafka Streams gives, across instances and after one leaves', async () => {
    const input = [round(0), round(1), round(2)].flat();
    const topology = seedTopology('table-sum.topology.json', 'rep-sum', 'rep-in', 'rep-out', 4);
    // Kafka Streams' output after the first two rounds and after all three.
    const results = await runOracle(
      [2 * KEYS.length, input.length].map((n) => ({
        name: `table-sum-${n}`,
        topology: seedTopology('table-sum.topology.json', 'rep-sum', 'rep-in', 'rep-out'),
        inputs: input.slice(0, n).map((r) => ({ topic: 'rep-in', ...r })),
        outputs: ['rep-out'],
      })),
    );
    for (const r of results) expect(r.error).toBeUndefined();
    const [wantFirst, want] = results.map((r) => perKey(r.outputs!['rep-out']!));

    const backend = await kafkaBackend();
    onTestFinished(() => backend.close());
    const produce = (records: typeof input) =>
      backend.produce(
        records.map((r) => ({
          topic: 'rep-in',
          key: encode('string', r.key),
          value: encode('long', r.value),
          timestamp: r.timestamp,
        })),
      );
    const a = createStreamsApp({ topology, backend, stateDir: tempStateDir() });
    const b = createStreamsApp({ topology, backend, stateDir: tempStateDir() });
    onTestFinished(() => a.close());
    onTestFinished(() => b.close());
    await a.start();
    await b.start();
    await waitFor(
      () =>
        a.state() === 'RUNNING' &&
        b.state() === 'RUNNING' &&
        tasksOf(a).length > 0 &&
        tasksOf(b).length > 0 &&
        tasksOf(a).length + tasksOf(b).length === 8,
      120_000,
      'the 8 tasks split between the two instances',
    );
    // Kafka Streams' assignment keeps a partition's tasks of both sub-topologies together.
    for (const app of [a, b]) {
      const parts = tasksOf(app).map((t) => t.split('_')[1]);
      expect(new Set(parts).size * 2).toBe(parts.length);
    }

    const caughtUp = (expected: Map<unknown, unknown[]>, what: string) =>
      waitFor(
        async () => {
          const got = perKey(await readLongs(backend, 'rep-out'));
          for (const [k, values] of expected)
            if ((got.get(k)?.length ?? 0) < values.length) return undefined;
          return got;
        },
        120_000,
        what,
      );

    await produce(input.slice(0, 2 * KEYS.length));
    expect(await caughtUp(wantFirst!, 'the first two rounds')).toEqual(wantFirst);

    await b.close();
    await waitFor(
      () => a.state() === 'RUNNING' && tasksOf(a).length === 8,
      120_000,
      'every task on the remaining instance',
    );
    await produce(input.slice(2 * KEYS.length));
    expect(await caughtUp(want!, 'the third round')).toEqual(want);
  });
});
