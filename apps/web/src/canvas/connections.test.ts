import { describe, expect, it } from 'vitest';
import { emptyDocument } from '../model/new-document.js';
import { connectionRefusal, edgeFromConnection, refusedAttemptReason } from './connections.js';

const doc = {
  ...emptyDocument(),
  nodes: [
    { id: 'src', kind: 'source', config: { topic: 'in' } },
    { id: 'grp', kind: 'groupByKey', config: {} },
    { id: 'cnt', kind: 'count', config: {} },
    { id: 'f', kind: 'filter', config: { expression: 'true' } },
  ],
  edges: [{ from: 'src', fromPort: 'out', to: 'f', toPort: 'in' }],
};

describe('connecting handles', () => {
  it('maps a React Flow connection to a model edge with its ports', () => {
    expect(
      edgeFromConnection({ source: 'a', sourceHandle: null, target: 'b', targetHandle: 'left' }),
    ).toEqual({
      from: 'a',
      fromPort: 'out',
      to: 'b',
      toPort: 'left',
    });
  });

  it('accepts what topology-model accepts and explains what it refuses', () => {
    expect(
      connectionRefusal(doc, { from: 'src', fromPort: 'out', to: 'grp', toPort: 'in' }),
    ).toBeNull();
    expect(
      connectionRefusal(doc, { from: 'src', fromPort: 'out', to: 'cnt', toPort: 'in' }),
    ).toMatch(/groupByKey/);
    expect(connectionRefusal(doc, { from: 'src', fromPort: 'out', to: 'f', toPort: 'in' })).toMatch(
      /already/,
    );
  });

  it('gives the reason of a drag that ended on a refusing handle, in either direction', () => {
    const out = { nodeId: 'src', id: 'out', type: 'source' as const };
    const into = { nodeId: 'cnt', id: 'in', type: 'target' as const };
    const forward = refusedAttemptReason(doc, { fromHandle: out, toHandle: into, isValid: false });
    expect(forward).toMatch(/groupByKey/);
    expect(refusedAttemptReason(doc, { fromHandle: into, toHandle: out, isValid: false })).toBe(
      forward,
    );
    expect(
      refusedAttemptReason(doc, {
        fromHandle: out,
        toHandle: { ...out, nodeId: 'f' },
        isValid: false,
      }),
    ).toMatch(/not to another output/);
    // a drop on empty canvas, or a valid connection, is not a refusal
    expect(
      refusedAttemptReason(doc, { fromHandle: out, toHandle: null, isValid: false }),
    ).toBeNull();
    expect(
      refusedAttemptReason(doc, { fromHandle: out, toHandle: into, isValid: true }),
    ).toBeNull();
  });
});
