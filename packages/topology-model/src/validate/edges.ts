// Third pass: the edges — endpoints, ports, what flows along them, input counts and cycles.
import { FLOW_LABEL, inputPortsOf, outputPortsOf } from '../graph.js';
import { nodeKinds, type Edge, type FlowType, type NodeKind } from '../schema.js';
import type { ValidationIssue } from './issues.js';
import type { CheckedNodes } from './nodes.js';
import type { Indexed } from './structure.js';

type Problem = {
  code: ValidationIssue['code'];
  message: string;
  at: 'from' | 'fromPort' | 'to' | 'toPort';
};

function outputProblem(fromKind: NodeKind, fromPort: string): Problem | null {
  const outputs = outputPortsOf(fromKind);
  if (outputs.length === 0) {
    return {
      code: 'sink_has_outputs',
      at: 'from',
      message: `a ${fromKind} is terminal and has no outputs`,
    };
  }
  if (!outputs.includes(fromPort)) {
    return {
      code: 'bad_port',
      at: 'fromPort',
      message: `${fromKind} has no output port "${fromPort}" (ports: ${outputs.join(', ')})`,
    };
  }
  return null;
}

function inputProblem(toKind: NodeKind, toPort: string): Problem | null {
  const inputs = inputPortsOf(toKind);
  if (inputs.length === 0) {
    return {
      code: 'bad_port',
      at: 'to',
      message: `a ${toKind} starts the topology and takes no inputs`,
    };
  }
  if (!inputs.some((p) => p.port === toPort)) {
    return {
      code: 'bad_port',
      at: 'toPort',
      message: `${toKind} has no input port "${toPort}" (ports: ${inputs.map((p) => p.port).join(', ')})`,
    };
  }
  return null;
}

/** Why an edge between two kinds is not allowed, or null when it is. */
export function connectionProblem(
  fromKind: NodeKind,
  fromPort: string,
  toKind: NodeKind,
  toPort: string,
): Problem | null {
  const endProblem = outputProblem(fromKind, fromPort) ?? inputProblem(toKind, toPort);
  if (endProblem) return endProblem;
  const accepts = inputPortsOf(toKind).find((p) => p.port === toPort)?.accepts as FlowType;
  const produced = nodeKinds[fromKind].output as FlowType;
  if (produced === accepts) return null;
  if (accepts === 'grouped') {
    return {
      code: 'count_without_grouping',
      at: 'to',
      message: `${toKind} aggregates a grouped stream: put a groupByKey between ${fromKind} and ${toKind}`,
    };
  }
  const hint =
    produced === 'grouped'
      ? '; a grouped stream can only be aggregated (count)'
      : produced === 'table' && accepts === 'stream'
        ? '; convert it with toStream first'
        : '';
  return {
    code: 'flow_type_mismatch',
    at: 'to',
    message: `${toKind} takes ${FLOW_LABEL[accepts]} but ${fromKind} produces ${FLOW_LABEL[produced]}${hint}`,
  };
}

export function checkEdges(
  edges: Indexed<Edge>[],
  nodes: CheckedNodes,
  issues: ValidationIssue[],
): void {
  const seen = new Set<string>();
  /** Edges between known nodes with valid ports: the graph the remaining checks walk. */
  const good: Indexed<Edge>[] = [];
  for (const { index, value: e } of edges) {
    const path = `edges[${index}]`;
    let dangling = false;
    for (const end of ['from', 'to'] as const) {
      if (!nodes.ids.has(e[end])) {
        dangling = true;
        issues.push({
          path: `${path}.${end}`,
          code: 'dangling_edge',
          message: `edge ${end === 'from' ? 'source' : 'target'} "${e[end]}" is not a node`,
        });
      }
    }
    if (dangling) continue;
    const key = JSON.stringify([e.from, e.fromPort, e.to, e.toPort]);
    if (seen.has(key)) {
      issues.push({
        path,
        nodeId: e.to,
        code: 'duplicate_edge',
        message: `the edge ${e.from} → ${e.to} is drawn twice`,
      });
      continue;
    }
    seen.add(key);
    if (e.from === e.to) {
      issues.push({
        path,
        nodeId: e.from,
        code: 'cycle',
        message: `node "${e.from}" is connected to itself`,
      });
      continue;
    }
    const from = nodes.kinds.get(e.from);
    const to = nodes.kinds.get(e.to);
    // With one end of unknown kind (already reported), still judge the end that is known.
    const problem =
      from && to
        ? connectionProblem(from.kind, e.fromPort, to.kind, e.toPort)
        : from
          ? outputProblem(from.kind, e.fromPort)
          : to
            ? inputProblem(to.kind, e.toPort)
            : null;
    if (problem) {
      issues.push({
        path: `${path}.${problem.at}`,
        nodeId: problem.at === 'from' || problem.at === 'fromPort' ? e.from : e.to,
        code: problem.code,
        message: problem.message,
      });
      // A flow-type mismatch still occupies the input port: do not also call it missing.
      if (problem.code === 'flow_type_mismatch' || problem.code === 'count_without_grouping')
        good.push({ index, value: e });
      continue;
    }
    if (from && to) good.push({ index, value: e });
  }
  checkInputCounts(good, nodes, issues);
  checkCycles(good, nodes, issues);
}

function checkInputCounts(
  edges: Indexed<Edge>[],
  nodes: CheckedNodes,
  issues: ValidationIssue[],
): void {
  const counts = new Map<string, number>();
  for (const { value: e } of edges) {
    const key = `${e.to}\u0000${e.toPort}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [id, { index, kind }] of nodes.kinds) {
    for (const { port } of inputPortsOf(kind)) {
      const n = counts.get(`${id}\u0000${port}`) ?? 0;
      if (n !== 1) {
        issues.push({
          path: `nodes[${index}]`,
          nodeId: id,
          code: 'wrong_input_count',
          message: `${kind} "${id}" needs exactly one input on port "${port}", has ${n}`,
        });
      }
    }
  }
}

function checkCycles(edges: Indexed<Edge>[], nodes: CheckedNodes, issues: ValidationIssue[]): void {
  const out = new Map<string, Indexed<Edge>[]>();
  for (const e of edges) {
    const list = out.get(e.value.from) ?? [];
    list.push(e);
    out.set(e.value.from, list);
  }
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 'active');
    stack.push(id);
    for (const { index, value: e } of out.get(id) ?? []) {
      const s = state.get(e.to);
      if (s === 'active') {
        const cycle = [...stack.slice(stack.indexOf(e.to)), e.to];
        issues.push({
          path: `edges[${index}]`,
          nodeId: e.to,
          code: 'cycle',
          message: `cycle: ${cycle.join(' → ')}`,
        });
      } else if (s === undefined) visit(e.to);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of nodes.kinds.keys()) if (!state.has(id)) visit(id);
}
