// Where a partition starts without a usable committed offset: a source's own offsetReset, else
// the application's auto.offset.reset (Kafka Streams' precedence; before, a topology document's
// source always carried `earliest`, so the application's setting was never consulted), and
// `none` fails the task naming the partition. A committed offset before the log start follows
// the policy too, loudly (an offset-reset recovery), and so does a running task's position that
// retention overtakes.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AppConfig, Topology } from '@streamwright/topology-model';
import { createStreamsApp, createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { AppDebugger } from '../src/debug/app-debugger.js';
import { handPlan } from './fixtures/hand-planner.js';
import { createEmbeddedBackend, type EmbeddedBackend } from '../src/backends/embedded/index.js';
import { encode, readAll } from './fixtures/records.js';
import { tempStateDir } from './fixtures/state-dir.js';
import { countPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';

/** countPipeline with the source's offsetReset set or (undefined) left out. */
function counting(
  config: AppConfig,
  offsetReset?: 'earliest' | 'latest',
  id = 'count-app',
): Topology {
  const t = countPipeline(config, 1);
  t.application.id = id;
  const { offsetReset: _dropped, ...rest } = t.nodes[0]!.config as Record<string, unknown>;
  t.nodes[0] = {
    ...t.nodes[0]!,
    config: offsetReset === undefined ? rest : { ...rest, offsetReset },
  } as Topology['nodes'][number];
  return t;
}

async function backendWithWords(n: number): Promise<EmbeddedBackend> {
  const backend = await createEmbeddedBackend({ dataDir: tempStateDir() });
  onTestFinished(() => backend.close());
  await backend.createTopics([
    { name: 'words', partitions: 1 },
    { name: 'counts', partitions: 1 },
  ]);
  await produceWords(backend, 0, n);
  return backend;
}

async function produceWords(backend: EmbeddedBackend, from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i++)
    await backend.produce([
      {
        topic: 'words',
        partition: 0,
        key: encode('string', `w${i}`),
        value: encode('string', 'x'),
      },
    ]);
}

const countsEnd = async (backend: EmbeddedBackend): Promise<number> =>
  (await backend.describeTopic('counts'))!.offsets[0]!.latest;

async function run(backend: EmbeddedBackend, topology: Topology) {
  const warnings: string[] = [];
  const logger = {
    info() {},
    warn: (_o: object, msg?: string) => warnings.push(msg ?? ''),
    error() {},
  };
  const app = createStreamsApp({ topology, backend, stateDir: tempStateDir(), logger });
  onTestFinished(() => app.close());
  await app.start();
  return { app, warnings };
}

describe('auto.offset.reset', () => {
  it("the application's latest applies to a source without its own policy; a source's earliest wins", async () => {
    const backend = await backendWithWords(5);
    const { app } = await run(backend, counting({ 'auto.offset.reset': 'latest' }));
    await waitFor(() => app.status().tasks.some((t) => t.state === 'RUNNING'), 20_000, 'RUNNING');
    await produceWords(backend, 5, 2);
    await waitFor(async () => (await countsEnd(backend)) >= 2, 20_000, 'the new records counted');
    await new Promise((r) => setTimeout(r, 300));
    expect(await countsEnd(backend)).toBe(2); // the five records before the start are skipped
    await app.close();

    const other = await backendWithWords(5);
    const { app: own } = await run(other, counting({ 'auto.offset.reset': 'latest' }, 'earliest'));
    await waitFor(async () => (await countsEnd(other)) >= 5, 20_000, 'all five counted');
    expect(own.status().recoveries.filter((r) => r.kind === 'offset-reset')).toEqual([]);
  });

  it('none without a committed offset fails the task naming the partition', async () => {
    const backend = await backendWithWords(3);
    const { app } = await run(backend, counting({ 'auto.offset.reset': 'none' }));
    await waitFor(() => app.status().state === 'ERROR', 20_000, 'ERROR');
    const messages = app.status().errors.map((e) => e.message);
    expect(messages).toEqual([
      expect.stringMatching(/^words-0: no committed offset and auto\.offset\.reset is none/),
    ]);
    expect(await countsEnd(backend)).toBe(0);
    // A source's own policy still wins over none.
    const { app: own } = await run(
      backend,
      counting({ 'auto.offset.reset': 'none' }, 'earliest', 'own-app'),
    );
    await waitFor(async () => (await countsEnd(backend)) >= 3, 20_000, 'counted from earliest');
    expect(own.status().state).not.toBe('ERROR');
  });

  it('a committed offset before the log start: earliest resets loudly, none fails the task', async () => {
    const backend = await backendWithWords(10);
    await backend.commitOffsets('count-app', [{ topic: 'words', partition: 0, offset: 2 }]);
    await backend.log.deleteRecords('words', 0, 6);
    const { app, warnings } = await run(backend, counting({}));
    await waitFor(async () => (await countsEnd(backend)) >= 4, 20_000, 'offsets 6..9 counted');
    const reset = app.status().recoveries.find((r) => r.kind === 'offset-reset')!;
    expect(reset).toMatchObject({ topic: 'words', partition: 0, fromOffset: 2, toOffset: 6 });
    expect(reset.message).toMatch(
      /committed offset 2 of words-0 is before the log start 6; reset to 6 .*auto\.offset\.reset=earliest/,
    );
    expect(warnings.some((w) => /words-0 is before the log start 6/.test(w))).toBe(true);
    await app.close();

    await backend.commitOffsets('none-app', [{ topic: 'words', partition: 0, offset: 2 }]);
    const { app: strict } = await run(
      backend,
      counting({ 'auto.offset.reset': 'none' }, undefined, 'none-app'),
    );
    await waitFor(() => strict.status().state === 'ERROR', 20_000, 'ERROR');
    expect(strict.status().errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^words-0: the committed offset 2 is before the log start 6 and auto\.offset\.reset is none/,
      ),
    ]);
  });

  // Retention (here deleteRecords) overtaking a running task's position: before, the fetch read
  // from the log start whatever the policy, silently. The task is held at a breakpoint on its
  // first record while records arrive and the log start passes its position.
  it.each([
    ['earliest', 8],
    ['latest', 11],
    ['none', null],
  ] as const)(
    'a position overtaken while the task runs follows auto.offset.reset=%s, loudly',
    async (policy, resetTo) => {
      const backend = await backendWithWords(0);
      // A committed start (none would fail at once without one).
      await backend.commitOffsets(`overtaken-${policy}`, [
        { topic: 'words', partition: 0, offset: 0 },
      ]);
      const topology = counting(
        { 'auto.offset.reset': policy, 'max.poll.records': 1 },
        undefined,
        `overtaken-${policy}`,
      );
      const plan = handPlan(topology);
      const debug = new AppDebugger(plan);
      const warnings: string[] = [];
      const logger = {
        info() {},
        warn: (_o: object, msg?: string) => warnings.push(msg ?? ''),
        error() {},
      };
      const app = createStreamsAppFromPlan(
        { topology, backend, stateDir: tempStateDir(), logger, debugger: debug },
        plan,
      );
      onTestFinished(() => app.close());
      debug.setBreakpoint({ nodeId: 'count', condition: 'key == "w0"' });
      await app.start();
      await produceWords(backend, 0, 1);
      await waitFor(() => debug.paused() ?? undefined, 20_000, 'paused at w0');
      await produceWords(backend, 1, 10); // offsets 1..10
      expect(await backend.log.deleteRecords('words', 0, 8)).toBe(8);
      debug.resume();
      for (const id of [...debug.breakpoints()].map((b) => b.id)) debug.removeBreakpoint(id);

      if (resetTo === null) {
        await waitFor(() => app.status().state === 'ERROR', 20_000, 'ERROR');
        expect(app.status().errors.map((e) => e.message)).toEqual([
          expect.stringMatching(
            /^words-0: the position \d+ was overtaken by the log start 8 .* auto\.offset\.reset is none/,
          ),
        ]);
        return;
      }
      await waitFor(
        () => app.status().recoveries.find((r) => r.kind === 'offset-reset'),
        20_000,
        'an offset-reset recovery',
      );
      const reset = app.status().recoveries.find((r) => r.kind === 'offset-reset')!;
      expect(reset).toMatchObject({ topic: 'words', partition: 0, toOffset: resetTo });
      expect(reset.fromOffset).toBeLessThan(8);
      expect(reset.message).toMatch(
        new RegExp(
          `overtaken by the log start .*reset to ${resetTo} .*auto\\.offset\\.reset=${policy}`,
        ),
      );
      expect(app.status().recoveryCounts['offset-reset']).toBe(1);
      expect(warnings.some((w) => /words-0 was overtaken by the log start/.test(w))).toBe(true);
      await produceWords(backend, 11, 1);
      await waitFor(
        async () =>
          (await readAll(backend, 'counts', 'string', 'long')).some((r) => r.key === 'w11'),
        20_000,
        'w11 counted',
      );
      const counted = new Set(
        (await readAll(backend, 'counts', 'string', 'long')).map((r) => r.key as string),
      );
      // earliest: from the log start on (8, 9, 10); latest: from the end (none of them).
      for (const k of ['w8', 'w9', 'w10']) expect(counted.has(k)).toBe(policy === 'earliest');
    },
  );
});
