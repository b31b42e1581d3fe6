// Where a foreign-key join's internal records go, on the embedded backend across partitions
// (KTableImpl#doJoinOnForeignKey, Kafka Streams 4.1): responses back to the partition the
// subscription came from (SubscriptionWrapper#primaryPartition), even when the left topic is not
// partitioned by murmur2 of its keys; with TableJoined.with(partitioner, otherPartitioner),
// responses by `partitioner` over the left key and subscriptions by `otherPartitioner` over the
// foreign key. The joined values are Kafka Streams' (tools/ks-oracle, same input): the last
// result per key.
import { runOracle } from '@streamwright/ks-oracle';
import { validateTopology, type Topology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStreamsApp } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { Consumed, Produced, Serdes, StreamsBuilder, TableJoined } from '../src/index.js';
import { partitionFor } from '../src/partitioner/default-partitioner.js';
import type { StreamPartitioner } from '../src/processor/registries.js';
import { encode, readAll } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';

/** "o7" → 7: the number in a key picks its partition (a custom partitioning of the topics). */
const numberOf = (key: unknown): number => Number(String(key).slice(1));
const byNumber: StreamPartitioner = (_topic, key, _value, numPartitions) =>
  numberOf(key) % numPartitions;

const orders = Array.from({ length: 12 }, (_, i) => ({
  key: `o${i}`,
  value: { product: `p${(i * 5) % 4}`, qty: i },
}));
const products = ['p0', 'p1', 'p2', 'p3'].map((p) => ({ key: p, value: { name: `name-${p}` } }));
const renamed = { key: 'p1', value: { name: 'new' } };
const joiner = '{"qty": left.qty, "name": right == null ? null : right.name}';

