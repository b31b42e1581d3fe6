// Kafka Streams' KStreamKStreamJoin (3.1+ semantics). Each side's KSTREAM-WINDOWED node puts its
// records into that side's window buffer; the JOINTHIS / JOINOTHER processor then joins a record
// with the other side's records within [ts − before, ts + after] (mirrored for the right side),
// each result carrying the larger timestamp. In left / outer joins an unmatched record waits in
// the shared outer store until its window closes (stream time > ts + lookback + grace) and is then
// emitted with null for the other side — never before, so no spurious (v, null) precedes a match.
// Stream time is shared by both sides.
import type { JoinWindowSpec } from '@streamwright/topology-model';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { isNullish, type EngineRecord } from '../processor/record.js';
import { keyId } from '../state/window-store.js';
import { JoinWindowBuffer } from './join-buffer.js';

export type JoinSide = 'left' | 'right';
export type Joiner = (key: unknown, left: unknown, right: unknown) => unknown;

interface Pending {
  side: JoinSide;
  key: unknown;
  timestamp: number;
  value: unknown;
  headers: EngineRecord['headers'];
  sortKey: string;
}

/** State both sides of one join share within a task. */
export class StreamJoinState {
  readonly buffers: Record<JoinSide, JoinWindowBuffer>;
  streamTime = -1;
  /** The outer store: unmatched records by (timestamp, side, key), awaiting window close. */
  readonly pending = new Map<string, Pending>();

  constructor(readonly window: JoinWindowSpec) {
    const retention = window.beforeMs + window.afterMs + window.graceMs;
    this.buffers = {
      left: new JoinWindowBuffer(retention),
      right: new JoinWindowBuffer(retention),
    };
  }
}

const states = new WeakMap<ProcessorContext, Map<string, StreamJoinState>>();

/** The join's shared state in this task (one per join node). */
export function joinStateFor(
  ctx: ProcessorContext,
  joinId: string,
  window: JoinWindowSpec,
): StreamJoinState {
  let perTask = states.get(ctx);
  if (!perTask) states.set(ctx, (perTask = new Map()));
  let state = perTask.get(joinId);
  if (!state) perTask.set(joinId, (state = new StreamJoinState(window)));
  return state;
}

/** KStreamJoinWindow: buffer the record on its side, then pass it on. */
export function joinWindowProcessor(
  ctx: ProcessorContext,
  state: StreamJoinState,
  side: JoinSide,
): Processor {
  const buffer = state.buffers[side];
  return {
    process(record: EngineRecord) {
      if (!isNullish(record.key) && !isNullish(record.value))
        buffer.put(record.key, record.value, record.timestamp);
      ctx.forward(record);
    },
  };
}

function sortKeyOf(timestamp: number, side: JoinSide, key: unknown): string {
  // TimestampedKeyAndJoinSide's bytes: timestamp, then the side (right = false first), then key.
  return `${String(timestamp).padStart(16, '0')}|${side === 'left' ? 1 : 0}|${keyId(key)}`;
}

export interface StreamJoinOptions {
  side: JoinSide;
  /** Whether this side's unmatched records produce results (left side of left joins; both of outer). */
  outer: boolean;
  /** Whether the join keeps unmatched records in the shared outer store (left and outer joins). */
  hasOuterStore: boolean;
  joiner: Joiner;
}

export function streamStreamJoinProcessor(
  ctx: ProcessorContext,
  state: StreamJoinState,
  options: StreamJoinOptions,
): Processor {
  const w = state.window;
  const other: JoinSide = options.side === 'left' ? 'right' : 'left';
  const before = options.side === 'left' ? w.beforeMs : w.afterMs;
  const after = options.side === 'left' ? w.afterMs : w.beforeMs;
  const join = (key: unknown, mine: unknown, theirs: unknown): unknown =>
    options.side === 'left' ? options.joiner(key, mine, theirs) : options.joiner(key, theirs, mine);

  const emitClosed = (): void => {
    if (state.pending.size === 0) return;
    const ordered = [...state.pending.entries()].sort((a, b) =>
      a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
    );
    let leftOpen = false;
    let rightOpen = false;
    for (const [id, p] of ordered) {
      // A left record's window stays open for `after`, a right record's for `before`.
      const lookBack = p.side === 'left' ? w.afterMs : w.beforeMs;
      if (p.timestamp + lookBack + w.graceMs >= state.streamTime) {
        if (p.side === 'left') leftOpen = true;
        else rightOpen = true;
        if (leftOpen && rightOpen) break;
        continue;
      }
      state.pending.delete(id);
      const value =
        p.side === 'left'
          ? options.joiner(p.key, p.value, null)
          : options.joiner(p.key, null, p.value);
      ctx.forward({ key: p.key, value, timestamp: p.timestamp, headers: p.headers });
    }
  };

  return {
    process(record: EngineRecord) {
      if (isNullish(record.value)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      if (isNullish(record.key)) {
        // KIP-962 (3.7+): an outer side's null-key record is joined with null at once.
        if (options.outer) ctx.forward({ ...record, value: join(record.key, record.value, null) });
        else ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const ts = record.timestamp;
      const timeFrom = Math.max(0, ts - before);
      const timeTo = Math.max(0, ts + after);
      state.streamTime = Math.max(state.streamTime, ts);
      if (options.hasOuterStore) emitClosed();
      let needOuterJoin = options.outer;
      for (const o of state.buffers[other].fetch(record.key, timeFrom, timeTo)) {
        needOuterJoin = false;
        if (options.hasOuterStore) state.pending.delete(sortKeyOf(o.timestamp, other, record.key));
        ctx.forward({
          key: record.key,
          value: join(record.key, record.value, o.value),
          timestamp: Math.max(ts, o.timestamp),
          headers: record.headers,
        });
      }
      if (!needOuterJoin) return;
      if (!options.hasOuterStore || timeTo < state.streamTime) {
        ctx.forward({
          key: record.key,
          value: join(record.key, record.value, null),
          timestamp: ts,
          headers: record.headers,
        });
        return;
      }
      const sortKey = sortKeyOf(ts, options.side, record.key);
      state.pending.set(sortKey, {
        side: options.side,
        key: record.key,
        timestamp: ts,
        value: record.value,
        headers: record.headers,
        sortKey,
      });
    },
  };
}
