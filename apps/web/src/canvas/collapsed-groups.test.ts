import { describe, expect, it } from 'vitest';
import { collapsedView, NO_COLLAPSE, summaryId } from './collapsed-groups.js';
import type { SubtopologyBox } from '../layout/plan-overlay.js';

const box = (id: number, nodeIds: string[], x: number): SubtopologyBox => ({
  id,
  global: false,
  nodeIds,
  x,
  y: 10,
  width: 300,
  height: 100,
});

// orders → groupBy ⇄ count → toStream → out, with a second source joined into sub-topology 1:
// groupBy runs in both sub-topologies (its repartition source is read by sub-topology 1).
const boxes = [
  box(0, ['orders', 'groupBy'], 0),
  box(1, ['groupBy', 'count', 'toStream', 'join', 'out'], 400),
  box(2, ['users'], 0),
];
const edge = (from: string, to: string, toPort = 'in') => ({
  from,
  to,
  fromPort: 'out',
  toPort,
});
const edges = [
  edge('orders', 'groupBy'),
  edge('groupBy', 'count'),
  edge('count', 'toStream'),
  edge('toStream', 'join', 'left'),
  edge('users', 'join', 'right'),
  edge('join', 'out'),
];

describe('folded sub-topologies', () => {
  it('folds nothing when no group is collapsed', () => {
    expect(collapsedView(boxes, new Set(), edges)).toBe(NO_COLLAPSE);
  });

  it('hides a folded group’s nodes and draws crossing edges to its summary', () => {
    const view = collapsedView(boxes, new Set([1]), edges);
    // groupBy is drawn with sub-topology 0 (where its key selector runs): it stays
    expect([...view.hidden]).toEqual(['count', 'toStream', 'join', 'out']);
    expect(view.summaries).toEqual([
      {
        id: summaryId(1),
        subtopology: 1,
        position: { x: 400, y: 10 },
        nodeIds: ['count', 'toStream', 'join', 'out'],
      },
    ]);
    expect(view.edges.map((e) => [e.source, e.sourceHandle, e.target, e.targetHandle])).toEqual([
      ['groupBy', 'out', summaryId(1), 'in'],
      ['users', 'out', summaryId(1), 'in'],
    ]);
  });

  it('joins two folded groups with one edge, whatever ports it came through', () => {
    const view = collapsedView(boxes, new Set([0, 1, 2]), edges);
    expect(view.summaries.map((s) => s.subtopology)).toEqual([0, 1, 2]);
    expect(view.edges.map((e) => `${e.source}->${e.target}`)).toEqual([
      `${summaryId(0)}->${summaryId(1)}`,
      `${summaryId(2)}->${summaryId(1)}`,
    ]);
  });
});
