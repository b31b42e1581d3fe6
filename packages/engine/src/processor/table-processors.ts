// KTable processors: KTableSource (table, globalTable, toTable), KTableFilter, KTableMapValues,
// KTableMapValues-to-stream (toStream), KTableRepartitionMap (groupBy), KTablePassThrough
// (cogroup's merge) and the grouped-table aggregations KTableAggregate / KTableReduce (count,
// reduce, aggregate with adder and subtractor). They forward Change(new, old) pairs; the old
// value only when a downstream processor asked for old values (sendOldValues).
import type { KeyValueStore } from '../state/key-value-store.js';
import { isVersionedStore } from '../state/versioned-store.js';
import { changeForwarder, putVersionAndForward } from './change-forwarder.js';
import type { CompiledLogic } from './logic.js';
import type { ProcessorContext } from './processor-context.js';
import type { Processor } from './processor-node.js';
import { Change, isChange, isNullish, type EngineRecord } from './record.js';

export interface TableOptions {
  /** The node's store when it is materialized, else null. */
  store: KeyValueStore | null;
  sendOldValues: boolean;
}

function changeOf(record: EngineRecord): Change {
  return isChange(record.value) ? record.value : new Change(record.value, null);
}

const valueOf = (store: KeyValueStore | null, key: unknown): unknown =>
  store?.get(key)?.value ?? null;

/**
 * KTableSource: upserts the record into the table (a null value deletes), forwarding
 * Change(value, previous). Records with a null key are skipped and counted as dropped.
 */
