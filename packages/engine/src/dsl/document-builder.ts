// The topology document a DSL program builds, node by node, in call order. Node ids carry a
// zero-padded call counter first (`n003_filter`), so the canonical edge order (by target id)
// is the order the program attached children, which is the order Kafka Streams builds them in.
// TypeScript lambdas go to the function registry under a name; the document refers to that name.
import type { FunctionRef, Logic, StoreSpec } from '@streamwright/topology-model';
import type {
  FunctionRegistry,
  LogicFunction,
  PartitionerRegistry,
  ProcessorFactory,
  ProcessorRegistry,
  StreamPartitioner,
  ValueTransformerFactory,
  ValueTransformerRegistry,
} from '../processor/registries.js';

export interface DocNode {
  id: string;
  kind: string;
  name?: string;
  config: Record<string, unknown>;
}

export interface DocEdge {
  from: string;
  fromPort?: string;
  to: string;
  toPort?: string;
}

const REGISTRY_NAME = /^[A-Za-z_$][A-Za-z0-9_$.-]{0,127}$/;

export class DocumentBuilder {
  readonly nodes: DocNode[] = [];
  readonly edges: DocEdge[] = [];
  readonly stores: StoreSpec[] = [];
  readonly functions: Record<string, LogicFunction> = {};
  readonly processors: Record<string, ProcessorFactory> = {};
  readonly valueTransformers: Record<string, ValueTransformerFactory> = {};
  readonly partitioners: Record<string, StreamPartitioner> = {};
  #counter = 0;
  #functionNames = new Map<unknown, string>();

  addNode(kind: string, config: Record<string, unknown>, name?: string): DocNode {
    const id = `n${String(++this.#counter).padStart(3, '0')}_${kind}`;
    const node: DocNode = { id, kind, config: stripUndefined(config) };
    if (name !== undefined) node.name = name;
    this.nodes.push(node);
    return node;
  }

  connect(from: DocNode, to: DocNode, ports: { fromPort?: string; toPort?: string } = {}): void {
    const edge: DocEdge = { from: from.id, to: to.id };
    if (ports.fromPort !== undefined && ports.fromPort !== 'out') edge.fromPort = ports.fromPort;
    if (ports.toPort !== undefined && ports.toPort !== 'in') edge.toPort = ports.toPort;
    this.edges.push(edge);
  }

  /**
   * CEL text stays in the document (editable); a function is registered and referenced by name:
   * its own name when it has a usable one, else `<node id>.<field>`. `wrap` adapts the DSL's
   * parameter order to the engine's variables object.
   */
  logic<F extends (...args: never[]) => unknown>(
    logic: string | F,
    nodeId: string,
    field: string,
    wrap: (fn: F) => LogicFunction,
  ): Logic {
    if (typeof logic === 'string') return logic;
    return this.functionRef(logic, nodeId, field, wrap(logic));
  }

  functionRef(original: unknown, nodeId: string, field: string, fn: LogicFunction): FunctionRef {
    const known = this.#functionNames.get(original);
    if (known !== undefined) return { function: known };
    const own = typeof original === 'function' ? original.name : '';
    const name =
      REGISTRY_NAME.test(own) && !(own in this.functions) && !(own in this.processors)
        ? own
        : `${nodeId}.${field}`;
    this.functions[name] = fn;
    this.#functionNames.set(original, name);
    return { function: name };
  }

  /** A transformValues supplier: its own name when usable, else `<node id>.transformer`. */
  transformerRef(supplier: () => unknown, nodeId: string): string {
    const known = this.#functionNames.get(supplier);
    if (known !== undefined && known in this.valueTransformers) return known;
    const own = supplier.name;
    const name =
      REGISTRY_NAME.test(own) &&
      !(own in this.valueTransformers) &&
      !(own in this.processors) &&
      !(own in this.functions)
        ? own
        : `${nodeId}.transformer`;
    this.valueTransformers[name] = supplier as ValueTransformerFactory;
    this.#functionNames.set(supplier, name);
    return name;
  }

  processorRef(supplier: () => unknown, nodeId: string): string {
    const known = this.#functionNames.get(supplier);
    if (known !== undefined) return known;
    const own = supplier.name;
    const name =
      REGISTRY_NAME.test(own) && !(own in this.processors) && !(own in this.functions)
        ? own
        : `${nodeId}.processor`;
    this.processors[name] = supplier as ProcessorFactory;
    this.#functionNames.set(supplier, name);
    return name;
  }

  /** A TableJoined partitioner: its own name when usable, else `<node id>.<field>`. */
  partitionerRef(partitioner: StreamPartitioner, nodeId: string, field: string): string {
    const known = this.#functionNames.get(partitioner);
    if (known !== undefined && known in this.partitioners) return known;
    const own = partitioner.name;
    const name =
      REGISTRY_NAME.test(own) &&
      !(own in this.partitioners) &&
      !(own in this.processors) &&
      !(own in this.functions)
        ? own
        : `${nodeId}.${field}`;
    this.partitioners[name] = partitioner;
    this.#functionNames.set(partitioner, name);
    return name;
  }

  registries(): {
    functions: FunctionRegistry;
    processors: ProcessorRegistry;
    valueTransformers: ValueTransformerRegistry;
    partitioners: PartitionerRegistry;
  } {
    return {
      functions: { ...this.functions },
      processors: { ...this.processors },
      valueTransformers: { ...this.valueTransformers },
      partitioners: { ...this.partitioners },
    };
  }
}

function stripUndefined(config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) if (v !== undefined) out[k] = v;
  return out;
}
