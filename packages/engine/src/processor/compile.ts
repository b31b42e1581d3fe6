// plan → compiled processor graph. Compilation (CEL, serdes, wiring) happens once per planned
// node; `instantiate` then builds one ProcessorNode per planned node for each task.
import {
  compileExpression,
  type Plan,
  type PlannedNode,
  type SerdeName,
  type StorePlan,
  type SubtopologyPlan,
} from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import type { NodeMetrics } from '../metrics/metric-groups.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import type { ProcessorContext } from './processor-context.js';
import { ProcessorNode, type Processor } from './processor-node.js';
import {
  countProcessor,
  filterProcessor,
  mapValuesProcessor,
  passThroughProcessor,
  sinkProcessor,
  sourceProcessor,
  toStreamProcessor,
} from './processors.js';

export interface CompiledSource {
  nodeName: string;
  topics: string[];
  keySerde: Serde<unknown>;
  valueSerde: Serde<unknown>;
  offsetReset: 'earliest' | 'latest';
}

export interface CompiledNode {
  planned: PlannedNode;
  create(ctx: ProcessorContext): Processor;
}

export interface CompiledSubtopology {
  id: number;
  sourceTopics: string[];
  sinkTopics: string[];
  nodes: CompiledNode[];
  sources: CompiledSource[];
  stores: StorePlan[];
}

/** A task's instantiated graph. */
export interface TaskGraph {
  nodes: Map<string, ProcessorNode>;
  /** Input topic → its source node and serdes. */
  sourceByTopic: Map<string, { node: ProcessorNode; source: CompiledSource }>;
}

function config(node: PlannedNode): Record<string, unknown> {
  return (node.modelNode?.config ?? {}) as Record<string, unknown>;
}

function serdeOf(node: PlannedNode, which: 'keySerde' | 'valueSerde'): SerdeName {
  return node[which] ?? (config(node)[which] as SerdeName | undefined) ?? (which === 'keySerde' ? 'string' : 'json');
}

function expressionOf(node: PlannedNode): string {
  const expression = config(node)['expression'];
  if (typeof expression !== 'string') throw new EngineError('INVALID_PLAN', `${node.name}: no expression in the node's config`);
  return expression;
}

function compileNode(node: PlannedNode, plan: Plan): CompiledNode {
  switch (node.op) {
    case 'source':
    case 'generator':
    case 'repartition-source':
      return { planned: node, create: (ctx) => sourceProcessor(ctx) };
    case 'filter': {
      const predicate = compileExpression(expressionOf(node), 'filter');
      return { planned: node, create: (ctx) => filterProcessor(ctx, predicate) };
    }
    case 'mapValues': {
      const mapper = compileExpression(expressionOf(node), 'mapValues');
      return { planned: node, create: (ctx) => mapValuesProcessor(ctx, mapper) };
    }
    case 'peek':
    case 'groupByKey':
      return { planned: node, create: (ctx) => passThroughProcessor(ctx) };
    case 'sink':
    case 'repartition-sink': {
      const topic = node.topic ?? (config(node)['topic'] as string | undefined);
      if (!topic) throw new EngineError('INVALID_PLAN', `${node.name}: a sink without a topic`);
      const keySerde = getSerde(serdeOf(node, 'keySerde'));
      const valueSerde = getSerde(serdeOf(node, 'valueSerde'));
      return { planned: node, create: (ctx) => sinkProcessor(ctx, topic, keySerde, valueSerde) };
    }
    case 'count': {
      const storeName = node.stores[0];
      if (!storeName || !plan.stores.some((s) => s.name === storeName)) {
        throw new EngineError('INVALID_PLAN', `${node.name}: count without a planned store`);
      }
      return { planned: node, create: (ctx) => countProcessor(ctx, storeName) };
    }
    case 'toStream':
      return { planned: node, create: (ctx) => toStreamProcessor(ctx) };
  }
}

export function compileSubtopology(sub: SubtopologyPlan, plan: Plan): CompiledSubtopology {
  const nodes = sub.nodes.map((n) => compileNode(n, plan));
  const sources: CompiledSource[] = sub.nodes
    .filter((n) => n.role === 'source')
    .map((n) => {
      const topics = n.topics ?? [config(n)['topic'] as string];
      return {
        nodeName: n.name,
        topics,
        keySerde: getSerde(serdeOf(n, 'keySerde')),
        valueSerde: getSerde(serdeOf(n, 'valueSerde')),
        offsetReset: config(n)['offsetReset'] === 'latest' ? 'latest' : 'earliest',
      };
    });
  return {
    id: sub.id,
    sourceTopics: sub.sourceTopics,
    sinkTopics: sub.sinkTopics,
    nodes,
    sources,
    stores: plan.stores.filter((s) => s.subtopology === sub.id),
  };
}

export function compilePlan(plan: Plan): CompiledSubtopology[] {
  return plan.subtopologies.map((s) => compileSubtopology(s, plan));
}

/** Builds a task's ProcessorNodes and wires children in the plan's successor order. */
export function instantiate(
  compiled: CompiledSubtopology,
  ctx: ProcessorContext,
  metricsFor: (nodeName: string) => NodeMetrics,
): TaskGraph {
  const nodes = new Map<string, ProcessorNode>();
  for (const c of compiled.nodes) {
    // Processors may look up their stores here, so the context must already hold them.
    const node = new ProcessorNode(c.planned.name, c.planned.modelNodeId, c.create(ctx), metricsFor(c.planned.name));
    nodes.set(node.name, node);
    ctx.nodes.set(node.name, node);
  }
  for (const c of compiled.nodes) {
    const node = nodes.get(c.planned.name)!;
    for (const child of c.planned.successors) {
      const target = nodes.get(child);
      if (!target) throw new EngineError('INVALID_PLAN', `${node.name} → ${child}: no such node in sub-topology ${compiled.id}`);
      node.children.push(target);
    }
  }
  for (const node of nodes.values()) if (node.children.length === 0) node.recordsE2e = true;
  const sourceByTopic = new Map<string, { node: ProcessorNode; source: CompiledSource }>();
  for (const source of compiled.sources) {
    const node = nodes.get(source.nodeName)!;
    node.recordsE2e = true;
    for (const topic of source.topics) sourceByTopic.set(topic, { node, source });
  }
  return { nodes, sourceByTopic };
}
