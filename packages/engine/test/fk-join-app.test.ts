// A foreign-key join deployed on the embedded backend across partitions: the left table (3
// partitions) and the right table (2) need not be co-partitioned; subscriptions travel through
// the registration topic (partitioned like the right table) and answers through the response
// topic back to the left key's partition. The result per key is the oracle-checked semantics
// (test/fk-join-oracle.test.ts) applied to the final state.
import { validateTopology, type Topology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import { createStreamsApp } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { encode, readAll } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';
import { tempStateDir } from './fixtures/state-dir.js';

function valid(doc: unknown): Topology {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

const document = {
  schemaVersion: 1,
  application: { id: 'shop', config: { 'commit.interval.ms': 50 } },
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
      config: {
        type: 'left',
        foreignKeyExtractor: 'value.product',
        joiner: '{"qty": left.qty, "name": right == null ? null : right.name}',
      },
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
};

describe('foreign-key join on the embedded backend', () => {
  it('joins across partitions and follows right-side updates', async () => {
    const backend = await createEmbeddedBackend();
    const app = createStreamsApp({ topology: valid(document), backend, stateDir: tempStateDir() });
    await app.start();
    const products = ['p0', 'p1', 'p2', 'p3'];
    await backend.produce(
      products.map((p) => ({
        topic: 'products',
        key: encode('string', p),
        value: encode('json', { name: `name-${p}` }),
      })),
    );
    const orders = Array.from({ length: 12 }, (_, i) => `o${i}`);
    await backend.produce(
      orders.map((o, i) => ({
        topic: 'orders',
        key: encode('string', o),
        value: encode('json', { product: products[i % 4], qty: i }),
      })),
    );
    const latest = async () =>
      new Map(
        (await readAll(backend, 'enriched', 'string', 'json'))
          .sort((x, y) => x.offset - y.offset)
          .map((r) => [r.key, r.value]),
      );
    await waitFor(
      async () =>
        [...(await latest()).values()].filter((v) => (v as { name: string | null }).name !== null)
          .length === 12,
      20_000,
      'all 12 orders joined',
    );
    // p1 renamed: its three subscribers (o1, o5, o9) are answered again.
    await backend.produce([
      { topic: 'products', key: encode('string', 'p1'), value: encode('json', { name: 'new' }) },
    ]);
    await waitFor(
      async () =>
        [...(await latest()).values()].filter((v) => (v as { name: string }).name === 'new')
          .length === 3,
      20_000,
      'p1 fan-out',
    );
    const result = await latest();
    for (const [i, o] of orders.entries()) {
      const name = i % 4 === 1 ? 'new' : `name-p${i % 4}`;
      expect(result.get(o)).toEqual({ qty: i, name });
    }
    const topics = (await backend.listTopics()).map((t) => [t.name, t.partitions]);
    expect(topics).toContainEqual([
      'shop-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic',
      2,
    ]);
    expect(topics).toContainEqual([
      'shop-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic',
      3,
    ]);
    await app.close();
    await backend.close();
  });
});
