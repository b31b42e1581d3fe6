import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffTopologies } from './topology-diff.js';

function base() {
  return {
    schemaVersion: 1,
    application: { id: 'orders-app', config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: 'orders', partitions: 3, config: {} },
      { name: 'large-orders', partitions: 3, config: {} },
    ],
    stores: [] as unknown[],
    nodes: [
      { id: 'orders', kind: 'source', config: { topic: 'orders' } },
      { id: 'large', kind: 'filter', config: { expression: 'value.amount > 100' } },
      { id: 'out', kind: 'sink', config: { topic: 'large-orders', keySerde: 'string' } },
    ],
    edges: [
      { from: 'orders', fromPort: 'out', to: 'large', toPort: 'in' },
      { from: 'large', fromPort: 'out', to: 'out', toPort: 'in' },
    ],
    layout: { nodes: { orders: { x: 0, y: 0 }, large: { x: 200, y: 0 }, out: { x: 400, y: 0 } } },
  };
}

describe('diffTopologies', () => {
  it('finds nothing between equal documents', () => {
    const diff = diffTopologies(base(), base());
    expect(diff).toMatchObject({ identical: true, layoutOnly: false, summary: ['no changes'] });
  });

  it('lists config changes field by field, and nodes and edges added and removed', () => {
    const after = base();
    after.nodes[1] = { id: 'large', kind: 'filter', config: { expression: 'value.amount > 500' } };
    after.nodes[2]!.config = { topic: 'large-orders', keySerde: 'long' };
    after.nodes.push({ id: 'audit', kind: 'sink', config: { topic: 'orders' } });
    after.edges.push({ from: 'orders', fromPort: 'out', to: 'audit', toPort: 'in' });
    after.edges.splice(1, 1);
    const diff = diffTopologies(base(), after);
    expect(diff.identical).toBe(false);
    expect(diff.layoutOnly).toBe(false);
    expect(diff.nodes.added).toEqual([{ id: 'audit', kind: 'sink' }]);
    expect(diff.nodes.removed).toEqual([]);
    expect(diff.nodes.changed).toEqual([
      {
        id: 'large',
        kind: 'filter',
        changes: [
          {
            path: 'config.expression',
            change: 'changed',
            from: 'value.amount > 100',
            to: 'value.amount > 500',
          },
        ],
      },
      {
        id: 'out',
        kind: 'sink',
        changes: [{ path: 'config.keySerde', change: 'changed', from: 'string', to: 'long' }],
      },
    ]);
    expect(diff.edges).toEqual({
      added: [{ from: 'orders', fromPort: 'out', to: 'audit', toPort: 'in' }],
      removed: [{ from: 'large', fromPort: 'out', to: 'out', toPort: 'in' }],
    });
    expect(diff.summary).toEqual([
      'node audit (sink) added',
      'node large (filter): config.expression: "value.amount > 100" → "value.amount > 500"',
      'node out (sink): config.keySerde: "string" → "long"',
      'edge orders → audit added',
      'edge large → out removed',
    ]);
  });

  it('lists topic, store and application config changes', () => {
    const after = base();
    after.application.config = { 'commit.interval.ms': 1000, 'num.stream.threads': 2 } as never;
    after.topics[0] = { name: 'orders', partitions: 6, config: { 'retention.ms': 1000 } as never };
    after.topics.pop();
    after.stores = [{ name: 'seen', type: 'keyValue' }];
    const diff = diffTopologies(base(), after);
    expect(diff.application).toEqual([
      { path: 'config["commit.interval.ms"]', change: 'changed', from: 100, to: 1000 },
      { path: 'config["num.stream.threads"]', change: 'added', to: 2 },
    ]);
    expect(diff.topics.changed).toEqual([
      {
        name: 'orders',
        changes: [
          { path: 'partitions', change: 'changed', from: 3, to: 6 },
          { path: 'config["retention.ms"]', change: 'added', to: 1000 },
        ],
      },
    ]);
    expect(diff.topics.removed.map((t) => t.name)).toEqual(['large-orders']);
    expect(diff.stores.added).toEqual([{ name: 'seen', type: 'keyValue' }]);
    expect(diff.summary).toContain('topic orders: partitions: 3 → 6');
    expect(diff.summary).toContain('store seen added');
    expect(diff.summary).toContain('application config["commit.interval.ms"]: 100 → 1000');
  });

  it('keeps layout apart: moving nodes is a layout-only change', () => {
    const after = base();
    after.layout.nodes.large = { x: 250, y: 40 };
    after.layout.nodes.out = { x: 400, y: 80 };
    const diff = diffTopologies(base(), after);
    expect(diff).toMatchObject({ identical: false, layoutOnly: true });
    expect(diff.nodes).toEqual({ added: [], removed: [], changed: [] });
    expect(diff.layout.moved).toEqual([
      { id: 'large', from: { x: 200, y: 0 }, to: { x: 250, y: 40 } },
      { id: 'out', from: { x: 400, y: 0 }, to: { x: 400, y: 80 } },
    ]);
    expect(diff.summary).toEqual(['layout: 2 nodes moved (large, out)']);
  });

  it('addresses entries of config lists by index and treats default ports as equal', () => {
    const before = {
      nodes: [
        {
          id: 'split',
          kind: 'split',
          config: { branches: [{ predicate: 'value.a' }, { predicate: 'value.b' }] },
        },
      ],
      edges: [{ from: 'a', to: 'split' }],
    };
    const after = structuredClone(before);
    after.nodes[0]!.config.branches[1]!.predicate = 'value.c';
    after.nodes[0]!.config.branches.push({ predicate: 'value.d' });
    (after.edges[0] as Record<string, string>).fromPort = 'out';
    const diff = diffTopologies(before, after);
    expect(diff.edges).toEqual({ added: [], removed: [] });
    expect(diff.nodes.changed[0]!.changes).toEqual([
      { path: 'config.branches[1].predicate', change: 'changed', from: 'value.b', to: 'value.c' },
      { path: 'config.branches[2]', change: 'added', to: { predicate: 'value.d' } },
    ]);
  });

  it('is symmetric: swapping the versions swaps added and removed, from and to', () => {
    const doc = fc.record({
      topics: fc.uniqueArray(
        fc.record({
          name: fc.constantFrom('a', 'b', 'c'),
          partitions: fc.integer({ min: 1, max: 4 }),
        }),
        { selector: (t) => t.name },
      ),
      nodes: fc.uniqueArray(
        fc.record({
          id: fc.constantFrom('n1', 'n2', 'n3'),
          kind: fc.constantFrom('filter', 'sink'),
          config: fc.dictionary(fc.constantFrom('x', 'y'), fc.jsonValue({ maxDepth: 2 })),
        }),
        { selector: (n) => n.id },
      ),
      edges: fc.uniqueArray(
        fc.record({ from: fc.constantFrom('n1', 'n2'), to: fc.constantFrom('n2', 'n3') }),
        { selector: (e) => `${e.from}>${e.to}` },
      ),
    });
    fc.assert(
      fc.property(doc, doc, (a, b) => {
        const ab = diffTopologies(a, b);
        const ba = diffTopologies(b, a);
        expect(ab.identical).toBe(ba.identical);
        expect(ab.nodes.added).toEqual(ba.nodes.removed);
        expect(ab.edges.added).toEqual(ba.edges.removed);
        expect(ab.topics.added.map((t) => t.name)).toEqual(ba.topics.removed.map((t) => t.name));
        const flip = (changes: { path: string; from?: unknown; to?: unknown }[]) =>
          changes.map((c) => ({ path: c.path, from: c.to, to: c.from }));
        for (const changed of ab.nodes.changed) {
          const other = ba.nodes.changed.find((n) => n.id === changed.id);
          const byPath = (x: { path: string }, y: { path: string }) => x.path.localeCompare(y.path);
          expect(flip(other!.changes).sort(byPath)).toEqual(
            changed.changes.map((c) => ({ path: c.path, from: c.from, to: c.to })).sort(byPath),
          );
        }
        if (JSON.stringify(a) === JSON.stringify(b)) expect(ab.identical).toBe(true);
      }),
    );
  });
});
