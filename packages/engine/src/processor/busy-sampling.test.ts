import { describe, expect, it } from 'vitest';
import { NodeMetrics, TaskMetrics } from '../metrics/metric-groups.js';
import { ProcessorContext } from './processor-context.js';
import { BUSY_SAMPLE_EVERY, ProcessorNode } from './processor-node.js';
import type { EngineRecord } from './record.js';

/** Busy-waits `ms` (the work a slow node does per record). */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

// source → slow (spins 2 ms per record) → sink-like leaf: the source's own work is tiny, so its
// sampled time must not include the slow child's (exclusive of children, as Flink's busy time).
function graph() {
  const ctx = new ProcessorContext({
    taskId: '0_0',
    partition: 0,
    collector: { send: () => {} },
    stores: new Map(),
    taskMetrics: new TaskMetrics(),
    processingHandler: 'log-and-fail',
    onError: () => {},
  });
  const leaf = new ProcessorNode('leaf', undefined, { process: () => {} }, new NodeMetrics());
  const slow = new ProcessorNode(
    'slow',
    undefined,
    {
      process: (r) => {
        spin(2);
        ctx.forward(r);
      },
    },
    new NodeMetrics(),
  );
  const source = new ProcessorNode(
    'source',
    undefined,
    { process: (r) => ctx.forward(r) },
    new NodeMetrics(),
  );
  source.children.push(slow);
  slow.children.push(leaf);
  return { ctx, source, slow, leaf };
}

const record: EngineRecord = { key: 'k', value: 1, timestamp: 0, headers: {} };

describe('busy-time sampling', () => {
  it(`times one record in ${BUSY_SAMPLE_EVERY} per node, with the whole path it takes`, () => {
    const { ctx, source, slow, leaf } = graph();
    for (let i = 0; i < 3 * BUSY_SAMPLE_EVERY; i++) ctx.process(source, record);
    // The source's sampled records time their children too: the same 3 samples on each node.
    expect(source.metrics.busySamples).toBe(3);
    expect(slow.metrics.busySamples).toBe(3);
    expect(leaf.metrics.busySamples).toBe(3);
    expect(source.metrics.processTotal).toBe(3 * BUSY_SAMPLE_EVERY);
  });

  it("keeps each node's time exclusive of the nodes it forwards to", () => {
    const { ctx, source, slow, leaf } = graph();
    for (let i = 0; i < 2 * BUSY_SAMPLE_EVERY; i++) ctx.process(source, record);
    expect(slow.metrics.busyTimeMs).toBeGreaterThanOrEqual(2 * 2);
    // 4 ms of spinning happened below the source and above the leaf: neither is charged for it.
    expect(source.metrics.busyTimeMs).toBeLessThan(1);
    expect(leaf.metrics.busyTimeMs).toBeLessThan(1);
  });

  it('times a node reached only through an unsampled parent on its own count', () => {
    const { ctx, slow } = graph();
    for (let i = 0; i < BUSY_SAMPLE_EVERY; i++) ctx.process(slow, record);
    expect(slow.metrics.busySamples).toBe(1);
  });
});