function document(config: Record<string, unknown>): Topology {
  const result = validateTopology({
    schemaVersion: 1,
    application: { id: 'route', config: { 'commit.interval.ms': 50 } },
    topics: [
      { name: 'orders', partitions: 3 },
      { name: 'products', partitions: 2 },
      { name: 'enriched', partitions: 1 },
    ],
    nodes: [
      { id: 'orders', kind: 'table', config: { topic: 'orders' } },
      { id: 'products', kind: 'table', config: { topic: 'products' } },
      {
        id: 'j',
        kind: 'foreignKeyJoin',
        config: { type: 'left', foreignKeyExtractor: 'value.product', joiner, ...config },
      },
      { id: 't', kind: 'toStream', config: {} },
      { id: 'out', kind: 'sink', config: { topic: 'enriched' } },
    ],
    edges: [
      { from: 'orders', to: 'j', toPort: 'left' },
      { from: 'products', to: 'j', toPort: 'right' },
      { from: 'j', to: 't' },
      { from: 't', to: 'out' },
    ],
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

/** The same program in the DSL: TableJoined.with(partitioner, otherPartitioner). */
function dslProgram() {
  const builder = new StreamsBuilder();
  const json = Serdes.Json<{ product: string; qty: number }>();
  const left = builder.table('orders', Consumed.with(Serdes.String(), json));
  const right = builder.table('products', Consumed.with(Serdes.String(), Serdes.Json()));
  left
    .leftJoin(right, 'value.product', joiner, TableJoined.with(byNumber, byNumber))
    .toStream()
    .to('enriched', Produced.with(Serdes.String(), Serdes.Json()));
  return builder.build({
    applicationId: 'route',
    config: { 'commit.interval.ms': 50 },
    topics: [
      { name: 'orders', partitions: 3 },
      { name: 'products', partitions: 2 },
      { name: 'enriched', partitions: 1 },
    ],
  });
}

let expected: Map<unknown, unknown>;
beforeAll(async () => {
  const input = [
    ...products.map((r, i) => ({ topic: 'products', ...r, timestamp: i })),
    ...orders.map((r, i) => ({ topic: 'orders', ...r, timestamp: 100 + i })),
    { topic: 'products', ...renamed, timestamp: 200 },
  ];
  const [result] = await runOracle([
    { name: 'routing', topology: document({}), inputs: input, outputs: ['enriched'] },
  ]);
  expect(result!.error).toBeUndefined();
  expected = new Map(result!.outputs!['enriched']!.map((r) => [r.key, r.value]));
}, 300_000);

async function run(
  topology: Topology | ReturnType<typeof dslProgram>,
  partitioners: Record<string, StreamPartitioner>,
  placement: { orders: (key: string) => number; products: (key: string) => number | undefined },
) {
  const backend = await createEmbeddedBackend();
  const app = createStreamsApp({ topology, backend, stateDir: '/unused', partitioners });
  await app.start();
  const produce = (topic: 'orders' | 'products', rs: { key: string; value: unknown }[]) =>
    backend.produce(
      rs.map((r) => {
        const partition = placement[topic](r.key);
        return {
          topic,
          key: encode('string', r.key),
          value: encode('json', r.value),
          ...(partition === undefined ? {} : { partition }),
        };
      }),
    );
  await produce('products', products);
  await produce('orders', orders);
  const latest = async () =>
    new Map(
      (await readAll(backend, 'enriched', 'string', 'json'))
        .sort((x, y) => x.offset - y.offset)
        .map((r) => [r.key, r.value]),
    );
  const joined = async (name: string, count: number) =>
    [...(await latest()).values()].filter((v) => (v as { name: string | null }).name === name)
      .length === count;
  await waitFor(() => joined('name-p0', 3), 30_000, 'orders joined with p0');
  await waitFor(async () => (await latest()).size === 12, 30_000, 'all 12 orders joined');
  await produce('products', [renamed]);
  await waitFor(() => joined('new', 3), 30_000, 'p1 renamed for its 3 subscribers');
  const result = await latest();
  const topics = (await backend.listTopics()).map((t) => t.name);
  const registration = topics.find((t) =>
    t.endsWith('-SUBSCRIPTION-REGISTRATION-0000000006-topic'),
  )!;
  const response = topics.find((t) => t.endsWith('-SUBSCRIPTION-RESPONSE-0000000014-topic'))!;
  // Both wrappers are read as raw bytes: only keys and partitions matter here.
  const subscriptions = await readAll(backend, registration, 'string', 'bytes');
  const responses = await readAll(backend, response, 'string', 'bytes');
  await app.close();
  await backend.close();
  return { result, subscriptions, responses };
}

describe('foreign-key join routing on the embedded backend', () => {
  it('sends responses back to the subscriber partition when the left topic is custom-partitioned', async () => {
    // Orders sit where byNumber puts them, not where murmur2 would: for some keys the two differ.
    const moved = orders.filter(
      (o) => partitionFor(encode('string', o.key)!, 3) !== numberOf(o.key) % 3,
    );
    expect(moved.length).toBeGreaterThan(0);
    const { result, subscriptions, responses } = await run(
      document({}),
      {},
      {
        orders: (k) => numberOf(k) % 3,
        products: () => undefined,
      },
    );
    expect(result).toEqual(expected);
    // Subscriptions by the producer's default partitioner over the foreign key's bytes.
    for (const s of subscriptions)
      expect(s.partition, String(s.key)).toBe(partitionFor(encode('string', s.key)!, 2));
    // Responses where each order lives (its primary partition), not where murmur2 would send them.
    expect(responses.length).toBeGreaterThanOrEqual(15);
    for (const r of responses) expect(r.partition, String(r.key)).toBe(numberOf(r.key) % 3);
  }, 120_000);

  it('routes by TableJoined.with(partitioner, otherPartitioner) in a topology document', async () => {
    const { result, subscriptions, responses } = await run(
      document({ partitioner: 'byNumber', otherPartitioner: 'byNumber' }),
      { byNumber },
      { orders: (k) => numberOf(k) % 3, products: (k) => numberOf(k) % 2 },
    );
    expect(result).toEqual(expected);
    for (const s of subscriptions) expect(s.partition, String(s.key)).toBe(numberOf(s.key) % 2);
    for (const r of responses) expect(r.partition, String(r.key)).toBe(numberOf(r.key) % 3);
  }, 120_000);

  it('routes by TableJoined.with(partitioner, otherPartitioner) in the DSL', async () => {
    const built = dslProgram();
    const config = built.topology.nodes.find((n) => n.kind === 'foreignKeyJoin')!.config;
    expect(config).toMatchObject({ partitioner: 'byNumber', otherPartitioner: 'byNumber' });
    expect(Object.keys(built.partitioners)).toEqual(['byNumber']);
    const { result, subscriptions, responses } = await run(
      built,
      {},
      {
        orders: (k) => numberOf(k) % 3,
        products: (k) => numberOf(k) % 2,
      },
    );
    expect(result).toEqual(expected);
    for (const s of subscriptions) expect(s.partition, String(s.key)).toBe(numberOf(s.key) % 2);
    for (const r of responses) expect(r.partition, String(r.key)).toBe(numberOf(r.key) % 3);
  }, 120_000);

  it('refuses a partitioner name nobody registered, naming the node and field', () => {
    expect(() =>
      createStreamsApp({
        topology: document({ otherPartitioner: 'missing' }),
        backend: null as never,
        stateDir: '/unused',
      }),
    ).toThrow('j: otherPartitioner "missing" is not registered');
  });
});
