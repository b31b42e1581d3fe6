import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importTopology, type TopologyDocument } from '@streamwright/topology-model';
import { autoLayout, elkGraph } from './auto-layout.js';
import { DEFAULT_NODE_SIZE, planOf, planOverlay, type Box } from './plan-overlay.js';

function doc(
  nodes: TopologyDocument['nodes'],
  edges: { from: string; to: string; fromPort?: string; toPort?: string }[],
  topics: string[] = ['in', 'out'],
): TopologyDocument {
  return {
    schemaVersion: 1,
    application: { id: 'app', config: {} },
    topics: topics.map((name) => ({ name, partitions: 2, config: {} })),
    stores: [],
    nodes,
    edges: edges.map((e) => ({ fromPort: 'out', toPort: 'in', ...e })),
    layout: { nodes: {} },
  };
}

const wordCount = doc(
  [
    { id: 'src', kind: 'source', config: { topic: 'in' } },
    { id: 'gb', kind: 'groupBy', config: { expression: 'value' } },
    { id: 'cnt', kind: 'count', config: { store: 'counts' } },
    { id: 'ts', kind: 'toStream', config: {} },
    { id: 'snk', kind: 'sink', config: { topic: 'out' } },
  ],
  [
    { from: 'src', to: 'gb' },
    { from: 'gb', to: 'cnt' },
    { from: 'cnt', to: 'ts' },
    { from: 'ts', to: 'snk' },
  ],
);

const split = doc(
  [
    { id: 'src', kind: 'source', config: { topic: 'in' } },
    {
      id: 'sp',
      kind: 'split',
      config: {
        branches: [
          { name: 'big', predicate: 'value > 10' },
          { name: 'small', predicate: 'value <= 10' },
        ],
      },
    },
    { id: 'a', kind: 'sink', config: { topic: 'out' } },
    { id: 'b', kind: 'sink', config: { topic: 'out' } },
  ],
  // drawn in the order that would cross if ports were ignored
  [
    { from: 'src', to: 'sp' },
    { from: 'sp', fromPort: 'small', to: 'a' },
    { from: 'sp', fromPort: 'big', to: 'b' },
  ],
);

describe('auto-layout (ELK layered)', () => {
  it('lays a pipeline out left to right in the order records flow', async () => {
    const p = await autoLayout(wordCount, {});
    const xs = ['src', 'gb', 'cnt', 'ts', 'snk'].map((id) => p[id]!.x);
    expect(xs).toEqual([...xs].sort((x, y) => x - y));
    expect(new Set(xs).size).toBe(5);
  });

  it('wraps a long pipeline into rows towards the canvas aspect ratio, in flow order', async () => {
    const ids = Array.from({ length: 13 }, (_, i) => `n${i}`);
    const chain = doc(
      ids.map((id, i) =>
        i === 0
          ? { id, kind: 'source', config: { topic: 'in' } }
          : i === ids.length - 1
            ? { id, kind: 'sink', config: { topic: 'out' } }
            : { id, kind: 'peek', config: {} },
      ),
      ids.slice(1).map((id, i) => ({ from: ids[i]!, to: id })),
    );
    const p = await autoLayout(chain, {}, { aspectRatio: 1.5 });
    const rows = [...new Set(ids.map((id) => p[id]!.y))];
    expect(rows.length).toBeGreaterThan(1);
    const xs = ids.map((id) => p[id]!.x);
    const ys = ids.map((id) => p[id]!.y);
    const width = Math.max(...xs) - Math.min(...xs) + 200;
    const height = Math.max(...ys) - Math.min(...ys) + 140;
    // one row would be ≈ 13 × 290 wide and one node high: far wider than 1.5
    expect(width / height).toBeLessThan(4);
    // each row reads left to right in flow order
    for (let i = 1; i < ids.length; i++)
      if (ys[i] === ys[i - 1]) expect(xs[i]!).toBeGreaterThan(xs[i - 1]!);
  });

  it("keeps a split's branch ports in branch order, so each branch's node sits beside its port", async () => {
    const p = await autoLayout(split, {});
    // branch `big` is the upper port: its sink (b) is above the `small` branch's sink (a)
    expect(p.b!.y).toBeLessThan(p.a!.y);
    expect(p.a!.x).toBeGreaterThan(p.sp!.x);
  });

  it('leaves out edges to missing nodes instead of failing', async () => {
    const broken = {
      ...wordCount,
      edges: [...wordCount.edges, { from: 'snk', fromPort: 'out', to: 'ghost', toPort: 'in' }],
    };
    expect(elkGraph(broken, {}).edges).toHaveLength(4);
    const p = await autoLayout(broken, {});
    expect(Object.keys(p).sort()).toEqual(['cnt', 'gb', 'snk', 'src', 'ts']);
  });
});

