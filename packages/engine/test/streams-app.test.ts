// End-to-end on the embedded backend (real files in a temp dir): the app plans, creates topics,
// runs stream threads, commits, restores and handles errors as Kafka Streams does.
import { describe, expect, it } from 'vitest';
import type { StreamsApp } from '../src/api.js';
import { createEmbeddedBackend, type EmbeddedBackend } from '../src/backends/embedded/index.js';
import { withTempDir } from '../src/test-helpers.js';
import { createStreamsAppFromPlan } from '../src/app/streams-app.js';
import { partitionFor } from '../src/partitioner/default-partitioner.js';
import { handPlan } from './fixtures/hand-planner.js';
import { encode, readAll } from './fixtures/records.js';
import { countPipeline, ordersPipeline } from './fixtures/topologies.js';
import { waitFor } from './fixtures/wait.js';
import type { Topology } from '@streamwright/topology-model';
import { tempStateDir } from './fixtures/state-dir.js';

function app(topology: Topology, backend: EmbeddedBackend, stateDir: string): StreamsApp {
  return createStreamsAppFromPlan({ topology, backend, stateDir }, handPlan(topology));
}

describe('streams app on the embedded backend', () => {
  it('3-partition source → filter → mapValues → sink: exact output, tasks 0_0, 0_1, 0_2', async () => {
    await withTempDir(async (dir) => {
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const topology = ordersPipeline();
      const streams = app(topology, backend, `${dir}/state`);
      await streams.start();
      const orders = Array.from({ length: 60 }, (_, i) => ({
        key: `o${i}`,
        value: { user: `u${i % 4}`, amount: i * 5 },
      }));
      await backend.produce(
        orders.map((o, i) => ({
          topic: 'orders',
          key: encode('string', o.key),
          value: encode('json', o.value),
          timestamp: 1000 + i,
        })),
      );
      const expected = orders
        .filter((o) => o.value.amount > 100)
        .map((o) => ({ key: o.key, value: { user: o.value.user, total: o.value.amount * 2 } }));
      const output = await waitFor(async () => {
        const out = await readAll(backend, 'big-orders', 'string', 'json');
        return out.length >= expected.length ? out : undefined;
      });
      await new Promise((r) => setTimeout(r, 200)); // nothing more may arrive
      const finalOutput = await readAll(backend, 'big-orders', 'string', 'json');
      expect(finalOutput.map((r) => ({ key: r.key, value: r.value })).sort(byKey)).toEqual(
        expected.sort(byKey),
      );
      expect(output.length).toBe(expected.length);
      // Per input partition the order is kept.
      for (let p = 0; p < 3; p++) {
        const fromP = expected
          .filter((e) => partitionFor(encode('string', e.key)!, 3) === p)
          .map((e) => e.key);
        expect(
          finalOutput.filter((r) => fromP.includes(r.key as string)).map((r) => r.key),
        ).toEqual(fromP);
      }

      await waitFor(() => streams.state() === 'RUNNING', 5000, 'RUNNING');
      const status = streams.status();
      expect(status.tasks.map((t) => [t.taskId, t.state, t.thread])).toEqual([
        ['0_0', 'RUNNING', 'orders-app-StreamThread-1'],
        ['0_1', 'RUNNING', 'orders-app-StreamThread-1'],
        ['0_2', 'RUNNING', 'orders-app-StreamThread-1'],
      ]);
      expect(status.tasks[1]!.partitions).toEqual([{ topic: 'orders', partition: 1 }]);
      const metrics = streams.metrics();
      expect(Object.keys(metrics.tasks).sort()).toEqual(['0_0', '0_1', '0_2']);
      expect(Object.keys(metrics.nodes).sort()).toEqual(['0_0', '0_1', '0_2']);
      const total = (node: string, metric: string) =>
        Object.values(metrics.nodes).reduce((s, byNode) => s + (byNode[node]?.[metric] ?? 0), 0);
      expect(total('KSTREAM-SOURCE-0000000000', 'process-total')).toBe(60);
      expect(total('KSTREAM-SOURCE-0000000000', 'records-consumed-total')).toBe(60);
      expect(total('KSTREAM-MAPVALUES-0000000002', 'process-total')).toBe(expected.length);
      expect(total('KSTREAM-SINK-0000000003', 'records-produced-total')).toBe(expected.length);
      expect(metrics.threads['orders-app-StreamThread-1']!['process-total']).toBe(60);
      expect(metrics.nodeModelIds['KSTREAM-FILTER-0000000001']).toBe('big');
      expect(
        metrics.nodes['0_0']!['KSTREAM-SINK-0000000003']!['record-e2e-latency-max'],
      ).toBeGreaterThanOrEqual(0);

      await streams.close();
      expect(streams.state()).toBe('NOT_RUNNING');
      await streams.close(); // idempotent
      const committed = await backend.committedOffsets(
        'orders-app',
        [0, 1, 2].map((partition) => ({ topic: 'orders', partition })),
      );
      const latest = (await backend.describeTopic('orders'))!.offsets;
      for (const o of latest) expect(committed.get(`orders:${o.partition}`) ?? 0).toBe(o.latest);
      await backend.close();
    });
  });

  // Expected counts as in Kafka Streams' KGroupedStreamImplTest#shouldCountAndMaterializeResults
  // (1→3, 2→1, 3→2, the null value skipped); then the count must continue after a restart from the
  // changelog-restored store, as Kafka Streams' restore guarantees. In memory (`in_memory`): the
  // restart rebuilds the store from the whole changelog (test/persistent-state.test.ts covers lmdb).
  it('count emits Kafka Streams counts and continues after a restart via changelog restore (in-memory store)', async () => {
    await withTempDir(async (dir) => {
      const topology = countPipeline({ 'default.dsl.store': 'in_memory' });
      const produce = (backend: EmbeddedBackend, rows: [string, string | null, number][]) =>
        backend.produce(
          rows.map(([k, v, ts]) => ({
            topic: 'words',
            key: encode('string', k),
            value: encode('string', v),
            timestamp: ts,
          })),
        );
      const finalCounts = async (backend: EmbeddedBackend) => {
        const m = new Map<unknown, unknown>();
        for (const r of (await readAll(backend, 'counts', 'string', 'long')).sort(
          (a, b) => a.offset - b.offset,
        ))
          m.set(r.key, r.value);
        return m;
      };

      let backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      let streams = app(topology, backend, `${dir}/state`);
      await streams.start();
      await produce(backend, [
        ['1', 'A', 5],
        ['2', 'B', 1],
        ['1', 'C', 3],
        ['1', 'D', 10],
        ['3', 'E', 8],
        ['3', 'F', 9],
        ['3', null, 10],
      ]);
      await waitFor(async () => (await readAll(backend, 'counts', 'string', 'long')).length >= 6);
      expect(await finalCounts(backend)).toEqual(
        new Map([
          ['1', 3],
          ['2', 1],
          ['3', 2],
        ]),
      );
      const perKey = (await readAll(backend, 'counts', 'string', 'long'))
        .filter((r) => r.key === '1')
        .sort((a, b) => a.offset - b.offset);
      expect(perKey.map((r) => r.value)).toEqual([1, 2, 3]);
      const dropped = Object.values(streams.metrics().tasks).reduce(
        (s, t) => s + (t['dropped-records-total'] ?? 0),
        0,
      );
      expect(dropped).toBe(1);
      await streams.close();
      await backend.close();

      // Restart: a new backend over the same files, a new app: the store is restored from the changelog.
      backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const changelog = await backend.describeTopic('count-app-counts-store-changelog');
      expect(changelog?.config['cleanup.policy']).toBe('compact');
      expect(changelog?.internal).toBe(true);
      streams = app(topology, backend, `${dir}/state`);
      await streams.start();
      await produce(backend, [
        ['1', 'X', 20],
        ['2', 'Y', 21],
      ]);
      await waitFor(async () => {
        const m = await finalCounts(backend);
        return m.get('1') === 4 && m.get('2') === 2 ? m : undefined;
      });
      const restored = Object.values(streams.metrics().tasks).reduce(
        (s, t) => s + (t['restore-total'] ?? 0),
        0,
      );
      expect(restored).toBeGreaterThanOrEqual(3);
      // Nothing was reprocessed: exactly two new count records.
      expect((await readAll(backend, 'counts', 'string', 'long')).length).toBe(8);
      await streams.close();
      await backend.close();
    });
  });

  it('log-and-fail: the task fails, the app goes to ERROR with the record in status, the process keeps running', async () => {
    const backend = await createEmbeddedBackend();
    const topology = ordersPipeline({}, '{"user": value.user, "twice": value.qty * 2}');
    const streams = app(topology, backend, tempStateDir());
    await streams.start();
    await backend.produce([
      {
        topic: 'orders',
        partition: 1,
        key: encode('string', 'bad'),
        value: encode('json', { user: 'ann', amount: 500 }),
        timestamp: 5,
      },
    ]);
    await waitFor(() => streams.state() === 'ERROR', 10_000, 'ERROR');
    const status = streams.status();
    expect(status.errors[0]).toMatchObject({
      taskId: '0_1',
      processor: 'KSTREAM-MAPVALUES-0000000002',
      modelNodeId: 'shape',
      handling: 'fail',
      record: {
        topic: 'orders',
        partition: 1,
        offset: 0,
        key: 'bad',
        value: { user: 'ann', amount: 500 },
      },
    });
    expect(status.errors[0]!.message).toMatch(/qty/);
    expect(status.tasks.find((t) => t.taskId === '0_1')!.state).toBe('FAILED');
    // The failed record's offset was not committed: a restart would see it again.
    expect(
      (await backend.committedOffsets('orders-app', [{ topic: 'orders', partition: 1 }])).get(
        'orders:1',
      ),
    ).toBeUndefined();
    await streams.close();
    expect(streams.state()).toBe('ERROR');
    await backend.close();
  });

  it('log-and-continue: the record is skipped and counted, processing goes on', async () => {
    const backend = await createEmbeddedBackend();
    const topology = ordersPipeline(
      { 'processing.exception.handler': 'log-and-continue' },
      '{"user": value.user, "twice": value.qty * 2}',
    );
    const streams = app(topology, backend, tempStateDir());
    await streams.start();
    await backend.produce([
      {
        topic: 'orders',
        partition: 0,
        key: encode('string', 'bad'),
        value: encode('json', { user: 'ann', amount: 500 }),
        timestamp: 5,
      },
      {
        topic: 'orders',
        partition: 0,
        key: encode('string', 'good'),
        value: encode('json', { user: 'bob', amount: 500, qty: 3 }),
        timestamp: 6,
      },
    ]);
    const out = await waitFor(async () => {
      const r = await readAll(backend, 'big-orders', 'string', 'json');
      return r.length > 0 ? r : undefined;
    });
    expect(out.map((r) => [r.key, r.value])).toEqual([['good', { user: 'bob', twice: 6 }]]);
    expect(streams.status().errors[0]).toMatchObject({
      handling: 'continue',
      taskId: '0_0',
      modelNodeId: 'shape',
    });
    expect(streams.metrics().tasks['0_0']!['dropped-records-total']).toBe(1);
    expect(streams.state()).not.toBe('ERROR');
    await streams.close();
    await backend.close();
  });

  it('a write to a deleted sink topic goes to the production handler (log-and-fail): the app stops with the reason in status', async () => {
    const backend = await createEmbeddedBackend();
    const streams = app(ordersPipeline(), backend, tempStateDir());
    await streams.start();
    await backend.deleteTopics(['big-orders']);
    await backend.produce([
      {
        topic: 'orders',
        key: encode('string', 'k'),
        value: encode('json', { user: 'u', amount: 500 }),
      },
    ]);
    await waitFor(() => streams.state() === 'ERROR', 10_000, 'ERROR');
    // The backend refuses the record as the sink buffers it (Backend#checkRecord), so the error
    // is the sink's, with the record, as Kafka Streams' production exception handler sees it.
    expect(streams.status().errors[0]).toMatchObject({
      processor: 'KSTREAM-SINK-0000000003',
      handler: 'production',
      handling: 'fail',
      record: { topic: 'orders', key: 'k' },
    });
    expect(streams.status().errors[0]!.message).toMatch(/big-orders does not exist/);
    await streams.close();
    await backend.close();
  });

  it('num.stream.threads=2 spreads the tasks over two named threads and processes everything once', async () => {
    const backend = await createEmbeddedBackend();
    const streams = app(ordersPipeline({ 'num.stream.threads': 2 }), backend, tempStateDir());
    await streams.start();
    await backend.produce(
      Array.from({ length: 30 }, (_, i) => ({
        topic: 'orders',
        key: encode('string', `k${i}`),
        value: encode('json', { user: 'u', amount: 200 }),
      })),
    );
    await waitFor(
      async () => (await readAll(backend, 'big-orders', 'string', 'json')).length === 30,
    );
    await waitFor(() => streams.state() === 'RUNNING', 5000, 'RUNNING');
    const threads = streams.status().tasks.map((t) => t.thread);
    expect(new Set(threads)).toEqual(
      new Set(['orders-app-StreamThread-1', 'orders-app-StreamThread-2']),
    );
    expect(streams.status().tasks.map((t) => t.taskId)).toEqual(['0_0', '0_1', '0_2']);
    await new Promise((r) => setTimeout(r, 200));
    expect((await readAll(backend, 'big-orders', 'string', 'json')).length).toBe(30);
    await streams.close();
    await backend.close();
  });
});

const byKey = (a: { key: unknown }, b: { key: unknown }) =>
  String(a.key).localeCompare(String(b.key));
