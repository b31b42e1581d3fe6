// processing.guarantee=exactly_once_v2 on the embedded log: each commit is one transaction with
// the output, the changelog records and the consumed offsets (Kafka Streams' EOS v2, KIP-447);
// read_committed readers never see a record twice, and a fenced producer (a zombie) loses its
// transaction and its tasks, which are restored from the committed changelog and reprocessed.
import { transactionalId } from '../src/eos/transactional-id.js';
import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../src/backend-spi.js';
import { createEmbeddedBackend, type EmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { getSerde } from '../src/serdes/index.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode } from './fixtures/records.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

type Isolation = 'read_committed' | 'read_uncommitted';

async function readCounts(
  backend: EmbeddedBackend,
  isolationLevel: Isolation,
  topic = 'counts',
): Promise<[string, number][]> {
  const out: [string, number][] = [];
  const desc = (await backend.describeTopic(topic))!;
  for (const o of desc.offsets) {
    let offset = o.earliest;
    for (;;) {
      const batch: StoredRecord[] = await backend.fetch(
        { topic, partition: o.partition },
        offset,
        1000,
        0,
        { isolationLevel },
      );
      if (batch.length === 0) break;
      for (const r of batch)
        out.push([
          getSerde('string').deserialize(r.key) as string,
          getSerde('long').deserialize(r.value) as number,
        ]);
      offset = batch[batch.length - 1]!.offset + 1;
    }
  }
  return out;
}

/** Running counts per key, as Kafka Streams' count emits them without caching. */
function expectedCounts(words: string[]): [string, number][] {
  const seen = new Map<string, number>();
  return words.map((w) => {
    const n = (seen.get(w) ?? 0) + 1;
    seen.set(w, n);
    return [w, n];
  });
}

const words = (n: number): string[] => Array.from({ length: n }, (_, i) => `w${(i * 7) % 5}`);

describe('exactly_once_v2', () => {
  it('commits output, changelog and offsets in transactions; read_committed sees each count once', async () => {
    await withTempDir(async (dir) => {
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const topology = countPipeline({ 'processing.guarantee': 'exactly_once_v2' }, 1);
      const streams = createStreamsAppFromPlan(
        { topology, backend, stateDir: `${dir}/state` },
        handPlan(topology),
      );
      await streams.start();
      const input = words(200);
      await backend.produce(
        input.map((w, i) => ({
          topic: 'words',
          partition: 0,
          key: encode('string', w),
          value: encode('string', 'x'),
          timestamp: i,
        })),
      );
      await waitFor(
        async () => (await readCounts(backend, 'read_committed')).length >= input.length,
        10_000,
        'committed counts',
      );
      expect(await readCounts(backend, 'read_committed')).toEqual(expectedCounts(input));
      // The offsets apply when the commit completes, just after the markers make the output visible.
      await waitFor(
        async () =>
          (await backend.committedOffsets('count-app', [{ topic: 'words', partition: 0 }])).get(
            'words:0',
          ) === 200,
        5000,
        'offsets',
      );
      await streams.close();
      // The changelog, read committed, holds the final counts.
      const changelog = new Map(
        await readCounts(backend, 'read_committed', 'count-app-counts-store-changelog'),
      );
      expect(changelog).toEqual(
        new Map(
          expectedCounts(input)
            .reverse()
            .filter(([k], i, all) => all.findIndex(([k2]) => k2 === k) === i),
        ),
      );
      await backend.close();
    });
  });

  it('a fenced producer aborts its open transaction; the thread rejoins, restores and reprocesses: no loss, no duplicate', async () => {
    await withTempDir(async (dir) => {
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      // A long commit interval keeps the transaction open while the zombie-fencing happens.
      const topology = countPipeline(
        { 'processing.guarantee': 'exactly_once_v2', 'commit.interval.ms': 60_000 },
        1,
      );
      const streams = createStreamsAppFromPlan(
        { topology, backend, stateDir: `${dir}/state` },
        handPlan(topology),
      );
      await streams.start();
      const first = words(50);
      await backend.produce(
        first.map((w, i) => ({
          topic: 'words',
          partition: 0,
          key: encode('string', w),
          value: encode('string', 'x'),
          timestamp: i,
        })),
      );
      // Processed and written inside the open transaction: visible uncommitted only.
      await waitFor(
        async () => (await readCounts(backend, 'read_uncommitted')).length >= 50,
        10_000,
        'uncommitted output',
      );
      expect(await readCounts(backend, 'read_committed')).toEqual([]);

      // Another instance with the thread's transactional id: the app's producer is fenced and its
      // transaction aborted (as when a zombie's successor calls initTransactions).
      await backend.transactionalProducer(transactionalId('count-app', `${dir}/state`, 1));
      const second = words(30).map((w) => `${w}b`);
      await backend.produce(
        second.map((w, i) => ({
          topic: 'words',
          partition: 0,
          key: encode('string', w),
          value: encode('string', 'x'),
          timestamp: 100 + i,
        })),
      );
      // The thread notices the fence at its next write, aborts, restores and reprocesses everything.
      await waitFor(
        async () => (await readCounts(backend, 'read_uncommitted')).length >= 50 + 80,
        10_000,
        'reprocessed',
      );
      await streams.close(); // commits what the re-created producer processed
      const committedOutput = await readCounts(backend, 'read_committed');
      expect(committedOutput).toEqual(expectedCounts([...first, ...second]));
      expect(
        (await backend.committedOffsets('count-app', [{ topic: 'words', partition: 0 }])).get(
          'words:0',
        ),
      ).toBe(80);
      await backend.close();
    });
  });
});
