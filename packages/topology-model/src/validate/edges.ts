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

/** A node as the edge rules see it: its kind and (for config-defined ports) its config. */
export interface EdgeEnd {
  kind: NodeKind;
  config?: Readonly<Record<string, unknown>> | undefined;
}

export function outputProblem(from: EdgeEnd, fromPort: string): Problem | null {
  const outputs = outputPortsOf(from.kind, from.config);
  if (nodeKinds[from.kind].output === null) {
    return {
      code: 'sink_has_outputs',
      at: 'from',
      message: `a ${from.kind} is terminal and has no outputs`,
    };
  }
  if (!outputs.includes(fromPort)) {
    return {
      code: 'bad_port',
      at: 'fromPort',
      message: `${from.kind} has no output port "${fromPort}" (ports: ${outputs.join(', ') || 'none'})`,
    };
  }
  return null;
}

export function inputProblem(to: EdgeEnd, toPort: string): Problem | null {
  const inputs = inputPortsOf(to.kind, to.config);
  if (nodeKinds[to.kind].category === 'sources') {
    return {
      code: 'bad_port',
      at: 'to',
      message: `a ${to.kind} starts the topology and takes no inputs`,
    };
  }
  if (!inputs.some((p) => p.port === toPort)) {
    return {
      code: 'bad_port',
      at: 'toPort',
      message: `${to.kind} has no input port "${toPort}" (ports: ${inputs.map((p) => p.port).join(', ') || 'none'})`,
    };
  }
  return null;
}

/** How to get the grouping an aggregation needs, by the flow type it takes. */
const GROUPING_HINT: Partial<Record<FlowType, string>> = {
  grouped: 'a groupByKey or groupBy',
  groupedTable: 'a tableGroupBy',
};

/** Why an edge between two nodes is not allowed, or null when it is. */
export function connectionProblem(
  from: EdgeEnd,
  fromPort: string,
  to: EdgeEnd,
  toPort: string,
): Problem | null {
  const endProblem = outputProblem(from, fromPort) ?? inputProblem(to, toPort);
  if (endProblem) return endProblem;
  const accepts = inputPortsOf(to.kind, to.config).find((p) => p.port === toPort)
    ?.accepts as FlowType;
  const produced = nodeKinds[from.kind].output as FlowType;
  if (produced === accepts) return null;
  // CogroupedKStream#windowedBy: the format's cogroup is the aggregate itself, so its windows are
  // part of its config rather than a windowedBy before or after it.
  if (
    (to.kind === 'cogroup' && produced === 'windowedGrouped') ||
    (from.kind === 'cogroup' && to.kind === 'windowedBy')
  )
    return {
      code: 'flow_type_mismatch',
      at: 'to',
      message: `a cogroup takes grouped streams, not windowed ones: to window a cogroup (CogroupedKStream#windowedBy), connect the groupByKey / groupBy nodes to it and set its config.window (and config.merger for session windows)`,
    };
  const grouping = GROUPING_HINT[accepts];
  if (grouping && (produced === 'stream' || produced === 'table')) {
    return {
      code: 'count_without_grouping',
      at: 'to',
      message: `${to.kind} aggregates ${FLOW_LABEL[accepts]}: put ${grouping} between ${from.kind} and ${to.kind}`,
    };
  }
  const hint =
    produced === 'grouped'
      ? '; a grouped stream can only be aggregated (count, reduce, aggregate, cogroup)'
      : produced === 'groupedTable'
        ? '; a grouped table can only be aggregated (tableCount, tableReduce, tableAggregate)'
        : produced === 'table' && accepts === 'stream'
          ? '; convert it with toStream first'
          : produced === 'stream' && accepts === 'table'
            ? '; convert it with toTable first'
            : '';
  return {
    code: 'flow_type_mismatch',
    at: 'to',
    message: `${to.kind} takes ${FLOW_LABEL[accepts]} but ${from.kind} produces ${FLOW_LABEL[produced]}${hint}`,
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
        ? connectionProblem(from, e.fromPort, to, e.toPort)
        : from
          ? outputProblem(from, e.fromPort)
          : to
            ? inputProblem(to, e.toPort)
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
  checkCogroupSources(good, nodes, issues);
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
  for (const [id, { index, kind, config }] of nodes.kinds) {
    for (const { port, multiple } of inputPortsOf(kind, config)) {
      const n = counts.get(`${id}\u0000${port}`) ?? 0;
      if (multiple ? n < 2 : n !== 1) {
        issues.push({
          path: `nodes[${index}]`,
          nodeId: id,
          code: 'wrong_input_count',
          message: multiple
            ? `${kind} "${id}" needs at least two inputs on port "${port}", has ${n}`
            : `${kind} "${id}" needs exactly one input on port "${port}", has ${n}`,
        });
      }
    }
  }
}

/**
 * Kafka Streams keeps one aggregator per grouped stream in a cogroup (a second `cogroup` call
 * with the same grouped stream replaces the first): two inputs from one grouping are refused.
 */
function checkCogroupSources(
  edges: Indexed<Edge>[],
  nodes: CheckedNodes,
  issues: ValidationIssue[],
): void {
  const seen = new Map<string, string>();
  for (const { index, value: e } of edges) {
    if (nodes.kinds.get(e.to)?.kind !== 'cogroup') continue;
    const key = `${e.to}\u0000${e.from}\u0000${e.fromPort}`;
    const other = seen.get(key);
    if (other !== undefined) {
      issues.push({
        path: `edges[${index}]`,
        nodeId: e.to,
        code: 'duplicate_edge',
        message: `cogroup "${e.to}" already takes "${e.from}" on port "${other}": each input must be a different grouped stream`,
      });
    } else seen.set(key, e.toPort);
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