export function tableSourceProcessor(
  ctx: ProcessorContext,
  { store, sendOldValues }: TableOptions,
): Processor {
  const forward = changeForwarder(ctx, store === null ? null : store.name, sendOldValues);
  return {
    process(record) {
      if (isNullish(record.key)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const value = record.value ?? null;
      if (store === null) {
        ctx.forward({ ...record, value: new Change(value, null) });
        return;
      }
      const old = valueOf(store, record.key);
      if (isVersionedStore(store)) {
        // KTableSource over a versioned store (KIP-914): see putVersionAndForward.
        putVersionAndForward(
          ctx,
          store,
          sendOldValues,
          record.key,
          value,
          old,
          record.timestamp,
          record.headers,
        );
        return;
      }
      store.put(record.key, value, record.timestamp);
      forward(record.key, value, old, old, record.timestamp, record.headers);
    },
  };
}

/**
 * KTableFilter: a value that fails the predicate becomes null (a delete downstream). With old
 * values, an update where both old and new are filtered out is not forwarded at all, unless the
 * filter reads a versioned table (`versionedSemantics`: Kafka then forwards every update).
 */
export function tableFilterProcessor(
  ctx: ProcessorContext,
  predicate: CompiledLogic,
  not: boolean,
  {
    store,
    sendOldValues,
    versionedSemantics = false,
  }: TableOptions & { versionedSemantics?: boolean },
): Processor {
  const compute = (key: unknown, value: unknown, record: EngineRecord): unknown =>
    !isNullish(value) &&
    (predicate({ key, value, timestamp: record.timestamp, headers: record.headers }) === true) !==
      not
      ? value
      : null;
  const forward = materializedForwarder(ctx, store, sendOldValues);
  const skipBothNull = sendOldValues && !versionedSemantics;
  return {
    process(record) {
      const change = changeOf(record);
      const newValue = compute(record.key, change.newValue, record);
      if (store === null) {
        const oldValue = sendOldValues ? compute(record.key, change.oldValue, record) : null;
        if (skipBothNull && oldValue === null && newValue === null) return;
        ctx.forward({ ...record, value: new Change(newValue, oldValue, change.isLatest) });
        return;
      }
      forward(record, newValue, !skipBothNull);
    },
  };
}

/** KTableMapValues: maps new (and old) values; null stays null without calling the mapper. */
export function tableMapValuesProcessor(
  ctx: ProcessorContext,
  mapper: CompiledLogic,
  { store, sendOldValues }: TableOptions,
): Processor {
  const compute = (key: unknown, value: unknown, record: EngineRecord): unknown =>
    isNullish(value)
      ? null
      : mapper({ key, value, timestamp: record.timestamp, headers: record.headers });
  const forward = materializedForwarder(ctx, store, sendOldValues);
  return {
    process(record) {
      const change = changeOf(record);
      const newValue = compute(record.key, change.newValue, record);
      if (store === null) {
        const oldValue = sendOldValues ? compute(record.key, change.oldValue, record) : null;
        ctx.forward({ ...record, value: new Change(newValue, oldValue, change.isLatest) });
        return;
      }
      forward(record, newValue, true);
    },
  };
}

/**
 * KTableFilter / KTableMapValues with a materialized store: the old value is the store's, the
 * store is written, and the change goes through the store's record cache when it has one
 * (Kafka's TimestampedTupleForwarder). `forwardBothNull` false: with old values, an update whose
 * old and new values are both null is not forwarded (KTableFilter).
 */
export function materializedForwarder(
  ctx: ProcessorContext,
  store: KeyValueStore | null,
  sendOldValues: boolean,
): (record: EngineRecord, newValue: unknown, forwardBothNull: boolean) => void {
  if (store === null) return () => {};
  if (isVersionedStore(store))
    return (record, newValue, forwardBothNull) => {
      const old = sendOldValues ? valueOf(store, record.key) : null;
      if (!forwardBothNull && old === null && newValue === null) return;
      putVersionAndForward(
        ctx,
        store,
        sendOldValues,
        record.key,
        newValue,
        old,
        record.timestamp,
        record.headers,
      );
    };
  const forward = changeForwarder(ctx, store.name, sendOldValues);
  const cached = ctx.recordCache(store.name) !== null;
  return (record, newValue, forwardBothNull) => {
    const old = sendOldValues || cached ? valueOf(store, record.key) : null;
    if (!forwardBothNull && old === null && newValue === null) return;
    store.put(record.key, newValue, record.timestamp);
    forward(record.key, newValue, old, old, record.timestamp, record.headers);
  };
}

/** KTable#toStream: the change's new value (null for a delete) becomes the stream record's value. */
export function tableToStreamProcessor(ctx: ProcessorContext): Processor {
  return {
    process(record) {
      const value = isChange(record.value) ? record.value.newValue : record.value;
      ctx.forward({ key: record.key, value, timestamp: record.timestamp, headers: record.headers });
    },
  };
}

/** KTablePassThrough (a cogroup's merge node): forwards changes as they are. */
export function tablePassThroughProcessor(ctx: ProcessorContext): Processor {
  return { process: (record) => ctx.forward(record) };
}

interface KeyValue {
  key: unknown;
  value: unknown;
}

/**
 * KTableRepartitionMap (KTable#groupBy): maps the old and the new value to (key, value) pairs.
 * When both exist under the same new key, one Change(new, old) is sent, so the aggregation
 * subtracts then adds in one step (KIP-904); otherwise the old pair is sent as a subtraction
 * first, then the new pair as an addition. Pairs with a null key or value are skipped.
 */
export function tableGroupByProcessor(ctx: ProcessorContext, selector: CompiledLogic): Processor {
  const select = (key: unknown, value: unknown, record: EngineRecord): KeyValue | null =>
    isNullish(value)
      ? null
      : (selector({
          key,
          value,
          timestamp: record.timestamp,
          headers: record.headers,
        }) as KeyValue | null);
  const usable = (kv: KeyValue | null): kv is KeyValue =>
    kv !== null && !isNullish(kv.key) && !isNullish(kv.value);
  return {
    process(record) {
      if (isNullish(record.key))
        throw new Error('Record key for the grouping KTable should not be null.');
      const change = changeOf(record);
      // KIP-914: an out-of-order update of a versioned table does not change the aggregation.
      if (!change.isLatest) return;
      const newPair = select(record.key, change.newValue, record);
      const oldPair = select(record.key, change.oldValue, record);
      const send = (key: unknown, value: Change) =>
        ctx.forward({ key, value, timestamp: record.timestamp, headers: record.headers });
      if (usable(oldPair) && usable(newPair) && sameKey(oldPair.key, newPair.key)) {
        send(newPair.key, new Change(newPair.value, oldPair.value));
        return;
      }
      if (usable(oldPair)) send(oldPair.key, new Change(null, oldPair.value));
      if (usable(newPair)) send(newPair.key, new Change(newPair.value, null));
    },
  };
}

// Java's equals on the selected keys; keys here are JSON-like values.
function sameKey(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Stores a KTableAggregate / KTableReduce result and forwards the change: over a versioned store
 * the put's validTo decides what is forwarded; otherwise a null aggregate deletes, its tombstone
 * logged with the record's own timestamp, as Kafka does.
 */
function tableAggregateWriter(
  ctx: ProcessorContext,
  store: KeyValueStore,
  sendOldValues: boolean,
  forward: ReturnType<typeof changeForwarder>,
) {
  return (record: EngineRecord, newAgg: unknown, oldAgg: unknown, timestamp: number): void => {
    if (isVersionedStore(store)) {
      putVersionAndForward(
        ctx,
        store,
        sendOldValues,
        record.key,
        newAgg,
        oldAgg,
        timestamp,
        record.headers,
      );
      return;
    }
    store.put(record.key, newAgg, isNullish(newAgg) ? record.timestamp : timestamp);
    forward(record.key, newAgg ?? null, oldAgg, oldAgg, timestamp, record.headers);
  };
}

/** A key's aggregate with the record's old value taken out (the first step of both below). */
interface Subtracted {
  change: ReturnType<typeof changeOf>;
  old: ReturnType<KeyValueStore['get']>;
  oldAgg: unknown;
  /** The aggregate after subtracting (the old aggregate when there was nothing to subtract). */
  intermediate: unknown;
  timestamp: number;
}

/**
 * KTableAggregate's and KTableReduce's first step: subtract the old value if there is one and an
 * aggregate to take it from. Null keys are an error. The result is one object per processor,
 * refilled per record (no allocation per record).
 */
function oldValueSubtractor(
  store: KeyValueStore,
  subtractor: CompiledLogic,
  operator: 'aggregate' | 'reduce',
  storeName: string,
): (record: EngineRecord) => Subtracted {
  const out: Subtracted = {
    change: undefined as never,
    old: undefined,
    oldAgg: null,
    intermediate: null,
    timestamp: 0,
  };
  return (record) => {
    if (isNullish(record.key))
      throw new Error(
        `Record key for KTable ${operator} operator with state ${storeName} should not be null.`,
      );
    const change = changeOf(record);
    const old = store.get(record.key);
    const oldAgg = old?.value ?? null;
    out.change = change;
    out.old = old;
    out.oldAgg = oldAgg;
    if (!isNullish(change.oldValue) && old !== undefined) {
      out.intermediate = subtractor({ key: record.key, value: change.oldValue, agg: oldAgg });
      out.timestamp = Math.max(record.timestamp, old.timestamp);
    } else {
      out.intermediate = oldAgg;
      out.timestamp = record.timestamp;
    }
    return out;
  };
}

export interface TableAggregateOptions {
  store: KeyValueStore;
  sendOldValues: boolean;
  storeName: string;
}

/**
 * KTableAggregate: subtract the old value (if any, and if there is an aggregate), then add the
 * new value (initializing the aggregate when there is none). Null keys are an error.
 */
export function tableAggregateProcessor(
  ctx: ProcessorContext,
  initializer: CompiledLogic,
  adder: CompiledLogic,
  subtractor: CompiledLogic,
  { store, sendOldValues, storeName }: TableAggregateOptions,
): Processor {
  const forward = changeForwarder(ctx, store.name, sendOldValues);
  const storeAndForward = tableAggregateWriter(ctx, store, sendOldValues, forward);
  const subtract = oldValueSubtractor(store, subtractor, 'aggregate', storeName);
  return {
    process(record) {
      const { change, old, oldAgg, intermediate, timestamp: subtractedAt } = subtract(record);
      let timestamp = subtractedAt;
      let newAgg: unknown;
      if (!isNullish(change.newValue)) {
        newAgg = adder({
          key: record.key,
          value: change.newValue,
          agg: isNullish(intermediate) ? initializer({}) : intermediate,
        });
        if (old !== undefined) timestamp = Math.max(record.timestamp, old.timestamp);
      } else {
        newAgg = intermediate;
      }
      storeAndForward(record, newAgg, oldAgg, timestamp);
    },
  };
}

/** KTableReduce: like KTableAggregate, but the first value of a key is the aggregate. */
export function tableReduceProcessor(
  ctx: ProcessorContext,
  adder: CompiledLogic,
  subtractor: CompiledLogic,
  { store, sendOldValues, storeName }: TableAggregateOptions,
): Processor {
  const forward = changeForwarder(ctx, store.name, sendOldValues);
  const storeAndForward = tableAggregateWriter(ctx, store, sendOldValues, forward);
  const subtract = oldValueSubtractor(store, subtractor, 'reduce', storeName);
  return {
    process(record) {
      const { change, old, oldAgg, intermediate, timestamp: subtractedAt } = subtract(record);
      let timestamp = subtractedAt;
      let newAgg: unknown;
      if (!isNullish(change.newValue)) {
        if (isNullish(intermediate)) {
          newAgg = change.newValue;
        } else {
          newAgg = adder({ key: record.key, value: change.newValue, agg: intermediate });
          if (old !== undefined) timestamp = Math.max(record.timestamp, old.timestamp);
        }
      } else {
        newAgg = intermediate;
      }
      storeAndForward(record, newAgg, oldAgg, timestamp);
    },
  };
}
