// Kafka Streams' KStreamSlidingWindowAggregate (SlidingWindows, KIP-450). A sliding window
// [start, start + timeDifference] is inclusive at both ends and exists only where records are:
// each record gets a left window [ts − d, ts] and, when later records of the key fall within d
// after it, a right window [ts + 1, ts + 1 + d]; it also creates the right window of the record
// before it when it falls in that window, and updates every existing window it falls in. Records
// earlier than d go into the combined window [0, d] (no negative starts). As Kafka Streams, the
// store is read backwards (its RocksDB and in-memory stores both allow it), which fixes the order
// of the forwarded updates: latest window first, then the new windows.
import type { WindowSpec } from '@streamwright/topology-model';
import type { Headers } from '../backend-spi.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { changeForwarder, logThroughRecordCache } from '../processor/change-forwarder.js';
import { isNullish, type EngineRecord } from '../processor/record.js';
import type { ValueAndTimestamp } from '../state/key-value-store.js';
import { SegmentedWindowStore } from '../state/window-store.js';
import { EmitOnClose } from './emit-on-close.js';
import type { WindowAggregation } from './window-aggregate.js';
import { windowedKey } from './windowed-key.js';

export interface SlidingAggregateOptions {
  storeName: string;
  window: WindowSpec & { type: 'sliding' };
  emitStrategy: 'onWindowUpdate' | 'onWindowClose';
  retentionMs: number;
  sendOldValues: boolean;
  /** onWindowClose: wall-clock ms between looks for closed windows. */
  emitIntervalMs: number;
}

