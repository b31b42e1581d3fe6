// Internal topic sizing at deploy: a sub-topology reading a repartition topic has as many tasks as
// that topic has partitions, and its stores' changelogs as many partitions (Kafka Streams sizes
// changelogs by task count). The repartition topic does not exist yet when they are sized.
import { planTopology, validateTopology } from '@streamwright/topology-model';
import { expect, it } from 'vitest';
import { createEmbeddedBackend } from '../backends/embedded/index.js';
import { ensureTopics } from './topics.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

it("a store behind a repartition topic gets a changelog with that topic's partition count", async () => {
  const result = validateTopology({
    schemaVersion: 1,
    application: { id: 'sizing' },
    topics: [{ name: 'prices', partitions: 3 }],
    nodes: [
      { id: 'prices', kind: 'table', config: { topic: 'prices', valueSerde: 'string' } },
      { id: 'g', kind: 'tableGroupBy', config: { expression: '{"key": value, "value": key}' } },
      { id: 'n', kind: 'tableCount', config: { store: 'per-price' } },
    ],
    edges: [
      { from: 'prices', to: 'g' },
      { from: 'g', to: 'n' },
    ],
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const backend = await createEmbeddedBackend();
  await ensureTopics(backend, result.topology, planTopology(result.topology), silent);
  const partitions = new Map((await backend.listTopics()).map((t) => [t.name, t.partitions]));
  expect(partitions.get('sizing-per-price-repartition')).toBe(3);
  expect(partitions.get('sizing-per-price-changelog')).toBe(3);
  await backend.close();
});
