// preview.run: an unsaved topology over sample records in the engine's test driver, every node's
// inputs and outputs, and nothing written anywhere.
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import type { AppRouter } from '../src/index.js';
import { type Client, useTestRuntime } from './harness.js';
import { ordersPipeline, wordCount } from './topologies.js';

const env = useTestRuntime();

const order = (key: string, user: string, amount: number, timestamp: number) => ({
  topic: 'orders',
  key,
  value: { user, amount },
  timestamp,
});

type Preview = Extract<Awaited<ReturnType<Client['preview']['run']['mutate']>>, { ok: true }>;

async function preview(topology: unknown, records: unknown, limit?: number): Promise<Preview> {
  const result = await env.client.preview.run.mutate({
    topology,
    records: records as never,
    ...(limit ? { limit } : {}),
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result;
}

describe('preview.run', () => {
  it("shows every node's inputs and outputs, and writes nothing", async () => {
    const result = await preview(ordersPipeline(), [
      order('k1', 'u1', 50, 1000),
      order('k2', 'u2', 150, 2000),
      order('k3', 'u3', 250, 3000),
    ]);
    expect(result.processed).toBe(3);
    expect(result.stoppedAt).toBeNull();
    const node = (id: string) => result.nodes.find((n) => n.nodeId === id)!;
    expect(result.nodes.map((n) => [n.nodeId, n.kind, n.inputCount, n.outputCount])).toEqual([
      ['orders', 'source', 3, 3],
      ['large', 'filter', 3, 2],
      ['shape', 'mapValues', 2, 2],
      ['out', 'sink', 2, 2],
    ]);
    expect(node('orders').inputs.map((r) => [r.from, r.key])).toEqual([
      [null, 'k1'],
      [null, 'k2'],
      [null, 'k3'],
    ]);
    expect(node('large').inputs.map((r) => r.from)).toEqual(['orders', 'orders', 'orders']);
    expect(node('large').outputs.map((r) => [r.key, r.to, r.timestamp])).toEqual([
      ['k2', ['shape'], 2000],
      ['k3', ['shape'], 3000],
    ]);
    expect(node('shape').outputs.map((r) => r.value)).toEqual([
      { user: 'u2', total: 300 },
      { user: 'u3', total: 500 },
    ]);
    expect(node('out').outputs.map((r) => [r.key, r.topic, r.to])).toEqual([
      ['k2', 'large-orders', []],
      ['k3', 'large-orders', []],
    ]);
    expect(result.topics['large-orders']?.map((r) => r.value)).toEqual([
      { user: 'u2', total: 300 },
      { user: 'u3', total: 500 },
    ]);
    // Nothing was deployed, created or written.
    expect(await env.client.topics.list.query()).toEqual([]);
    expect((await env.client.app.status.query()).deployed).toBe(false);
  });

  it('lists a record forwarded to two nodes once, with both receivers', async () => {
    const fanOut = ordersPipeline() as { nodes: object[]; edges: object[]; topics: object[] };
    fanOut.topics.push({ name: 'audit', partitions: 1 });
    fanOut.nodes.push({ id: 'audit', kind: 'sink', config: { topic: 'audit' } });
    fanOut.edges.push({ from: 'orders', to: 'audit' });
    const result = await preview(fanOut, [order('k1', 'u1', 500, 1)]);
    const source = result.nodes.find((n) => n.nodeId === 'orders')!;
    // In forwarding order: Kafka Streams' build order, where the sink straight off the source is
    // KSTREAM-SINK-0000000001 and the filter KSTREAM-FILTER-0000000002 (not describe()'s order).
    expect(source.outputs.map((r) => r.to)).toEqual([['audit', 'large']]);
    expect(source.outputCount).toBe(1);
  });

  it('keeps the first `limit` records per node and counts them all', async () => {
    const records = Array.from({ length: 60 }, (_, i) => order(`k${i}`, 'u', 200, i));
    const result = await preview(ordersPipeline(), records, 5);
    const shape = result.nodes.find((n) => n.nodeId === 'shape')!;
    expect(shape.inputs).toHaveLength(5);
    expect(shape.inputCount).toBe(60);
    expect(result.topics['large-orders']).toHaveLength(5);
  });

  it('runs stateful nodes: counts grow per key, the changelog is shown among the topics', async () => {
    const words = ['apple', 'fig', 'apple', 'apple', 'fig'];
    const result = await preview(
      wordCount(),
      words.map((w, i) => ({ topic: 'words', key: w, value: w, timestamp: i })),
    );
    // A KTable node forwards Kafka Streams' Change(new, old) pairs; toStream() emits the new value.
    const count = result.nodes.find((n) => n.nodeId === 'count')!;
    expect(count.outputs.map((r) => [r.key, r.value, r.to])).toEqual([
      ['apple', { newValue: 1, oldValue: null }, ['changes']],
      ['fig', { newValue: 1, oldValue: null }, ['changes']],
      ['apple', { newValue: 2, oldValue: null }, ['changes']],
      ['apple', { newValue: 3, oldValue: null }, ['changes']],
      ['fig', { newValue: 2, oldValue: null }, ['changes']],
    ]);
    const changes = result.nodes.find((n) => n.nodeId === 'changes')!;
    expect(changes.outputs.map((r) => r.value)).toEqual([1, 1, 2, 3, 2]);
    expect(result.topics['word-counts']?.map((r) => r.value)).toEqual([1, 1, 2, 3, 2]);
    expect(Object.keys(result.topics)).toContain('word-count-counts-changelog');
  });

  it('stops at a failing record under log-and-fail, goes on under log-and-continue', async () => {
    const records = [
      order('k1', 'u1', 500, 1),
      { topic: 'orders', key: 'bad', value: { user: 'x' }, timestamp: 2 },
      order('k3', 'u3', 500, 3),
    ];
    const failing = await preview(ordersPipeline(), records);
    expect(failing.stoppedAt).toBe(1);
    expect(failing.processed).toBe(1);
    expect(failing.errors[0]).toMatchObject({
      modelNodeId: 'large',
      handling: 'fail',
      record: { key: 'bad' },
    });

    const continuing = await preview(ordersPipeline('log-and-continue'), records);
    expect(continuing.stoppedAt).toBeNull();
    expect(continuing.processed).toBe(3);
    expect(continuing.errors).toHaveLength(1);
    expect(continuing.topics['large-orders']?.map((r) => r.key)).toEqual(['k1', 'k3']);
  });

  it('samples the latest records of a topic without consuming or changing it', async () => {
    await env.client.topics.create.mutate({ name: 'orders', partitions: 2 });
    for (let i = 0; i < 5; i++) {
      await env.client.topics.produce.mutate({
        topic: 'orders',
        key: `s${i}`,
        value: JSON.stringify({ user: 'u', amount: i * 100 }),
      });
    }
    const before = await env.client.topics.describe.query({ name: 'orders' });
    const result = await preview(ordersPipeline(), { sampleFromTopic: 'orders', limit: 3 });
    expect(result.processed).toBe(3);
    const source = result.nodes.find((n) => n.nodeId === 'orders')!;
    expect(source.inputs.map((r) => r.key).sort()).toEqual(['s2', 's3', 's4']);
    expect(await env.client.topics.describe.query({ name: 'orders' })).toEqual(before);
    expect((await env.client.topics.list.query()).map((t) => t.name)).toEqual(['orders']);
  });

  it('samples several topics at once, merged in time order, so a join sees its table', async () => {
    await env.client.topics.create.mutate({ name: 'clicks', partitions: 1 });
    await env.client.topics.create.mutate({ name: 'users', partitions: 1 });
    const produce = (topic: string, key: string, value: string, timestamp: number) =>
      env.client.topics.produce.mutate({
        topic,
        key,
        value,
        keySerde: 'string',
        valueSerde: 'string',
        timestamp,
      });
    await produce('users', 'u1', 'Ann', 1000);
    await produce('clicks', 'u1', 'home', 2000);
    await produce('clicks', 'u2', 'cart', 3000);
    const joined = {
      schemaVersion: 1,
      application: { id: 'preview-join', config: {} },
      topics: [
        { name: 'clicks', partitions: 1, config: {} },
        { name: 'users', partitions: 1, config: {} },
        { name: 'enriched', partitions: 1, config: {} },
      ],
      nodes: [
        { id: 'clicks', kind: 'source', config: { topic: 'clicks', valueSerde: 'string' } },
        { id: 'users', kind: 'table', config: { topic: 'users', valueSerde: 'string' } },
        {
          id: 'join',
          kind: 'streamTableJoin',
          config: { type: 'left', joiner: 'right == null ? left : left + "@" + right' },
        },
        { id: 'out', kind: 'sink', config: { topic: 'enriched', valueSerde: 'string' } },
      ],
      edges: [
        { from: 'clicks', to: 'join', toPort: 'left' },
        { from: 'users', to: 'join', toPort: 'right' },
        { from: 'join', to: 'out' },
      ],
      layout: { nodes: {} },
    };
    const result = await preview(joined, { sampleFromTopic: ['clicks', 'users'], limit: 20 });
    expect(result.processed).toBe(3);
    expect(result.topics['enriched']?.map((r) => [r.key, r.value])).toEqual([
      ['u1', 'home@Ann'],
      ['u2', 'cart'],
    ]);
  });

  it('returns validation errors for an invalid topology, and refuses unknown topics', async () => {
    const invalid = await env.client.preview.run.mutate({
      topology: { ...ordersPipeline(), edges: [{ from: 'orders', to: 'nowhere' }] },
      records: [],
    });
    expect(invalid.ok).toBe(false);
    const error = await env.client.preview.run
      .mutate({
        topology: ordersPipeline(),
        records: [{ topic: 'elsewhere', key: 'k', value: {} }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).message).toMatch(
      /records\[0\]\.topic: "elsewhere" is not a topic of this topology/,
    );
  });
});
