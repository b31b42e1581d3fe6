// Breakpoints on a running app (embedded backend, real files): a matching record pauses the app
// with the node's state as it was on arrival, step walks the nodes the record reaches next, resume
// continues, and neither removing breakpoints nor closing the app leaves it stuck.
import { describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { AppDebugger } from '../src/debug/app-debugger.js';
import { EngineError } from '../src/errors.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode, readAll } from './fixtures/records.js';
import { countPipeline, topology } from './fixtures/topologies.js';
import { planTopology, type TopologyNode, type WindowSpec } from '@streamwright/topology-model';
import { waitFor } from './fixtures/wait.js';

const words = (keys: string[], from = 0) =>
  keys.map((key, i) => ({
    topic: 'words',
    key: encode('string', key),
    value: encode('string', key.toUpperCase()),
    timestamp: 1000 + from + i,
  }));

async function countApp(dir: string, config = {}) {
  const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
  const topology = countPipeline(config, 1);
  const plan = handPlan(topology);
  const debug = new AppDebugger(plan);
  const app = createStreamsAppFromPlan(
    { topology, backend, stateDir: `${dir}/state`, debugger: debug },
    plan,
  );
  return { backend, app, debug };
}

describe('breakpoints on a running app', () => {
  it('pauses at a matching record with its state, steps through the nodes it reaches, resumes', async () => {
    await withTempDir(async (dir) => {
      const { backend, app, debug } = await countApp(dir);
      const bp = debug.setBreakpoint({ nodeId: 'count', condition: 'key == "b"' });
      expect(debug.active).toBe(true);
      await app.start();
      await backend.produce(words(['a', 'b', 'a', 'b']));

      const pause = await waitFor(() => debug.paused() ?? undefined, 10_000, 'a pause');
      expect(pause.breakpointId).toBe(bp.id);
      expect(pause.position).toBe(0);
      const hit = pause.stops[0]!;
      expect(hit.nodeId).toBe('count');
      expect(hit.record).toMatchObject({
        key: 'b',
        value: 'B',
        timestamp: 1001,
        topic: 'words',
        partition: 0,
        offset: 1,
      });
      // The state on arrival: no count for "b" yet, "a" counted once.
      expect(hit.state).toEqual([
        {
          store: 'counts-store',
          current: null,
          entries: [{ key: 'a', value: 1, timestamp: 1000 }],
          size: 1,
        },
      ]);
      // The paused record went on to toStream and the sink: the trace holds both.
      expect(pause.stops.map((s) => s.nodeId)).toEqual(['count', 'stream', 'out']);
      expect(pause.stops[1]!.record.value).toBe(1);
      expect(pause.stops[1]!.from).toBe(hit.node);
      // Held before the flush: the paused record's output is not written yet.
      await new Promise((r) => setTimeout(r, 150));
      expect((await readAll(backend, 'counts', 'string', 'long')).map((r) => r.key)).not.toContain(
        'b',
      );
      expect(app.metrics().nodes['0_0']!['KSTREAM-SOURCE-0000000000']!['process-total']).toBe(2);

      expect(debug.step()!.position).toBe(1);
      expect(debug.step()!.position).toBe(2);
      // Past the trace: run until the next record reaches any node (the third word, at the source).
      expect(debug.step()).toBeNull();
      const next = await waitFor(() => debug.paused() ?? undefined, 10_000, 'the next record');
      expect(next.breakpointId).toBeNull();
      expect(next.pauseId).toBe(pause.pauseId + 1);
      expect(next.stops[0]).toMatchObject({ nodeId: 'src', record: { key: 'a', offset: 2 } });

      debug.resume();
      // The fourth word matches again, now with b counted once.
      const again = await waitFor(
        () => (debug.paused()?.pauseId === next.pauseId + 1 ? debug.paused()! : undefined),
        10_000,
        'the second "b"',
      );
      expect(again.stops[0]!.state[0]!.current).toEqual({ value: 1, timestamp: 1001 });
      expect(debug.breakpoints()).toEqual([{ ...bp, hits: 2 }]);

      // Removing the last breakpoint resumes the app.
      expect(debug.removeBreakpoint(bp.id)).toBe(true);
      expect(debug.paused()).toBeNull();
      expect(debug.active).toBe(false);
      const counts = await waitFor(async () => {
        const out = await readAll(backend, 'counts', 'string', 'long');
        return out.length === 4 ? out : undefined;
      });
      expect(counts.map((r) => [r.key, r.value])).toEqual([
        ['a', 1],
        ['b', 1],
        ['a', 2],
        ['b', 2],
      ]);
      await app.close();
      await backend.close();
    });
  });

  it('closing a paused app does not hang', async () => {
    await withTempDir(async (dir) => {
      const { backend, app, debug } = await countApp(dir);
      debug.setBreakpoint({ nodeId: 'src' });
      await app.start();
      await backend.produce(words(['x', 'y']));
      await waitFor(() => debug.paused() ?? undefined, 10_000, 'a pause');
      await app.close();
      expect(app.state()).toBe('NOT_RUNNING');
      expect(debug.paused()).toBeNull();
      await backend.close();
    });
  });

  it('refuses an unknown node and a condition that does not compile, saying where', async () => {
    await withTempDir(async (dir) => {
      const { backend, debug } = await countApp(dir);
      expect(() => debug.setBreakpoint({ nodeId: 'nope' })).toThrow(
        /nodeId: the application has no node "nope"/,
      );
      // groupByKey has no processor of its own: nothing to stop at.
      expect(() => debug.setBreakpoint({ nodeId: 'group' })).toThrow(EngineError);
      expect(() => debug.setBreakpoint({ nodeId: 'count', condition: 'key ==' })).toThrow(
        /^condition: /,
      );
      expect(() => debug.setBreakpoint({ nodeId: 'count', condition: 'value.size()' })).toThrow(
        /condition: .*bool/,
      );
      expect(debug.breakpoints()).toEqual([]);
      expect(debug.active).toBe(false);
      await backend.close();
    });
  });

  it("shows a windowed count's windows and a session count's sessions at a stop", async () => {
    await withTempDir(async (dir) => {
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const windowed = (id: string, window: WindowSpec): TopologyNode[] => [
        { id: `${id}By`, kind: 'windowedBy', config: { window } },
        { id: `${id}Count`, kind: 'windowedCount', config: { store: `${id}-store` } },
      ];
      const app = topology(
        'debug-windows',
        { 'commit.interval.ms': 100, 'statestore.cache.max.bytes': 0 },
        [{ name: 'words', partitions: 1, config: {} }],
        [
          {
            id: 'src',
            kind: 'source',
            config: {
              topic: 'words',
              keySerde: 'string',
              valueSerde: 'string',
              offsetReset: 'earliest',
            },
          },
          { id: 'group', kind: 'groupByKey', config: {} },
          ...windowed('tumbling', { type: 'tumbling', sizeMs: 10, graceMs: 0 }),
          ...windowed('session', { type: 'session', gapMs: 5, graceMs: 0 }),
        ],
        [
          ['src', 'group'],
          ['group', 'tumblingBy'],
          ['tumblingBy', 'tumblingCount'],
          ['group', 'sessionBy'],
          ['sessionBy', 'sessionCount'],
        ],
      );
      const plan = planTopology(app);
      const debug = new AppDebugger(plan);
      const running = createStreamsAppFromPlan(
        { topology: app, backend, stateDir: `${dir}/state`, debugger: debug },
        plan,
      );
      debug.setBreakpoint({ nodeId: 'tumblingCount', condition: 'timestamp == 1003' });
      debug.setBreakpoint({ nodeId: 'sessionCount', condition: 'timestamp == 1003' });
      await running.start();
      // b at 1000 and 1002 (one window [1000, 1010), one session [1000, 1002]), a at 1001
      await backend.produce(
        (
          [
            ['b', 1000],
            ['a', 1001],
            ['b', 1002],
            ['b', 1003],
          ] as const
        ).map(([key, timestamp]) => ({
          topic: 'words',
          key: encode('string', key),
          value: encode('string', key),
          timestamp,
        })),
      );
      const pause = await waitFor(() => debug.paused() ?? undefined, 10_000, 'a pause');
      const stop = pause.stops[0]!;
      expect(stop.state).toHaveLength(1);
      const [state] = stop.state;
      if (stop.nodeId === 'tumblingCount') {
        expect(state).toEqual({
          store: 'tumbling-store',
          type: 'window',
          current: { value: 2, timestamp: 1002, window: { start: 1000, end: 1010 } },
          entries: [
            { key: { key: 'a', start: 1000, end: 1010 }, value: 1, timestamp: 1001 },
            { key: { key: 'b', start: 1000, end: 1010 }, value: 2, timestamp: 1002 },
          ],
          size: 2,
        });
      } else {
        expect(stop.nodeId).toBe('sessionCount');
        expect(state).toMatchObject({
          store: 'session-store',
          type: 'session',
          current: { value: 2, timestamp: 1002, window: { start: 1000, end: 1002 } },
          size: 2,
        });
      }
      await running.close();
      await backend.close();
    });
  });

  it('is refused when the stream threads run in workers', async () => {
    await withTempDir(async (dir) => {
      const { backend, app, debug } = await countApp(dir, { 'num.stream.threads': 2 });
      await app.start();
      expect(() => debug.setBreakpoint({ nodeId: 'count' })).toThrow(/num.stream.threads=2/);
      await app.close();
      await backend.close();
    });
  });
});
