// Safe deploy (issue 23): a valid new version that fails before it runs leaves the previous
// version running — started again from its committed offsets — and the failure in the deploy's
// answer and in app.status' lastFailure until the next deploy. Never a server error.
import { describe, expect, it } from 'vitest';
import { eventually, useTestRuntime } from './harness.js';

const env = useTestRuntime();

const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** sd-in → sd-out, strings; v2 adds a global table of longs over sd-prices. */
function pipeline(withGlobalTable: boolean): Record<string, unknown> {
  return {
    schemaVersion: 1,
    application: { id: 'safe-app', config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: 'sd-in', partitions: 1 },
      { name: 'sd-out', partitions: 1 },
      ...(withGlobalTable ? [{ name: 'sd-prices', partitions: 1 }] : []),
    ],
    nodes: [
      { id: 'in', kind: 'source', config: { topic: 'sd-in', valueSerde: 'string' } },
      { id: 'out', kind: 'sink', config: { topic: 'sd-out', valueSerde: 'string' } },
      ...(withGlobalTable
        ? [
            {
              id: 'prices',
              kind: 'globalTable',
              config: { topic: 'sd-prices', valueSerde: 'long' },
            },
          ]
        : []),
    ],
    edges: [{ from: 'in', to: 'out' }],
  };
}

async function outputs(): Promise<string[]> {
  const records = await env.client.topics.read.query({
    topic: 'sd-out',
    limit: 100,
    valueSerde: 'string',
  });
  return [...records].sort((a, b) => a.offset - b.offset).map((r) => String(r.value));
}

describe('app.deploy of a version that fails at start', () => {
  it('starts the previous version again and keeps the reason until the next deploy', async () => {
    const first = await env.client.app.deploy.mutate({ topology: pipeline(false) });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    await env.client.topics.produceBatch.mutate({
      topic: 'sd-in',
      records: [{ key: b64('k'), value: b64('a') }],
    });
    await eventually(async () => ((await outputs()).length === 1 ? true : undefined), 'a');

    // A global table is loaded completely at start: three bytes are no long, so start fails.
    await env.client.topics.create.mutate({ name: 'sd-prices', partitions: 1 });
    await env.client.topics.produceBatch.mutate({
      topic: 'sd-prices',
      records: [{ key: b64('k'), value: b64('abc') }],
    });
    const second = await env.client.app.deploy.mutate({ topology: pipeline(true) });
    expect(second.ok).toBe(false);
    if (second.ok) return;
    expect(second.errors).toHaveLength(1);
    expect(second.errors[0]).toMatchObject({ path: '', code: 'start_failed' });
    expect(second.errors[0]?.message).toMatch(
      /the previous version runs again, from its committed offsets$/,
    );
    expect(second.failed?.previousVersionKept).toBe(true);
    // started again: it rebalances, then runs
    expect(second.failed?.status?.state).toMatch(/^(REBALANCING|RUNNING)$/);

    const view = await eventually(async () => {
      const v = await env.client.app.status.query();
      return v.status?.state === 'RUNNING' ? v : undefined;
    }, 'the previous version running');
    expect(view.deployment?.version).toBe(first.deployment.version);
    expect(view.status?.lastFailure).toMatchObject({ phase: 'deploy', previousVersionKept: true });

    // the previous version resumed from its committed offset: b once, a not again
    await env.client.topics.produceBatch.mutate({
      topic: 'sd-in',
      records: [{ key: b64('k'), value: b64('b') }],
    });
    await eventually(async () => ((await outputs()).length === 2 ? true : undefined), 'b');
    expect(await outputs()).toEqual(['a', 'b']);
    expect((await env.client.app.status.query()).status?.lastFailure?.phase).toBe('deploy');

    // the next deploy that starts clears it
    const third = await env.client.app.deploy.mutate({ topology: pipeline(false) });
    expect(third.ok).toBe(true);
    expect((await env.client.app.status.query()).status?.lastFailure).toBeNull();
  });
});
