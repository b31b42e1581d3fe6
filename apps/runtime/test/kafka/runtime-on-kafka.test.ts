// `streamwright serve --backend kafka`: the runtime's application runs on a real Kafka broker —
// deploy, produce and read through the API, and a restarted runtime resumes the saved deployment
// from the offsets committed on Kafka (nothing processed twice after a clean stop).
import { describe, expect, inject, it } from 'vitest';
import type { BackendChoice } from '../../src/service/data-dir.js';
import {
  eventually,
  makeClient,
  makeDataDir,
  removeDataDir,
  startTestRuntime,
} from '../harness.js';
import { expectedSink, orders, ordersPipeline } from '../topologies.js';

const kafka = (): BackendChoice => ({
  kind: 'kafka',
  bootstrapServers: [inject('kafkaBootstrapServers')],
});

async function produceAll(client: ReturnType<typeof makeClient>, batch: ReturnType<typeof orders>) {
  for (const order of batch)
    await client.topics.produce.mutate({
      topic: 'orders',
      key: order.key,
      value: JSON.stringify({ user: order.user, amount: order.amount }),
    });
}

describe('the runtime on the Kafka backend', () => {
  it('runs a deployed topology on Kafka and resumes it after a restart', async () => {
    const dataDir = await makeDataDir();
    try {
      const first = orders(20, 'a');
      const second = orders(20, 'b');
      const runtime1 = await startTestRuntime({ dataDir, backend: kafka() });
      try {
        const client = makeClient(runtime1.url);
        expect(await (await fetch(`${runtime1.url}/healthz`)).json()).toMatchObject({
          backend: 'kafka',
        });
        expect((await client.health.query()).backend).toBe('kafka');
        expect((await client.app.deploy.mutate({ topology: ordersPipeline() })).ok).toBe(true);
        const topics = await client.topics.list.query();
        expect(topics.map((t) => t.name)).toEqual(
          expect.arrayContaining(['orders', 'large-orders']),
        );
        await produceAll(client, first);
        await eventually(
          async () => {
            const read = await client.topics.read.query({ topic: 'large-orders', limit: 500 });
            return read.length === expectedSink(first).length ? true : undefined;
          },
          'the first batch processed',
          60_000,
        );
      } finally {
        await runtime1.close();
      }

      const runtime2 = await startTestRuntime({ dataDir, backend: kafka() });
      try {
        const client = makeClient(runtime2.url);
        await eventually(
          async () => {
            const status = (await client.app.status.query()).status;
            return status?.state === 'RUNNING' ? true : undefined;
          },
          'RUNNING after resume',
          60_000,
        );
        await produceAll(client, second);
        const expected = [...expectedSink(first), ...expectedSink(second)];
        const sink = await eventually(
          async () => {
            const read = await client.topics.read.query({ topic: 'large-orders', limit: 500 });
            return read.length >= expected.length ? read : undefined;
          },
          'the second batch processed',
          60_000,
        );
        expect(sink).toHaveLength(expected.length);
        expect(sink.map((r) => r.key).sort()).toEqual(expected.map((e) => e.key).sort());
      } finally {
        await runtime2.close();
      }
    } finally {
      await removeDataDir(dataDir);
    }
  });
});
