// Kafka Streams' KStreamKStreamJoin (3.1+ semantics). Each side's KSTREAM-WINDOWED node puts its
// records into that side's window buffer; the JOINTHIS / JOINOTHER processor then joins a record
// with the other side's records within [ts − before, ts + after] (mirrored for the right side),
// each result carrying the larger timestamp. In left / outer joins an unmatched record waits in
// the shared outer store until its window closes (stream time > ts + lookback + grace) and is then
// emitted with null for the other side — never before, so no spurious (v, null) precedes a match.
// Stream time is shared by both sides. The window stores (`<JOINTHIS|JOINOTHER name>-store`) and
// the outer store (`KSTREAM-OUTERSHARED-<n>-store`) are the task's changelogged stores, restored
// before processing (persistent ones, the default, read back from lmdb), so a restarted join
// still matches and closes what it buffered.
import type { JoinWindowSpec } from '@streamwright/topology-model';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { isNullish, type EngineRecord } from '../processor/record.js';
import { OuterJoinStore, type JoinSide } from '../state/outer-join-store.js';
import { SegmentedWindowStore, type WindowEntry } from '../state/window-store.js';

export type { JoinSide } from '../state/outer-join-store.js';
export type Joiner = (key: unknown, left: unknown, right: unknown) => unknown;

/** What both sides of one join share within a task (Kafka's shared TimeTracker). */
export class StreamJoinState {
  streamTime = -1;
  constructor(readonly window: JoinWindowSpec) {}
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

/** KStreamJoinWindow: put the record into its side's window store, then pass it on. */
export function joinWindowProcessor(ctx: ProcessorContext, storeName: string): Processor {
  let store: SegmentedWindowStore;
  return {
    init() {
      store = ctx.stateStore(storeName, SegmentedWindowStore);
    },
    process(record: EngineRecord) {
      if (!isNullish(record.key) && !isNullish(record.value))
        store.put(record.key, record.value, record.timestamp, record.timestamp);
      ctx.forward(record);
    },
  };
}

export interface StreamJoinOptions {
  side: JoinSide;
  /** Whether this side's unmatched records produce results (left side of left joins; both of outer). */
  outer: boolean;
  /**
   * The processor's stores: the other side's window store and, in left and outer joins, the
   * shared outer store (unmatched records awaiting window close), told apart by kind.
   */
  stores: readonly string[];
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
  let otherWindows: SegmentedWindowStore | undefined;
  let pending: OuterJoinStore | null = null;
  // One array for every fetch: forwarding never comes back to this processor (a DAG), so the
  // loop below is done with it before the next record fetches into it.
  const matches: WindowEntry[] = [];
  // Kafka forwards a closed record as `record.withKey(..).withValue(..).withTimestamp(..)` of the
  // record being processed (KStreamKStreamJoin#forwardNonJoinedOuterRecords): the emitted result
  // carries the headers of the record whose stream time closed the window, not the stored ones.
  const emitClosed = (outer: OuterJoinStore, headers: EngineRecord['headers']): void => {
    if (outer.empty) return;
    let leftOpen = false;
    let rightOpen = false;
    // From here on both sides' windows are open: the records on disk only there are not read.
    const openFrom = state.streamTime - Math.min(w.afterMs, w.beforeMs) - w.graceMs;
    outer.scan(openFrom, (p) => {
      // A left record's window stays open for `after`, a right record's for `before`.
      const lookBack = p.side === 'left' ? w.afterMs : w.beforeMs;
      if (p.timestamp + lookBack + w.graceMs >= state.streamTime) {
        if (p.side === 'left') leftOpen = true;
        else rightOpen = true;
        return leftOpen && rightOpen ? 'stop' : 'keep';
      }
      const value =
        p.side === 'left'
          ? options.joiner(p.key, p.value, null)
          : options.joiner(p.key, null, p.value);
      ctx.forward({ key: p.key, value, timestamp: p.timestamp, headers });
      return 'emit';
    });
  };
  return {
    init() {
      for (const name of options.stores) {
        const store = ctx.stateStores.get(name);
        if (store instanceof SegmentedWindowStore) otherWindows = store;
        else if (store instanceof OuterJoinStore) pending = store;
      }
      if (otherWindows === undefined || (options.hasOuterStore && pending === null))
        throw new Error(
          `a stream–stream join needs the other side's window store${options.hasOuterStore ? ' and the outer store' : ''} among its stores [${options.stores.join(', ')}]`,
        );
    },
    process(record: EngineRecord) {
      const ts = record.timestamp;
      // As Kafka's process(): every record advances the shared stream time, even one dropped
      // below for its null key or value, and closed windows are emitted only by a record at
      // stream time (not by an out-of-order one).
      state.streamTime = Math.max(state.streamTime, ts);
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
      const timeFrom = Math.max(0, ts - before);
      const timeTo = Math.max(0, ts + after);
      if (pending !== null && ts === state.streamTime) emitClosed(pending, record.headers);
      let needOuterJoin = options.outer;
      const found = otherWindows!.fetchRangeInto(record.key, timeFrom, timeTo, matches);
      for (let i = 0; i < found; i++) {
        const o = matches[i]!;
        needOuterJoin = false;
        pending?.delete(other, record.key, o.start);
        ctx.forward({
          key: record.key,
          value: join(record.key, record.value, o.value),
          timestamp: Math.max(ts, o.start),
          headers: record.headers,
        });
      }
      if (!needOuterJoin) return;
      if (pending === null || timeTo < state.streamTime) {
        ctx.forward({
          key: record.key,
          value: join(record.key, record.value, null),
          timestamp: ts,
          headers: record.headers,
        });
        return;
      }
      pending.put(options.side, record.key, ts, record.value, record.headers);
    },
  };
}
