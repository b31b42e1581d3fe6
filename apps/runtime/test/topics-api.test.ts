// Topic admin, record batches, fetch from offsets and consumer-group offsets through the API
// (a real server, engine and embedded backend).
import { describe, expect, it } from 'vitest';
import {
  makeClient,
  makeDataDir,
  removeDataDir,
  startTestRuntime,
  refusal,
  useTestRuntime,
} from './harness.js';

const env = useTestRuntime();

const b64 = (text: string) => Buffer.from(text).toString('base64');
const text = (base64: string | null) =>
  base64 === null ? null : Buffer.from(base64, 'base64').toString();

describe('topic admin', () => {
  it('creates a topic with partitions and configs, describes it, refuses a second create', async () => {
    const created = await env.client.topics.create.mutate({
      name: 'payments',
      partitions: 4,
      config: { 'cleanup.policy': 'compact', 'retention.ms': 3_600_000 },
    });
    expect(created).toMatchObject({
      name: 'payments',
      partitions: 4,
      internal: false,
      config: { 'cleanup.policy': 'compact', 'retention.ms': '3600000' },
    });
    expect(created.offsets).toHaveLength(4);
    expect(await env.client.topics.describe.query({ name: 'payments' })).toEqual(created);

    const again = await refusal(env.client.topics.create.mutate({ name: 'payments' }));
    expect(again.data).toMatchObject({ code: 'CONFLICT', runtimeCode: 'TOPIC_EXISTS' });
  });

  it('refuses unknown config keys and ill-typed values, naming each', async () => {
    const error = await refusal(
      env.client.topics.create.mutate({
        name: 'bad-config',
        config: { 'retention.msec': 1, 'segment.ms': 'soon', 'min.cleanable.dirty.ratio': 2 },
      }),
    );
    expect(error.data).toMatchObject({ code: 'BAD_REQUEST', runtimeCode: 'INVALID_TOPIC_CONFIG' });
    expect(error.message).toMatch(/unknown topic config "retention\.msec"/);
    expect(error.message).toMatch(/segment\.ms must be an integer ≥ 1, got "soon"/);
    expect(error.message).toMatch(/min\.cleanable\.dirty\.ratio must be a number 0\.\.1/);
    const names = (await env.client.topics.list.query()).map((t) => t.name);
    expect(names).not.toContain('bad-config');

    const badName = await refusal(env.client.topics.create.mutate({ name: 'no spaces' }));
    expect(badName.data?.issues?.[0]?.path).toBe('name');
    const zero = await refusal(env.client.topics.create.mutate({ name: 'zero', partitions: 0 }));
    expect(zero.data?.issues?.[0]?.path).toBe('partitions');
  });

  it('says of a malformed create what field, what value and what range', async () => {
    const message = async (input: unknown) =>
      (await refusal(env.client.topics.create.mutate(input as never))).message;
    expect(await message({ name: 'p0', partitions: 0 })).toBe(
      'Invalid input: partitions: must be an integer from 1 to 1024, got 0',
    );
    expect(await message({ name: 'p2000', partitions: 2000 })).toBe(
      'Invalid input: partitions: must be an integer from 1 to 1024, got 2000',
    );
    expect(await message({ name: 'half', partitions: 1.5 })).toBe(
      'Invalid input: partitions: must be an integer from 1 to 1024, got 1.5',
    );
    expect(await message({ name: 'text', partitions: '3' })).toBe(
      'Invalid input: partitions: must be an integer from 1 to 1024, got "3"',
    );
    expect(await message({ name: 'no spaces' })).toBe(
      'Invalid input: name: topic names may only contain letters, digits, ".", "_" and "-", got "no spaces"',
    );
    expect(await message({ name: '' })).toBe('Invalid input: name: topic name is empty');
    expect(await message({ name: '..' })).toBe(
      'Invalid input: name: "." and ".." are not topic names, got ".."',
    );
    expect(await message({ partitions: 3 })).toBe(
      'Invalid input: name: is required (a topic name)',
    );
    expect(await message({ name: 'cfg', config: { 'retention.ms': [1] } })).toBe(
      'Invalid input: config["retention.ms"]: a topic config value is text, a number or true/false, got [1]',
    );
    expect(await message({ name: 'cfg', config: 5 })).toBe(
      'Invalid input: config: must be an object of topic configs ({"retention.ms": 86400000}), got 5',
    );
    const names = (await env.client.topics.list.query()).map((t) => t.name);
    for (const name of ['p0', 'p2000', 'half', 'text', 'cfg']) expect(names).not.toContain(name);
  });

  it('deletes a topic with its committed offsets', async () => {
    await env.client.topics.create.mutate({ name: 'doomed' });
    await env.client.topics.produceBatch.mutate({
      topic: 'doomed',
      records: [{ key: null, value: b64('x') }],
    });
    await env.client.groups.commit.mutate({
      group: 'g',
      topic: 'doomed',
      offsets: [{ partition: 0, offset: 1 }],
    });
    expect(await env.client.topics.delete.mutate({ name: 'doomed' })).toEqual({
      deleted: 'doomed',
    });
    const missing = await refusal(env.client.topics.describe.query({ name: 'doomed' }));
    expect(missing.data).toMatchObject({ code: 'NOT_FOUND', runtimeCode: 'TOPIC_NOT_FOUND' });
    // Recreated, it starts empty and the group has no offset for it.
    await env.client.topics.create.mutate({ name: 'doomed' });
    expect(await env.client.groups.committed.query({ group: 'g', topic: 'doomed' })).toEqual([]);
  });
});

