// Live inspection of the running app: debug.sample (records into and out of a node) and the
// store browser (state.stores|get|range|all through interactive queries).
import { describe, expect, it } from 'vitest';
import { eventually, refusal, useTestRuntime } from './harness.js';
import { wordCount } from './topologies.js';

const env = useTestRuntime();

const b64 = (text: string) => Buffer.from(text).toString('base64');

async function produceWords(words: string[]): Promise<void> {
  await env.client.topics.produceBatch.mutate({
    topic: 'words',
    records: words.map((w) => ({ key: b64(w), value: b64(w) })),
  });
}

describe('with nothing deployed', () => {
  it('refuses sampling and has no stores', async () => {
    const error = await refusal(env.client.debug.sample.query({ nodeId: 'count' }));
    expect(error.data).toMatchObject({ code: 'PRECONDITION_FAILED', runtimeCode: 'NOT_DEPLOYED' });
    expect(await env.client.state.stores.query()).toEqual([]);
  });
});

describe('debug.sample', () => {
  it('starts sampling on the first request, then shows what went in and out of the node', async () => {
    expect((await env.client.app.deploy.mutate({ topology: wordCount() })).ok).toBe(true);
    await eventually(
      async () =>
        (await env.client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
      'RUNNING',
    );
    const first = await env.client.debug.sample.query({ nodeId: 'count' });
    expect(first).toMatchObject({
      nodeId: 'count',
      inputs: [],
      outputs: [],
      inputCount: 0,
      appState: 'RUNNING',
    });
    expect(first.until - first.since).toBe(60_000);

    await produceWords(['apple', 'fig', 'apple']);
    const sample = await eventually(async () => {
      const s = await env.client.debug.sample.query({ nodeId: 'count' });
      return s.outputs.length === 3 ? s : undefined;
    }, 'the sampled records');
    // groupByKey has no node of its own (as in Kafka Streams): count reads from the source.
    expect(sample.inputs.map((r) => [r.key, r.value, r.from])).toEqual(
      expect.arrayContaining([
        ['apple', 'apple', 'words'],
        ['fig', 'fig', 'words'],
      ]),
    );
    expect(sample.inputs).toHaveLength(3);
    const latestApple = sample.outputs.filter((r) => r.key === 'apple').map((r) => r.value);
    expect(latestApple).toEqual([
      { newValue: 1, oldValue: null },
      { newValue: 2, oldValue: null },
    ]);
    expect(sample.outputs.every((r) => r.to.length === 1 && r.to[0] === 'changes')).toBe(true);
    expect(sample.outputs[0]!.taskId).toMatch(/^0_[01]$/);

    // Other nodes are not sampled until asked for.
    const sink = await env.client.debug.sample.query({ nodeId: 'out' });
    expect(sink.inputs).toEqual([]);
  });

  it('keeps only the most recent records, counting all of them', async () => {
    await produceWords(Array.from({ length: 150 }, (_, i) => `w${i % 10}`));
    const sample = await eventually(async () => {
      const s = await env.client.debug.sample.query({ nodeId: 'count', limit: 100 });
      return s.inputCount === 153 ? s : undefined;
    }, 'all sampled');
    expect(sample.inputs).toHaveLength(100);
    const few = await env.client.debug.sample.query({ nodeId: 'count', limit: 5 });
    expect(few.inputs).toEqual(sample.inputs.slice(-5));
    // A sink's outputs are its writes to its topic (sampled since the first test asked for it).
    const sink = await eventually(async () => {
      const s = await env.client.debug.sample.query({ nodeId: 'out' });
      return s.outputCount > 0 ? s : undefined;
    }, 'sink writes');
    expect(sink.outputs[0]).toMatchObject({ topic: 'word-counts', to: [] });
  });

  it('refuses a node the topology does not have, and a limit out of range', async () => {
    const missing = await refusal(env.client.debug.sample.query({ nodeId: 'ghost' }));
    expect(missing.data).toMatchObject({ code: 'NOT_FOUND', runtimeCode: 'NODE_NOT_FOUND' });
    const limit = await refusal(env.client.debug.sample.query({ nodeId: 'count', limit: 101 }));
    expect(limit.data?.issues?.[0]?.path).toBe('limit');
  });
});

describe('state', () => {
  it('lists the stores with their entry counts', async () => {
    const stores = await env.client.state.stores.query();
    expect(stores).toEqual([
      { name: 'counts', type: 'keyValue', global: false, entries: expect.any(Number) },
    ]);
  });

  it('gets, ranges and lists entries across the tasks of every partition', async () => {
    await env.client.topics.produceBatch.mutate({
      topic: 'words',
      records: [{ key: b64('kiwi'), value: b64('kiwi') }],
    });
    await eventually(
      async () =>
        (await env.client.state.get.query({ store: 'counts', key: 'kiwi' })).found
          ? true
          : undefined,
      'kiwi counted',
    );
    const apple = await env.client.state.get.query({ store: 'counts', key: 'apple' });
    expect(apple).toMatchObject({ store: 'counts', key: 'apple', found: true, value: 2 });
    expect(apple.timestamp).toEqual(expect.any(Number));
    expect(await env.client.state.get.query({ store: 'counts', key: 'durian' })).toMatchObject({
      found: false,
      value: null,
      timestamp: null,
    });

    const all = await env.client.state.all.query({ store: 'counts' });
    const keys = all.entries.map((e) => e.key);
    // In the store's order: by the serialized (UTF-8) key bytes.
    expect(keys).toEqual(
      [...keys].sort((a, b) => Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)))),
    );
    expect(keys).toEqual(expect.arrayContaining(['apple', 'fig', 'kiwi', 'w0', 'w9']));
    expect(all.truncated).toBe(false);

    const range = await env.client.state.range.query({ store: 'counts', from: 'b', to: 'l' });
    expect(range.entries.map((e) => e.key)).toEqual(['fig', 'kiwi']);
    const upTo = await env.client.state.range.query({ store: 'counts', to: 'fig' });
    expect(upTo.entries.map((e) => e.key)).toEqual(['apple', 'fig']);
    const prefixed = await env.client.state.prefix.query({ store: 'counts', prefix: 'w' });
    expect(prefixed.entries.map((e) => e.key)).toEqual(
      keys.filter((k) => String(k).startsWith('w')),
    );
    expect(prefixed.entries.map((e) => e.key)).toEqual(expect.arrayContaining(['w0', 'w9']));
    expect(
      (await env.client.state.prefix.query({ store: 'counts', prefix: 'zz' })).entries,
    ).toEqual([]);
    const limited = await env.client.state.all.query({ store: 'counts', limit: 2 });
    expect(limited).toMatchObject({ truncated: true });
    expect(limited.entries).toHaveLength(2);
  });

  it('refuses an unknown store and a stopped app; answers with stream threads in workers', async () => {
    const oneThread = await env.client.state.all.query({ store: 'counts' });
    const unknown = await refusal(env.client.state.get.query({ store: 'nope', key: 'a' }));
    expect(unknown.data).toMatchObject({ code: 'NOT_FOUND', runtimeCode: 'STORE_NOT_FOUND' });
    expect(unknown.message).toMatch(/stores: counts/);

    await env.client.app.stop.mutate();
    const stopped = await refusal(env.client.state.all.query({ store: 'counts' }));
    expect(stopped.data).toMatchObject({ code: 'PRECONDITION_FAILED', runtimeCode: 'NOT_RUNNING' });

    const threaded = wordCount() as { application: { config: Record<string, unknown> } };
    threaded.application.config['num.stream.threads'] = 2;
    expect((await env.client.app.deploy.mutate({ topology: threaded })).ok).toBe(true);
    // Two stream threads in worker threads, each holding the counts of its tasks' partitions:
    // the same entries, in the same order, as the one-thread app's once its state is restored.
    const all = await eventually(async () => {
      const a = await env.client.state.all.query({ store: 'counts' }).catch(() => undefined);
      return a !== undefined && a.entries.length === oneThread.entries.length ? a : undefined;
    }, 'the restored counts');
    expect(all.entries.map((e) => [e.key, e.value])).toEqual(
      oneThread.entries.map((e) => [e.key, e.value]),
    );
    expect(await env.client.state.get.query({ store: 'counts', key: 'apple' })).toMatchObject({
      found: true,
      value: 2,
    });
    expect(await env.client.state.get.query({ store: 'counts', key: 'durian' })).toMatchObject({
      found: false,
    });
    const range = await env.client.state.range.query({ store: 'counts', from: 'b', to: 'l' });
    expect(range.entries.map((e) => e.key)).toEqual(['fig', 'kiwi']);
    const prefixed = await env.client.state.prefix.query({ store: 'counts', prefix: 'w' });
    expect(prefixed.entries.map((e) => [e.key, e.value])).toEqual(
      oneThread.entries.filter((e) => String(e.key).startsWith('w')).map((e) => [e.key, e.value]),
    );
    const stores = await env.client.state.stores.query();
    expect(stores[0]).toMatchObject({ name: 'counts', entries: oneThread.entries.length });
    const sampling = await refusal(env.client.debug.sample.query({ nodeId: 'count' }));
    expect(sampling.data).toMatchObject({ runtimeCode: 'INSPECTION_UNAVAILABLE' });
  });
});

