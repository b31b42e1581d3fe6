// The engine driven by topology-model's real validator and planner: a topology document in, the
// Kafka Streams node names of the plan in status, metrics and errors.
import { validateTopology, type Topology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import { createStreamsApp } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';
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
  application: {
    id: 'shop',
    config: { 'commit.interval.ms': 100, 'statestore.cache.max.bytes': 0 },
  },
  topics: [
    { name: 'orders', partitions: 3 },
    { name: 'big-orders', partitions: 1 },
    { name: 'order-counts', partitions: 1 },
  ],
  nodes: [
    { id: 'src', kind: 'source', config: { topic: 'orders' } },
    { id: 'big', kind: 'filter', config: { expression: 'value.amount > 100' } },
    {
      id: 'shape',
      kind: 'mapValues',
      config: { expression: '{"user": value.user, "total": value.amount * 2}' },
    },
    { id: 'out', kind: 'sink', config: { topic: 'big-orders' } },
    { id: 'byKey', kind: 'groupByKey', config: {} },
    { id: 'count', kind: 'count', config: {} },
    { id: 'counts', kind: 'toStream', config: {} },
    { id: 'countsOut', kind: 'sink', config: { topic: 'order-counts', valueSerde: 'long' } },
  ],
  edges: [
    { from: 'src', to: 'big' },
    { from: 'big', to: 'shape' },
    { from: 'shape', to: 'out' },
    { from: 'src', to: 'byKey' },
    { from: 'byKey', to: 'count' },
    { from: 'count', to: 'counts' },
    { from: 'counts', to: 'countsOut' },
  ],
};

describe('engine with the real planner', () => {
  it('the test driver runs a validated topology', () => {
    const driver = createTestDriver(valid(document));
    driver.pipeInput('orders', 'alice', { user: 'alice', amount: 150 }, 1);
    driver.pipeInput('orders', 'alice', { user: 'alice', amount: 50 }, 2);
    expect(driver.readOutput('big-orders').map((r) => r.value)).toEqual([
      { user: 'alice', total: 300 },
    ]);
    expect(driver.readOutput('order-counts').map((r) => [r.key, r.value])).toEqual([
      ['alice', 1],
      ['alice', 2],
    ]);
    const names = driver.plan.nodeNames;
    expect(driver.metrics().nodeModelIds[names['count']![0]!]).toBe('count');
  });

  it('createStreamsApp deploys it on the embedded backend with tasks 0_0, 0_1, 0_2', async () => {
    const backend = await createEmbeddedBackend();
    const app = createStreamsApp({ topology: valid(document), backend, stateDir: tempStateDir() });
    await app.start();
    await backend.produce(
      ['a', 'b', 'c', 'a', 'b', 'a'].map((user, i) => ({
        topic: 'orders',
        key: encode('string', user),
        value: encode('json', { user, amount: 100 + i }),
      })),
    );
    await waitFor(
      async () => (await readAll(backend, 'order-counts', 'string', 'long')).length === 6,
    );
    const counts = new Map(
      (await readAll(backend, 'order-counts', 'string', 'long'))
        .sort((x, y) => x.offset - y.offset)
        .map((r) => [r.key, r.value]),
    );
    expect(counts).toEqual(
      new Map([
        ['a', 3],
        ['b', 2],
        ['c', 1],
      ]),
    );
    await waitFor(() => app.state() === 'RUNNING', 5000, 'RUNNING');
    expect(app.status().tasks.map((t) => t.taskId)).toEqual(['0_0', '0_1', '0_2']);
    expect(Object.keys(app.metrics().nodes).sort()).toEqual(['0_0', '0_1', '0_2']);
    const topics = (await backend.listTopics()).map((t) => t.name);
    expect(topics).toContain('shop-KSTREAM-AGGREGATE-STATE-STORE-0000000004-changelog');
    await app.close();
    await backend.close();
  });
});
