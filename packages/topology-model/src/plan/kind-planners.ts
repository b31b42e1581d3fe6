// What each stream-side model kind adds to the processor graph, mirroring the Kafka Streams DSL
// call it stands for (InternalStreamsBuilder#stream, KStreamImpl, BranchedKStreamImpl). The
// grouping, aggregation and table kinds are in stateful-planners.ts.
import {
  isFunctionRef,
  type Logic,
  type NodeConfigOf,
  type NodeKind,
  type SerdeName,
  type TopologyNode,
} from '../schema.js';
import { splitPorts } from '../graph.js';
import { matchesTopicPattern } from '../topic-pattern.js';
import type { PlanBuilder } from './builder.js';
import { singleInput, type Flow, type Inputs, type Outputs, type Planner } from './flow.js';
import { statefulPlanners } from './stateful-planners.js';
import { windowPlanners } from './window-planners.js';
import { cogroupPlanner } from './cogroup-planner.js';
import { foreignKeyJoinPlanners } from './fk-join-planner.js';
import { joinPlanners } from './join-planners.js';

function sourceLike(node: TopologyNode & { kind: 'source' | 'generator' }, b: PlanBuilder): Flow {
  const config = node.config as NodeConfigOf<'source'>;
  // builder.stream(topic | topics | pattern, Consumed.as(name)): the generator is a source
  // reading its own topic.
  const name = b.nameOrGenerate(node.name, 'KSTREAM-SOURCE-');
  const pattern = config.topicPattern;
  const topics =
    pattern !== undefined
      ? b.declaredTopics.filter((t) => matchesTopicPattern(pattern, t))
      : (config.topics ?? (config.topic === undefined ? [] : [config.topic]));
  b.addSource(name, node.kind, topics, node.id, {
    modelNode: node,
    keySerde: config.keySerde,
    valueSerde: config.valueSerde,
  });
  const planned = b.nodes.get(name);
  if (planned && pattern !== undefined) planned.topicPattern = pattern;
  return {
    type: 'stream',
    from: name,
    keySerde: config.keySerde,
    valueSerde: config.valueSerde,
    repartitionRequired: false,
  };
}

interface StatelessEffect {
  /** Key serde after the node: `json` once the key may have changed (the serde is dropped). */
  keySerde?: SerdeName;
  valueSerde?: SerdeName;
  /** map, selectKey, flatMap, process set it; the others pass it on. */
  keyChanging?: boolean;
}

/** A KStream processor with one parent and a generated `<prefix>NNNNNNNNNN` name. */
function streamProcessor(prefix: string, effect: StatelessEffect = {}) {
  return (node: TopologyNode, inputs: Inputs, b: PlanBuilder): Flow => {
    const inFlow = singleInput(inputs, node.id);
    const name = b.nameOrGenerate(node.name, prefix);
    b.addProcessor(name, node.kind, [inFlow.from], node.id, { modelNode: node });
    return {
      type: 'stream',
      from: name,
      keySerde: effect.keySerde ?? inFlow.keySerde,
      valueSerde: effect.valueSerde ?? inFlow.valueSerde,
      repartitionRequired: effect.keyChanging === true || inFlow.repartitionRequired,
    };
  };
}

/** foreach / print: terminal processors. */
function terminalProcessor(prefix: string) {
  return (node: TopologyNode, inputs: Inputs, b: PlanBuilder): Outputs => {
    const inFlow = singleInput(inputs, node.id);
    b.addProcessor(b.nameOrGenerate(node.name, prefix), node.kind, [inFlow.from], node.id, {
      modelNode: node,
    });
    return null;
  };
}

/**
 * KStream#process / processValues: a user name is used as is (no counter value burnt), otherwise
 * `Named.as(builder.newProcessorName(prefix))`.
 */
function processor(prefix: string, effect: StatelessEffect) {
  return (
    node: TopologyNode & { kind: 'process' | 'processValues' },
    inputs: Inputs,
    b: PlanBuilder,
  ): Flow => {
    const inFlow = singleInput(inputs, node.id);
    const name = node.name ?? b.newProcessorName(prefix);
    b.addProcessor(name, node.kind, [inFlow.from], node.id, {
      modelNode: node,
      stores: [...node.config.stores],
    });
    return {
      type: 'stream',
      from: name,
      keySerde: effect.keySerde ?? inFlow.keySerde,
      valueSerde: effect.valueSerde ?? inFlow.valueSerde,
      repartitionRequired: effect.keyChanging === true || inFlow.repartitionRequired,
    };
  };
}

/** How describe() shows a topic extractor (Kafka prints the extractor object's toString()). */
export function describeLogic(logic: Logic): string {
  return isFunctionRef(logic) ? logic.function : `cel: ${logic.replace(/\s*[\r\n]+\s*/g, ' ')}`;
}

// Kafka Streams drops a serde whenever the DSL cannot know it any more; `json` stands in for
// the default serde there (docs/TOPOLOGY_FORMAT.md).
const DROPPED: SerdeName = 'json';

