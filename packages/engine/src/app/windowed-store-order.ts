// The order interactive queries return a window or session store's range reads in (all,
// fetchAll, fetch over a key range, findSessions over a key range). Kafka Streams' in-memory
// stores iterate windows by start, then key bytes, and sessions by end, then key bytes, then
// start. Its persistent (RocksDB) stores iterate segment by segment (segment = window start, or
// session end, / segment interval; Stores.persistent*Store use max(retention / 2, 60 s)) and
// within a segment by the stored key's bytes: WindowKeySchema's {key}{start: int64}{seq: int32},
// SessionKeySchema's {key}{end: int64}{start: int64}, compared byte by byte (unsigned).
import type { StorePlan } from '@streamwright/topology-model';

export type WindowedOrder = { kind: 'memory' } | { kind: 'segments'; segmentIntervalMs: number };

export const MEMORY_ORDER: WindowedOrder = { kind: 'memory' };

/** A store's orders: of whole-store and time-range scans (all, fetchAll) and of key ranges. */
export interface WindowedOrders {
  scan: WindowedOrder;
  keyRange: WindowedOrder;
}

const IN_MEMORY: WindowedOrders = { scan: MEMORY_ORDER, keyRange: MEMORY_ORDER };

/**
 * The orders of a planned window / session store, given the aggregation that owns it (if any).
 * Persistent stores iterate as RocksDB does, except where Kafka picks its time-ordered stores
 * (onWindowClose aggregations, BuiltInDslStoreSuppliers): their window keys put the time first
 * (PrefixedWindowKeySchemas.TimeFirstWindowKeySchema), so they iterate by start, then key, as
 * in-memory stores do; sliding windows' and sessions' time-ordered stores also keep a key-first
 * index, which key-range reads go through (segment by segment, by key, then time).
 */
export function windowedOrdersOf(
  plan: StorePlan,
  owner: { emitStrategy: 'onWindowUpdate' | 'onWindowClose'; windowType: string } | null,
): WindowedOrders {
  if (plan.storeType !== 'persistent') return IN_MEMORY;
  const retention = plan.retentionMs ?? 0;
  const segments: WindowedOrder = {
    kind: 'segments',
    segmentIntervalMs: Math.max(Math.trunc(retention / 2), 60_000),
  };
  if (plan.type === 'session' || owner?.emitStrategy !== 'onWindowClose')
    return { scan: segments, keyRange: segments };
  return { scan: MEMORY_ORDER, keyRange: owner.windowType === 'sliding' ? segments : MEMORY_ORDER };
}

/** A window row to order: its key's serialized bytes and its window start. */
export interface WindowRow {
  key: Uint8Array;
  start: number;
}

/** A session row to order: its key's serialized bytes, start and end. */
export interface SessionRow extends WindowRow {
  end: number;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

function int64(buffer: Buffer, offset: number, value: number): void {
  buffer.writeBigInt64BE(BigInt(Math.trunc(value)), offset);
}

/** The stored key's bytes: the row's key followed by the fixed-size suffix of the key schema. */
function storeKey(key: Uint8Array, times: number[], tail: number): Buffer {
  const out = Buffer.alloc(key.length + times.length * 8 + tail);
  out.set(key, 0);
  times.forEach((t, i) => int64(out, key.length + i * 8, t));
  return out;
}

/** Sorts window rows in place in `order` (a stable sort: duplicates keep their put order). */
export function sortWindowRows<R>(order: WindowedOrder, rows: R[], row: (r: R) => WindowRow): R[] {
  if (order.kind === 'memory')
    return rows.sort((a, b) => {
      const x = row(a);
      const y = row(b);
      return x.start - y.start || compareBytes(x.key, y.key);
    });
  const interval = order.segmentIntervalMs;
  const keyed = rows.map((r) => {
    const { key, start } = row(r);
    // {key}{start}{seq}: seq is 0 without duplicates; with them the stable sort keeps put order.
    return { r, segment: Math.trunc(start / interval), bytes: storeKey(key, [start], 4) };
  });
  keyed.sort((a, b) => a.segment - b.segment || compareBytes(a.bytes, b.bytes));
  keyed.forEach((k, i) => (rows[i] = k.r));
  return rows;
}

/** Sorts session rows in place in `order`. */
export function sortSessionRows<R>(
  order: WindowedOrder,
  rows: R[],
  row: (r: R) => SessionRow,
): R[] {
  if (order.kind === 'memory')
    return rows.sort((a, b) => {
      const x = row(a);
      const y = row(b);
      return x.end - y.end || compareBytes(x.key, y.key) || x.start - y.start;
    });
  const interval = order.segmentIntervalMs;
  const keyed = rows.map((r) => {
    const { key, start, end } = row(r);
    return { r, segment: Math.trunc(end / interval), bytes: storeKey(key, [end, start], 0) };
  });
  keyed.sort((a, b) => a.segment - b.segment || compareBytes(a.bytes, b.bytes));
  keyed.forEach((k, i) => (rows[i] = k.r));
  return rows;
}
