// Topology#describe() text, character for character (InternalTopologyBuilder.TopologyDescription
// and its Source / Processor / Sink / Subtopology toString methods).
import type { Plan, PlannedNode } from './plan-types.js';

export function describeTopology(plan: Plan): string {
  // "Topologies:\n " + for each sub-topology "  Sub-topology: N\n" + nodes + "\n": hence three
  // spaces before the first "Sub-topology" line, two before the others, and a blank line after each.
  let out = 'Topologies:\n ';
  for (const sub of [...plan.subtopologies].sort((a, b) => a.id - b.id)) {
    out += `  Sub-topology: ${sub.id}\n`;
    for (const node of sub.nodes) out += `    ${describeNode(node, plan.applicationId)}\n`;
    out += '\n';
  }
  return out;
}

function describeNode(node: PlannedNode, applicationId: string): string {
  // Internal topics are known to describe() by their un-prefixed names.
  const prefix = `${applicationId}-`;
  const internal = node.op === 'repartition-sink' || node.op === 'repartition-source';
  const topicName = (t: string): string =>
    internal && t.startsWith(prefix) ? t.slice(prefix.length) : t;
  switch (node.role) {
    case 'source':
      return `Source: ${node.name} (topics: [${(node.topics ?? []).map(topicName).join(', ')}])\n      --> ${names(node.successors)}`;
    case 'processor':
      return (
        `Processor: ${node.name} (stores: [${node.stores.join(', ')}])\n` +
        `      --> ${names(node.successors)}\n      <-- ${names(node.predecessors)}`
      );
    case 'sink':
      return `Sink: ${node.name} (topic: ${topicName(node.topic ?? '')})\n      <-- ${names(node.predecessors)}`;
  }
}

function names(list: readonly string[]): string {
  return list.length === 0 ? 'none' : list.join(', ');
}
