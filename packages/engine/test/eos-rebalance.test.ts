// exactly_once_v2 across a rebalance between stream threads: the input is there before the
// second thread joins, so the first thread processes, then gives its tasks up (committing its
// transaction while the group revokes), and the second carries on from the committed offsets.
// Before the group accepted commits during revocation, the revoking thread's commit failed with
// REBALANCE_IN_PROGRESS and the whole application went to ERROR.
import { describe, expect, it } from 'vitest';
import type { Topology } from '@streamwright/topology-model';
import { createEmbeddedBackend, type EmbeddedBackend } from '../src/backends/embedded/index.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode } from './fixtures/records.js';
import { getSerde } from '../src/serdes/index.js';
import { topology } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';
import { tempStateDir } from './fixtures/state-dir.js';

const N = 2000;

function shout(): Topology {
  return topology(
    'eos-rebalance-app',
    {
      'commit.interval.ms': 100,
      'num.stream.threads': 2,
      'processing.guarantee': 'exactly_once_v2',
    },
    [
      { name: 'in', partitions: 4, config: {} },
      { name: 'out', partitions: 2, config: {} },
    ],
    [
      {
        id: 'src',
        kind: 'source',
        config: { topic: 'in', keySerde: 'string', valueSerde: 'string', offsetReset: 'earliest' },
      },
      { id: 'loud', kind: 'mapValues', config: { expression: 'value + "!"' } },
      {
        id: 'sink',
        kind: 'sink',
        config: { topic: 'out', keySerde: 'string', valueSerde: 'string' },
      },
    ] as Topology['nodes'],
    [
      ['src', 'loud'],
      ['loud', 'sink'],
    ],
  );
}

async function committedOutput(backend: EmbeddedBackend): Promise<string[]> {
  const values: string[] = [];
  for (let partition = 0; partition < 2; partition++) {
    for (let offset = 0; ;) {
      const records = await backend.fetch({ topic: 'out', partition }, offset, 100_000, 0, {
        isolationLevel: 'read_committed',
      });
      if (records.length === 0) break;
      for (const r of records) values.push(getSerde('string').deserialize(r.value) as string);
      offset = Number(records[records.length - 1]!.offset) + 1;
    }
  }
  return values;
}

describe('exactly_once_v2 across a rebalance of stream threads', () => {
  for (const round of [1, 2, 3])
    it(`input present before the second thread joins: every record once, the app RUNNING (round ${round})`, async () => {
      const backend = await createEmbeddedBackend();
      await backend.createTopics([
        { name: 'in', partitions: 4 },
        { name: 'out', partitions: 2 },
      ]);
      await backend.produce(
        Array.from({ length: N }, (_, i) => ({
          topic: 'in',
          key: encode('string', `k${i}`),
          value: encode('string', `v${i}`),
        })),
      );
      const t = shout();
      const app = createStreamsAppFromPlan(
        { topology: t, backend, stateDir: tempStateDir() },
        handPlan(t),
      );
      try {
        await app.start();
        await waitFor(
          async () => app.state() === 'ERROR' || (await committedOutput(backend)).length >= N,
          30_000,
          'all output committed',
        );
        expect(app.status().errors).toEqual([]);
        await new Promise((r) => setTimeout(r, 500)); // nothing more may arrive
        const values = await committedOutput(backend);
        expect(values.length).toBe(N);
        expect(new Set(values)).toEqual(new Set(Array.from({ length: N }, (_, i) => `v${i}!`)));
        expect(app.state()).toBe('RUNNING');
      } finally {
        await app.close();
        await backend.close();
      }
    }, 60_000);
});
