// Processor factories for the join ops (streamStreamJoin with its join-window nodes,
// streamTableJoin, streamGlobalTableJoin, tableTableJoin, join-merge), called from the
// processor factory switch (processor/node-factories.ts).
import type { JoinWindowSpec, PlannedNode } from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import { changeForwarder, putVersionAndForward } from '../processor/change-forwarder.js';
import { isVersionedStore } from '../state/versioned-store.js';
import type { CompiledLogic } from '../processor/logic.js';
import type { FunctionRegistry, ValueTransformerRegistry } from '../processor/registries.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { Change, type EngineRecord } from '../processor/record.js';
import { TimeOrderedKeyValueBuffer } from '../state/time-ordered-buffer.js';
import {
  joinStateFor,
  joinWindowProcessor,
  streamStreamJoinProcessor,
  type Joiner,
  type JoinSide,
} from './stream-stream-join.js';
import {
  streamGlobalTableJoinProcessor,
  streamTableJoinProcessor,
  tableTableJoinProcessor,
  type TableJoinType,
} from './table-joins.js';
import { tableGetterOf, tableStoreOf, withTableGetter } from './table-getter.js';

type Factory = (ctx: ProcessorContext) => Processor;

export interface JoinFactoryContext {
  node: PlannedNode;
  config: Record<string, unknown>;
  logic(field: string, context: 'joiner' | 'selectKey'): CompiledLogic;
  sendOldValues: boolean;
  /** The function registry: for the logic of the table getter's filter / mapValues steps. */
  functions?: FunctionRegistry;
  /** For the table getter's transformValues steps. */
  valueTransformers?: ValueTransformerRegistry;
}

function joinerOf(c: JoinFactoryContext): Joiner {
  const logic = c.logic('joiner', 'joiner');
  return (key, left, right) => logic({ key, left, right });
}

function requiredStore(node: PlannedNode, index: number, what: string): string {
  const store = node.stores[index];
  if (store === undefined)
    throw new EngineError('INVALID_PLAN', `${node.name}: the plan gives it no store for ${what}`);
  return store;
}

export function joinNodeFactory(c: JoinFactoryContext): Factory {
  const { node, config } = c;
  const joinId = node.modelNodeId ?? node.name;
  const side = (node.port ?? 'left') as JoinSide;
  switch (node.op) {
    case 'join-window': {
      const store = requiredStore(node, 0, 'its window store');
      return (ctx) => joinWindowProcessor(ctx, store);
    }
    case 'streamStreamJoin': {
      const window = config['window'] as JoinWindowSpec;
      const type = config['type'] as TableJoinType;
      const joiner = joinerOf(c);
      const outer = type === 'outer' || (type === 'left' && side === 'left');
      requiredStore(node, type === 'inner' ? 0 : 1, 'its window and outer stores');
      return (ctx) =>
        streamStreamJoinProcessor(ctx, joinStateFor(ctx, joinId, window), {
          side,
          outer,
          stores: node.stores,
          hasOuterStore: type !== 'inner',
          joiner,
        });
    }
    case 'streamTableJoin': {
      const joiner = joinerOf(c);
      // Joined#withGracePeriod: the processor also has its buffer, `<name>-Buffer`.
      const bufferName =
        typeof config['gracePeriodMs'] === 'number' ? `${node.name}-Buffer` : undefined;
      if (bufferName !== undefined && !node.stores.includes(bufferName))
        throw new EngineError('INVALID_PLAN', `${node.name}: the plan gives it no ${bufferName}`);
      const tableStores = node.stores.filter((s) => s !== bufferName);
      if (tableStores.length === 0)
        throw new EngineError(
          'INVALID_PLAN',
          `${node.name}: the table side has no store to join with`,
        );
      const leftJoin = config['type'] === 'left';
      const getterFor = tableGetterOf(c.node, c);
      return (ctx) => {
        let buffer: TimeOrderedKeyValueBuffer | undefined;
        const getter = getterFor?.(ctx) ?? null;
        return withTableGetter(
          streamTableJoinProcessor(
            ctx,
            () => tableStoreOf(ctx, tableStores),
            leftJoin,
            joiner,
            bufferName === undefined
              ? undefined
              : () => (buffer ??= ctx.stateStore(bufferName, TimeOrderedKeyValueBuffer)),
            getter?.get,
          ),
          getter,
        );
      };
    }
    case 'streamGlobalTableJoin': {
      const joiner = joinerOf(c);
      const selector = c.logic('keySelector', 'selectKey');
      const store = node.globalStores?.[0];
      if (store === undefined)
        throw new EngineError('INVALID_PLAN', `${node.name}: the global table has no store`);
      const leftJoin = config['type'] === 'left';
      return (ctx) =>
        streamGlobalTableJoinProcessor(
          ctx,
          () => ctx.globalStores.get(store),
          (r: EngineRecord) => selector(r),
          leftJoin,
          joiner,
        );
    }
    case 'tableTableJoin': {
      const joiner = joinerOf(c);
      const type = config['type'] as TableJoinType;
      const getterFor = tableGetterOf(c.node, c);
      return (ctx) => {
        const getter = getterFor?.(ctx) ?? null;
        return withTableGetter(
          tableTableJoinProcessor(ctx, {
            side: side === 'right' ? 'right' : 'left',
            type,
            other: () => tableStoreOf(ctx, node.stores),
            joiner,
            sendOldValues: c.sendOldValues,
            ...(getter === null ? {} : { getter: getter.get }),
          }),
          getter,
        );
      };
    }
    case 'join-merge': {
      // KSTREAM-MERGE passes records on; KTableKTableJoinMerger also materializes the result,
      // forwarding through the store's record cache when it has one (TimestampedTupleForwarder):
      // then a join result that was never in the store and is null forwards nothing.
      const store = node.stores[0];
      if (store === undefined) return (ctx) => ({ process: (record) => ctx.forward(record) });
      return (ctx) => {
        // The joins computed the old values as their downstream asked; passed on as they are.
        const forward = changeForwarder(ctx, store, true);
        return {
          process(record: EngineRecord) {
            const s = ctx.stores.get(store);
            if (s === undefined || !(record.value instanceof Change)) {
              ctx.forward(record);
              return;
            }
            const change = record.value;
            if (isVersionedStore(s)) {
              // KTableKTableJoinMerger over a versioned store (KIP-914): the put's validTo decides.
              putVersionAndForward(
                ctx,
                s,
                true,
                record.key,
                change.newValue,
                change.oldValue,
                record.timestamp,
                record.headers,
              );
              return;
            }
            const before = s.get(record.key)?.value ?? null;
            s.put(record.key, change.newValue, record.timestamp);
            forward(
              record.key,
              change.newValue ?? null,
              change.oldValue ?? null,
              before,
              record.timestamp,
              record.headers,
            );
          },
        };
      };
    }
    default:
      throw new EngineError('INVALID_PLAN', `${node.name}: not a join op`);
  }
}