describe('records as bytes', () => {
  it('produces a batch in order and fetches it back from offsets', async () => {
    await env.client.topics.create.mutate({ name: 'log', partitions: 2 });
    const { results } = await env.client.topics.produceBatch.mutate({
      topic: 'log',
      records: [
        { key: b64('a'), value: b64('first'), partition: 1, timestamp: 1000, headers: { h: '1' } },
        { key: b64('b'), value: b64('second'), partition: 1, timestamp: 2000 },
        { key: null, value: null, partition: 0 },
      ],
    });
    expect(results).toEqual([
      { partition: 1, offset: 0 },
      { partition: 1, offset: 1 },
      { partition: 0, offset: 0 },
    ]);
    const { partitions } = await env.client.topics.fetch.mutate({
      topic: 'log',
      positions: [
        { partition: 0, offset: 0 },
        { partition: 1, offset: 1 },
      ],
    });
    expect(partitions).toHaveLength(2);
    const [p0, p1] = partitions;
    expect(p0).toMatchObject({
      partition: 0,
      highWatermark: 1,
      logStartOffset: 0,
      outOfRange: false,
    });
    expect(p0!.records).toMatchObject([{ offset: 0, key: null, value: null, headers: [] }]);
    expect(p1).toMatchObject({ partition: 1, highWatermark: 2 });
    expect(p1!.records.map((r) => [r.offset, text(r.key), text(r.value), r.timestamp])).toEqual([
      [1, 'b', 'second', 2000],
    ]);
  });

  it('carries headers as Kafka has them through produce, read, browse, produceBatch and fetch', async () => {
    // Order kept, a repeated key, a null value and bytes that are not UTF-8 (base64 both ways).
    const headers = [
      { key: 'trace', value: 'b' },
      { key: 'sig', value: { base64: '/wA=' } },
      { key: 'trace', value: 'a' },
      { key: 'none', value: null },
    ];
    await env.client.topics.create.mutate({ name: 'headed' });
    await env.client.topics.produce.mutate({
      topic: 'headed',
      key: 'k',
      value: 'v',
      valueSerde: 'string',
      headers,
    });
    await env.client.topics.produce.mutate({
      topic: 'headed',
      key: 'old',
      value: 'v',
      valueSerde: 'string',
      headers: { source: 'object form' },
    });
    const read = await env.client.topics.read.query({ topic: 'headed', valueSerde: 'string' });
    expect(read.map((r) => r.headers)).toEqual([
      headers,
      [{ key: 'source', value: 'object form' }],
    ]);
    const page = await env.client.topics.browse.query({
      topic: 'headed',
      partition: 0,
      start: { offset: 0 },
      valueSerde: 'string',
    });
    expect(page.records.map((r) => r.headers)).toEqual(read.map((r) => r.headers));

    await env.client.topics.produceBatch.mutate({
      topic: 'headed',
      records: [{ key: null, value: b64('batch'), headers }],
    });
    const { partitions } = await env.client.topics.fetch.mutate({
      topic: 'headed',
      positions: [{ partition: 0, offset: 2 }],
    });
    expect(partitions[0]!.records.map((r) => r.headers)).toEqual([headers]);
  });

  it('caps an answer at maxRecords over all partitions and flags a position past the end', async () => {
    const records = Array.from({ length: 30 }, (_, i) => ({
      key: null,
      value: b64(`v${i}`),
      partition: i % 2,
    }));
    await env.client.topics.produceBatch.mutate({ topic: 'log', records });
    const { partitions } = await env.client.topics.fetch.mutate({
      topic: 'log',
      positions: [
        { partition: 0, offset: 0 },
        { partition: 1, offset: 0 },
      ],
      maxRecords: 20,
    });
    expect(partitions.reduce((n, p) => n + p.records.length, 0)).toBe(20);
    const past = await env.client.topics.fetch.mutate({
      topic: 'log',
      positions: [{ partition: 0, offset: 999 }],
    });
    expect(past.partitions[0]).toMatchObject({ outOfRange: true, records: [] });
  });

  it('long-polls until a record arrives', async () => {
    await env.client.topics.create.mutate({ name: 'quiet' });
    const started = Date.now();
    const waiting = env.client.topics.fetch.mutate({
      topic: 'quiet',
      positions: [{ partition: 0, offset: 0 }],
      maxWaitMs: 20_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await env.client.topics.produceBatch.mutate({
      topic: 'quiet',
      records: [{ key: null, value: b64('hi') }],
    });
    const { partitions } = await waiting;
    expect(partitions[0]!.records.map((r) => text(r.value))).toEqual(['hi']);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses bad base64, a partition the topic lacks and an unknown topic', async () => {
    const bad = await refusal(
      env.client.topics.produceBatch.mutate({
        topic: 'log',
        records: [{ key: 'not base64!', value: null }],
      }),
    );
    expect(bad.data?.issues).toEqual([{ path: 'records[0].key', message: 'expected base64 text' }]);
    const range = await refusal(
      env.client.topics.produceBatch.mutate({
        topic: 'log',
        records: [{ key: null, value: null, partition: 2 }],
      }),
    );
    expect(range.data).toMatchObject({
      code: 'BAD_REQUEST',
      runtimeCode: 'PARTITION_OUT_OF_RANGE',
    });
    const fetchRange = await refusal(
      env.client.topics.fetch.mutate({ topic: 'log', positions: [{ partition: 5, offset: 0 }] }),
    );
    expect(fetchRange.data?.runtimeCode).toBe('PARTITION_OUT_OF_RANGE');
    const unknown = await refusal(
      env.client.topics.produceBatch.mutate({
        topic: 'nope',
        records: [{ key: null, value: null }],
      }),
    );
    expect(unknown.data?.runtimeCode).toBe('TOPIC_NOT_FOUND');
    const empty = await refusal(
      env.client.topics.produceBatch.mutate({ topic: 'log', records: [] }),
    );
    expect(empty.data?.issues?.[0]?.path).toBe('records');
  });

  it("keeps a consumer group's committed offsets per partition", async () => {
    expect(await env.client.groups.committed.query({ group: 'readers', topic: 'log' })).toEqual([]);
    await env.client.groups.commit.mutate({
      group: 'readers',
      topic: 'log',
      offsets: [{ partition: 1, offset: 7 }],
    });
    await env.client.groups.commit.mutate({
      group: 'readers',
      topic: 'log',
      offsets: [
        { partition: 0, offset: 3 },
        { partition: 1, offset: 9 },
      ],
    });
    expect(await env.client.groups.committed.query({ group: 'readers', topic: 'log' })).toEqual([
      { partition: 0, offset: 3 },
      { partition: 1, offset: 9 },
    ]);
    expect(await env.client.groups.committed.query({ group: 'others', topic: 'log' })).toEqual([]);
  });
});

describe('shutdown', () => {
  it('ends a pending long poll when the runtime closes', async () => {
    const dir = await makeDataDir();
    const other = await startTestRuntime({ dataDir: dir });
    try {
      const otherClient = makeClient(other.url);
      await otherClient.topics.create.mutate({ name: 'idle' });
      const pending = otherClient.topics.fetch
        .mutate({ topic: 'idle', positions: [{ partition: 0, offset: 0 }], maxWaitMs: 30_000 })
        .catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      await other.close();
      expect(Date.now() - started).toBeLessThan(5000);
      const outcome = await pending;
      // Either the empty answer made it out before the socket closed, or the request was cut.
      if (!(outcome instanceof Error))
        expect(outcome).toMatchObject({ partitions: [{ records: [] }] });
    } finally {
      await other.close();
      await removeDataDir(dir);
    }
  });
});
