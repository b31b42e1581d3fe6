import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TopologyDocument } from '@streamwright/topology-model';
import {
  applyDiff,
  composeDiffs,
  DiffConflictError,
  edgeKey,
  invertDiff,
  isEmptyDiff,
  type ModelDiff,
} from './diff.js';
import {
  addNode,
  connect,
  moveNodes,
  putTopic,
  removeElements,
  removeTopic,
  renameNode,
  replaceDocument,
  setConfigField,
  setNodeName,
} from './operations.js';
import { emptyDocument } from './new-document.js';

/** Documents compare by content: record order is not part of a diff's meaning. */
function normalize(doc: TopologyDocument) {
  const byKey = <T>(list: readonly T[], key: (t: T) => string) =>
    [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return {
    ...doc,
    nodes: byKey(doc.nodes, (n) => n.id),
    edges: byKey(doc.edges, edgeKey),
    topics: byKey(doc.topics, (t) => t.name),
    layout: {
      nodes: Object.fromEntries(
        Object.entries(doc.layout.nodes).sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
    },
  };
}

// An edit picked by index, so that generated sequences always refer to existing records.
const editArb = fc.oneof(
  fc.record({
    op: fc.constant('add' as const),
    kind: fc.constantFrom('source', 'filter', 'sink'),
    x: fc.integer(),
    y: fc.integer(),
  }),
  fc.record({ op: fc.constant('remove' as const), i: fc.nat() }),
  fc.record({ op: fc.constant('connect' as const), i: fc.nat(), j: fc.nat() }),
  fc.record({ op: fc.constant('disconnect' as const), i: fc.nat() }),
  fc.record({ op: fc.constant('move' as const), i: fc.nat(), x: fc.integer(), y: fc.integer() }),
  fc.record({
    op: fc.constant('config' as const),
    i: fc.nat(),
    value: fc.option(fc.string(), { nil: undefined }),
  }),
  fc.record({
    op: fc.constant('name' as const),
    i: fc.nat(),
    name: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
  }),
  fc.record({
    op: fc.constant('rename' as const),
    i: fc.nat(),
    id: fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/),
  }),
  fc.record({
    op: fc.constant('topic' as const),
    name: fc.constantFrom('a', 'b', 'c'),
    partitions: fc.integer({ min: 1, max: 8 }),
  }),
  fc.record({ op: fc.constant('untopic' as const), name: fc.constantFrom('a', 'b', 'c') }),
);
type Edit = typeof editArb extends fc.Arbitrary<infer T> ? T : never;

function diffFor(doc: TopologyDocument, edit: Edit): ModelDiff {
  const node = (i: number) => doc.nodes[i % Math.max(1, doc.nodes.length)];
  switch (edit.op) {
    case 'add':
      return addNode(doc, edit.kind, {}, { x: edit.x, y: edit.y }).diff;
    case 'remove': {
      const n = node(edit.i);
      return n ? removeElements(doc, [n.id], []) : {};
    }
    case 'connect': {
      const a = node(edit.i);
      const b = node(edit.j);
      if (!a || !b) return {};
      const r = connect(doc, { from: a.id, fromPort: 'out', to: b.id, toPort: 'in' });
      return r.ok ? r.diff : {};
    }
    case 'disconnect': {
      const e = doc.edges[edit.i % Math.max(1, doc.edges.length)];
      return e ? removeElements(doc, [], [edgeKey(e)]) : {};
    }
    case 'move': {
      const n = node(edit.i);
      return n ? moveNodes(doc, { [n.id]: { x: edit.x, y: edit.y } }) : {};
    }
    case 'config': {
      const n = node(edit.i);
      return n ? setConfigField(doc, n.id, 'expression', edit.value) : {};
    }
    case 'name': {
      const n = node(edit.i);
      return n ? setNodeName(doc, n.id, edit.name) : {};
    }
    case 'rename': {
      const n = node(edit.i);
      if (!n) return {};
      const r = renameNode(doc, n.id, edit.id);
      return r.ok ? r.diff : {};
    }
    case 'topic': {
      const r = putTopic(
        doc,
        { name: edit.name, partitions: edit.partitions, config: {} },
        edit.name,
      );
      return r.ok ? r.diff : {};
    }
    case 'untopic':
      return removeTopic(doc, edit.name);
  }
}

/** Runs a sequence of edits, returning every intermediate document and diff. */
function run(edits: Edit[]) {
  const docs = [emptyDocument()];
  const diffs: ModelDiff[] = [];
  for (const edit of edits) {
    const doc = docs[docs.length - 1]!;
    const diff = diffFor(doc, edit);
    diffs.push(diff);
    docs.push(applyDiff(doc, diff));
  }
  return { docs, diffs };
}

describe('model diffs', () => {
  it('undo: applying the inverse of every diff, newest first, restores each earlier document', () => {
    fc.assert(
      fc.property(fc.array(editArb, { maxLength: 30 }), (edits) => {
        const { docs, diffs } = run(edits);
        let doc = docs[docs.length - 1]!;
        for (let i = diffs.length - 1; i >= 0; i--) {
          doc = applyDiff(doc, invertDiff(diffs[i]!));
          expect(normalize(doc)).toEqual(normalize(docs[i]!));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('redo: re-applying an undone diff gives the same document again', () => {
    fc.assert(
      fc.property(fc.array(editArb, { minLength: 1, maxLength: 20 }), (edits) => {
        const { docs, diffs } = run(edits);
        const last = diffs[diffs.length - 1]!;
        const undone = applyDiff(docs[docs.length - 1]!, invertDiff(last));
        expect(normalize(applyDiff(undone, last))).toEqual(normalize(docs[docs.length - 1]!));
      }),
      { numRuns: 200 },
    );
  });

  it('coalescing: a composed diff has the effect of its parts applied in order', () => {
    fc.assert(
      fc.property(fc.array(editArb, { minLength: 1, maxLength: 20 }), (edits) => {
        const { docs, diffs } = run(edits);
        const composed = diffs.reduce((acc, d) => composeDiffs(acc, d), {} as ModelDiff);
        expect(normalize(applyDiff(docs[0]!, composed))).toEqual(normalize(docs[docs.length - 1]!));
        expect(normalize(applyDiff(docs[docs.length - 1]!, invertDiff(composed)))).toEqual(
          normalize(docs[0]!),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('keeps untouched sections identical, so a move does not re-validate the logic', () => {
    const { docs } = run([{ op: 'add', kind: 'filter', x: 0, y: 0 }]);
    const doc = docs[1]!;
    const moved = applyDiff(doc, moveNodes(doc, { filter1: { x: 10.4, y: 20.6 } }));
    expect(moved.nodes).toBe(doc.nodes);
    expect(moved.edges).toBe(doc.edges);
    expect(moved.layout.nodes).toEqual({ filter1: { x: 10, y: 21 } });
  });

  it('refuses a diff that does not fit the document instead of silently diverging', () => {
    const doc = emptyDocument();
    expect(() =>
      applyDiff(doc, {
        nodes: { removed: { ghost: { id: 'ghost', kind: 'filter', config: {} } } },
      }),
    ).toThrow(DiffConflictError);
    const { docs } = run([{ op: 'add', kind: 'filter', x: 0, y: 0 }]);
    expect(() =>
      applyDiff(docs[1]!, {
        nodes: { added: { filter1: { id: 'filter1', kind: 'sink', config: {} } } },
      }),
    ).toThrow(/already exists/);
  });

  it('renaming a node carries its edges and position', () => {
    const { docs } = run([
      { op: 'add', kind: 'source', x: 0, y: 0 },
      { op: 'add', kind: 'filter', x: 100, y: 0 },
      { op: 'connect', i: 0, j: 1 },
    ]);
    const doc = docs[3]!;
    const r = renameNode(doc, 'filter1', 'bigOrders');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const next = applyDiff(doc, r.diff);
    expect(next.nodes.map((n) => n.id)).toEqual(['source1', 'bigOrders']);
    expect(next.edges).toEqual([
      { from: 'source1', fromPort: 'out', to: 'bigOrders', toPort: 'in' },
    ]);
    expect(next.layout.nodes.bigOrders).toEqual({ x: 100, y: 0 });
    expect(renameNode(next, 'bigOrders', 'source1')).toEqual({
      ok: false,
      reason: 'a node "source1" already exists',
    });
    expect(renameNode(next, 'bigOrders', '9lives').ok).toBe(false);
  });

  it('replacing the document carries sections the designer has no editor for, and undoes them', () => {
    const before = emptyDocument('a');
    const next = { ...emptyDocument('b'), futureSection: [{ name: 'kept' }] } as TopologyDocument;
    const diff = replaceDocument(before, next);
    const replaced = applyDiff(before, diff);
    expect((replaced as unknown as { futureSection: unknown }).futureSection).toEqual([
      { name: 'kept' },
    ]);
    expect(replaced.application.id).toBe('b');
    const undone = applyDiff(replaced, invertDiff(diff));
    expect(undone).toEqual(before);
  });

  it('an empty edit is an empty diff', () => {
    const doc = emptyDocument();
    expect(isEmptyDiff(moveNodes(doc, {}))).toBe(true);
    expect(isEmptyDiff(removeTopic(doc, 'nope'))).toBe(true);
  });
});
