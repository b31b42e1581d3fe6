import { describe, expect, it } from 'vitest';
import { exportDocument, fileNameFor, importDocument } from './file-io.js';
import { emptyDocument } from '../model/new-document.js';
import { addNode, connect, putTopic, setConfigField } from '../model/operations.js';
import { applyDiff } from '../model/diff.js';
import type { TopologyDocument } from '@streamwright/topology-model';

/** source → filter → sink, built with the designer's own edit operations. */
function designed(): TopologyDocument {
  let doc = emptyDocument('orders-app');
  const step = (d: Parameters<typeof applyDiff>[1]) => (doc = applyDiff(doc, d));
  step(addNode(doc, 'source', { topic: 'orders' }, { x: 10.4, y: 20 }).diff);
  step(addNode(doc, 'filter', {}, { x: 300, y: 20 }).diff);
  step(setConfigField(doc, 'filter1', 'expression', 'value.amount > 10'));
  step(addNode(doc, 'sink', { topic: 'big-orders' }, { x: 600, y: 20 }).diff);
  for (const [from, to] of [
    ['source1', 'filter1'],
    ['filter1', 'sink1'],
  ] as const) {
    const r = connect(doc, { from, fromPort: 'out', to, toPort: 'in' });
    if (!r.ok) throw new Error(r.reason);
    step(r.diff);
  }
  for (const [name, partitions] of [
    ['orders', 3],
    ['big-orders', 1],
  ] as const) {
    const r = putTopic(doc, { name, partitions, config: {} });
    if (!r.ok) throw new Error(r.reason);
    step(r.diff);
  }
  return doc;
}

describe('topology files', () => {
  it('exports a designed topology canonically, and export → import → export is byte-identical', () => {
    const first = exportDocument(designed());
    expect(first.canonical).toBe(true);
    const imported = importDocument(first.text);
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(exportDocument(imported.doc).text).toBe(first.text);
    expect(imported.doc.layout.nodes.source1).toEqual({ x: 10, y: 20 });
    expect(fileNameFor(imported.doc)).toBe('orders-app.topology.json');
  });

  it('still saves a document with problems, and importing it lists them with paths', () => {
    const doc = designed();
    const broken = applyDiff(doc, setConfigField(doc, 'filter1', 'expression', undefined));
    const exported = exportDocument(broken);
    expect(exported.canonical).toBe(false);
    const imported = importDocument(exported.text);
    expect(imported.ok).toBe(false);
    if (imported.ok) return;
    expect(imported.problems.map((p) => p.path)).toContain('nodes[1].config.expression');
  });

  it('refuses text that is not JSON', () => {
    const imported = importDocument('{ not json');
    expect(imported.ok).toBe(false);
    if (!imported.ok) expect(imported.problems[0]?.code).toBe('invalid_json');
  });
});