describe('state on a versioned table', () => {
  it('lists it as versioned and answers get with asOf (IQv2 VersionedKeyQuery: validTo included)', async () => {
    const topology = {
      schemaVersion: 1,
      application: { id: 'prices', config: { 'commit.interval.ms': 100 } },
      topics: [{ name: 'prices', partitions: 1 }],
      nodes: [
        {
          id: 'prices',
          kind: 'table',
          config: {
            topic: 'prices',
            valueSerde: 'string',
            store: 'prices-store',
            versioned: { historyRetentionMs: 60_000 },
          },
        },
      ],
      edges: [],
    };
    expect((await env.client.app.deploy.mutate({ topology })).ok).toBe(true);
    await eventually(
      async () =>
        (await env.client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
      'RUNNING',
    );
    await env.client.topics.produceBatch.mutate({
      topic: 'prices',
      records: [
        { key: b64('a'), value: b64('a1'), timestamp: 1000 },
        { key: b64('a'), value: b64('a3'), timestamp: 3000 },
        { key: b64('a'), value: b64('a2'), timestamp: 2000 },
      ],
    });
    await eventually(
      async () =>
        (await env.client.state.get.query({ store: 'prices-store', key: 'a', asOf: 2500 })).found
          ? true
          : undefined,
      'a2 stored',
    );
    expect(await env.client.state.stores.query()).toEqual([
      {
        name: 'prices-store',
        type: 'keyValue',
        global: false,
        entries: 1,
        versioned: { historyRetentionMs: 60_000 },
      },
    ]);
    expect(await env.client.state.get.query({ store: 'prices-store', key: 'a' })).toMatchObject({
      value: 'a3',
      timestamp: 3000,
    });
    expect(
      await env.client.state.get.query({ store: 'prices-store', key: 'a', asOf: 2500 }),
    ).toMatchObject({ found: true, value: 'a2', timestamp: 2000, validTo: 3000 });
    expect(
      await env.client.state.get.query({ store: 'prices-store', key: 'a', asOf: 999 }),
    ).toMatchObject({ found: false, value: null, timestamp: null, validTo: null });
  });

  it('refuses asOf on a store that keeps no versions', async () => {
    expect((await env.client.app.deploy.mutate({ topology: wordCount() })).ok).toBe(true);
    await eventually(
      async () =>
        (await env.client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
      'RUNNING',
    );
    const error = await refusal(env.client.state.get.query({ store: 'counts', key: 'a', asOf: 1 }));
    expect(error.data).toMatchObject({ code: 'BAD_REQUEST', runtimeCode: 'NOT_VERSIONED_STORE' });
  });
});
