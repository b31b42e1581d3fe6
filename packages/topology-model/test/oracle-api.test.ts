// The oracle's scenario API that other packages' semantics tests use: inputs into stream and
// table topics, final contents of named key-value stores. The expected values are Kafka
// Streams' documented KStream-vs-KTable outcome for the seed's five records (issue 4): summed
// as a stream every record adds up; as a table only each key's latest value counts.
import { runOracle } from '@streamwright/ks-oracle';
import { describe, expect, it } from 'vitest';
import { validateTopology, type TopologyDocumentInput } from '../src/index.js';

const purchases = [
  ['Jack', 1],
  ['Lily', 2],
  ['Mike', 4],
  ['Jack', 3],
  ['Lily', 5],
] as const;

const topology: TopologyDocumentInput = {
  schemaVersion: 1,
  application: { id: 'stream-vs-table' },
  topics: [
    { name: 'purchases', partitions: 1 },
    { name: 'latest-purchase', partitions: 1 },
    { name: 'stream-sums-out', partitions: 1 },
  ],
  nodes: [
    { id: 'stream', kind: 'source', config: { topic: 'purchases', valueSerde: 'long' } },
    { id: 'byUser', kind: 'groupByKey', config: {} },
    {
      id: 'streamSum',
      kind: 'reduce',
      config: { expression: 'agg + value', store: 'stream-sums' },
    },
    { id: 'changes', kind: 'toStream', config: {} },
    {
      id: 'out',
      kind: 'sink',
      config: { topic: 'stream-sums-out', valueSerde: 'long' },
    },
    { id: 'table', kind: 'table', config: { topic: 'latest-purchase', valueSerde: 'long' } },
    {
      id: 'regroup',
      kind: 'tableGroupBy',
      config: {
        expression: '{"key": key, "value": value}',
        keySerde: 'string',
        valueSerde: 'long',
      },
    },
    {
      id: 'tableSum',
      kind: 'tableReduce',
      config: { adder: 'agg + value', subtractor: 'agg - value', store: 'table-sums' },
    },
  ],
  edges: [
    { from: 'stream', to: 'byUser' },
    { from: 'byUser', to: 'streamSum' },
    { from: 'streamSum', to: 'changes' },
    { from: 'changes', to: 'out' },
    { from: 'table', to: 'regroup' },
    { from: 'regroup', to: 'tableSum' },
  ],
};

describe('ks-oracle scenarios', () => {
  it(
    'pipes records into stream and table topics and returns outputs and store contents',
    { timeout: 60_000 },
    async () => {
      expect(validateTopology(topology).ok).toBe(true);
      const inputs = purchases.flatMap(([user, amount], i) => [
        { topic: 'purchases', key: user, value: amount, timestamp: i * 1000 },
        { topic: 'latest-purchase', key: user, value: amount, timestamp: i * 1000 },
      ]);
      const [result] = await runOracle([
        {
          name: 'stream vs table',
          topology,
          inputs,
          outputs: ['stream-sums-out'],
          stores: ['stream-sums', 'table-sums'],
        },
      ]);
      expect(result?.error).toBeUndefined();
      expect(result?.stores).toEqual({
        'stream-sums': [
          ['Jack', 4],
          ['Lily', 7],
          ['Mike', 4],
        ],
        'table-sums': [
          ['Jack', 3],
          ['Lily', 5],
          ['Mike', 4],
        ],
      });
      // With caching off (the oracle's setting) every update is forwarded.
      expect(result?.outputs?.['stream-sums-out']?.map((r) => [r.key, r.value])).toEqual([
        ['Jack', 1],
        ['Lily', 2],
        ['Mike', 4],
        ['Jack', 4],
        ['Lily', 7],
      ]);
    },
  );

  it('reports an unknown store by name', { timeout: 60_000 }, async () => {
    const [result] = await runOracle([
      { name: 'no store', topology, inputs: [], stores: ['nope'] },
    ]);
    expect(result?.error).toBe(
      'IllegalArgumentException: the topology has no key-value store nope',
    );
  });
});
