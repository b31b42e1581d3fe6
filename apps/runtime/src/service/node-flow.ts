// Turns record-tap events (Kafka Streams node names) into what the designer shows per node: the
// records a model node was given (and from which node) and the records it sent on (and to which
// nodes, or the topic a sink wrote them to). Edges inside one model node (a node planned as
// several Kafka Streams nodes) are not shown; synthetic nodes (repartition) keep their Kafka
// Streams name.
import type { RecordTapEvent } from '@streamwright/engine';
import type { Plan } from '@streamwright/topology-model';

export interface FlowInput {
  nodeId: string;
  /** The model node (or synthetic node name) that forwarded it; null: read from a topic. */
  from: string | null;
}

export interface FlowOutput {
  nodeId: string;
  /** The receiving model node (or synthetic node name), or null for a sink's write. */
  to: string | null;
  /** The topic a sink wrote it to. */
  topic: string | null;
}

export class NodeFlow {
  private readonly modelOf = new Map<string, string>();
  private readonly sinkTopic = new Map<string, string>();
  private readonly kinds = new Map<string, string>();

  constructor(readonly plan: Plan) {
    for (const [modelId, names] of Object.entries(plan.nodeNames)) {
      for (const name of names) this.modelOf.set(name, modelId);
    }
    for (const sub of plan.subtopologies) {
      for (const node of sub.nodes) {
        if (node.modelNode) this.kinds.set(node.modelNode.id, node.modelNode.kind);
        // A model sink's write to its topic (not a repartition sink's, which feeds a source).
        if (node.role === 'sink' && node.modelNode?.kind === 'sink' && node.topic) {
          this.sinkTopic.set(node.name, node.topic);
        }
      }
    }
  }

  /** The model node ids, in document order as the plan lists them. */
  nodeIds(): string[] {
    return Object.keys(this.plan.nodeNames);
  }

  has(nodeId: string): boolean {
    return nodeId in this.plan.nodeNames;
  }

  namesOf(nodeId: string): string[] {
    return this.plan.nodeNames[nodeId] ?? [];
  }

  kindOf(nodeId: string): string | null {
    return this.kinds.get(nodeId) ?? null;
  }

  /** What one tap event means for the model nodes: an input, an output, or both. */
  classify(event: RecordTapEvent): { input: FlowInput | null; outputs: FlowOutput[] } {
    const receiver = this.modelOf.get(event.node) ?? null;
    const sender = event.from === null ? null : (this.modelOf.get(event.from) ?? null);
    const outputs: FlowOutput[] = [];
    let input: FlowInput | null = null;
    if (receiver !== null && receiver !== sender) {
      input = { nodeId: receiver, from: sender ?? event.from };
    }
    if (sender !== null && sender !== receiver) {
      outputs.push({ nodeId: sender, to: receiver ?? event.node, topic: null });
    }
    const topic = this.sinkTopic.get(event.node);
    if (topic !== undefined && receiver !== null) {
      outputs.push({ nodeId: receiver, to: null, topic });
    }
    return { input, outputs };
  }
}

/** Keeps the last `capacity` items and counts all of them. */
export class Ring<T> {
  private readonly items: T[] = [];
  private start = 0;
  total = 0;

  constructor(readonly capacity: number) {}

  push(item: T): void {
    this.total++;
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
  }

  /** The last item pushed, or undefined. */
  last(): T | undefined {
    if (this.items.length === 0) return undefined;
    return this.items[(this.start + this.items.length - 1) % this.items.length];
  }

  /** The most recent `n` items, oldest first. */
  recent(n: number): T[] {
    const ordered = [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
    return ordered.slice(Math.max(0, ordered.length - n));
  }
}
