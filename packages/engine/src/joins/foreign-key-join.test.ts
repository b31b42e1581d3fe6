// The response side of a foreign-key join (Kafka's ResponseJoinProcessorSupplier): an answer is
// joined only if the left value still hashes as it did when it subscribed. The test driver
// processes each input to the end before the next, so stale answers never occur in the oracle
// comparisons (test/fk-join-oracle.test.ts); here a real task context and store replay one.
import { describe, expect, it } from 'vitest';
import { NodeMetrics, TaskMetrics } from '../metrics/metric-groups.js';
import { ProcessorContext } from '../processor/processor-context.js';
import { ProcessorNode } from '../processor/processor-node.js';
import type { EngineRecord } from '../processor/record.js';
import { getSerde } from '../serdes/index.js';
import { InMemoryKeyValueStore } from '../state/key-value-store.js';
import { responseJoinProcessor, valueHash, type SubscriptionResponse } from './foreign-key-join.js';

function resolver(leftJoin: boolean) {
  const store = new InMemoryKeyValueStore(
    { name: 'orders', keySerde: 'string', valueSerde: 'json', changelogTopic: null },
    0,
  );
  const taskMetrics = new TaskMetrics();
  const ctx = new ProcessorContext({
    taskId: '0_0',
    partition: 0,
    collector: { send: () => {} },
    stores: new Map([['orders', store]]),
    taskMetrics,
    processingHandler: 'log-and-fail',
    onError: () => {},
  });
  const out: EngineRecord[] = [];
  const node = new ProcessorNode(
    'resolver',
    undefined,
    responseJoinProcessor(ctx, {
      left: () => store,
      valueSerde: getSerde('json'),
      leftJoin,
      joiner: (_k, l, r) => ({ l, r }),
    }),
    new NodeMetrics(),
  );
  node.children.push(
    new ProcessorNode('sink', undefined, { process: (r) => void out.push(r) }, new NodeMetrics()),
  );
  const answer = (subscribedWith: unknown, foreignValue: unknown): void =>
    ctx.process(node, {
      key: 'o1',
      value: {
        hash: valueHash(getSerde('json'), subscribedWith),
        foreignValue,
        primaryPartition: 0,
        version: 0,
      } satisfies SubscriptionResponse,
      timestamp: 5,
      headers: {},
    });
  return { store, taskMetrics, out, answer };
}

describe('foreign-key join responses', () => {
  it('drops (and counts) an answer to a subscription the left value no longer has', () => {
    const { store, taskMetrics, out, answer } = resolver(false);
    store.put('o1', { product: 'p2', qty: 2 }, 1);
    answer({ product: 'p1', qty: 1 }, { name: 'apple' });
    expect(out).toEqual([]);
    expect(taskMetrics.droppedRecordsTotal).toBe(1);
    answer({ product: 'p2', qty: 2 }, { name: 'pear' });
    expect(out.map((r) => r.value)).toEqual([
      { l: { product: 'p2', qty: 2 }, r: { name: 'pear' } },
    ]);
  });

  it('turns an answer without a right value into a tombstone (inner) or (v, null) (left)', () => {
    for (const [leftJoin, expected] of [
      [false, null],
      [true, { l: { product: 'p1' }, r: null }],
    ] as const) {
      const { store, out, answer } = resolver(leftJoin);
      store.put('o1', { product: 'p1' }, 1);
      answer({ product: 'p1' }, null);
      expect(out.map((r) => r.value)).toEqual([expected]);
    }
  });
});
