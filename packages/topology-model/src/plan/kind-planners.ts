// What each model kind adds to the processor graph, mirroring the Kafka Streams DSL call it
// stands for (KStreamImpl, KGroupedStreamImpl, KTableImpl, InternalStreamsBuilder#stream).
import {
  nodeKinds,
  type FlowType,
  type NodeConfigOf,
  type NodeKind,
  type SerdeName,
  type TopologyNode,
} from '../schema.js';
import type { PlanBuilder } from './builder.js';

/** What flows out of a planned node along its edges. */
export interface Flow {
  type: FlowType;
  /** The Kafka Streams node the records leave from (for a grouped stream: its upstream node). */
  from: string;
  keySerde: SerdeName;
  valueSerde: SerdeName;
  /**
   * True once a key-changing operation has run: the next aggregation must repartition first.
   * No v1 kind changes keys; selectKey / map / groupBy will set it.
   */
  repartitionRequired: boolean;
  /** Grouped.as(name): the repartition topic's name prefix, when the grouping was named. */
  groupName?: string;
}

type Planner<K extends NodeKind> = (
  node: Extract<TopologyNode, { kind: K }>,
  input: Flow | undefined,
  b: PlanBuilder,
) => Flow | null;

const inputOf = (input: Flow | undefined, id: string): Flow => {
  if (!input)
    throw new Error(`node "${id}" has no input: validate the topology before planning it`);
  return input;
};

function sourceLike(node: TopologyNode & { kind: 'source' | 'generator' }, b: PlanBuilder): Flow {
  const config = node.config as NodeConfigOf<'source'>;
  // builder.stream(topic, Consumed.as(name)): the generator is a source reading its own topic.
  const name = b.nameOrGenerate(node.name, 'KSTREAM-SOURCE-');
  b.addSource(name, node.kind, [config.topic], node.id, {
    modelNode: node,
    keySerde: config.keySerde,
    valueSerde: config.valueSerde,
  });
  return {
    type: 'stream',
    from: name,
    keySerde: config.keySerde,
    valueSerde: config.valueSerde,
    repartitionRequired: false,
  };
}

function statelessProcessor(prefix: string, valueSerde?: SerdeName) {
  return (node: TopologyNode, input: Flow | undefined, b: PlanBuilder): Flow => {
    const inFlow = inputOf(input, node.id);
    const name = b.nameOrGenerate(node.name, prefix);
    b.addProcessor(name, node.kind, [inFlow.from], node.id, { modelNode: node });
    const type = nodeKinds[node.kind].output ?? 'stream';
    return { ...inFlow, type, from: name, valueSerde: valueSerde ?? inFlow.valueSerde };
  };
}

export const kindPlanners: { [K in NodeKind]: Planner<K> } = {
  generator: (node, _input, b) => sourceLike(node, b),
  source: (node, _input, b) => sourceLike(node, b),
  filter: statelessProcessor('KSTREAM-FILTER-'),
  // mapValues produces whatever the expression returns: JSON from here on.
  mapValues: statelessProcessor('KSTREAM-MAPVALUES-', 'json'),
  peek: statelessProcessor('KSTREAM-PEEK-'),
  sink: (node, input, b) => {
    const inFlow = inputOf(input, node.id);
    const name = b.nameOrGenerate(node.name, 'KSTREAM-SINK-');
    b.addSink(name, 'sink', node.config.topic, inFlow.from, node.id, {
      modelNode: node,
      keySerde: node.config.keySerde,
      valueSerde: node.config.valueSerde,
    });
    return null;
  },
  // KStreamImpl#groupByKey creates no processor and burns no counter value.
  groupByKey: (node, input, b) => {
    const inFlow = inputOf(input, node.id);
    b.nodeNames[node.id] ??= [];
    const grouped: Flow = {
      ...inFlow,
      type: 'grouped',
      keySerde: node.config.keySerde ?? inFlow.keySerde,
      valueSerde: node.config.valueSerde ?? inFlow.valueSerde,
    };
    if (node.name !== undefined) grouped.groupName = node.name;
    return grouped;
  },
  // KGroupedStreamImpl#count(): Materialized.as(store) when a store is named; otherwise
  // MaterializedInternal generates KSTREAM-AGGREGATE-STATE-STORE-<n> *before* the processor's
  // own name (count() → doCount), then GroupedStreamAggregateBuilder#build repartitions if needed.
  count: (node, input, b) => {
    const inFlow = inputOf(input, node.id);
    const store = node.config.store ?? b.newStoreName('KSTREAM-AGGREGATE-');
    const name = b.nameOrGenerate(node.name, 'KSTREAM-AGGREGATE-');
    let parent = inFlow.from;
    if (inFlow.repartitionRequired) {
      parent = b.repartition(inFlow.groupName ?? store, parent, node.id, {
        keySerde: inFlow.keySerde,
        valueSerde: inFlow.valueSerde,
      });
    }
    b.addProcessor(name, 'count', [parent], node.id, {
      modelNode: node,
      stores: [store],
      keySerde: inFlow.keySerde,
      valueSerde: 'long',
    });
    b.addStore(
      {
        name: store,
        type: 'keyValue',
        keySerde: inFlow.keySerde,
        valueSerde: 'long',
        processor: name,
      },
      node.id,
    );
    return {
      type: 'table',
      from: name,
      keySerde: inFlow.keySerde,
      valueSerde: 'long',
      repartitionRequired: false,
    };
  },
  toStream: statelessProcessor('KTABLE-TOSTREAM-'),
};
