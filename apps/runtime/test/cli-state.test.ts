// `streamwright state …`: the built CLI's interactive queries against a running runtime, with
// the counts of a word count and the windows of a tumbling count. The values are the counts of
// the words and clicks produced below (the engine's stores are compared with Kafka Streams in
// packages/engine's *-oracle tests); these tests are about what the command prints.
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, jsonLines } from './cli-harness.js';
import { eventually, useTestRuntime } from './harness.js';
import { clickCounts, wordCount } from './topologies.js';

beforeAll(ensureBuilt, 300_000);
const env = useTestRuntime({ each: true });

const b64 = (text: string) => Buffer.from(text).toString('base64');
const state = (args: string[]) => cli(['state', ...args, '--url', env.runtime.url]);

async function deployed(topology: Record<string, unknown>): Promise<void> {
  expect((await env.client.app.deploy.mutate({ topology })).ok).toBe(true);
  await eventually(
    async () =>
      (await env.client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
    'RUNNING',
  );
}

describe('streamwright state', { timeout: 120_000 }, () => {
  it('queries key-value stores: stores, get, range, prefix, all', async () => {
    await deployed(wordCount());
    const words = ['apple', 'banana', 'apricot', 'cherry', 'apple', 'banana', 'apple'];
    await env.client.topics.produceBatch.mutate({
      topic: 'words',
      records: words.map((w) => ({ key: b64(w), value: b64(w) })),
    });
    await eventually(
      async () =>
        (await env.client.state.get.query({ store: 'counts', key: 'apple' })).value === 3
          ? true
          : undefined,
      'apple counted 3 times',
    );

    const stores = await state(['stores']);
    expect(stores.code).toBe(0);
    expect(stores.stdout).toBe('STORE   TYPE      ENTRIES  NOTES\ncounts  keyValue  4\n');

    const apple = await state(['get', 'counts', 'apple']);
    expect(apple.code).toBe(0);
    expect(jsonLines(apple.stdout)).toEqual([
      { key: 'apple', value: 3, timestamp: expect.any(Number) as number },
    ]);

    const missing = await state(['get', 'counts', 'durian']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe('error: store "counts" has no value for key "durian"\n');

    // Key-byte order across both tasks' stores.
    const range = await state(['range', 'counts', '--from', 'apricot', '--to', 'banana']);
    expect(jsonLines(range.stdout).map((e) => [e.key, e.value])).toEqual([
      ['apricot', 1],
      ['banana', 2],
    ]);
    const prefix = await state(['prefix', 'counts', 'ap']);
    expect(jsonLines(prefix.stdout).map((e) => e.key)).toEqual(['apple', 'apricot']);

    const all = await state(['all', 'counts', '--limit', '2']);
    expect(jsonLines(all.stdout).map((e) => e.key)).toEqual(['apple', 'apricot']);
    expect(all.stderr).toBe('more than 2 entries matched: showing 2 (see --limit)\n');
  });

  it('queries window stores and says what is wrong with bad arguments', async () => {
    await deployed(clickCounts());
    const clicks: [string, number][] = [
      ['alice', 1000],
      ['bob', 2000],
      ['alice', 4000],
      ['alice', 12_000],
    ];
    await env.client.topics.produceBatch.mutate({
      topic: 'clicks',
      records: clicks.map(([user, timestamp]) => ({ key: b64(user), value: b64('c'), timestamp })),
    });
    await eventually(
      async () =>
        (await env.client.state.windows.query({ store: 'per-10s', key: 'alice' })).windows
          .length === 2
          ? true
          : undefined,
      "alice's two windows",
    );

    const alice = await state(['windows', 'per-10s', '--key', 'alice']);
    expect(alice.code).toBe(0);
    expect(jsonLines(alice.stdout).map((w) => [w.key, w.start, w.end, w.value])).toEqual([
      ['alice', 0, 10_000, 2],
      ['alice', 10_000, 20_000, 1],
    ]);
    const visits = await state(['sessions', 'visits', '--key', 'alice', '--backward']);
    expect(jsonLines(visits.stdout).map((s) => [s.start, s.end, s.value])).toEqual([
      [12_000, 12_000, 1],
      [1000, 4000, 2],
    ]);

    const both = await state(['windows', 'per-10s', '--key', 'alice', '--from', 'a']);
    expect(both.code).toBe(1);
    expect(both.stderr).toBe(
      'error: --key is one key; --from / --to a key range: give one or the other\n',
    );
    const notJson = await state(['get', 'per-10s', '{nope', '--key-format', 'json']);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toBe('error: key: "{nope" is not JSON (--key-format json)\n');
    const kind = await state(['get', 'per-10s', 'alice']);
    expect(kind.code).toBe(1);
    expect(kind.stderr).toMatch(/^error: .*per-10s.*window store/);
  });
});
