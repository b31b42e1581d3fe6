// Connecting handles: React Flow's connection ↔ a model edge, and the reason a connection is
// refused. The rules themselves (flow types, ports, cycles, inputs already taken) live in
// topology-model's checkConnection, so the canvas and validation can never disagree.
import { checkConnection, type Edge, type TopologyDocument } from '@streamwright/topology-model';

export interface ConnectionLike {
  source: string;
  sourceHandle?: string | null;
  target: string;
  targetHandle?: string | null;
}

export function edgeFromConnection(c: ConnectionLike): Edge {
  return {
    from: c.source,
    fromPort: c.sourceHandle ?? 'out',
    to: c.target,
    toPort: c.targetHandle ?? 'in',
  };
}

/** Null when the edge may be added, else why not. */
export function connectionRefusal(doc: TopologyDocument, edge: Edge): string | null {
  const result = checkConnection(doc, edge);
  return result.ok ? null : result.reason;
}

interface HandleRef {
  nodeId: string;
  id?: string | null;
  type: 'source' | 'target';
}

/**
 * Why a drag that ended on a handle made no edge, or null when it did not end on one (a drop on
 * empty canvas is not an error). React Flow only reports validity, so the reason is recomputed.
 */
export function refusedAttemptReason(
  doc: TopologyDocument,
  attempt: { fromHandle: HandleRef | null; toHandle: HandleRef | null; isValid: boolean | null },
): string | null {
  const { fromHandle, toHandle } = attempt;
  if (!fromHandle || !toHandle || attempt.isValid) return null;
  if (fromHandle.nodeId === toHandle.nodeId && fromHandle.id === toHandle.id) return null;
  if (fromHandle.type === toHandle.type) {
    return fromHandle.type === 'source'
      ? 'an output connects to an input (the handle on the left of a node), not to another output'
      : 'an input connects to an output (the handle on the right of a node), not to another input';
  }
  const [out, into] =
    fromHandle.type === 'source' ? [fromHandle, toHandle] : [toHandle, fromHandle];
  return connectionRefusal(
    doc,
    edgeFromConnection({
      source: out.nodeId,
      sourceHandle: out.id ?? null,
      target: into.nodeId,
      targetHandle: into.id ?? null,
    }),
  );
}
