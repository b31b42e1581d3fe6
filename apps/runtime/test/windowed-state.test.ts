// The store browser on window and session stores (state.window|windows|session|sessions) of a
// running app on a real runtime: a 10 s tumbling count and a 5 s-gap session count over the same
// clicks. Expected windows follow Kafka Streams' semantics (epoch-aligned, half-open tumbling
// windows; a session spans its records and merges those within the gap), derived by hand below;
// the engine's views are compared with Kafka Streams itself in
// packages/engine/test/interactive-queries-windowed-oracle.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, refusal, useTestRuntime } from './harness.js';
import { clickCounts } from './topologies.js';

const env = useTestRuntime();

const b64 = (text: string) => Buffer.from(text).toString('base64');

// alice: 1 s, 4 s, 12 s, 30 s; bob: 2 s, 15 s; carol: 9 s.
const clicks: [string, number][] = [
  ['alice', 1000],
  ['bob', 2000],
  ['alice', 4000],
  ['carol', 9000],
  ['alice', 12_000],
  ['bob', 15_000],
  ['alice', 30_000],
];

describe('state queries on window and session stores', () => {
  beforeAll(async () => {
    expect((await env.client.app.deploy.mutate({ topology: clickCounts() })).ok).toBe(true);
    await eventually(
      async () =>
        (await env.client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
      'RUNNING',
    );
    await env.client.topics.produceBatch.mutate({
      topic: 'clicks',
      records: clicks.map(([key, timestamp]) => ({ key: b64(key), value: b64('x'), timestamp })),
    });
    await eventually(async () => {
      const all = await env.client.state.windows.query({ store: 'per-10s' });
      return all.windows.length === 6 ? true : undefined;
    }, 'every window counted');
  });

  it('lists window and session stores with their entry counts', async () => {
    const stores = await env.client.state.stores.query();
    expect(stores).toEqual([
      { name: 'per-10s', type: 'window', global: false, entries: 6 },
      { name: 'visits', type: 'session', global: false, entries: 6 },
    ]);
  });

  it('fetches windows: one key, a key range, every key, by time, backward, one window', async () => {
    const all = await env.client.state.windows.query({ store: 'per-10s' });
    expect(all.windowSizeMs).toBe(10_000);
    // Persistent (RocksDB) order across the tasks of all 3 partitions: segment by segment (of
    // 60 s: one here), then key bytes, then window start.
    expect(all.windows.map((w) => [w.key, w.start, w.end, w.value])).toEqual([
      ['alice', 0, 10_000, 2],
      ['alice', 10_000, 20_000, 1],
      ['alice', 30_000, 40_000, 1],
      ['bob', 0, 10_000, 1],
      ['bob', 10_000, 20_000, 1],
      ['carol', 0, 10_000, 1],
    ]);
    expect(all.truncated).toBe(false);
    expect(all.windows[0]!.timestamp).toBe(4000); // the latest record in the window

    const alice = await env.client.state.windows.query({
      store: 'per-10s',
      key: 'alice',
      timeTo: 20_000,
    });
    expect(alice.windows.map((w) => [w.start, w.value])).toEqual([
      [0, 2],
      [10_000, 1],
    ]);
    const backward = await env.client.state.windows.query({
      store: 'per-10s',
      key: 'alice',
      backward: true,
    });
    expect(backward.windows.map((w) => w.start)).toEqual([30_000, 10_000, 0]);

    const range = await env.client.state.windows.query({
      store: 'per-10s',
      from: 'b',
      to: 'carol',
      timeFrom: 0,
      timeTo: 10_000,
    });
    expect(range.windows.map((w) => [w.key, w.start])).toEqual([
      ['bob', 0],
      ['bob', 10_000],
      ['carol', 0],
    ]);
    const later = await env.client.state.windows.query({
      store: 'per-10s',
      timeFrom: 10_000,
      limit: 2,
    });
    expect(later.windows.map((w) => [w.key, w.start])).toEqual([
      ['alice', 10_000],
      ['alice', 30_000],
    ]);
    expect(later.truncated).toBe(true);

    expect(
      await env.client.state.window.query({ store: 'per-10s', key: 'alice', time: 0 }),
    ).toEqual({
      store: 'per-10s',
      key: 'alice',
      start: 0,
      end: 10_000,
      found: true,
      value: 2,
      timestamp: 4000,
    });
    expect(
      await env.client.state.window.query({ store: 'per-10s', key: 'carol', time: 10_000 }),
    ).toMatchObject({ found: false, value: null, timestamp: null });
  });

  it('finds sessions: one key, a key range, by end and start bounds, backward, one session', async () => {
    const all = await env.client.state.sessions.query({ store: 'visits' });
    // Persistent (RocksDB) order: segment by segment (of session ends), then key bytes, end, start.
    expect(all.sessions.map((s) => [s.key, s.start, s.end, s.value])).toEqual([
      ['alice', 1000, 4000, 2],
      ['alice', 12_000, 12_000, 1],
      ['alice', 30_000, 30_000, 1],
      ['bob', 2000, 2000, 1],
      ['bob', 15_000, 15_000, 1],
      ['carol', 9000, 9000, 1],
    ]);
    // alice 4 s → 12 s is more than the 5 s gap: two sessions (and a third at 30 s).
    const alice = await env.client.state.sessions.query({
      store: 'visits',
      key: 'alice',
      earliestEnd: 4000,
      latestStart: 12_000,
    });
    expect(alice.sessions.map((s) => [s.start, s.end])).toEqual([
      [1000, 4000],
      [12_000, 12_000],
    ]);
    const back = await env.client.state.sessions.query({
      store: 'visits',
      key: 'alice',
      backward: true,
    });
    expect(back.sessions.map((s) => s.start)).toEqual([30_000, 12_000, 1000]);
    const range = await env.client.state.sessions.query({
      store: 'visits',
      from: 'bob',
      to: 'carol',
    });
    expect(range.sessions.map((s) => [s.key, s.start])).toEqual([
      ['bob', 2000],
      ['bob', 15_000],
      ['carol', 9000],
    ]);
    expect(
      await env.client.state.session.query({
        store: 'visits',
        key: 'alice',
        start: 1000,
        end: 4000,
      }),
    ).toEqual({ store: 'visits', key: 'alice', start: 1000, end: 4000, found: true, value: 2 });
    expect(
      await env.client.state.session.query({
        store: 'visits',
        key: 'alice',
        start: 1000,
        end: 5000,
      }),
    ).toMatchObject({ found: false, value: null });
  });

  it('refuses the wrong kind of query, contradicting bounds and an unknown store', async () => {
    const kv = await refusal(env.client.state.all.query({ store: 'per-10s' }));
    expect(kv.data).toMatchObject({ code: 'BAD_REQUEST', runtimeCode: 'NOT_KEY_VALUE_STORE' });
    const notWindow = await refusal(env.client.state.windows.query({ store: 'visits' }));
    expect(notWindow.data).toMatchObject({ runtimeCode: 'NOT_WINDOW_STORE' });
    expect(notWindow.message).toBe(
      'store: "visits" is a session store, not a window store: query it with session or sessions',
    );
    expect(kv.message).toBe(
      'store: "per-10s" is a window store, not a keyValue store: query it with window or windows',
    );
    const notSession = await refusal(env.client.state.sessions.query({ store: 'per-10s' }));
    expect(notSession.data).toMatchObject({ runtimeCode: 'NOT_SESSION_STORE' });
    const both = await refusal(
      env.client.state.windows.query({ store: 'per-10s', key: 'alice', from: 'a' }),
    );
    expect(both.data).toMatchObject({ code: 'BAD_REQUEST', runtimeCode: 'INVALID_QUERY' });
    const empty = await refusal(
      env.client.state.windows.query({ store: 'per-10s', timeFrom: 20_000, timeTo: 10_000 }),
    );
    expect(empty.message).toBe('timeFrom / timeTo: the range is empty (20000 > 10000)');
    const unknown = await refusal(env.client.state.windows.query({ store: 'nope' }));
    expect(unknown.data).toMatchObject({ runtimeCode: 'STORE_NOT_FOUND' });
    expect(unknown.message).toMatch(/stores: per-10s, visits/);
  });

  it("browses the stores' changelogs with their windowed keys decoded", async () => {
    // What each changelog says last per windowed key (a tombstone removes a merged-away session)
    // must be what the store holds.
    const latest = async (
      topic: string,
      keyWindow: { kind: 'windowStore'; sizeMs: number } | { kind: 'session' },
    ) => {
      const records = await env.client.topics.read.query({
        topic,
        limit: 500,
        keySerde: 'string',
        keyWindow,
        valueSerde: 'long',
      });
      const last = new Map<string, unknown>();
      for (const r of [...records].sort((a, b) => a.offset - b.offset)) {
        expect(r.undecodable).toEqual({ key: false, value: false });
        const k = r.key as { key: string; start: number; end: number };
        last.set(JSON.stringify([k.key, k.start, k.end]), r.value);
      }
      return [...last]
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [...(JSON.parse(k) as unknown[]), v])
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    };
    const byKeyThenStart = (rows: unknown[][]) =>
      rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const windows = await env.client.state.windows.query({ store: 'per-10s' });
    await eventually(async () => {
      const logged = await latest('clicks-app-per-10s-changelog', {
        kind: 'windowStore',
        sizeMs: 10_000,
      });
      return logged.length === 6 ? logged : undefined;
    }, 'the window store committed to its changelog').then((logged) =>
      expect(logged).toEqual(
        byKeyThenStart(windows.windows.map((w) => [w.key, w.start, w.end, w.value])),
      ),
    );
    const sessions = await env.client.state.sessions.query({ store: 'visits' });
    await eventually(async () => {
      const logged = await latest('clicks-app-visits-changelog', { kind: 'session' });
      return logged.length === 6 ? logged : undefined;
    }, 'the session store committed to its changelog').then((logged) =>
      expect(logged).toEqual(
        byKeyThenStart(sessions.sessions.map((s) => [s.key, s.start, s.end, s.value])),
      ),
    );
    // Read without the window, the same keys are not strings: shown as base64, flagged.
    const raw = await env.client.topics.read.query({
      topic: 'clicks-app-visits-changelog',
      limit: 1,
      keySerde: 'long',
      valueSerde: 'long',
    });
    expect(raw[0]!.undecodable.key).toBe(true);
  });

  it('answers the same with two stream threads in worker threads', async () => {
    const asked = async () => ({
      windows: await env.client.state.windows.query({ store: 'per-10s' }),
      backward: await env.client.state.windows.query({ store: 'per-10s', backward: true }),
      alice: await env.client.state.windows.query({ store: 'per-10s', key: 'alice' }),
      range: await env.client.state.windows.query({ store: 'per-10s', from: 'b', to: 'c' }),
      window: await env.client.state.window.query({ store: 'per-10s', key: 'alice', time: 0 }),
      sessions: await env.client.state.sessions.query({ store: 'visits' }),
      bob: await env.client.state.sessions.query({ store: 'visits', key: 'bob', backward: true }),
      stores: await env.client.state.stores.query(),
    });
    const oneThread = await asked();
    expect(oneThread.windows.windows).toHaveLength(6);
    const threaded = clickCounts() as { application: { config: Record<string, unknown> } };
    threaded.application.config['num.stream.threads'] = 2;
    expect((await env.client.app.deploy.mutate({ topology: threaded })).ok).toBe(true);
    await eventually(async () => {
      const all = await env.client.state.windows.query({ store: 'per-10s' }).catch(() => undefined);
      return all?.windows.length === 6 ? true : undefined;
    }, 'the restored windows');
    expect(await asked()).toEqual(oneThread);
  });
});
