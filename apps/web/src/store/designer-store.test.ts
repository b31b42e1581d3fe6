import { describe, expect, it } from 'vitest';
import { createDesignerStore } from './designer-store.js';
import type { AppStatus } from '../api/types.js';
import { addNode, moveNodes, removeElements, setConfigField } from '../model/operations.js';
import { emptyDocument } from '../model/new-document.js';
import {
  exampleTopology,
  topologyDocumentSchema,
  type TopologyDocument,
} from '@streamwright/topology-model';

const example = (): TopologyDocument => topologyDocumentSchema.parse(exampleTopology());
const identity = { applicationId: 'streamwright-example', version: 'v1', deployedAt: 1 };

function setup() {
  let clock = 1_000;
  const store = createDesignerStore({ now: () => clock });
  const tick = (ms: number) => (clock += ms);
  const { actions } = store.getState();
  const add = (kind: string, x = 0) => {
    const { id, diff } = addNode(store.getState().doc, kind, {}, { x, y: 0 });
    actions.apply(diff);
    return id;
  };
  return { store, actions, tick, add };
}

describe('designer store', () => {
  it('undoes and redoes edits in order', () => {
    const { store, actions, add } = setup();
    add('source');
    add('filter', 200);
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual(['source1', 'filter1']);
    actions.undo();
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual(['source1']);
    actions.undo();
    expect(store.getState().doc.nodes).toEqual([]);
    actions.undo(); // nothing left: no-op
    actions.redo();
    actions.redo();
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual(['source1', 'filter1']);
    expect(store.getState().future).toHaveLength(0);
  });

  it('a new edit after undo drops the redo stack', () => {
    const { store, actions, add } = setup();
    add('source');
    actions.undo();
    add('sink');
    actions.redo();
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual(['sink1']);
  });

  it('one drag gesture is one undo step, however many moves it made', () => {
    const { store, actions, tick, add } = setup();
    const id = add('filter');
    for (let x = 1; x <= 30; x++) {
      tick(100);
      actions.apply(moveNodes(store.getState().doc, { [id]: { x: x * 10, y: 5 } }), {
        coalesceKey: 'drag:1',
        coalesceWindowMs: Number.POSITIVE_INFINITY,
      });
    }
    expect(store.getState().past).toHaveLength(2);
    expect(store.getState().doc.layout.nodes[id]).toEqual({ x: 300, y: 5 });
    actions.undo();
    expect(store.getState().doc.layout.nodes[id]).toEqual({ x: 0, y: 0 });
  });

  it('typing into one field merges into one step until a pause', () => {
    const { store, actions, tick, add } = setup();
    const id = add('filter');
    for (const text of ['v', 'va', 'val']) {
      tick(200);
      actions.apply(setConfigField(store.getState().doc, id, 'expression', text), {
        coalesceKey: `config:${id}:expression`,
      });
    }
    tick(5_000);
    actions.apply(setConfigField(store.getState().doc, id, 'expression', 'value'), {
      coalesceKey: `config:${id}:expression`,
    });
    expect(store.getState().past).toHaveLength(3);
    actions.undo();
    expect(store.getState().doc.nodes[0]!.config.expression).toBe('val');
    actions.undo();
    expect(store.getState().doc.nodes[0]!.config).toEqual({});
  });

  it('clears the selection of a removed node, and restores the node on undo', () => {
    const { store, actions, add } = setup();
    const id = add('sink');
    actions.select(id);
    expect(store.getState().sideTab).toBe('node');
    actions.apply(removeElements(store.getState().doc, [id], []));
    expect(store.getState().selectedNodeId).toBeNull();
    actions.undo();
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual([id]);
  });

  it('loading the deployed topology can stay out of the history; New is undoable', () => {
    const { store, actions, add } = setup();
    const deployed = {
      ...emptyDocument('deployed-app'),
      nodes: [{ id: 'gen', kind: 'generator', config: {} }],
    };
    actions.load(deployed, { history: 'skip' });
    expect(store.getState().past).toHaveLength(0);
    expect(store.getState().doc.application.id).toBe('deployed-app');
    add('filter');
    actions.load(emptyDocument());
    expect(store.getState().doc.nodes).toEqual([]);
    actions.undo();
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual(['gen', 'filter1']);
  });

  it('choosing the selected node again brings its settings back up', () => {
    const { store, actions, add } = setup();
    const id = add('filter');
    actions.select(id);
    actions.setSideTab('topics');
    actions.select(id);
    expect(store.getState().sideTab).toBe('node');
    actions.select(null);
    expect(store.getState().selectedNodeId).toBeNull();
    expect(store.getState().sideTab).toBe('node');
  });

  it('drops the runtime’s deploy verdict once the document changes', () => {
    const { store, actions, add } = setup();
    actions.setServerProblems([
      { path: 'nodes[0].config.topic', code: 'invalid_config', message: 'topic is required' },
    ]);
    expect(store.getState().serverProblems?.problems).toHaveLength(1);
    expect(store.getState().bottomTab).toBe('problems');
    add('sink');
    expect(store.getState().serverProblems).toBeNull();
    actions.setServerProblems([{ path: '', code: 'invalid_json', message: 'not JSON' }], 'import');
    add('filter');
    expect(store.getState().serverProblems?.origin).toBe('import');
  });

  it('tracks whether the document changed since the last deploy', () => {
    const { store, actions, add } = setup();
    add('source');
    actions.markDeployed();
    expect(store.getState().deployedRevision).toBe(store.getState().revision);
    add('sink');
    expect(store.getState().deployedRevision).not.toBe(store.getState().revision);
  });

  it('matches the canvas with the deployment: opened from it, edited, New', () => {
    const { store, actions } = setup();
    actions.load(example(), { basis: 'v1' });
    expect(store.getState().live.match.state).toBe('none');
    actions.setLive({ deployment: { identity, doc: example() } });
    expect(store.getState().live.match.state).toBe('same');
    actions.apply(setConfigField(store.getState().doc, 'filterLarge', 'expression', 'true'));
    expect(store.getState().live.match.state).toBe('modified');
    expect([...store.getState().live.match.changed]).toEqual(['filterLarge']);
    actions.undo();
    expect(store.getState().live.match.state).toBe('same');
    // New keeps no lineage: a design of its own, not the deployed one
    actions.load({ ...emptyDocument(), application: example().application });
    expect(store.getState().live.match.state).toBe('other');
    expect(store.getState().live.match.live.size).toBe(0);
    // importing the deployed document again is the deployment again
    actions.load(example());
    expect(store.getState().live.match.state).toBe('same');
    expect(store.getState().basedOn).toBe('v1');
    actions.setLive({ deployment: null });
    expect(store.getState().live.match.state).toBe('none');
  });

  it('a deploy makes the canvas the deployment it created', () => {
    const { store, actions, add } = setup();
    const id = add('source');
    actions.markDeployed('v2');
    const doc = store.getState().doc;
    actions.setLive({ deployment: { identity: { ...identity, version: 'v2' }, doc } });
    expect(store.getState().live.match.state).toBe('same');
    add('sink');
    expect(store.getState().live.match.state).toBe('modified');
    expect(store.getState().live.match.live.has(id)).toBe(true);
  });

  it('aggregates live metrics into per-node counters', () => {
    const { store, actions } = setup();
    actions.setLive({
      metrics: {
        nodes: {
          '0_0': { 'KSTREAM-SOURCE-0000000000': { 'process-total': 2, 'process-rate': 1 } },
          '0_1': { 'KSTREAM-SOURCE-0000000000': { 'process-total': 3 } },
        },
        nodeModelIds: { 'KSTREAM-SOURCE-0000000000': 'orders' },
      },
      at: 5,
    });
    expect(store.getState().live.counters).toEqual({ orders: { total: 5, rate: 1, busy: 0 } });
    expect(store.getState().live.at).toBe(5);
  });
});

describe('a running app that fails', () => {
  const status = (state: string, lastFailure: unknown = null) =>
    ({ state, tasks: [], errors: [], waitingFor: [], lastFailure }) as unknown as AppStatus;

  it('says so in a notice when the state turns to ERROR, with the reason', () => {
    const store = createDesignerStore();
    const { actions } = store.getState();
    actions.setLive({ status: status('RUNNING') });
    actions.notify('success', 'Deployed app');
    actions.setLive({
      status: status('ERROR', { phase: 'run', message: 'no such overload', at: 1 }),
    });
    expect(store.getState().notice).toMatchObject({
      tone: 'error',
      text: 'The app stopped with an error: no such overload (see Errors and Problems)',
    });
    // not again while it stays in ERROR
    actions.notify('info', 'something else');
    actions.setLive({ status: status('ERROR', { phase: 'run', message: 'x', at: 2 }) });
    expect(store.getState().notice).toMatchObject({ text: 'something else' });
  });
});
