// Breakpoints through the API on a real server: set one with a CEL condition, produce a matching
// record, read the paused record and state while the server keeps answering, step, resume; bad
// input is refused saying where; stopping a paused app does not hang.
import { describe, expect, it } from 'vitest';
import { eventually, refusal, useTestRuntime } from './harness.js';
import { wordCount } from './topologies.js';

const env = useTestRuntime();

const b64 = (text: string) => Buffer.from(text).toString('base64');

async function produce(words: string[], partition = 0): Promise<void> {
  await env.client.topics.produceBatch.mutate({
    topic: 'words',
    records: words.map((w) => ({ key: b64(w), value: b64(w), partition })),
  });
}

async function running(): Promise<void> {
  await eventually(
    async () =>
      (await env.client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
    'RUNNING',
  );
}

describe('debug breakpoints', () => {
  it('refuses with nothing deployed', async () => {
    const error = await refusal(env.client.debug.breakpoints.query());
    expect(error.data).toMatchObject({ runtimeCode: 'NOT_DEPLOYED' });
  });

  it('pauses at a matching record with the node state, steps, resumes', async () => {
    expect((await env.client.app.deploy.mutate({ topology: wordCount() })).ok).toBe(true);
    await running();
    const bad = await refusal(
      env.client.debug.setBreakpoint.mutate({ nodeId: 'count', condition: 'key ==' }),
    );
    expect(bad.data).toMatchObject({ code: 'BAD_REQUEST', runtimeCode: 'INVALID_BREAKPOINT' });
    expect(bad.message).toMatch(/^condition: /);
    const unknown = await refusal(env.client.debug.setBreakpoint.mutate({ nodeId: 'nope' }));
    expect(unknown.message).toMatch(/^nodeId: /);

    const set = await env.client.debug.setBreakpoint.mutate({
      nodeId: 'count',
      condition: 'key == "fig"',
    });
    expect(set.breakpoints).toEqual([
      { id: expect.any(String), nodeId: 'count', condition: 'key == "fig"', hits: 0 },
    ]);
    expect(set.pause).toBeNull();

    await produce(['apple', 'fig', 'apple']);
    const paused = await eventually(async () => {
      const v = await env.client.debug.breakpoints.query();
      return v.pause ?? undefined;
    }, 'the pause');
    expect(paused.stops.map((s) => s.nodeId)).toEqual(['count', 'changes', 'out']);
    expect(paused.stops[0]).toMatchObject({
      nodeId: 'count',
      taskId: '0_0',
      record: { key: 'fig', value: 'fig', topic: 'words', partition: 0, offset: 1 },
      state: [
        {
          store: 'counts',
          current: null,
          entries: [{ key: 'apple', value: 1 }],
          size: 1,
        },
      ],
    });
    // The server keeps answering while the app is held, and the third word waits.
    const status = await env.client.app.status.query();
    expect(status.status?.state).toBe('RUNNING');

    const stepped = await env.client.debug.step.mutate();
    expect(stepped.pause?.position).toBe(1);
    expect(stepped.pause?.stops[1]).toMatchObject({ nodeId: 'changes', record: { value: 1 } });

    const resumed = await env.client.debug.resume.mutate();
    expect(resumed.pause).toBeNull();
    expect(resumed.breakpoints[0]!.hits).toBe(1);
    const counts = await eventually(async () => {
      const r = await env.client.topics.read.query({
        topic: 'word-counts',
        limit: 10,
        valueSerde: 'long',
      });
      return r.length === 3 ? r : undefined;
    }, 'three counts');
    expect(counts.map((r) => r.value).sort()).toEqual([1, 1, 2]);

    const removed = await env.client.debug.removeBreakpoint.mutate({ id: set.breakpoints[0]!.id });
    expect(removed.breakpoints).toEqual([]);
    const missing = await refusal(env.client.debug.removeBreakpoint.mutate({ id: 'bp999' }));
    expect(missing.data).toMatchObject({ code: 'NOT_FOUND', runtimeCode: 'BREAKPOINT_NOT_FOUND' });
  });

  it('stopping a paused app does not hang', async () => {
    await env.client.debug.setBreakpoint.mutate({ nodeId: 'words' });
    await produce(['kiwi']);
    await eventually(
      async () => ((await env.client.debug.breakpoints.query()).pause ? true : undefined),
      'the pause',
    );
    await env.client.app.stop.mutate();
    expect((await env.client.app.status.query()).status?.state).toBe('NOT_RUNNING');
    expect((await env.client.debug.breakpoints.query()).pause).toBeNull();
  });
});
