// checkConnection: may the designer draw this edge? Answers with the reason when not, using the
// same rules as validateTopology so a drawn graph never fails validation on its edges.
import {
  INPUT_PORT,
  OUTPUT_PORT,
  defaultInputPort,
  inputPortsOf,
  isNodeKind,
  outputPortsOf,
  type EdgeLike,
} from '../graph.js';
import type { IssueCode } from './issues.js';
import { connectionProblem } from './edges.js';

export interface ConnectionGraph {
  /** `config` is needed for kinds whose ports come from it (split branches, cogroup inputs). */
  nodes: readonly { id: string; kind: string; config?: Readonly<Record<string, unknown>> }[];
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
  const fromEnd = { kind: from.kind, config: from.config };
  const toEnd = { kind: to.kind, config: to.config };

  const fromPort = edge.fromPort ?? outputPortsOf(from.kind, from.config)[0] ?? OUTPUT_PORT;
  const toPort = edge.toPort ?? defaultInputPort(to.kind, to.config);
  const problem = connectionProblem(fromEnd, fromPort, toEnd, toPort);
  if (problem) return refuse(problem.code, problem.message);
  const same = (e: EdgeLike): boolean =>
    e.from === edge.from &&
    (e.fromPort ?? OUTPUT_PORT) === fromPort &&
    e.to === edge.to &&
    (e.toPort ?? INPUT_PORT) === toPort;
  if (graph.edges.some(same)) return refuse('duplicate_edge', 'these nodes are already connected');
  const multiple = inputPortsOf(to.kind, to.config).find((p) => p.port === toPort)?.multiple;
  if (!multiple && graph.edges.some((e) => e.to === to.id && (e.toPort ?? INPUT_PORT) === toPort)) {
    return refuse(
      'wrong_input_count',
      `${to.kind} "${to.id}" already has an input on port "${toPort}"`,
    );
  }
  if (
    to.kind === 'cogroup' &&
    graph.edges.some(
      (e) => e.to === to.id && e.from === from.id && (e.fromPort ?? OUTPUT_PORT) === fromPort,
    )
  ) {
    return refuse(
      'duplicate_edge',
      `cogroup "${to.id}" already takes "${from.id}": each input must be a different grouped stream`,
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