describe('plan overlay', () => {
  it('boxes each sub-topology, puts the repartition topic between groupBy and count and the store under count', async () => {
    const plan = planOf(wordCount);
    expect(plan).not.toBeNull();
    const positions = await autoLayout(wordCount, {});
    const overlay = planOverlay(wordCount, plan!, positions, {});
    expect(overlay.subtopologies.map((s) => [s.id, s.nodeIds])).toEqual([
      [0, ['src', 'gb']],
      [1, ['cnt', 'ts', 'snk']],
    ]);
    const [rep] = overlay.repartitions;
    expect(rep).toMatchObject({ topic: 'app-counts-repartition', from: 'gb', to: 'cnt' });
    expect(rep!.at.x).toBeGreaterThan(positions.gb!.x);
    expect(rep!.at.x).toBeLessThan(positions.cnt!.x);
    expect(overlay.stores).toEqual([
      expect.objectContaining({
        name: 'counts',
        owner: 'cnt',
        changelogTopic: 'app-counts-changelog',
      }),
    ]);
    // the store sits inside its sub-topology's box
    const box = overlay.subtopologies[1]!;
    const store = overlay.stores[0]!;
    expect(store.at.y).toBeGreaterThan(positions.cnt!.y);
    expect(store.at.y).toBeLessThan(box.y + box.height);
  });

  it('draws nothing for a document with problems', () => {
    expect(planOf(doc([{ id: 'f', kind: 'filter', config: {} }], []))).toBeNull();
  });
});

// read as the designer imports it (ports defaulted)
const imported = importTopology(
  readFileSync(
    new URL(
      '../../../../examples/purchase-analysis/purchase-analysis.topology.json',
      import.meta.url,
    ),
    'utf8',
  ),
);
if (!imported.ok) throw new Error('the purchase analysis example does not import');
const purchaseAnalysis = imported.topology as TopologyDocument;

const crossing = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const pairs = <T>(items: T[]) => items.flatMap((a, i) => items.slice(i + 1).map((b) => [a, b]));

describe('auto-layout per sub-topology', () => {
  it("lays the purchase analysis out so no sub-topology's box, label or node overlaps another", async () => {
    const plan = planOf(purchaseAnalysis)!;
    const positions = await autoLayout(purchaseAnalysis, {}, { aspectRatio: 1.6 });
    // nodes drawn at the height they reach when running (counter, busy and lag bars)
    const sizes = Object.fromEntries(
      purchaseAnalysis.nodes.map((n) => [n.id, { width: DEFAULT_NODE_SIZE.width, height: 158 }]),
    );
    const overlay = planOverlay(purchaseAnalysis, plan, positions, sizes);
    expect(overlay.subtopologies.map((s) => s.id)).toEqual([0, 1, 2]);
    for (const [a, b] of pairs(overlay.subtopologies))
      expect(crossing(a!, b!), `sub-topologies ${a!.id} and ${b!.id}`).toBe(false);

    const nodes = purchaseAnalysis.nodes.map((n) => ({
      id: n.id,
      ...positions[n.id]!,
      ...sizes[n.id]!,
    }));
    for (const [a, b] of pairs(nodes)) expect(crossing(a!, b!), `${a!.id} × ${b!.id}`).toBe(false);
    // every node inside its own sub-topology's box
    for (const st of overlay.subtopologies)
      for (const id of st.nodeIds) {
        const n = nodes.find((x) => x.id === id)!;
        expect(n.x >= st.x && n.x + n.width <= st.x + st.width, `${id} in ${st.id}`).toBe(true);
        expect(n.y >= st.y && n.y + n.height <= st.y + st.height, `${id} in ${st.id}`).toBe(true);
      }
    // the windowedBy, which has no processor of its own, sits with its count
    expect(overlay.subtopologies[2]!.nodeIds).toContain('count');
    const hourly = nodes.find((n) => n.id === 'hourly')!;
    const st2 = overlay.subtopologies[2]!;
    expect(crossing(hourly, st2)).toBe(true);

    // labels (11 px text, one line) never cover a node
    const labels = [
      ...overlay.repartitions.map((r) => ({
        what: r.topic,
        x: r.at.x,
        y: r.at.y - 32,
        width: r.maxWidth,
        height: 22,
      })),
      ...overlay.stores.map((s) => ({
        what: s.name,
        x: s.at.x,
        y: s.at.y,
        width: s.maxWidth,
        height: 22,
      })),
    ];
    expect(labels.length).toBeGreaterThan(3);
    for (const label of labels)
      for (const n of nodes) expect(crossing(label, n), `${label.what} over ${n.id}`).toBe(false);
  });

  it('places sub-topologies in rows that fit the canvas: fitted, the drawing is readable', async () => {
    const positions = await autoLayout(purchaseAnalysis, {}, { aspectRatio: 1.6 });
    const xs = Object.values(positions).map((p) => p.x);
    const ys = Object.values(positions).map((p) => p.y);
    const width = Math.max(...xs) - Math.min(...xs) + DEFAULT_NODE_SIZE.width;
    const height = Math.max(...ys) - Math.min(...ys) + 158;
    // fitted into 1040 × 650 (a 1600 × 1000 window less the panels), at 0.55 or more nodes
    // render in full; before, one graph wrapped by ELK fitted at 0.29
    expect(Math.min(1040 / width, 650 / height)).toBeGreaterThan(0.45);
  });
});
