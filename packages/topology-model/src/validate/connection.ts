// checkConnection: may the designer draw this edge? Answers with the reason when not, using the
// same rules as validateTopology so a drawn graph never fails validation on its edges.
import { OUTPUT_PORT, inputPortsOf, isNodeKind, type EdgeLike } from '../graph.js';
import type { IssueCode } from './issues.js';
import { connectionProblem } from './edges.js';

export interface ConnectionGraph {
  nodes: readonly { id: string; kind: string }[];
  edges: readonly EdgeLike[];
}

export type ConnectionCheck = { ok: true } | { ok: false; code: IssueCode; reason: string };

export function checkConnection(graph: ConnectionGraph, edge: EdgeLike): ConnectionCheck {
  const refuse = (code: IssueCode, reason: string): ConnectionCheck => ({
    ok: false,
    code,
    reason,
  });
  const from = graph.nodes.find((n) => n.id === edge.from);
  const to = graph.nodes.find((n) => n.id === edge.to);
  if (!from) return refuse('dangling_edge', `there is no node "${edge.from}"`);
  if (!to) return refuse('dangling_edge', `there is no node "${edge.to}"`);
  if (from.id === to.id) return refuse('cycle', 'a node cannot be connected to itself');
  if (!isNodeKind(from.kind)) return refuse('unknown_kind', `unknown node kind "${from.kind}"`);
  if (!isNodeKind(to.kind)) return refuse('unknown_kind', `unknown node kind "${to.kind}"`);

  const fromPort = edge.fromPort ?? OUTPUT_PORT;
  const toPort = edge.toPort ?? inputPortsOf(to.kind)[0]?.port ?? 'in';
  const problem = connectionProblem(from.kind, fromPort, to.kind, toPort);
  if (problem) return refuse(problem.code, problem.message);

  const same = (e: EdgeLike): boolean =>
    e.from === edge.from &&
    (e.fromPort ?? OUTPUT_PORT) === fromPort &&
    e.to === edge.to &&
    (e.toPort ?? 'in') === toPort;
  if (graph.edges.some(same)) return refuse('duplicate_edge', 'these nodes are already connected');
  if (graph.edges.some((e) => e.to === to.id && (e.toPort ?? 'in') === toPort)) {
    return refuse(
      'wrong_input_count',
      `${to.kind} "${to.id}" already has an input on port "${toPort}"`,
    );
  }
  if (reaches(graph.edges, to.id, from.id)) {
    return refuse('cycle', `"${to.id}" already feeds "${from.id}": this edge would close a cycle`);
  }
  return { ok: true };
}

function reaches(edges: readonly EdgeLike[], start: string, goal: string): boolean {
  const seen = new Set<string>([start]);
  const todo = [start];
  while (todo.length > 0) {
    const id = todo.pop() as string;
    if (id === goal) return true;
    for (const e of edges) {
      if (e.from === id && !seen.has(e.to)) {
        seen.add(e.to);
        todo.push(e.to);
      }
    }
  }
  return false;
}
