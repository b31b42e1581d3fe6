// The processors of the v1 operations. Each is a small closure over what was compiled once per
// planned node (expressions, serdes); per task only the context differs.
import type { CompiledExpression } from '@streamwright/topology-model';
import type { Serde } from '../serdes/serde.js';
import type { ProcessorContext } from './processor-context.js';
import type { Processor } from './processor-node.js';
import { Change, isChange, type EngineRecord } from './record.js';

/** Source (and generator-as-source): decoding happens before, in the task; here it only forwards. */
export function sourceProcessor(ctx: ProcessorContext): Processor {
  return { process: (record) => ctx.forward(record) };
}

/** Peek without an action is a pass-through; the node still counts what flows by. */
export const passThroughProcessor = sourceProcessor;

export function filterProcessor(ctx: ProcessorContext, predicate: CompiledExpression<'filter'>): Processor {
  return {
    process(record) {
      if (predicate.evaluate(record) === true) ctx.forward(record);
    },
  };
}

export function mapValuesProcessor(ctx: ProcessorContext, mapper: CompiledExpression<'mapValues'>): Processor {
  return {
    process(record) {
      ctx.forward({ key: record.key, value: mapper.evaluate(record), timestamp: record.timestamp, headers: record.headers });
    },
  };
}

export function sinkProcessor(ctx: ProcessorContext, topic: string, keySerde: Serde<unknown>, valueSerde: Serde<unknown>): Processor {
  return {
    process(record) {
      const key = keySerde.serialize(record.key);
      const value = valueSerde.serialize(record.value);
      ctx.collector.send({ topic, key, value, timestamp: record.timestamp, headers: record.headers });
      ctx.currentNode!.metrics.recordsProducedTotal++;
    },
  };
}

/**
 * groupByKey().count(): Kafka Streams' KStreamAggregate with initializer 0 and adder +1. Records
 * with a null key or value are skipped and counted in dropped-records; the new count carries the
 * larger of the record's and the previous aggregate's timestamp, and is forwarded as a KTable
 * change (old value only when requested downstream, which v1 never does).
 */
export function countProcessor(ctx: ProcessorContext, storeName: string): Processor {
  const store = ctx.store(storeName);
  return {
    process(record: EngineRecord) {
      if (record.key === null || record.key === undefined || record.value === null || record.value === undefined) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const old = store.get(record.key);
      const count = old === undefined ? 1 : (old.value as number) + 1;
      const timestamp = old === undefined ? record.timestamp : Math.max(record.timestamp, old.timestamp);
      store.put(record.key, count, timestamp);
      ctx.forward({ key: record.key, value: new Change(count, null), timestamp, headers: record.headers });
    },
  };
}

/** KTable#toStream: the change's new value becomes the stream record's value. */
export function toStreamProcessor(ctx: ProcessorContext): Processor {
  return {
    process(record) {
      const value = isChange(record.value) ? record.value.newValue : record.value;
      ctx.forward({ key: record.key, value, timestamp: record.timestamp, headers: record.headers });
    },
  };
}
