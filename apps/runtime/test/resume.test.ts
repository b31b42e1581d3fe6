// A runtime restarted on the same data dir resumes the deployed app from its committed offsets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, makeClient, makeDataDir, removeDataDir, startTestRuntime } from './harness.js';
import { expectedSink, orders, ordersPipeline } from './topologies.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await makeDataDir();
});
afterAll(async () => {
  await removeDataDir(dataDir);
});

async function produceAll(
  client: ReturnType<typeof makeClient>,
  batch: ReturnType<typeof orders>,
): Promise<void> {
  for (const order of batch) {
    await client.topics.produce.mutate({
      topic: 'orders',
      key: order.key,
      value: JSON.stringify({ user: order.user, amount: order.amount }),
    });
  }
}

describe('resume after a restart', () => {
  it('redeploys and restarts the saved topology, processing each record exactly once', async () => {
    const first = orders(20, 'a');
    const second = orders(20, 'b');

    const runtime1 = await startTestRuntime({ dataDir });
    try {
      const client = makeClient(runtime1.url);
      expect((await client.app.deploy.mutate({ topology: ordersPipeline() })).ok).toBe(true);
      await produceAll(client, first);
      await eventually(async () => {
        const read = await client.topics.read.query({ topic: 'large-orders', limit: 500 });
        return read.length === expectedSink(first).length ? true : undefined;
      }, 'the first batch processed');
    } finally {
      await runtime1.close();
    }

    const runtime2 = await startTestRuntime({ dataDir });
    try {
      const client = makeClient(runtime2.url);
      const view = await client.app.status.query();
      expect(view.deployed).toBe(true);
      expect(view.topology?.application.id).toBe('orders-app');
      await eventually(async () => {
        const status = (await client.app.status.query()).status;
        return status?.state === 'RUNNING' ? true : undefined;
      }, 'RUNNING after resume');

      await produceAll(client, second);
      const expected = [...expectedSink(first), ...expectedSink(second)];
      const sink = await eventually(async () => {
        const read = await client.topics.read.query({ topic: 'large-orders', limit: 500 });
        return read.length >= expected.length ? read : undefined;
      }, 'the second batch processed');
      // The first batch was committed before the restart: nothing is processed twice.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const settled = await client.topics.read.query({ topic: 'large-orders', limit: 500 });
      expect(settled).toHaveLength(expected.length);
      expect(sink.map((r) => r.key).sort()).toEqual(expected.map((e) => e.key).sort());
    } finally {
      await runtime2.close();
    }
  });

  it('keeps a stopped app stopped after a restart', async () => {
    const runtime1 = await startTestRuntime({ dataDir });
    try {
      const client = makeClient(runtime1.url);
      const stopped = await client.app.stop.mutate();
      expect(stopped.state).toBe('NOT_RUNNING');
    } finally {
      await runtime1.close();
    }
    const runtime2 = await startTestRuntime({ dataDir });
    try {
      const client = makeClient(runtime2.url);
      const view = await client.app.status.query();
      expect(view.deployed).toBe(true);
      expect(view.status?.state).toBe('CREATED');
      const started = await client.app.start.mutate();
      expect(['RUNNING', 'REBALANCING']).toContain(started.state);
    } finally {
      await runtime2.close();
    }
  });

  it('deploys the example topology with --example only when nothing is deployed', async () => {
    const fresh = await makeDataDir();
    try {
      const runtime = await startTestRuntime({ dataDir: fresh, example: true });
      try {
        const view = await makeClient(runtime.url).app.status.query();
        expect(view.topology?.nodes.some((n) => n.kind === 'generator')).toBe(true);
        expect(['RUNNING', 'REBALANCING']).toContain(view.status?.state);
      } finally {
        await runtime.close();
      }
    } finally {
      await removeDataDir(fresh);
    }
    // The data dir above already has orders-app deployed: --example leaves it alone.
    const runtime = await startTestRuntime({ dataDir, example: true });
    try {
      const view = await makeClient(runtime.url).app.status.query();
      expect(view.topology?.application.id).toBe('orders-app');
    } finally {
      await runtime.close();
    }
  });
});
