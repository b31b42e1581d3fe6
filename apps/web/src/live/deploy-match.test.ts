import { describe, expect, it } from 'vitest';
import {
  exampleTopology,
  topologyDocumentSchema,
  type TopologyDocument,
} from '@streamwright/topology-model';
import { matchDeployment, nodeLiveState } from './deploy-match.js';
import { applyDiff } from '../model/diff.js';
import { addNode, moveNodes, setConfigField } from '../model/operations.js';

const example = (): TopologyDocument => topologyDocumentSchema.parse(exampleTopology());

describe('matching the canvas with the deployed topology', () => {
  it('is none without a deployment and same for the deployed document, wherever its nodes are', () => {
    expect(matchDeployment(example(), null, true).state).toBe('none');
    const moved = applyDiff(example(), moveNodes(example(), { filterLarge: { x: 999, y: 5 } }));
    const match = matchDeployment(moved, example(), false);
    expect(match.state).toBe('same');
    expect(match.live.has('filterLarge')).toBe(true);
    expect(match.live.size).toBe(example().nodes.length);
  });

  it('keeps the unchanged nodes of an edited descendant live, and names the others', () => {
    let doc = example();
    doc = applyDiff(doc, setConfigField(doc, 'filterLarge', 'expression', 'value.amount > 5'));
    const { id, diff } = addNode(doc, 'filter', {}, { x: 0, y: 0 });
    doc = applyDiff(doc, diff);
    const match = matchDeployment(doc, example(), true);
    expect(match.state).toBe('modified');
    expect([...match.changed]).toEqual(['filterLarge']);
    expect([...match.added]).toEqual([id]);
    expect(match.live.has('generator')).toBe(true);
    // markBig reads from the edited filter through the same edge: it runs as drawn
    expect(match.live.has('markBig')).toBe(true);
    expect(nodeLiveState(match, 'generator', 'open')).toBe('live');
    expect(nodeLiveState(match, 'generator', 'closed')).toBe('stale');
    expect(nodeLiveState(match, 'filterLarge', 'open')).toBe('changed');
    expect(nodeLiveState(match, id, 'open')).toBe('added');
  });

  it('gives nothing to another design, even with the same application id and node ids', () => {
    let doc = example();
    doc = applyDiff(doc, setConfigField(doc, 'filterLarge', 'expression', 'true'));
    const match = matchDeployment(doc, example(), false);
    expect(match.state).toBe('other');
    expect(match.live.size).toBe(0);
    expect(nodeLiveState(match, 'generator', 'open')).toBeNull();
    const renamed = { ...example(), application: { ...example().application, id: 'another' } };
    expect(matchDeployment(renamed, example(), true).state).toBe('other');
  });
});
