// Property test of sliding-window aggregation against a simple model: with a grace long enough
// that nothing is late, whatever the arrival order, the windows a key ends up with are exactly
// Kafka's: each record's left window [max(0, ts − d), max(0, ts − d) + d] and, when a later
// record lies within d after it, its right window [ts + 1, ts + 1 + d]; each window's final count
// is the number of records inside its inclusive bounds.
import fc from 'fast-check';
import { validateTopology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import { createTestDriver } from '../test-driver/test-driver.js';

function document(d: number) {
  return {
    schemaVersion: 1,
    application: { id: 'sliding-model' },
    topics: [
      { name: 'in', partitions: 1 },
      { name: 'out', partitions: 1 },
    ],
    nodes: [
      { id: 'src', kind: 'source', config: { topic: 'in' } },
      { id: 'g', kind: 'groupByKey', config: {} },
      {
        id: 'w',
        kind: 'windowedBy',
        config: { window: { type: 'sliding', timeDifferenceMs: d, graceMs: 1_000_000 } },
      },
      { id: 'c', kind: 'windowedCount', config: {} },
      { id: 'ts', kind: 'toStream', config: {} },
      {
        id: 'm',
        kind: 'map',
        config: {
          expression: '{"key": string(key.start) + "/" + string(key.end), "value": value}',
        },
      },
      { id: 'out', kind: 'sink', config: { topic: 'out', valueSerde: 'long' } },
    ],
    edges: ['src', 'g', 'w', 'c', 'ts', 'm', 'out']
      .slice(1)
      .map((to, i, all) => ({ from: i === 0 ? 'src' : all[i - 1]!, to })),
  };
}

function model(timestamps: number[], d: number): Map<string, number> {
  const starts = new Set<number>();
  for (const t of timestamps) {
    starts.add(Math.max(0, t - d));
    if (timestamps.some((u) => u > t && u <= t + 1 + d)) starts.add(t + 1);
  }
  const out = new Map<string, number>();
  for (const s of starts)
    out.set(`${s}/${s + d}`, timestamps.filter((t) => t >= s && t <= s + d).length);
  return out;
}

describe('sliding windows against a model', () => {
  it('final window counts equal the model for any arrival order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 25 }),
        (d, timestamps) => {
          const result = validateTopology(document(d));
          if (!result.ok) throw new Error(JSON.stringify(result.errors));
          const driver = createTestDriver(result.topology);
          for (const t of timestamps) driver.pipeInput('in', 'k', { t }, t);
          const last = new Map<string, number>();
          for (const r of driver.readOutput('out')) last.set(r.key as string, r.value as number);
          driver.close();
          expect(new Map([...last].sort())).toEqual(new Map([...model(timestamps, d)].sort()));
        },
      ),
      { numRuns: 300 },
    );
  });
});
