// KTableTransformValues (KTable#transformValues): the user's ValueTransformerWithKey maps each
// change's new value (a tombstone too: Kafka calls transform with null), and, when old values are
// sent and there is no store, the old value as well, after the new one. With a store the old
// value is the store's and the result is stored and forwarded as KTableMapValues does. Its value
// getter (an unmaterialized transformValues read by a join) is in joins/table-getter.ts.
import type { Headers } from '../backend-spi.js';
import { processorBaseContext } from '../papi/user-processor.js';
import type {
  ValueTransformerContext,
  ValueTransformerWithKey,
} from '../papi/value-transformer.js';
import type { ProcessorContext } from './processor-context.js';
import type { Processor } from './processor-node.js';
import { Change, isChange } from './record.js';
import { materializedForwarder, type TableOptions } from './table-processors.js';

const NO_HEADERS: Headers = Object.freeze({});

/** What the context reports as the record being transformed. */
export interface TransformRecordContext {
  timestamp: number;
  topic: string | null;
  partition: number;
  offset: number;
  headers: Headers;
}

/**
 * A transformer's context, bound to the node it runs in (its connected stores): Kafka's
 * ForwardingDisabledProcessorContext. `current` is what timestamp() / topic() / … report.
 */
export function transformerContext(
  ctx: ProcessorContext,
  nodeName: string,
  stores: readonly string[],
  current: () => TransformRecordContext,
): ValueTransformerContext {
  const base = processorBaseContext(ctx, { nodeName, stores });
  return {
    applicationId: base.applicationId,
    taskId: base.taskId,
    timestamp: () => current().timestamp,
    topic: () => current().topic,
    partition: () => current().partition,
    offset: () => current().offset,
    headers: () => current().headers,
    currentStreamTimeMs: base.currentStreamTimeMs,
    currentSystemTimeMs: base.currentSystemTimeMs,
    schedule: base.schedule,
    getStateStore: base.getStateStore,
    commit: base.commit,
  };
}

export interface TransformValuesOptions extends TableOptions {
  nodeName: string;
  /** The node's connected stores (its own store too, when materialized). */
  stores: readonly string[];
}

export function tableTransformValuesProcessor(
  ctx: ProcessorContext,
  transformer: ValueTransformerWithKey,
  { store, sendOldValues, nodeName, stores }: TransformValuesOptions,
): Processor {
  let headers: Headers = NO_HEADERS;
  const context = transformerContext(ctx, nodeName, stores, () => ({
    timestamp: ctx.currentTimestamp,
    topic: ctx.recordMetadata?.topic ?? null,
    partition: ctx.recordMetadata?.partition ?? -1,
    offset: ctx.recordMetadata?.offset ?? -1,
    headers,
  }));
  const forward = materializedForwarder(ctx, store, sendOldValues);
  return {
    init: () => transformer.init?.(context),
    process(record) {
      const change = isChange(record.value) ? record.value : new Change(record.value, null);
      headers = record.headers;
      const newValue = transformer.transform(record.key, change.newValue ?? null) ?? null;
      if (store === null) {
        const oldValue = sendOldValues
          ? (transformer.transform(record.key, change.oldValue ?? null) ?? null)
          : null;
        ctx.forward({ ...record, value: new Change(newValue, oldValue, change.isLatest) });
        return;
      }
      forward(record, newValue, true);
    },
    close: () => transformer.close?.(),
  };
}
