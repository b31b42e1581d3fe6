// What each planned op runs: the DSL operation's Kafka Streams processor, with its logic compiled
// once (CEL or a registered function) and its stores looked up per task.
import type {
  ExpressionContext,
  Logic,
  Plan,
  PlannedNode,
  SerdeName,
} from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import { userProcessorNode } from '../papi/user-processor.js';
import { windowNodeFactory } from '../windows/window-node-factory.js';
import { windowedKeySerde } from '../windows/windowed-key.js';
import { fkJoinNodeFactory, fkTopicValueSerde } from '../joins/fk-join-node-factory.js';
import { fkSinkPartition } from '../joins/fk-partitioners.js';
import { joinNodeFactory } from '../joins/join-node-factory.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import {
  streamAggregateProcessor,
  streamCountProcessor,
  streamReduceProcessor,
} from './aggregate-processors.js';
import { changedSerde } from './changed-serde.js';
import { compileLogic, type CompiledLogic } from './logic.js';
import type { ProcessorContext } from './processor-context.js';
import type { Processor } from './processor-node.js';
import { isNullish, type EngineRecord } from './record.js';
import { sourceProcessor } from './processors.js';
import { transformValuesFactory } from './transform-values-factory.js';
import type { CodeRegistries } from './registries.js';
import {
  filterLogicProcessor,
  flatMapProcessor,
  flatMapValuesProcessor,
  mapProcessor,
  mapValuesLogicProcessor,
  peekProcessor,
  printProcessor,
  selectKeyProcessor,
  sinkLogicProcessor,
  splitProcessor,
} from './stream-processors.js';
import {
  tableAggregateProcessor,
  tableFilterProcessor,
  tableGroupByProcessor,
  tableMapValuesProcessor,
  tablePassThroughProcessor,
  tableReduceProcessor,
  tableSourceProcessor,
  tableToStreamProcessor,
} from './table-processors.js';

export interface NodeCompileContext {
  plan: Plan;
  registries: CodeRegistries;
  sendingOldValues: ReadonlySet<string>;
  /** KTable filters reading a versioned table (InternalStreamsBuilder#enableVersionedSemantics). */
  versionedFilters: ReadonlySet<string>;
  plannedStores: ReadonlySet<string>;
  byName: ReadonlyMap<string, PlannedNode>;
}

type Factory = (ctx: ProcessorContext) => Processor;

export function config(node: PlannedNode): Record<string, unknown> {
  return (node.modelNode?.config ?? {}) as Record<string, unknown>;
}

export function serdeOf(node: PlannedNode, which: 'keySerde' | 'valueSerde'): SerdeName {
  return (
    node[which] ??
    (config(node)[which] as SerdeName | undefined) ??
    (which === 'keySerde' ? 'string' : 'json')
  );
}

const passThrough: Factory = (ctx) => sourceProcessor(ctx);

function peekFactory(
  cfg: Record<string, unknown>,
  logic: (field: string, context: ExpressionContext) => CompiledLogic,
): Factory {
  const action = cfg['action'] === undefined ? null : logic('action', 'mapValues');
  return (ctx) => peekProcessor(ctx, action, true);
}

