// Kafka Streams' KStreamSessionWindowAggregate: a record opens the session [ts, ts]; every
// session of its key ending no earlier than ts − gap and starting no later than ts + gap is merged
// into it (their aggregates combined by the merger, their rows removed with a tombstone forwarded
// for each); the merged session is dropped (dropped-records) when it ends before the close time,
// observed stream time − grace − gap (a session can still grow until gap after its end). Results carry the session end as their timestamp.
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { changeForwarder, logThroughRecordCache } from '../processor/change-forwarder.js';
import { isNullish, type EngineRecord } from '../processor/record.js';
import { SegmentedSessionStore } from '../state/session-store.js';
import type { WindowAggregation } from './window-aggregate.js';
import { SessionEmitOnClose } from './emit-on-close.js';
import { windowedKey } from './windowed-key.js';

export interface SessionAggregation extends WindowAggregation {
  merge(key: unknown, agg1: unknown, agg2: unknown): unknown;
}

export interface SessionAggregateOptions {
  storeName: string;
  gapMs: number;
  graceMs: number;
  retentionMs: number;
  sendOldValues: boolean;
  emitStrategy: 'onWindowUpdate' | 'onWindowClose';
  /** onWindowClose: wall-clock ms between looks for closed windows. */
  emitIntervalMs: number;
}

export function sessionWindowAggregateProcessor(
  ctx: ProcessorContext,
  aggregation: SessionAggregation,
  options: SessionAggregateOptions,
): Processor {
  let store: SegmentedSessionStore;
  let observedStreamTime = -1;
  // onWindowClose: no updates (nor tombstones of merged sessions), final results once closed.
  const onClose =
    options.emitStrategy === 'onWindowClose'
      ? new SessionEmitOnClose(ctx, options.emitIntervalMs)
      : null;
  // Through the store's record cache when it has one (Kafka's CachingSessionStore): a merged
  // session's removal and the merged session are then updates of their windowed keys.
  const forward =
    onClose === null
      ? changeForwarder(ctx, options.storeName, options.sendOldValues)
      : () => undefined;
  // KStreamSessionWindowAggregate forwards its updates as new Records (key, change, session end)
  // without the input's headers; through a record cache they carry the headers of the record
  // context the cache entry was written in, as every cached store's flush does.
  const cached = ctx.recordCache(options.storeName) !== null;
  return {
    init() {
      store = ctx.stateStore(options.storeName, SegmentedSessionStore);
      if (onClose === null) logThroughRecordCache(ctx, options.storeName, store);
      onClose?.init();
    },
    process(record: EngineRecord) {
      if (isNullish(record.key)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const ts = record.timestamp;
      observedStreamTime = Math.max(observedStreamTime, ts);
      const closeTime = observedStreamTime - options.graceMs - options.gapMs;
      // Final results first: a session closes (end + gap + grace) exactly as the store's
      // retention (gap + grace) passes it, so the puts below could drop it unemitted; only a
      // record that moves stream time emits, and it merges no session that just closed.
      onClose?.maybeEmit(store, closeTime, record.headers);
      const merged = store.findSessions(record.key, ts - options.gapMs, ts + options.gapMs);
      let start = ts;
      let end = ts;
      let agg = aggregation.initial();
      for (const s of merged) {
        agg = aggregation.merge(record.key, agg, s.value);
        start = Math.min(start, s.start);
        end = Math.max(end, s.end);
      }
      if (end < closeTime) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const headers = cached ? record.headers : {};
      if (start !== ts || end !== ts) {
        for (const s of merged) {
          // Read before the removal: the store nulls the entry it handed out.
          const old = s.value;
          store.remove(s.key, s.start, s.end, ts);
          forward(windowedKey(s.key, s.start, s.end), null, old, old, s.end, headers, ts);
        }
      }
      agg = aggregation.add(record.key, record.value, agg);
      // The merged session is new to the store (one with the same bounds was removed above).
      store.put({ key: record.key, start, end, value: agg }, ts);
      forward(windowedKey(record.key, start, end), agg, null, null, end, headers, ts);
    },
  };
}
