// Graph facts shared by validation, checkConnection and the planner, derived from nodeKinds so a
// new kind only has to be described once.
import {
  nodeKinds,
  type FlowType,
  type InputPortSpec,
  type NodeKind,
  type NodeKindSpec,
} from './schema.js';

/** The output port of every kind with a single output. */
export const OUTPUT_PORT = 'out';
/** The input port of every kind with a single input. */
export const INPUT_PORT = 'in';

export function isNodeKind(kind: string): kind is NodeKind {
  return Object.prototype.hasOwnProperty.call(nodeKinds, kind);
}

export function kindSpec(kind: NodeKind): NodeKindSpec {
  return nodeKinds[kind];
}

type ConfigLike = Readonly<Record<string, unknown>> | undefined;

/** A split's branches as ports, in branch order (default branch last): Kafka's name suffixes. */
export function splitPorts(config: ConfigLike): { port: string; index: number }[] {
  const branches = Array.isArray(config?.branches) ? (config.branches as unknown[]) : [];
  const ports = branches.map((b, i) => {
    const name = (b as { name?: unknown } | null)?.name;
    return { port: typeof name === 'string' ? name : String(i + 1), index: i + 1 };
  });
  const def = config?.defaultBranch;
  if (typeof def === 'object' && def !== null) {
    const name = (def as { name?: unknown }).name;
    ports.push({ port: typeof name === 'string' ? name : '0', index: 0 });
  }
  return ports;
}

/** Output port names of a node: none for terminal kinds, branch ports for a split. */
export function outputPortsOf(kind: NodeKind, config?: ConfigLike): readonly string[] {
  const spec: NodeKindSpec = nodeKinds[kind];
  if (spec.output === null) return [];
  if (spec.configPorts === 'outputs') return splitPorts(config).map((p) => p.port);
  return [OUTPUT_PORT];
}

/** Input ports of a node: one per cogroup input, otherwise the kind's static ports. */
export function inputPortsOf(kind: NodeKind, config?: ConfigLike): readonly InputPortSpec[] {
  const spec: NodeKindSpec = nodeKinds[kind];
  if (spec.configPorts === 'inputs') {
    const inputs = Array.isArray(config?.inputs) ? (config.inputs as unknown[]) : [];
    return inputs.flatMap((entry) => {
      const port = (entry as { port?: unknown } | null)?.port;
      return typeof port === 'string' ? [{ port, accepts: 'grouped' as const }] : [];
    });
  }
  return spec.inputs;
}

/** The port an edge enters when it names none: the node's first input port. */
export function defaultInputPort(kind: NodeKind, config?: ConfigLike): string {
  return inputPortsOf(kind, config)[0]?.port ?? INPUT_PORT;
}

/** Sources start the DSL program: `builder.stream(topic)`, `builder.table(topic)`, …. */
export function isSourceKind(kind: NodeKind): boolean {
  return nodeKinds[kind].category === 'sources';
}

export interface EdgeLike {
  from: string;
  fromPort?: string | undefined;
  to: string;
  toPort?: string | undefined;
}

/**
 * Canonical edge order: (from, fromPort, to, toPort). The planner visits a node's children in this
 * order (so names do not depend on the order edges were drawn), and export writes edges in it.
 */
export function compareEdges(a: EdgeLike, b: EdgeLike): number {
  return (
    compareText(a.from, b.from) ||
    compareText(a.fromPort ?? OUTPUT_PORT, b.fromPort ?? OUTPUT_PORT) ||
    compareText(a.to, b.to) ||
    compareText(a.toPort ?? INPUT_PORT, b.toPort ?? INPUT_PORT)
  );
}

/** Code-unit order, like Java's String.compareTo (and unlike localeCompare). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const FLOW_LABEL: Record<FlowType, string> = {
  stream: 'a stream (KStream)',
  grouped: 'a grouped stream (KGroupedStream)',
  windowedGrouped: 'a windowed grouped stream (TimeWindowedKStream / SessionWindowedKStream)',
  table: 'a table (KTable)',
  groupedTable: 'a grouped table (KGroupedTable)',
  globalTable: 'a global table (GlobalKTable)',
};

/**
 * A readable node id that is free in `doc`: `filter1`, `filter2`, … (the designer's new nodes and
 * describe() import name nodes this way).
 */
export function freshNodeId(
  doc: { readonly nodes: readonly { id: string }[] },
  kind: string,
): string {
  const used = new Set(doc.nodes.map((n) => n.id));
  const base = /^[A-Za-z_]/.test(kind) ? kind.replace(/[^A-Za-z0-9_-]/g, '') : `n${kind}`;
  for (let i = 1; ; i++) if (!used.has(`${base}${i}`)) return `${base}${i}`;
}
