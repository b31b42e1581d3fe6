import { describe, expect, it } from 'vitest';
import { checkConnection, exampleTopology, type ConnectionGraph } from '../index.js';

const graph = (): ConnectionGraph => {
  const doc = exampleTopology();
  return {
    nodes: (doc.nodes ?? []).map((n) => ({ id: n.id, kind: n.kind })),
    edges: (doc.edges ?? []).map((e) => ({ ...e })),
  };
};

const without = (g: ConnectionGraph, to: string): ConnectionGraph => ({
  ...g,
  edges: g.edges.filter((e) => e.to !== to),
});

describe('checkConnection', () => {
  it('allows a valid connection to a free input', () => {
    expect(
      checkConnection(without(graph(), 'toLargeOrders'), {
        from: 'filterLarge',
        to: 'toLargeOrders',
      }),
    ).toEqual({ ok: true });
  });

  it('refuses with the reason the designer shows', () => {
    const g = graph();
    const cases: [Parameters<typeof checkConnection>[1], string, string][] = [
      [
        { from: 'toLargeOrders', to: 'markBig' },
        'sink_has_outputs',
        'a sink is terminal and has no outputs',
      ],
      [
        { from: 'markBig', to: 'generator' },
        'bad_port',
        'a generator starts the topology and takes no inputs',
      ],
      [
        { from: 'filterLarge', to: 'countPerUser' },
        'count_without_grouping',
        'count aggregates a grouped stream (KGroupedStream): put a groupByKey or groupBy between filter and count',
      ],
      [
        { from: 'groupByUser', to: 'markBig' },
        'flow_type_mismatch',
        'mapValues takes a stream (KStream) but groupByKey produces a grouped stream (KGroupedStream); a grouped stream can only be aggregated (count, reduce, aggregate, cogroup)',
      ],
      [
        { from: 'generator', to: 'markBig' },
        'wrong_input_count',
        'mapValues "markBig" already has an input on port "in"',
      ],
      [
        { from: 'generator', to: 'filterLarge' },
        'duplicate_edge',
        'these nodes are already connected',
      ],
      [{ from: 'markBig', to: 'markBig' }, 'cycle', 'a node cannot be connected to itself'],
      [{ from: 'markBig', to: 'ghost' }, 'dangling_edge', 'there is no node "ghost"'],
      [
        { from: 'markBig', to: 'filterLarge', toPort: 'left' },
        'bad_port',
        'filter has no input port "left" (ports: in)',
      ],
    ];
    for (const [edge, code, reason] of cases)
      expect(checkConnection(g, edge)).toEqual({ ok: false, code, reason });
  });

  it('refuses an edge that would close a cycle', () => {
    const g = without(graph(), 'filterLarge');
    expect(checkConnection(g, { from: 'markBig', to: 'filterLarge' })).toEqual({
      ok: false,
      code: 'cycle',
      reason: '"filterLarge" already feeds "markBig": this edge would close a cycle',
    });
  });
});
