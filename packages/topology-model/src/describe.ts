// Topology#describe() text, character for character (InternalTopologyBuilder.TopologyDescription
// and its Source / Processor / Sink / Subtopology toString methods).
import type { Plan, PlannedNode, SubtopologyPlan } from './plan-types.js';

export function describeTopology(plan: Plan): string {
  // "Topologies:\n " + for each sub-topology "  Sub-topology: N\n" + nodes + "\n": hence three
  // spaces before the first "Sub-topology" line, two before the others, and a blank line after each.
  let out = 'Topologies:\n ';
  for (const sub of [...plan.subtopologies].sort((a, b) => a.id - b.id)) {
    out += sub.global ? describeGlobalStore(sub) : describeSubtopology(sub, plan.applicationId);
  }
  return out;
}

function describeSubtopology(sub: SubtopologyPlan, applicationId: string): string {
  let out = `  Sub-topology: ${sub.id}\n`;
  for (const node of sub.nodes) out += `    ${describeNode(node, applicationId)}\n`;
  return `${out}\n`;
}

/**
 * TopologyDescription.GlobalStore#toString: the source and its processor (which has the store
 * and no successors), with no blank line after them.
 */
function describeGlobalStore(sub: SubtopologyPlan): string {
  const source = sub.nodes.find((n) => n.role === 'source');
  const processor = sub.nodes.find((n) => n.role === 'processor');
  if (!source || !processor)
    throw new Error(`global sub-topology ${sub.id} needs a source and a processor`);
  return (
    `  Sub-topology: ${sub.id} for global store (will not generate tasks)\n` +
    `    Source: ${source.name} (topics: [${(source.topics ?? []).join(', ')}])\n      --> ${processor.name}\n` +
    `    Processor: ${processor.name} (stores: [${processor.stores.join(', ')}])\n      --> none\n      <-- ${source.name}\n`
  );
}

function describeNode(node: PlannedNode, applicationId: string): string {
  // Internal topics are known to describe() by their un-prefixed names.
  const prefix = `${applicationId}-`;
  const internal = node.op === 'repartition-sink' || node.op === 'repartition-source';
  const topicName = (t: string): string =>
    internal && t.startsWith(prefix) ? t.slice(prefix.length) : t;
  switch (node.role) {
    case 'source': {
      // InternalTopologyBuilder.Source#toString: the topic set, or the Pattern's own text.
      const topics = node.topicPattern ?? `[${(node.topics ?? []).map(topicName).join(', ')}]`;
      return `Source: ${node.name} (topics: ${topics})\n      --> ${names(node.successors)}`;
    }
    case 'processor':
      return (
        `Processor: ${node.name} (stores: [${node.stores.join(', ')}])\n` +
        `      --> ${names(node.successors)}\n      <-- ${names(node.predecessors)}`
      );
    case 'sink': {
      const target =
        node.topicExtractor !== undefined
          ? `extractor class: ${node.topicExtractor}`
          : `topic: ${topicName(node.topic ?? '')}`;
      return `Sink: ${node.name} (${target})\n      <-- ${names(node.predecessors)}`;
    }
  }
}

function names(list: readonly string[]): string {
  return list.length === 0 ? 'none' : list.join(', ');
}
