// The value getters (KTableImpl#valueGetterSupplier) of the unmaterialized table nodes between
// the store a join reads a table from and the join: KTableFilter / KTableMapValues apply their
// logic, KTableTransformValues its own instance of the user's transformer (initialized and closed
// with the reading processor, as Kafka's KTableTransformValuesGetter is). Stream–table,
// table–table and foreign-key joins all read their tables this way.
import type { PlannedNode, TableGetterStep } from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import type { ValueTransformerWithKey } from '../papi/value-transformer.js';
import { compileLogic } from '../processor/logic.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import type { FunctionRegistry, ValueTransformerRegistry } from '../processor/registries.js';
import {
  transformerContext,
  type TransformRecordContext,
} from '../processor/table-transform-values.js';
import type { KeyValueStore, ValueAndTimestamp } from '../state/key-value-store.js';
import { SuppressionBufferStore } from '../state/suppression-buffer.js';

/**
 * What the store holds for a key (undefined: nothing) → what the table shows (undefined: no row;
 * filtered out or mapped to null). A transformer also sees a missing row (as null) and may make
 * one: it then has timestamp -1 (Kafka's UNKNOWN).
 */
export type TableGetter = (
  key: unknown,
  found: ValueAndTimestamp | undefined,
) => ValueAndTimestamp | undefined;

/** A getter for one task, with the transformers it owns. */
export interface TaskTableGetter {
  get: TableGetter;
  init(): void;
  close(): void;
}

export interface GetterRegistries {
  functions?: FunctionRegistry | undefined;
  valueTransformers?: ValueTransformerRegistry | undefined;
}

type Step = (key: unknown, found: ValueAndTimestamp | undefined) => ValueAndTimestamp | undefined;

const UNKNOWN = -1;
const NO_HEADERS = Object.freeze({});

/**
 * The node's getter chain (the planner's `tableGetter`, store side first), made per task; null
 * if it has none. `node` is the reading processor: a transformer's context is bound to it.
 */
export function tableGetterOf(
  node: PlannedNode,
  registries: GetterRegistries,
): ((ctx: ProcessorContext) => TaskTableGetter) | null {
  const steps = node.tableGetter ?? [];
  if (steps.length === 0) return null;
  return getterOfSteps(steps, node, registries);
}

function getterOfSteps(
  steps: readonly TableGetterStep[],
  node: PlannedNode,
  registries: GetterRegistries,
): (ctx: ProcessorContext) => TaskTableGetter {
  const makers = steps.map((step): ((ctx: ProcessorContext) => StepInstance) => {
    if (step.op === 'transformValues') {
      const registry = registries.valueTransformers ?? {};
      const factory = Object.prototype.hasOwnProperty.call(registry, step.transformer)
        ? registry[step.transformer]
        : undefined;
      if (typeof factory !== 'function')
        throw new EngineError(
          'INVALID_PLAN',
          `${step.node}: value transformer "${step.transformer}" is not registered (register it in the value transformer registry given when the runtime starts)`,
        );
      return (ctx) => transformerStep(ctx, factory(step.params), node);
    }
    if (step.op === 'suppress') return (ctx) => suppressStep(ctx, step.store);
    if (step.op === 'tableJoin') {
      const joiner = compileLogic(
        step.joiner,
        'joiner',
        registries.functions ?? {},
        `${step.node} joiner`,
      );
      const left = getterOfSteps(step.left.steps, node, registries);
      const right = getterOfSteps(step.right.steps, node, registries);
      return (ctx) =>
        joinStep(ctx, step.type, (key, l, r) => joiner({ key, left: l, right: r }), [
          { stores: step.left.stores, getter: left(ctx) },
          { stores: step.right.stores, getter: right(ctx) },
        ]);
    }
    const fn = compileLogic(
      step.expression,
      step.op === 'tableMapValues' ? 'mapValues' : 'filter',
      registries.functions ?? {},
      `${step.node} expression`,
    );
    const keep = step.op === 'tableFilter';
    const apply: Step = (key, found) => {
      if (found === undefined || found.value === null || found.value === undefined)
        return undefined;
      // Kafka's predicates and mappers see no timestamp or headers (the oracle passes 0 too).
      const vars = { key, value: found.value, timestamp: 0, headers: {} };
      if (step.op === 'tableMapValues') {
        const value = fn(vars);
        return value === null || value === undefined
          ? undefined
          : { value, timestamp: found.timestamp };
      }
      return (fn(vars) === true) === keep ? found : undefined;
    };
    return () => ({ apply });
  });
  return (ctx) => {
    const instances = makers.map((make) => make(ctx));
    return {
      get: (key, found) => {
        let current = found;
        for (const { apply } of instances) current = apply(key, current);
        return current;
      },
      init: () => instances.forEach((i) => i.init?.()),
      close: () => instances.forEach((i) => i.close?.()),
    };
  };
}

interface StepInstance {
  apply: Step;
  init?(): void;
  close?(): void;
}