export const kindPlanners: { [K in NodeKind]: Planner<K> } = {
  generator: (node, _inputs, b) => sourceLike(node, b),
  source: (node, _inputs, b) => sourceLike(node, b),
  filter: streamProcessor('KSTREAM-FILTER-'),
  filterNot: streamProcessor('KSTREAM-FILTER-'),
  mapValues: streamProcessor('KSTREAM-MAPVALUES-', { valueSerde: DROPPED }),
  map: streamProcessor('KSTREAM-MAP-', {
    keySerde: DROPPED,
    valueSerde: DROPPED,
    keyChanging: true,
  }),
  selectKey: streamProcessor('KSTREAM-KEY-SELECT-', { keySerde: DROPPED, keyChanging: true }),
  flatMap: streamProcessor('KSTREAM-FLATMAP-', {
    keySerde: DROPPED,
    valueSerde: DROPPED,
    keyChanging: true,
  }),
  flatMapValues: streamProcessor('KSTREAM-FLATMAPVALUES-', { valueSerde: DROPPED }),
  peek: streamProcessor('KSTREAM-PEEK-'),
  foreach: terminalProcessor('KSTREAM-FOREACH-'),
  print: terminalProcessor('KSTREAM-PRINTER-'),
  process: processor('KSTREAM-PROCESSOR-', {
    keySerde: DROPPED,
    valueSerde: DROPPED,
    keyChanging: true,
  }),
  processValues: processor('KSTREAM-PROCESSVALUES-', { valueSerde: DROPPED }),

  // BranchedKStreamImpl: the splitter, then per branch (in order, default last) a pass-through
  // child named `<splitter><branch name or index>`, each burning a counter value.
  split: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    const splitter = b.nameOrGenerate(node.name, 'KSTREAM-BRANCH-');
    const branches = splitPorts(node.config).map(({ port, index }) => ({
      port,
      index,
      child: splitter + port,
    }));
    b.addProcessor(splitter, 'split', [inFlow.from], node.id, { modelNode: node });
    const outputs = new Map<string, Flow>();
    for (const branch of branches) {
      b.newProcessorName(branch.child);
      b.addProcessor(branch.child, 'split-branch', [splitter], node.id, {
        modelNode: node,
        port: branch.port,
      });
      outputs.set(branch.port, { ...inFlow, from: branch.child });
    }
    const planned = b.nodes.get(splitter);
    if (planned) planned.branches = branches;
    return outputs;
  },

  // in₁.merge(in₂).merge(in₃)…: one KSTREAM-MERGE per extra input; a user name goes to the last,
  // the ones before it are `<name>-1`, `<name>-2`, …. Serdes are dropped.
  merge: (node, inputs, b) => {
    const flows = inputs.get('in') ?? [];
    const [first, ...rest] = flows;
    if (!first || rest.length === 0)
      throw new Error(`merge "${node.id}" needs two inputs: validate before planning`);
    let acc: Flow = first;
    rest.forEach((other, i) => {
      const last = i === rest.length - 1;
      const userName =
        node.name === undefined ? undefined : last ? node.name : `${node.name}-${i + 1}`;
      const name = b.nameOrGenerate(userName, 'KSTREAM-MERGE-');
      b.addProcessor(name, 'merge', [acc.from, other.from], node.id, { modelNode: node });
      acc = {
        type: 'stream',
        from: name,
        keySerde: DROPPED,
        valueSerde: DROPPED,
        repartitionRequired: acc.repartitionRequired || other.repartitionRequired,
      };
    });
    return acc;
  },

  // KStreamImpl#doRepartition: a named repartition uses its name without burning a value.
  repartition: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    const name = node.name ?? b.newProcessorName('KSTREAM-REPARTITION-');
    const keySerde = node.config.keySerde ?? inFlow.keySerde;
    const valueSerde = node.config.valueSerde ?? inFlow.valueSerde;
    // The topic's key serde is Repartitioned's (else the default serde), not the stream's.
    const source = b.repartition(
      name,
      inFlow.from,
      node.id,
      { keySerde: node.config.keySerde ?? DROPPED, valueSerde },
      node.config.partitions ?? null,
    );
    return { type: 'stream', from: source, keySerde, valueSerde, repartitionRequired: false };
  },

  sink: (node, inputs, b) => {
    const inFlow = singleInput(inputs, node.id);
    const name = b.nameOrGenerate(node.name, 'KSTREAM-SINK-');
    const { topic, topicExtractor } = node.config;
    const target =
      topic !== undefined ? { topic } : { topicExtractor: describeLogic(topicExtractor as Logic) };
    b.addSink(name, 'sink', target, inFlow.from, node.id, {
      modelNode: node,
      keySerde: node.config.keySerde,
      valueSerde: node.config.valueSerde,
    });
    return null;
  },

  ...statefulPlanners,
  cogroup: cogroupPlanner,
  ...windowPlanners,
  ...joinPlanners,
  ...foreignKeyJoinPlanners,
};
