// Two instances of one application on one backend form one consumer group: tasks move between
// them on join and leave, a moving task is committed before it goes and restored where it lands,
// so counting stays exact (no loss, no double count) across both rebalances.
import { describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode, readAll } from './fixtures/records.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';
import { tempStateDir } from './fixtures/state-dir.js';

describe('rebalancing between application instances', () => {
  it('moves tasks on join and leave without losing or double-counting', async () => {
    const backend = await createEmbeddedBackend();
    const topology = countPipeline({}, 3);
    const make = () =>
      createStreamsAppFromPlan({ topology, backend, stateDir: tempStateDir() }, handPlan(topology));
    const keys = Array.from({ length: 12 }, (_, i) => `w${i}`);
    const expected = new Map<string, number>();
    let sent = 0;
    const produceRound = async () => {
      await backend.produce(
        keys.map((k) => ({
          topic: 'words',
          key: encode('string', k),
          value: encode('string', 'x'),
        })),
      );
      for (const k of keys) expected.set(k, (expected.get(k) ?? 0) + 1);
      sent += keys.length;
      await waitFor(
        async () =>
          (await readAll(backend, 'counts', 'string', 'long')).length >= sent ? true : undefined,
        10_000,
        `${sent} counts`,
      );
    };
    const latestCounts = async () => {
      const m = new Map<unknown, unknown>();
      const all = await readAll(backend, 'counts', 'string', 'long');
      for (const r of all.sort((a, b) => a.offset - b.offset)) m.set(r.key, r.value);
      return { m, n: all.length };
    };

    const a = make();
    await a.start();
    await produceRound();
    expect(a.status().tasks.map((t) => t.taskId)).toEqual(['0_0', '0_1', '0_2']);

    const b = make();
    await b.start();
    await waitFor(() => a.state() === 'RUNNING' && b.state() === 'RUNNING', 5000, 'both RUNNING');
    const owned = [...a.status().tasks, ...b.status().tasks].map((t) => t.taskId).sort();
    expect(owned).toEqual(['0_0', '0_1', '0_2']);
    expect(b.status().tasks.length).toBeGreaterThan(0);
    await produceRound();

    await b.close();
    await waitFor(
      () => a.status().tasks.length === 3 && a.state() === 'RUNNING',
      5000,
      'tasks back on a',
    );
    await produceRound();

    const { m, n } = await latestCounts();
    expect(m).toEqual(expected);
    expect(n).toBe(sent); // one count update per input record: nothing reprocessed, nothing lost
    await a.close();
    await backend.close();
  });
});
