import { validateTopology, type Topology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import type { RecordTap, RecordTapEvent } from '../api.js';
import { createTestDriver } from '../test-driver/test-driver.js';

function topology(): Topology {
  const result = validateTopology({
    schemaVersion: 1,
    application: { id: 'tap-test' },
    topics: [
      { name: 'in', partitions: 1 },
      { name: 'out', partitions: 1 },
      { name: 'all', partitions: 1 },
    ],
    nodes: [
      { id: 'src', kind: 'source', config: { topic: 'in' } },
      { id: 'big', kind: 'filter', config: { expression: 'value.n > 1' } },
      { id: 'double', kind: 'mapValues', config: { expression: '{"n": value.n * 2}' } },
      { id: 'sink', kind: 'sink', config: { topic: 'out' } },
      { id: 'everything', kind: 'sink', config: { topic: 'all' } },
    ],
    edges: [
      { from: 'src', to: 'big' },
      { from: 'big', to: 'double' },
      { from: 'double', to: 'sink' },
      { from: 'src', to: 'everything' },
    ],
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

describe('record tap', () => {
  it('reports every record each node is given, with the node that forwarded it', () => {
    const events: RecordTapEvent[] = [];
    const tap: RecordTap = { active: true, onRecord: (e) => events.push(e) };
    const driver = createTestDriver(topology(), { recordTap: tap });
    const name = (id: string) => driver.plan.nodeNames[id]![0]!;
    driver.pipeInput('in', 'a', { n: 1 }, 10);
    driver.pipeInput('in', 'b', { n: 2 }, 20);
    const seen = events.map((e) => [e.node, e.from, e.record.key, e.record.value]);
    expect(seen).toEqual([
      [name('src'), null, 'a', { n: 1 }],
      [name('big'), name('src'), 'a', { n: 1 }],
      [name('everything'), name('src'), 'a', { n: 1 }],
      [name('src'), null, 'b', { n: 2 }],
      [name('big'), name('src'), 'b', { n: 2 }],
      [name('double'), name('big'), 'b', { n: 2 }],
      [name('sink'), name('double'), 'b', { n: 4 }],
      [name('everything'), name('src'), 'b', { n: 2 }],
    ]);
    expect(events.every((e) => e.taskId === '0_0')).toBe(true);
    // The tap observes: the output is what it is without one.
    expect(driver.readOutput('out').map((r) => r.value)).toEqual([{ n: 4 }]);
  });

  it('reports nothing while inactive, and the same output', () => {
    const events: RecordTapEvent[] = [];
    const tap: RecordTap = { active: false, onRecord: (e) => events.push(e) };
    const driver = createTestDriver(topology(), { recordTap: tap });
    driver.pipeInput('in', 'a', { n: 5 }, 10);
    expect(events).toEqual([]);
    tap.active = true;
    driver.pipeInput('in', 'b', { n: 6 }, 20);
    expect(events).toHaveLength(5);
    expect(driver.readOutput('out').map((r) => r.value)).toEqual([{ n: 10 }, { n: 12 }]);
  });
});
