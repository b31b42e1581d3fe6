import { describe, expect, it } from 'vitest';
import type { TopologyDocument } from '@streamwright/topology-model';
import { applyDiff } from '../model/diff.js';
import { copyFragment, parseFragment, pasteFragment } from './clipboard.js';
import { connectCandidates } from './connect-candidates.js';

const doc: TopologyDocument = {
  schemaVersion: 1,
  application: { id: 'app', config: {} },
  topics: [{ name: 'in', partitions: 1, config: {} }],
  stores: [],
  nodes: [
    { id: 'source1', kind: 'source', config: { topic: 'in' } },
    { id: 'filter1', kind: 'filter', name: 'keep', config: { expression: 'true' } },
    { id: 'count1', kind: 'count', config: {} },
  ],
  edges: [{ from: 'source1', fromPort: 'out', to: 'filter1', toPort: 'in' }],
  layout: { nodes: { source1: { x: 0, y: 0 }, filter1: { x: 200, y: 0 } } },
};

describe('copy and paste', () => {
  it('copies the selected nodes with the edges between them and pastes them under fresh ids', () => {
    const fragment = copyFragment(doc, ['source1', 'filter1'])!;
    const text = JSON.stringify(fragment);
    const { ids, diff } = pasteFragment(doc, parseFragment(text)!, { x: 48, y: 48 });
    expect(ids).toEqual(['source2', 'filter2']);
    const next = applyDiff(doc, diff);
    expect(next.edges).toContainEqual({
      from: 'source2',
      fromPort: 'out',
      to: 'filter2',
      toPort: 'in',
    });
    expect(next.layout.nodes.filter2).toEqual({ x: 248, y: 48 });
    // two processors may not share a Kafka Streams name: the copy's is dropped
    expect(next.nodes.find((n) => n.id === 'filter2')!.name).toBeUndefined();
    expect(next.nodes.find((n) => n.id === 'filter2')!.config).toEqual({ expression: 'true' });
  });

  it('leaves edges to nodes outside the selection behind and refuses other text', () => {
    expect(copyFragment(doc, ['filter1'])!.edges).toEqual([]);
    expect(copyFragment(doc, [])).toBeNull();
    expect(parseFragment('{"schemaVersion": 1}')).toBeNull();
    expect(parseFragment('not json')).toBeNull();
  });
});

describe('keyboard connect candidates', () => {
  it('offers only the edges checkConnection accepts, both into and out of the node', () => {
    expect(connectCandidates(doc, 'filter1').map((c) => c.label)).toEqual([]);
    const labels = connectCandidates(
      { ...doc, edges: [], nodes: [...doc.nodes, { id: 'sink1', kind: 'sink', config: {} }] },
      'filter1',
    ).map((c) => c.label);
    // a count needs a grouped stream: never offered from a filter
    expect(labels).toEqual(['filter1 → sink1', 'source1 → filter1']);
  });
});
