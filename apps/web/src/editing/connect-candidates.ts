// The edges a node could take part in, for the keyboard "Connect…" command: every edge from one
// of its outputs or into one of its inputs that topology-model's checkConnection accepts.
import {
  inputPortsOf,
  isNodeKind,
  outputPortsOf,
  type Edge,
  type TopologyDocument,
} from '@streamwright/topology-model';
import { connectionRefusal } from '../canvas/connections.js';

export interface Candidate {
  edge: Edge;
  direction: 'out' | 'in';
  /** e.g. `filter1 → count1` or `split1.big → sink1` */
  label: string;
}

const portsOut = (doc: TopologyDocument, id: string): readonly string[] => {
  const n = doc.nodes.find((x) => x.id === id);
  return n && isNodeKind(n.kind) ? outputPortsOf(n.kind, n.config) : [];
};
const portsIn = (doc: TopologyDocument, id: string): readonly string[] => {
  const n = doc.nodes.find((x) => x.id === id);
  return n && isNodeKind(n.kind) ? inputPortsOf(n.kind, n.config).map((p) => p.port) : [];
};

const end = (id: string, port: string, only: boolean) => (only ? id : `${id}.${port}`);

export function connectCandidates(doc: TopologyDocument, nodeId: string): Candidate[] {
  const out: Candidate[] = [];
  const mine = { out: portsOut(doc, nodeId), in: portsIn(doc, nodeId) };
  for (const other of doc.nodes) {
    if (other.id === nodeId) continue;
    const theirs = { out: portsOut(doc, other.id), in: portsIn(doc, other.id) };
    for (const fromPort of mine.out)
      for (const toPort of theirs.in) {
        const edge = { from: nodeId, fromPort, to: other.id, toPort };
        if (connectionRefusal(doc, edge) === null)
          out.push({
            edge,
            direction: 'out',
            label: `${end(nodeId, fromPort, mine.out.length === 1)} → ${end(other.id, toPort, theirs.in.length === 1)}`,
          });
      }
    for (const fromPort of theirs.out)
      for (const toPort of mine.in) {
        const edge = { from: other.id, fromPort, to: nodeId, toPort };
        if (connectionRefusal(doc, edge) === null)
          out.push({
            edge,
            direction: 'in',
            label: `${end(other.id, fromPort, theirs.out.length === 1)} → ${end(nodeId, toPort, mine.in.length === 1)}`,
          });
      }
  }
  return out.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}
