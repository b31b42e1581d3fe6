// A CEL expression failing on a record at run time, under both processing exception handlers.
// Kafka Streams: LogAndFailProcessingExceptionHandler (the default) stops processing and the
// client goes to ERROR; LogAndContinueProcessingExceptionHandler skips the record and counts it
// in dropped-records (KIP-1033). Either way the runtime itself keeps serving.
import { describe, expect, it } from 'vitest';
import { eventually, useTestRuntime } from './harness.js';
import { collectMetrics, taskSum } from './metrics-helpers.js';
import { ordersPipeline } from './topologies.js';

const env = useTestRuntime({ each: true });

/** One good order, then one without `amount` (the filter fails on it), on one partition. */
async function produceGoodThenBad(): Promise<void> {
  await env.client.topics.produce.mutate({
    topic: 'orders',
    partition: 0,
    key: 'good',
    value: '{"user":"u1","amount":500}',
  });
  await env.client.topics.produce.mutate({
    topic: 'orders',
    partition: 0,
    key: 'bad',
    value: '{"user":"u2"}',
  });
}

describe('processing exception handlers', () => {
  it('log-and-fail (the default) puts the app in ERROR with the error and its record; the server keeps serving', async () => {
    expect((await env.client.app.deploy.mutate({ topology: ordersPipeline() })).ok).toBe(true);
    await produceGoodThenBad();

    const status = await eventually(async () => {
      const view = await env.client.app.status.query();
      return view.status?.state === 'ERROR' ? view.status : undefined;
    }, 'the ERROR state');
    const error = status.errors[0];
    expect(error).toBeDefined();
    expect(error).toMatchObject({
      taskId: '0_0',
      modelNodeId: 'large',
      handling: 'fail',
      record: { topic: 'orders', partition: 0, offset: 1, key: 'bad', value: { user: 'u2' } },
    });
    expect(error?.message).toMatch(/amount/);
    // The failure that stopped it stays in the status (lastFailure) until a successful deploy.
    expect(status.lastFailure).toMatchObject({
      phase: 'run',
      message: expect.stringMatching(/amount/),
      previousVersionKept: false,
    });
    expect(status.waitingFor).toEqual([]);

    // The runtime still answers, and the good record made it through before the failure.
    expect((await env.client.health.query()).ok).toBe(true);
    const sink = await env.client.topics.read.query({ topic: 'large-orders' });
    expect(sink.map((r) => r.key)).toEqual(['good']);
    const response = await fetch(`${env.runtime.url}/healthz`);
    expect(await response.json()).toMatchObject({ ok: true, app: 'ERROR' });

    // A fixed topology can be deployed over the failed one.
    const fixed = ordersPipeline();
    (fixed.nodes as { id: string; config: Record<string, unknown> }[])[1]!.config.expression =
      'has(value.amount) && value.amount > 100';
    expect((await env.client.app.deploy.mutate({ topology: fixed })).ok).toBe(true);
    await eventually(async () => {
      const view = await env.client.app.status.query();
      return view.status?.state === 'RUNNING' ? true : undefined;
    }, 'RUNNING after the fix');
    expect((await env.client.app.status.query()).status?.lastFailure).toBeNull();
  });

  it('log-and-continue skips the record, counts it, and keeps processing', async () => {
    expect(
      (await env.client.app.deploy.mutate({ topology: ordersPipeline('log-and-continue') })).ok,
    ).toBe(true);
    await produceGoodThenBad();
    await env.client.topics.produce.mutate({
      topic: 'orders',
      partition: 0,
      key: 'after',
      value: '{"user":"u3","amount":700}',
    });

    const sink = await eventually(async () => {
      const records = await env.client.topics.read.query({ topic: 'large-orders' });
      return records.length >= 2 ? records : undefined;
    }, 'two sink records');
    expect(sink.map((r) => r.key)).toEqual(['good', 'after']);

    const view = await env.client.app.status.query();
    expect(view.status?.state).toBe('RUNNING');
    expect(view.status?.errors[0]).toMatchObject({ handling: 'continue', record: { key: 'bad' } });
    const metrics = await eventually(async () => {
      const [event] = await collectMetrics(env.client, 1);
      const snapshot = event?.data.metrics;
      return snapshot && taskSum(snapshot, 'dropped-records-total') === 1 ? snapshot : undefined;
    }, 'dropped-records-total = 1');
    expect(taskSum(metrics, 'process-total')).toBe(3);
  });
});
