// Sub-topology node order and each node's `-->` / `<--` order exactly as
// InternalTopologyBuilder#describeSubtopology computes them (Kafka Streams 3.x/4.x):
//
//   nodesByName = new HashMap<>(); for each name of the node group (a HashSet): put(describe())
//   for each node in nodesByName.values():
//     for each predecessor name (in the order given to addProcessor/addSink):
//       node.predecessors.add(pred); pred.successors.add(node)      // TreeSets, NODE_COMPARATOR
//       updateSize(pred, node.size)                                  // adds up the chain of preds
//   sub-topology nodes = TreeSet(NODE_COMPARATOR) of all nodes
//
// NODE_COMPARATOR: larger `size` (nodes in the subtree, counted per path) first, then name.
import { compareText } from '../graph.js';
import { JavaTreeSet, javaHashOrder } from './java-collections.js';

interface DescNode {
  name: string;
  size: number;
  predecessors: JavaTreeSet<DescNode>;
  successors: JavaTreeSet<DescNode>;
}

const byDescribeOrder = (a: DescNode, b: DescNode): number =>
  a === b ? 0 : a.size !== b.size ? b.size - a.size : compareText(a.name, b.name);

export interface DescribeOrder {
  nodes: string[];
  successors: Map<string, string[]>;
  predecessors: Map<string, string[]>;
}

/**
 * @param group the sub-topology's node names in insertion order (InternalTopologyBuilder's
 *   nodeFactories order, i.e. the order the DSL program added them)
 * @param parentsOf each node's parents in the order they were given
 */
export function describeOrder(
  group: readonly string[],
  parentsOf: (name: string) => readonly string[],
): DescribeOrder {
  const nodes = new Map<string, DescNode>();
  // Both the group's HashSet and nodesByName are filled one element at a time, so they end with
  // the same capacity and iterate in the same bucket order.
  for (const name of javaHashOrder(group, 'incremental')) {
    nodes.set(name, {
      name,
      size: 1,
      predecessors: new JavaTreeSet(byDescribeOrder),
      successors: new JavaTreeSet(byDescribeOrder),
    });
  }
  const updateSize = (node: DescNode, delta: number): void => {
    node.size += delta;
    for (const p of node.predecessors.values()) updateSize(p, delta);
  };
  for (const node of nodes.values()) {
    for (const parentName of parentsOf(node.name)) {
      const parent = nodes.get(parentName);
      if (!parent)
        throw new Error(`${node.name}: parent ${parentName} is not in the same sub-topology`);
      node.predecessors.add(parent);
      parent.successors.add(node);
      updateSize(parent, node.size);
    }
  }
  const sorted = [...nodes.values()].sort(byDescribeOrder);
  return {
    nodes: sorted.map((n) => n.name),
    successors: new Map(sorted.map((n) => [n.name, n.successors.values().map((s) => s.name)])),
    predecessors: new Map(sorted.map((n) => [n.name, n.predecessors.values().map((s) => s.name)])),
  };
}
