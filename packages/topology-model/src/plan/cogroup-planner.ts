// CogroupedKStreamImpl#aggregate and its windowed forms (CogroupedKStream#windowedBy →
// TimeWindowedCogroupedKStreamImpl / SlidingWindowedCogroupedKStreamImpl /
// SessionWindowedCogroupedKStreamImpl#aggregate), all built by CogroupedStreamAggregateBuilder
// (Kafka Streams 4.1): store name, then each input's repartition (if needed), then one
// aggregator per input (cogroup call order) sharing the store, then the merge. The windowed
// forms name everything the same way; only the aggregators' processors and the store differ.
import type { TopologyNode } from '../schema.js';
import type { PlanBuilder } from './builder.js';
import { singleInput, type Flow, type Inputs } from './flow.js';
import { AGGREGATE_HANDLE, DROPPED, declareStore } from './table-stores.js';
import { markWindowStore, setWindowing } from './window-planners.js';

export function cogroupPlanner(
  node: Extract<TopologyNode, { kind: 'cogroup' }>,
  inputs: Inputs,
  b: PlanBuilder,
): Flow {
  const c = node.config;
  const store = c.store ?? b.newStoreName('COGROUPKSTREAM-AGGREGATE-');
  const groupedInputs = c.inputs.map(({ port }) => ({
    port,
    flow: singleInput(inputs, node.id, port),
  }));
  const parents = new Map<string, string>();
  for (const { port, flow } of groupedInputs) {
    if (!flow.repartitionRequired) {
      parents.set(port, flow.from);
      continue;
    }
    const source = b.repartition(flow.groupName ?? store, flow.from, node.id, {
      keySerde: flow.keySerde,
      valueSerde: flow.valueSerde,
    });
    parents.set(port, source);
  }
  const serdes = {
    // CogroupedKStreamImpl has no key serde of its own: Materialized.with(null, null).
    keySerde: c.keySerde ?? DROPPED,
    valueSerde: c.valueSerde ?? DROPPED,
  };
  // A windowed cogroup always emits on window update: CogroupedStreamAggregateBuilder passes
  // EmitStrategy.onWindowUpdate() to every windowed aggregator.
  const windowing =
    c.window === undefined
      ? undefined
      : { window: c.window, emitStrategy: 'onWindowUpdate' as const };
  const aggregators = groupedInputs.map(({ port }, i) => {
    const name = b.suffixOrGenerate(node.name, `-cogroup-agg-${i}`, 'COGROUPKSTREAM-AGGREGATE-');
    b.addProcessor(name, 'cogroup-aggregate', [parents.get(port) as string], node.id, {
      modelNode: node,
      stores: [store],
      port,
      ...serdes,
    });
    setWindowing(b, name, windowing);
    return name;
  });
  const merge = b.suffixOrGenerate(node.name, '-cogroup-merge', 'COGROUPKSTREAM-MERGE-');
  b.addProcessor(merge, 'cogroup', aggregators, node.id, { modelNode: node, ...serdes });
  declareStore(b, node, store, c, serdes);
  if (windowing) {
    markWindowStore(b, store, windowing.window, c.retentionMs);
    setWindowing(b, merge, windowing);
  }
  return {
    type: 'table',
    from: merge,
    ...serdes,
    repartitionRequired: false,
    table: AGGREGATE_HANDLE,
    ...(windowing ? { windowing } : {}),
  };
}
