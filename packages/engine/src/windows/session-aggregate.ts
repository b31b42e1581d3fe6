// Kafka Streams' KStreamSessionWindowAggregate: a record opens the session [ts, ts]; every
// session of its key ending no earlier than ts − gap and starting no later than ts + gap is merged
// into it (their aggregates combined by the merger, their rows removed with a tombstone forwarded
// for each); the merged session is dropped (dropped-records) when it ends before the close time,
// observed stream time − grace − gap (a session can still grow until gap after its end). Results carry the session end as their timestamp.
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { Change, isNullish, type EngineRecord } from '../processor/record.js';
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
  const forward = onClose === null ? (r: EngineRecord) => ctx.forward(r) : () => undefined;
  return {
    init() {
      store = ctx.stateStore(options.storeName, SegmentedSessionStore);
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
      if (start !== ts || end !== ts) {
        for (const s of merged) {
          store.remove(s.key, s.start, s.end, ts);
          forward({
            key: windowedKey(s.key, s.start, s.end),
            value: new Change(null, options.sendOldValues ? s.value : null),
            timestamp: s.end,
            headers: record.headers,
          });
        }
      }
      agg = aggregation.add(record.key, record.value, agg);
      store.put({ key: record.key, start, end, value: agg }, ts);
      forward({
        key: windowedKey(record.key, start, end),
        value: new Change(agg, null),
        timestamp: end,
        headers: record.headers,
      });
    },
  };
}
