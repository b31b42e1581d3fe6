// Graph facts shared by validation, checkConnection and the planner, derived from nodeKinds so a
// new kind only has to be described once.
import { nodeKinds, type FlowType, type NodeKind, type NodeKindSpec } from './schema.js';

/** The single output port of every v1 kind (kinds with several outputs, e.g. split, come later). */
export const OUTPUT_PORT = 'out';

export function isNodeKind(kind: string): kind is NodeKind {
  return Object.prototype.hasOwnProperty.call(nodeKinds, kind);
}

export function kindSpec(kind: NodeKind): NodeKindSpec {
  return nodeKinds[kind];
}

/** Output port names of a kind: none for terminal nodes (sinks). */
export function outputPortsOf(kind: NodeKind): readonly string[] {
  return nodeKinds[kind].output === null ? [] : [OUTPUT_PORT];
}

export function inputPortsOf(kind: NodeKind): readonly { port: string; accepts: FlowType }[] {
  return nodeKinds[kind].inputs;
}

/** Sources start the DSL program: `builder.stream(topic)`. */
export function isSourceKind(kind: NodeKind): boolean {
  return nodeKinds[kind].inputs.length === 0;
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
    compareText(a.toPort ?? 'in', b.toPort ?? 'in')
  );
}

/** Code-unit order, like Java's String.compareTo (and unlike localeCompare). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const FLOW_LABEL: Record<FlowType, string> = {
  stream: 'a stream (KStream)',
  grouped: 'a grouped stream (KGroupedStream)',
  table: 'a table (KTable)',
};
