// Small topology documents for tests, written as the DSL programs they mirror.
import type { TopologyDocumentInput } from '../../src/index.js';

type NodeInput = NonNullable<TopologyDocumentInput['nodes']>[number];

/** A linear pipeline: nodes[0] → nodes[1] → …, with every topic used declared. */
export function chain(
  appId: string,
  nodes: NodeInput[],
  extraTopics: string[] = [],
): TopologyDocumentInput {
  const topics = new Set(extraTopics);
  for (const n of nodes) {
    const topic = (n.config as { topic?: string } | undefined)?.topic;
    if (topic) topics.add(topic);
  }
  return {
    schemaVersion: 1,
    application: { id: appId },
    topics: [...topics].map((name) => ({ name, partitions: 1 })),
    nodes,
    edges: nodes.slice(1).map((n, i) => ({ from: (nodes[i] as NodeInput).id, to: n.id })),
  };
}
