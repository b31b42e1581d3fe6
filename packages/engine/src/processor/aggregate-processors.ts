// Aggregations of a grouped stream: Kafka Streams' KStreamAggregate (count, aggregate, and each
// input of a cogroup) and KStreamReduce. Records with a null key or value are skipped and counted
// in dropped-records; the result carries the larger of the record's and the previous aggregate's
// timestamp and is forwarded as a KTable Change (old value only when sendOldValues).
import type { KeyValueStore } from '../state/key-value-store.js';
import { isVersionedStore } from '../state/versioned-store.js';
import { changeForwarder, putVersionAndForward } from './change-forwarder.js';
import type { CompiledLogic } from './logic.js';
import type { ProcessorContext } from './processor-context.js';
import type { Processor } from './processor-node.js';
import { isNullish, type EngineRecord } from './record.js';

export interface AggregateOptions {
  store: KeyValueStore;
  sendOldValues: boolean;
}

/** KStreamAggregate: `initializer()` for a new key, then `aggregator({key, value, agg})`. */
export function streamAggregateProcessor(
  ctx: ProcessorContext,
  initializer: CompiledLogic,
  aggregator: CompiledLogic,
  { store, sendOldValues }: AggregateOptions,
): Processor {
  const forward = changeForwarder(ctx, store.name, sendOldValues);
  return {
    process(record: EngineRecord) {
      if (isNullish(record.key) || isNullish(record.value)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const old = store.get(record.key);
      let oldAgg: unknown;
      let timestamp: number;
      if (old === undefined) {
        oldAgg = initializer({});
        timestamp = record.timestamp;
      } else {
        oldAgg = old.value;
        timestamp = Math.max(record.timestamp, old.timestamp);
      }
      const before = old === undefined ? null : oldAgg;
      const newAgg = aggregator({ key: record.key, value: record.value, agg: oldAgg });
      if (isVersionedStore(store)) {
        // KStreamAggregate over a versioned store (KIP-914): the put's validTo decides.
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
      // A null aggregate deletes: Kafka logs the tombstone with the record's own timestamp.
      store.put(record.key, newAgg, isNullish(newAgg) ? record.timestamp : timestamp);
      // As KStreamAggregate: the old value sent is the initializer's result for a new key (with
      // a record cache, the value at the last flush).
      forward(record.key, newAgg, oldAgg, before, timestamp, record.headers);
    },
  };
}

/** count(): KStreamAggregate with initializer 0 and aggregator agg + 1. */
export function streamCountProcessor(ctx: ProcessorContext, options: AggregateOptions): Processor {
  return streamAggregateProcessor(
    ctx,
    () => 0,
    (vars) => (vars as { agg: number }).agg + 1,
    options,
  );
}

/** KStreamReduce: the first value of a key is the aggregate; later ones `reducer({key, value, agg})`. */
export function streamReduceProcessor(
  ctx: ProcessorContext,
  reducer: CompiledLogic,
  { store, sendOldValues }: AggregateOptions,
): Processor {
  const forward = changeForwarder(ctx, store.name, sendOldValues);
  return {
    process(record: EngineRecord) {
      if (isNullish(record.key) || isNullish(record.value)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const old = store.get(record.key);
      // Read before the put: an in-memory store updates its entry in place.
      const before = old === undefined ? null : old.value;
      let newAgg: unknown;
      let timestamp: number;
      if (old === undefined) {
        newAgg = record.value;
        timestamp = record.timestamp;
      } else {
        newAgg = reducer({ key: record.key, value: record.value, agg: old.value });
        timestamp = Math.max(record.timestamp, old.timestamp);
      }
      if (isVersionedStore(store)) {
        putVersionAndForward(
          ctx,
          store,
          sendOldValues,
          record.key,
          newAgg,
          before,
          timestamp,
          record.headers,
        );
        return;
      }
      // A null aggregate deletes: Kafka logs the tombstone with the record's own timestamp.
      store.put(record.key, newAgg, isNullish(newAgg) ? record.timestamp : timestamp);
      forward(record.key, newAgg, before, before, timestamp, record.headers);
    },
  };
}