export function slidingWindowAggregateProcessor(
  ctx: ProcessorContext,
  aggregation: WindowAggregation,
  options: SlidingAggregateOptions,
): Processor {
  const d = options.window.timeDifferenceMs;
  const grace = options.window.graceMs;
  let store: SegmentedWindowStore;
  let observedStreamTime = -1;
  const onClose =
    options.emitStrategy === 'onWindowClose'
      ? new EmitOnClose(ctx, d, { inclusiveEnd: true, intervalMs: options.emitIntervalMs })
      : null;

  // Through the store's record cache when it has one (Kafka's CachingWindowStore).
  const forward = changeForwarder(ctx, options.storeName, options.sendOldValues);
  const cached = ctx.recordCache(options.storeName) !== null && onClose === null;
  const forwardNoOld = (
    key: unknown,
    value: unknown,
    before: unknown,
    timestamp: number,
    headers: Headers,
  ): void => forward(key, value, null, before, timestamp, headers);

  /** One record's pass: the key, value, timestamp and close time it is processed with. */
  interface Pass {
    key: unknown;
    value: unknown;
    ts: number;
    closeTime: number;
    headers: Headers;
  }

  // updateWindowAndForward: aggregate into the window unless it closed (end < close time).
  const update = (p: Pass, start: number, existing: ValueAndTimestamp): void => {
    const end = start + d;
    if (end < p.closeTime) {
      ctx.taskMetrics.droppedRecordsTotal++;
      return;
    }
    const oldAgg = existing.value;
    const newAgg = aggregation.add(p.key, p.value, oldAgg);
    const timestamp = isNullish(oldAgg) ? p.ts : Math.max(p.ts, existing.timestamp);
    const before = cached ? (store.fetch(p.key, start)?.value ?? null) : null;
    store.put(p.key, newAgg, start, timestamp);
    if (onClose === null)
      forward(windowedKey(p.key, start, end), newAgg, oldAgg ?? null, before, timestamp, p.headers);
  };

  const fresh = (p: Pass): ValueAndTimestamp => ({ value: aggregation.initial(), timestamp: p.ts });

  // createCurrentRecordRightWindow: the right window holds exactly what the found window held.
  const createRightWindow = (p: Pass, rightWinAgg: ValueAndTimestamp): void => {
    const start = p.ts + 1;
    const before = cached ? (store.fetch(p.key, start)?.value ?? null) : null;
    store.put(p.key, rightWinAgg.value, start, rightWinAgg.timestamp);
    // As KStreamSlidingWindowAggregate: no old value for a new right window.
    if (onClose === null)
      forwardNoOld(
        windowedKey(p.key, start, start + d),
        rightWinAgg.value,
        before,
        rightWinAgg.timestamp,
        p.headers,
      );
  };

  const processReverse = (p: Pass): void => {
    const starts = new Set<number>();
    let leftWinAgg: ValueAndTimestamp | null = null;
    let rightWinAgg: ValueAndTimestamp | null = null;
    let leftWinAlreadyCreated = false;
    let rightWinAlreadyCreated = false;
    let previousRecordTimestamp: number | null = null;
    const windows = store.fetchRange(p.key, Math.max(0, p.ts - 2 * d), p.ts + 1).reverse();
    for (const w of windows) {
      starts.add(w.start);
      const end = w.start + d;
      if (w.start === p.ts + 1) {
        rightWinAlreadyCreated = true;
      } else if (end > p.ts) {
        rightWinAgg ??= w;
        update(p, w.start, w);
      } else if (end === p.ts) {
        leftWinAlreadyCreated = true;
        update(p, w.start, w);
        if (w.timestamp < p.ts) previousRecordTimestamp = w.timestamp;
        else return;
      } else {
        leftWinAgg = w;
        previousRecordTimestamp = w.timestamp;
        break;
      }
    }
    // createWindows
    if (previousRecordTimestamp !== null) {
      const previousRightStart = previousRecordTimestamp + 1;
      if (!starts.has(previousRightStart) && previousRightStart + d >= p.ts)
        update(p, previousRightStart, fresh(p));
    }
    if (!leftWinAlreadyCreated) {
      const leftNotEmpty = previousRecordTimestamp !== null && p.ts - d <= previousRecordTimestamp;
      const initial =
        leftNotEmpty && leftWinAgg !== null
          ? { value: leftWinAgg.value, timestamp: p.ts }
          : fresh(p);
      update(p, p.ts - d, initial);
    }
    if (!rightWinAlreadyCreated && rightWinAgg !== null && rightWinAgg.timestamp > p.ts)
      createRightWindow(p, rightWinAgg);
  };

  // processEarly: 0 ≤ ts < d, so the left window would start before 0; [0, d] stands in for it.
  const processEarly = (p: Pass): void => {
    let combined: ValueAndTimestamp | null = null;
    let rightWinAgg: ValueAndTimestamp | null = null;
    let rightWinAlreadyCreated = false;
    const starts = new Set<number>();
    let previousRecordTimestamp: number | null = null;
    for (const w of store.fetchRange(p.key, 0, p.ts + 1)) {
      starts.add(w.start);
      if (w.start === 0) {
        combined = w;
        if (w.timestamp < p.ts) previousRecordTimestamp = w.timestamp;
      } else if (w.start <= p.ts) {
        rightWinAgg = w;
        update(p, w.start, w);
      } else {
        rightWinAlreadyCreated = true;
      }
    }
    if (rightWinAgg === null && combined !== null && combined.timestamp > p.ts)
      rightWinAgg = combined;
    if (!rightWinAlreadyCreated && rightWinAgg !== null && rightWinAgg.timestamp > p.ts)
      createRightWindow(p, rightWinAgg);
    if (previousRecordTimestamp !== null && !starts.has(previousRecordTimestamp + 1))
      update(p, previousRecordTimestamp + 1, fresh(p));
    update(p, 0, combined ?? fresh(p));
  };

  return {
    init() {
      store = ctx.stateStore(options.storeName, SegmentedWindowStore);
      if (onClose === null) logThroughRecordCache(ctx, options.storeName, store);
      onClose?.init();
    },
    process(record: EngineRecord) {
      if (isNullish(record.key) || isNullish(record.value)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const ts = record.timestamp;
      observedStreamTime = Math.max(observedStreamTime, ts);
      const closeTime = observedStreamTime - grace;
      const pass: Pass = {
        key: record.key,
        value: record.value,
        ts,
        closeTime,
        headers: record.headers,
      };
      // As Kafka Streams, only records past the time difference look for closed windows to emit.
      if (ts + 1 + d <= closeTime) {
        ctx.taskMetrics.droppedRecordsTotal++;
      } else if (ts < d) {
        processEarly(pass);
      } else {
        processReverse(pass);
        onClose?.maybeEmit(store, closeTime, record.headers);
      }
    },
  };
}
