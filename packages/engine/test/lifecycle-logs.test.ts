// The INFO log of an application's life, as Kafka Streams writes it: every state transition of the
// client and its threads, each rebalance's revoked and assigned partitions, and each task's
// restoration with its duration and the changelog records it replayed.
import { describe, expect, it } from 'vitest';
import type { EngineLogger } from '../src/api.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode } from './fixtures/records.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

function capturing(): EngineLogger & { infos: { obj: Record<string, unknown>; msg: string }[] } {
  const infos: { obj: Record<string, unknown>; msg: string }[] = [];
  return {
    infos,
    info: (obj, msg) => infos.push({ obj: obj as Record<string, unknown>, msg: msg ?? '' }),
    warn: () => {},
    error: () => {},
  };
}

describe('lifecycle logs', () => {
  it('logs state transitions, rebalances and restorations at INFO', async () => {
    await withTempDir(async (dir) => {
      const topology = countPipeline({ 'default.dsl.store': 'in_memory' }, 2);
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const first = capturing();
      let streams = createStreamsAppFromPlan(
        { topology, backend, stateDir: `${dir}/state`, logger: first },
        handPlan(topology),
      );
      await streams.start();
      await backend.produce(
        Array.from({ length: 10 }, (_, i) => ({
          topic: 'words',
          key: encode('string', `w${i}`),
          value: encode('string', 'x'),
          timestamp: i,
        })),
      );
      await waitFor(
        async () => ((await backend.describeTopic('counts'))?.offsets[0]?.latest ?? 0) >= 10,
        10_000,
        'counts',
      );
      await waitFor(() => streams.state() === 'RUNNING', 10_000, 'RUNNING');
      await streams.close();
      const messages = first.infos.map((l) => l.msg);
      const app = `application ${topology.application.id}`;
      expect(messages).toEqual(
        expect.arrayContaining([
          `${app}: state transition from CREATED to REBALANCING`,
          `${app}: state transition from REBALANCING to RUNNING`,
          `${app}: state transition from RUNNING to PENDING_SHUTDOWN`,
          `${app}: state transition from PENDING_SHUTDOWN to NOT_RUNNING`,
        ]),
      );
      const thread = first.infos.filter((l) => /StreamThread-1: state transition/.test(l.msg));
      expect(thread.map((l) => `${String(l.obj.from)}->${String(l.obj.to)}`)).toEqual(
        expect.arrayContaining(['CREATED->STARTING', 'PARTITIONS_ASSIGNED->RUNNING']),
      );
      const assigned = first.infos.find((l) => l.msg === 'rebalance: partitions assigned');
      expect(assigned?.obj.assigned).toBe(2);

      const second = capturing();
      streams = createStreamsAppFromPlan(
        { topology, backend, stateDir: `${dir}/state`, logger: second },
        handPlan(topology),
      );
      await streams.start();
      await waitFor(() => streams.state() === 'RUNNING', 10_000, 'RUNNING');
      const restored = second.infos.filter((l) => /restoration took \d+ ms/.test(l.msg));
      expect(restored.map((l) => l.obj.taskId).sort()).toEqual(['0_0', '0_1']);
      // In memory: the restart replays every key's changelog record.
      expect(restored.reduce((n, l) => n + (l.obj.records as number), 0)).toBe(10);
      for (const l of restored) expect(l.obj.durationMs).toBeGreaterThanOrEqual(0);
      await streams.close();
      await backend.close();
    });
  });
});
