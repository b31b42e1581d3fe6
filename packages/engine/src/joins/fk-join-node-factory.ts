// Processor factories for the foreign-key join's ops (fk-join-planner.ts in topology-model),
// called from the processor factory switch (processor/node-factories.ts).
import type { PlannedNode, SerdeName } from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import type { CompiledLogic } from '../processor/logic.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { FunctionRegistry, ValueTransformerRegistry } from '../processor/registries.js';
import type { Processor } from '../processor/processor-node.js';
import { tableSourceProcessor } from '../processor/table-processors.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import { responseWrapperSerde, subscriptionWrapperSerde } from './fk-wire.js';
import {
  foreignTableJoinProcessor,
  responseJoinProcessor,
  subscriptionJoinProcessor,
  subscriptionReceiveProcessor,
  subscriptionSendProcessor,
} from './foreign-key-join.js';
import { tableGetterOf, tableStoreOf, withTableGetter } from './table-getter.js';

type Factory = (ctx: ProcessorContext) => Processor;

export interface FkJoinFactoryContext {
  node: PlannedNode;
  config: Record<string, unknown>;
  logic(field: string, context: 'joiner' | 'selectKey'): CompiledLogic;
  sendOldValues: boolean;
  /** The node's store that exists in the plan (the result store only when materialized). */
  ownStore: string | null;
  /** The function registry: for the logic of the table getter's filter / mapValues steps. */
  functions?: FunctionRegistry;
  /** For the table getter's transformValues steps. */
  valueTransformers?: ValueTransformerRegistry;
}

export function fkJoinNodeFactory(c: FkJoinFactoryContext): Factory {
  const { node, config } = c;
  const serde = (which: 'keySerde' | 'valueSerde') =>
    getSerde((node[which] ?? 'json') as SerdeName);
  const leftJoin = config['type'] === 'left';
  const store = (ctx: ProcessorContext, name: string | undefined) => {
    if (name === undefined)
      throw new EngineError('INVALID_PLAN', `${node.name}: ${node.op} without a store`);
    return ctx.store(name);
  };
  switch (node.op) {
    case 'fk-subscription-send': {
      const extractor = c.logic('foreignKeyExtractor', 'selectKey');
      return (ctx) =>
        subscriptionSendProcessor(ctx, {
          leftJoin,
          extractor: (key, value) => extractor({ key, value }),
          foreignKeySerde: serde('keySerde'),
          valueSerde: serde('valueSerde'),
        });
    }
    case 'fk-subscription-receive': {
      const name = node.stores[0];
      return (ctx) =>
        subscriptionReceiveProcessor(ctx, {
          store: () => store(ctx, name),
          foreignKeySerde: serde('keySerde'),
          primaryKeySerde: serde('valueSerde'),
        });
    }
    case 'fk-subscription-join': {
      // The right table as its filter / mapValues nodes show it (KTableValueGetterSupplier).
      const getterFor = tableGetterOf(node, c);
      return (ctx) => {
        const getter = getterFor?.(ctx) ?? null;
        return withTableGetter(
          subscriptionJoinProcessor(ctx, () => tableStoreOf(ctx, node.stores), getter?.get ?? null),
          getter,
        );
      };
    }
    case 'fk-foreign-join': {
      const name = node.stores[0];
      return (ctx) =>
        foreignTableJoinProcessor(ctx, {
          store: () => store(ctx, name),
          foreignKeySerde: serde('keySerde'),
          primaryKeySerde: serde('valueSerde'),
        });
    }
    case 'fk-response-join': {
      const logic = c.logic('joiner', 'joiner');
      // The left table as its filter / mapValues nodes show it: the hash the subscription was
      // sent with is of that value, and a row they drop is gone.
      const getterFor = tableGetterOf(node, c);
      return (ctx) => {
        const getter = getterFor?.(ctx) ?? null;
        return withTableGetter(
          responseJoinProcessor(ctx, {
            left: () => tableStoreOf(ctx, node.stores),
            valueSerde: serde('valueSerde'),
            leftJoin,
            joiner: (key, left, right) => logic({ key, left, right }),
            getter: getter?.get ?? null,
          }),
          getter,
        );
      };
    }
    case 'fk-result': {
      const name = c.ownStore;
      return (ctx) =>
        tableSourceProcessor(ctx, {
          store: name === null ? null : ctx.store(name),
          sendOldValues: c.sendOldValues,
        });
    }
    default:
      throw new EngineError('INVALID_PLAN', `${node.name}: not a foreign-key join op`);
  }
}

/**
 * The value serde of a foreign-key join's internal topic, for its sink (by the sink's parent) or
 * its source (by the source's child): Kafka's SubscriptionWrapperSerde over the left key's serde
 * on the registration topic, SubscriptionResponseWrapperSerde over the right value's on the
 * response topic (the planner names that inner serde as the node's value serde). Null for any
 * other topic.
 */
export function fkTopicValueSerde(
  node: PlannedNode,
  byName: ReadonlyMap<string, PlannedNode>,
): Serde<unknown> | null {
  const neighbours = node.role === 'sink' ? node.predecessors : node.successors;
  const ops = neighbours.map((n) => byName.get(n)?.op);
  const inner = getSerde((node.valueSerde ?? 'json') as SerdeName);
  if (ops.includes('fk-subscription-send') || ops.includes('fk-subscription-receive'))
    return subscriptionWrapperSerde(inner) as Serde<unknown>;
  if (
    ops.includes('fk-subscription-join') ||
    ops.includes('fk-foreign-join') ||
    ops.includes('fk-response-join')
  )
    return responseWrapperSerde(inner) as Serde<unknown>;
  return null;
}