export function compileNodeFactory(node: PlannedNode, c: NodeCompileContext): Factory {
  const cfg = config(node);
  const functions = c.registries.functions ?? {};
  const logic = (field: string, context: ExpressionContext): CompiledLogic => {
    const value = cfg[field];
    if (value === undefined)
      throw new EngineError('INVALID_PLAN', `${node.name}: no ${field} in the node's config`);
    return compileLogic(value as Logic, context, functions, `${node.name} ${field}`);
  };
  const optionalLogic = (field: string, context: ExpressionContext): CompiledLogic | null =>
    cfg[field] === undefined ? null : logic(field, context);
  const sendOldValues = c.sendingOldValues.has(node.name);
  const valueTransformers = c.registries.valueTransformers
    ? { valueTransformers: c.registries.valueTransformers }
    : {};
  const ownStore = (): string | null => node.stores.find((s) => c.plannedStores.has(s)) ?? null;
  const requiredStore = (): string => {
    const store = ownStore();
    if (store === null)
      throw new EngineError('INVALID_PLAN', `${node.name}: ${node.op} without a planned store`);
    return store;
  };

  switch (node.op) {
    case 'source':
    case 'generator':
    case 'table-source':
    case 'repartition-source':
    case 'split-branch':
    case 'merge':
    case 'groupByKey':
      return passThrough;
    case 'peek':
      // The filter Kafka Streams puts in front of a repartition sink drops records with a null
      // key, silently, unless a join accepting null keys lies downstream (KIP-962: the planner
      // marks those, topology-model plan/null-key-filters.ts); then it forwards everything.
      if (
        node.modelNode === undefined &&
        node.successors.some((s) => c.byName.get(s)?.op === 'repartition-sink')
      ) {
        if (node.passesNullKeys) return passThrough;
        return (ctx) =>
          filterLogicProcessor(ctx, (record) => !isNullish((record as EngineRecord).key), false);
      }
      return peekFactory(cfg, logic);
    case 'filter':
    case 'filterNot': {
      const predicate = logic('expression', 'filter');
      const not = node.op === 'filterNot';
      return (ctx) => filterLogicProcessor(ctx, predicate, not);
    }
    case 'mapValues': {
      const mapper = logic('expression', 'mapValues');
      return (ctx) => mapValuesLogicProcessor(ctx, mapper);
    }
    case 'map': {
      const mapper = logic('expression', 'keyValue');
      return (ctx) => mapProcessor(ctx, mapper);
    }
    case 'selectKey':
    case 'groupBy': {
      const selector = logic('expression', 'selectKey');
      return (ctx) => selectKeyProcessor(ctx, selector);
    }
    case 'flatMap': {
      const mapper = logic('expression', 'flatMap');
      return (ctx) => flatMapProcessor(ctx, mapper);
    }
    case 'flatMapValues': {
      const mapper = logic('expression', 'flatMapValues');
      return (ctx) => flatMapValuesProcessor(ctx, mapper);
    }
    case 'foreach': {
      const action = optionalLogic('action', 'mapValues');
      return (ctx) => peekProcessor(ctx, action, false);
    }
    case 'print': {
      const mapper = optionalLogic('mapper', 'print');
      const label = typeof cfg['label'] === 'string' ? cfg['label'] : node.name;
      const printLine =
        c.registries.printLine ?? ((line: string) => void process.stdout.write(`${line}\n`));
      return () => printProcessor(label, mapper, printLine);
    }
    case 'split': {
      const branchConfigs = (cfg['branches'] ?? []) as { predicate: Logic }[];
      const planned =
        (node as PlannedNode & { branches?: { port: string; index: number; child: string }[] })
          .branches ?? [];
      const branches = planned
        .filter((b) => b.index > 0)
        .map((b) => {
          const predicate = branchConfigs[b.index - 1]?.predicate;
          if (predicate === undefined)
            throw new EngineError(
              'INVALID_PLAN',
              `${node.name}: no predicate for branch ${b.index}`,
            );
          return {
            child: b.child,
            predicate: compileLogic(
              predicate,
              'filter',
              functions,
              `${node.name} branch ${b.port}`,
            ),
          };
        });
      const defaultChild = planned.find((b) => b.index === 0)?.child ?? null;
      return (ctx) => splitProcessor(ctx, branches, defaultChild);
    }
    case 'sink':
    case 'repartition-sink': {
      const keySerde = windowedKeySerde(getSerde(serdeOf(node, 'keySerde')), cfg);
      let valueSerde: Serde<unknown> = getSerde(serdeOf(node, 'valueSerde'));
      // KTable#groupBy writes Change(new, old) pairs to its repartition topic.
      const parent = c.byName.get(node.predecessors[0] ?? '');
      if (node.op === 'repartition-sink' && parent?.op === 'tableGroupBy')
        valueSerde = changedSerde(valueSerde) as Serde<unknown>;
      // A foreign-key join's internal topics: Kafka's wrappers, routed as Kafka routes them.
      const fk = node.op === 'repartition-sink' ? fkTopicValueSerde(node, c.byName) : null;
      if (fk !== null) valueSerde = fk;
      const partitionOf =
        fk === null ? null : fkSinkPartition(node, c.byName, c.registries.partitioners);
      const topic: string | CompiledLogic | undefined =
        node.topic ??
        (cfg['topic'] as string | undefined) ??
        optionalLogic('topicExtractor', 'topicExtractor') ??
        undefined;
      if (topic === undefined)
        throw new EngineError(
          'INVALID_PLAN',
          `${node.name}: a sink without a topic or topic extractor`,
        );
      return (ctx) =>
        sinkLogicProcessor(ctx, topic, keySerde, valueSerde, partitionOf ?? undefined);
    }
    case 'count': {
      const storeName = requiredStore();
      return (ctx) => streamCountProcessor(ctx, { store: ctx.store(storeName), sendOldValues });
    }
    case 'reduce': {
      const reducer = logic('expression', 'reducer');
      const storeName = requiredStore();
      return (ctx) =>
        streamReduceProcessor(ctx, reducer, { store: ctx.store(storeName), sendOldValues });
    }
    case 'aggregate': {
      const initializer = logic('initializer', 'initializer');
      const aggregator = logic('aggregator', 'aggregator');
      const storeName = requiredStore();
      return (ctx) =>
        streamAggregateProcessor(ctx, initializer, aggregator, {
          store: ctx.store(storeName),
          sendOldValues,
        });
    }
    case 'cogroup-aggregate': {
      const initializer = logic('initializer', 'initializer');
      const input = ((cfg['inputs'] ?? []) as { port: string; aggregator: Logic }[]).find(
        (i) => i.port === node.port,
      );
      if (!input)
        throw new EngineError(
          'INVALID_PLAN',
          `${node.name}: no cogroup input for port ${String(node.port)}`,
        );
      const aggregator = compileLogic(
        input.aggregator,
        'aggregator',
        functions,
        `${node.name} aggregator`,
      );
      // A windowed cogroup (CogroupedKStream#windowedBy): each input's aggregator is a windowed
      // aggregation processor of its own (its own observed stream time, as each Kafka Streams
      // KStreamWindowAggregate / KStreamSessionWindowAggregate is), all sharing one store.
      if (node.windowing) {
        const merger = cfg['merger'] === undefined ? null : logic('merger', 'aggregator');
        return windowNodeFactory({
          node,
          config: cfg,
          logic,
          storeName: requiredStore,
          retentionMs: (store) => c.plan.stores.find((s) => s.name === store)?.retentionMs ?? 0,
          emitIntervalMs: c.registries.windowedEmitIntervalMs ?? 1000,
          aggregation: {
            initial: () => initializer({}),
            add: (key, value, agg) => aggregator({ key, value, agg }),
            merge: (key, a, b) => {
              if (merger === null)
                throw new EngineError(
                  'INVALID_PLAN',
                  `${node.name}: a session-windowed cogroup needs a merger`,
                );
              return merger({ key, value: b, agg: a });
            },
          },
        });
      }
      const storeName = requiredStore();
      return (ctx) =>
        streamAggregateProcessor(ctx, initializer, aggregator, {
          store: ctx.store(storeName),
          sendOldValues,
        });
    }
    case 'cogroup':
      return (ctx) => tablePassThroughProcessor(ctx);
    case 'table':
    case 'globalTable':
    case 'toTable': {
      const storeName = ownStore();
      return (ctx) =>
        tableSourceProcessor(ctx, {
          store: storeName === null ? null : ctx.store(storeName),
          sendOldValues,
        });
    }
    case 'tableFilter':
    case 'tableFilterNot': {
      const predicate = logic('expression', 'filter');
      const not = node.op === 'tableFilterNot';
      const storeName = ownStore();
      return (ctx) =>
        tableFilterProcessor(ctx, predicate, not, {
          store: storeName === null ? null : ctx.store(storeName),
          sendOldValues,
          versionedSemantics: c.versionedFilters.has(node.name),
        });
    }
    case 'tableMapValues': {
      const mapper = logic('expression', 'mapValues');
      const storeName = ownStore();
      return (ctx) =>
        tableMapValuesProcessor(ctx, mapper, {
          store: storeName === null ? null : ctx.store(storeName),
          sendOldValues,
        });
    }
    case 'transformValues':
      return transformValuesFactory(node, cfg, c.registries, sendOldValues);
    case 'toStream':
      return (ctx) => tableToStreamProcessor(ctx);
    case 'tableGroupBy': {
      const selector = logic('expression', 'keyValue');
      return (ctx) => tableGroupByProcessor(ctx, selector);
    }
    case 'tableCount': {
      const storeName = requiredStore();
      const one = () => 0;
      const add = (vars: object) => (vars as { agg: number }).agg + 1;
      const subtract = (vars: object) => (vars as { agg: number }).agg - 1;
      return (ctx) =>
        tableAggregateProcessor(ctx, one, add, subtract, {
          store: ctx.store(storeName),
          sendOldValues,
          storeName,
        });
    }
    case 'tableReduce': {
      const adder = logic('adder', 'reducer');
      const subtractor = logic('subtractor', 'reducer');
      const storeName = requiredStore();
      return (ctx) =>
        tableReduceProcessor(ctx, adder, subtractor, {
          store: ctx.store(storeName),
          sendOldValues,
          storeName,
        });
    }
    case 'tableAggregate': {
      const initializer = logic('initializer', 'initializer');
      const adder = logic('adder', 'aggregator');
      const subtractor = logic('subtractor', 'aggregator');
      const storeName = requiredStore();
      return (ctx) =>
        tableAggregateProcessor(ctx, initializer, adder, subtractor, {
          store: ctx.store(storeName),
          sendOldValues,
          storeName,
        });
    }
    case 'join-window':
    case 'join-merge':
    case 'streamStreamJoin':
    case 'streamTableJoin':
    case 'streamGlobalTableJoin':
    case 'tableTableJoin':
      return joinNodeFactory({
        node,
        config: cfg,
        logic,
        sendOldValues,
        functions,
        ...valueTransformers,
      });
    case 'fk-subscription-send':
    case 'fk-subscription-receive':
    case 'fk-subscription-join':
    case 'fk-foreign-join':
    case 'fk-response-join':
    case 'fk-result':
      return fkJoinNodeFactory({
        node,
        config: cfg,
        logic,
        sendOldValues,
        ownStore: ownStore(),
        functions,
        ...valueTransformers,
      });
    case 'windowedCount':
    case 'windowedReduce':
    case 'windowedAggregate':
    case 'suppress':
      return windowNodeFactory({
        node,
        config: cfg,
        logic,
        storeName: requiredStore,
        retentionMs: (store) => c.plan.stores.find((s) => s.name === store)?.retentionMs ?? 0,
        emitIntervalMs: c.registries.windowedEmitIntervalMs ?? 1000,
      });
    case 'process':
    case 'processValues': {
      const name = cfg['processor'] as string;
      const registry = c.registries.processors ?? {};
      const factory = Object.prototype.hasOwnProperty.call(registry, name)
        ? registry[name]
        : undefined;
      if (typeof factory !== 'function') {
        throw new EngineError(
          'INVALID_PLAN',
          `${node.name}: processor "${name}" is not registered (register it in the processor registry given when the runtime starts)`,
        );
      }
      const params = (cfg['params'] ?? {}) as Record<string, unknown>;
      const stores = node.stores;
      return (ctx) => userProcessorNode(ctx, factory(params), { nodeName: node.name, stores });
    }
    case 'repartition':
    case 'windowedBy':
    case 'foreignKeyJoin':
      // The planner expands these kinds into other nodes (repartition-sink / -source, the
      // windowed aggregation, the fk-* processors); they never reach the engine as an op.
      throw new EngineError(
        'INVALID_PLAN',
        `${node.name}: op "${node.op}" is planned as other nodes, never as one of its own`,
      );
    default: {
      // Every planned op has a case above: a new node kind fails typecheck here until it has one
      // (docs/ARCHITECTURE.md, "How to add a node kind"). A plan read from elsewhere may still
      // carry an op this engine does not know.
      const unknownOp: never = node.op;
      throw new EngineError(
        'INVALID_PLAN',
        `${node.name}: the engine has no processor for op "${String(unknownOp)}"`,
      );
    }
  }
}
