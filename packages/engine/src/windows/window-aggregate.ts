// Kafka Streams' KStreamWindowAggregate (tumbling and hopping windows): each record updates every
// window it falls in whose end is still after the close time (observed stream time − grace);
// every closed window the record falls in counts once in dropped-records (as Kafka Streams 4.1:
// a hopping-window record late for three windows counts three). Results are windowed-key KTable changes
// carrying the larger of the record's and the previous aggregate's timestamp.
import type { WindowSpec } from '@streamwright/topology-model';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { changeForwarder, logThroughRecordCache } from '../processor/change-forwarder.js';
import { isNullish, type EngineRecord } from '../processor/record.js';
import { SegmentedWindowStore } from '../state/window-store.js';
import { firstWindowStart, sizeAndAdvance } from './window-assignment.js';
import { windowedKey } from './windowed-key.js';
import { EmitOnClose } from './emit-on-close.js';

/** One aggregation step: `agg` is the initializer's value (or null for reduce) for a new window. */
export interface WindowAggregation {
  initial(): unknown;
  add(key: unknown, value: unknown, agg: unknown): unknown;
}

export interface WindowAggregateOptions {
  storeName: string;
  window: WindowSpec & { type: 'tumbling' | 'hopping' };
  emitStrategy: 'onWindowUpdate' | 'onWindowClose';
  retentionMs: number;
  sendOldValues: boolean;
  /** onWindowClose: wall-clock ms between looks for closed windows. */
  emitIntervalMs: number;
}

export function timeWindowAggregateProcessor(
  ctx: ProcessorContext,
  aggregation: WindowAggregation,
  options: WindowAggregateOptions,
): Processor {
  const { size, advance } = sizeAndAdvance(options.window);
  const grace = options.window.graceMs;
  let store: SegmentedWindowStore;
  let observedStreamTime = -1;
  const onClose =
    options.emitStrategy === 'onWindowClose'
      ? new EmitOnClose(ctx, size, { inclusiveEnd: false, intervalMs: options.emitIntervalMs })
      : null;
  // Through the store's record cache when it has one (Kafka's CachingWindowStore).
  const forward = changeForwarder(ctx, options.storeName, options.sendOldValues);
  return {
    init() {
      store = ctx.stateStore(options.storeName, SegmentedWindowStore);
      if (onClose === null) logThroughRecordCache(ctx, options.storeName, store);
      onClose?.init();
    },
    process(record: EngineRecord) {
      if (isNullish(record.key)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      observedStreamTime = Math.max(observedStreamTime, record.timestamp);
      const closeTime = observedStreamTime - grace;
      // timeWindowsFor, inline: no array or window objects per record.
      const ts = record.timestamp;
      for (let start = firstWindowStart(ts, size, advance); start <= ts; start += advance) {
        const end = start + size;
        if (end <= closeTime) {
          ctx.taskMetrics.droppedRecordsTotal++;
          continue;
        }
        const old = store.fetch(record.key, start);
        const oldAgg = old === undefined ? aggregation.initial() : old.value;
        const newAgg = aggregation.add(record.key, record.value, oldAgg);
        const timestamp =
          old === undefined ? record.timestamp : Math.max(record.timestamp, old.timestamp);
        // A null aggregate deletes: Kafka logs the tombstone with the record's own timestamp.
        store.put(record.key, newAgg, start, newAgg == null ? record.timestamp : timestamp);
        if (onClose === null)
          forward(
            windowedKey(record.key, start, end),
            newAgg,
            oldAgg ?? null,
            old === undefined ? null : (old.value ?? null),
            timestamp,
            record.headers,
            record.timestamp,
          );
      }
      onClose?.maybeEmit(store, closeTime, record.headers);
    },
  };
}
