// Closing the runtime is graceful and prompt even with a browser-like client attached: open
// metrics streams end, keep-alive sockets are released, the app commits before it closes.
import { describe, expect, it } from 'vitest';
import { eventually, makeClient, makeDataDir, removeDataDir, startTestRuntime } from './harness.js';
import { expectedSink, orders, ordersPipeline } from './topologies.js';

describe('runtime.close()', () => {
  it('ends open subscriptions and returns promptly', async () => {
    const dataDir = await makeDataDir();
    try {
      const runtime = await startTestRuntime({ dataDir });
      const client = makeClient(runtime.url);
      await client.health.query(); // leaves a keep-alive socket behind
      let events = 0;
      let ended = false;
      const subscription = client.metrics.subscribe(undefined, {
        onData: () => events++,
        onComplete: () => (ended = true),
        onError: () => (ended = true),
      });
      await eventually(() => (events > 0 ? true : undefined), 'a first metrics event');

      const started = Date.now();
      await runtime.close();
      expect(Date.now() - started).toBeLessThan(1000);
      await eventually(() => (ended ? true : undefined), 'the subscription to end', 3000);
      subscription.unsubscribe();
    } finally {
      await removeDataDir(dataDir);
    }
  });

  it('commits what was processed, so a restart does not process it again', async () => {
    const dataDir = await makeDataDir();
    try {
      const input = orders(12);
      const runtime = await startTestRuntime({ dataDir });
      const client = makeClient(runtime.url);
      // A long commit interval: only the commit on close can save the offsets.
      const topology = ordersPipeline();
      (topology.application as { config: Record<string, unknown> }).config['commit.interval.ms'] =
        600_000;
      await client.app.deploy.mutate({ topology });
      for (const o of input) {
        await client.topics.produce.mutate({
          topic: 'orders',
          key: o.key,
          value: JSON.stringify(o),
        });
      }
      const expected = expectedSink(input).length;
      await eventually(async () => {
        const read = await client.topics.read.query({ topic: 'large-orders', limit: 500 });
        return read.length === expected ? true : undefined;
      }, 'processing');
      await runtime.close();

      const again = await startTestRuntime({ dataDir });
      try {
        const client2 = makeClient(again.url);
        await eventually(async () => {
          const status = (await client2.app.status.query()).status;
          return status?.state === 'RUNNING' ? true : undefined;
        }, 'RUNNING after restart');
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await client2.topics.read.query({ topic: 'large-orders', limit: 500 })).toHaveLength(
          expected,
        );
      } finally {
        await again.close();
      }
    } finally {
      await removeDataDir(dataDir);
    }
  });
});