// KTableKTable{Inner,Left,Outer}JoinValueGetter#get: both sides read through their getters;
// inner needs both values, left the left one, outer either; the result's timestamp is the larger
// of those read (a missing side: UNKNOWN). A null joiner result is no row.
function joinStep(
  ctx: ProcessorContext,
  type: 'inner' | 'left' | 'outer',
  joiner: (key: unknown, left: unknown, right: unknown) => unknown,
  sides: [JoinSide, JoinSide],
): StepInstance {
  const read = (side: JoinSide, key: unknown): ValueAndTimestamp | undefined =>
    side.getter.get(key, tableStoreOf(ctx, side.stores)?.get(key));
  const present = (v: ValueAndTimestamp | undefined): v is ValueAndTimestamp =>
    v !== undefined && v.value !== null && v.value !== undefined;
  return {
    init: () => sides.forEach((s) => s.getter.init()),
    close: () => sides.forEach((s) => s.getter.close()),
    apply(key) {
      const left = read(sides[0], key);
      if (type !== 'outer' && !present(left)) return undefined;
      const right = read(sides[1], key);
      if (type === 'inner' && !present(right)) return undefined;
      if (!present(left) && !present(right)) return undefined;
      const value = joiner(key, left?.value ?? null, present(right) ? right.value : null);
      if (value === null || value === undefined) return undefined;
      return {
        value,
        timestamp: Math.max(left?.timestamp ?? UNKNOWN, right?.timestamp ?? UNKNOWN),
      };
    },
  };
}

interface JoinSide {
  stores: readonly string[];
  getter: TaskTableGetter;
}

// KTableSuppressProcessorSupplier's getter: a buffered key gives the buffer's prior value (what
// was last emitted, InMemoryTimeOrderedKeyValueChangeBuffer#priorValueForBuffered, with
// RecordQueue.UNKNOWN as its timestamp; a null prior value is no row); any other key reads
// through the suppressed table's parent, as the steps before this one did.
function suppressStep(ctx: ProcessorContext, store: string): StepInstance {
  let buffer: SuppressionBufferStore | undefined;
  return {
    apply(key, found) {
      buffer ??= ctx.stateStore(store, SuppressionBufferStore);
      const entry = buffer.get(key);
      if (entry === undefined) return found;
      const prior = entry.prior;
      return prior === null || prior === undefined
        ? undefined
        : { value: prior, timestamp: UNKNOWN };
    },
  };
}

/**
 * The store a join (or a foreign-key join's processor) reads a table from: the first of the
 * node's stores that is a key-value store. A suppression buffer among them (a suppressed table's
 * getter) is read by its getter step instead; a time-ordered join buffer is not a key-value store.
 */
export function tableStoreOf(
  ctx: ProcessorContext,
  names: readonly string[],
): KeyValueStore | undefined {
  for (const n of names) {
    const s = ctx.stores.get(n);
    if (s !== undefined) return s;
  }
  return undefined;
}

// KTableTransformValuesGetter#get: the transformer runs in a record context of the value read
// (its timestamp, or UNKNOWN; no topic, partition, offset or headers).
function transformerStep(
  ctx: ProcessorContext,
  transformer: ValueTransformerWithKey,
  reader: PlannedNode,
): StepInstance {
  let current: TransformRecordContext | null = null;
  const context = transformerContext(ctx, reader.name, reader.stores, () => {
    if (current !== null) return current;
    return {
      timestamp: ctx.currentTimestamp,
      topic: ctx.recordMetadata?.topic ?? null,
      partition: ctx.recordMetadata?.partition ?? -1,
      offset: ctx.recordMetadata?.offset ?? -1,
      headers: NO_HEADERS,
    };
  });
  return {
    init: () => transformer.init?.(context),
    close: () => transformer.close?.(),
    apply(key, found) {
      const timestamp = found === undefined ? UNKNOWN : found.timestamp;
      const outer = current;
      current = { timestamp, topic: null, partition: -1, offset: -1, headers: NO_HEADERS };
      try {
        const value = transformer.transform(key, found?.value ?? null);
        // ValueAndTimestamp.make: a null value is no row.
        return value === null || value === undefined ? undefined : { value, timestamp };
      } finally {
        current = outer;
      }
    },
  };
}

/** The reading processor with its getter's transformers initialized and closed alongside it. */
export function withTableGetter(processor: Processor, getter: TaskTableGetter | null): Processor {
  if (getter === null) return processor;
  return {
    process: (record) => processor.process(record),
    init() {
      getter.init();
      processor.init?.();
    },
    close() {
      processor.close?.();
      getter.close();
    },
  };
}

/**
 * A table's value and timestamp for a key, read from its store through the getter chain;
 * undefined when the table has no row for it.
 */
export function getThrough(
  store: KeyValueStore | undefined,
  key: unknown,
  getter: TableGetter | null,
): ValueAndTimestamp | undefined {
  const found = store?.get(key);
  return getter === null ? found : getter(key, found);
}
