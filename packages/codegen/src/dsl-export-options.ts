// The option objects of the exported DSL program for windows, joins and suppression (TimeWindows,
// SlidingWindows, SessionWindows, JoinWindows, StreamJoined / Joined, Suppressed with its
// BufferConfig), spelled as docs/DSL.md's API from topology-model's configs.
import type { StoreSpec } from '@streamwright/topology-model';
import type { RawNode } from './document-node.js';

/** Records that the program imports a DSL name, and returns it. */
export type Use = (name: string) => string;

const SERDE: Record<string, string> = {
  string: 'Serdes.String()',
  long: 'Serdes.Long()',
  integer: 'Serdes.Integer()',
  double: 'Serdes.Double()',
  bytes: 'Serdes.ByteArray()',
  json: 'Serdes.Json()',
};

export const str = (s: string) =>
  `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
export const serde = (name: unknown) => SERDE[String(name)] ?? 'Serdes.Json()';

export const num = (value: unknown) => (typeof value === 'number' ? String(value) : '0');
/** TimeWindows / SlidingWindows / SessionWindows, as topology-model's window spec says. */
export function windows(spec: unknown, use: Use): string {
  const w = (spec ?? {}) as Record<string, unknown>;
  const grace = typeof w.graceMs === 'number' && w.graceMs > 0 ? w.graceMs : null;
  switch (w.type) {
    case 'tumbling':
    case 'hopping': {
      const base =
        grace === null
          ? `${use('TimeWindows')}.ofSizeWithNoGrace(${num(w.sizeMs)})`
          : `${use('TimeWindows')}.ofSizeAndGrace(${num(w.sizeMs)}, ${grace})`;
      return w.type === 'hopping' ? `${base}.advanceBy(${num(w.advanceMs)})` : base;
    }
    case 'sliding':
      return grace === null
        ? `${use('SlidingWindows')}.ofTimeDifferenceWithNoGrace(${num(w.timeDifferenceMs)})`
        : `${use('SlidingWindows')}.ofTimeDifferenceAndGrace(${num(w.timeDifferenceMs)}, ${grace})`;
    case 'session':
      return grace === null
        ? `${use('SessionWindows')}.ofInactivityGapWithNoGrace(${num(w.gapMs)})`
        : `${use('SessionWindows')}.ofInactivityGapAndGrace(${num(w.gapMs)}, ${grace})`;
    default:
      return '/* window */ undefined as never';
  }
}
/** JoinWindows.ofTimeDifference…(after[, grace]), .before(before) when the two differ. */
export function joinWindows(spec: unknown, use: Use): string {
  const w = (spec ?? {}) as Record<string, unknown>;
  const grace = typeof w.graceMs === 'number' && w.graceMs > 0 ? w.graceMs : null;
  const base =
    grace === null
      ? `${use('JoinWindows')}.ofTimeDifferenceWithNoGrace(${num(w.afterMs)})`
      : `${use('JoinWindows')}.ofTimeDifferenceAndGrace(${num(w.afterMs)}, ${grace})`;
  return w.beforeMs === w.afterMs ? base : `${base}.before(${num(w.beforeMs)})`;
}
/**
 * StreamJoined / Joined: the join's serdes, name and (Joined#withGracePeriod) grace period, or
 * null when it has none of them.
 */
export function joinOptions(
  cls: 'StreamJoined' | 'Joined',
  node: RawNode,
  use: Use,
): string | null {
  const c = node.config;
  let out: string | null = null;
  if (c.keySerde !== undefined || c.valueSerde !== undefined) {
    out = `${use(cls)}.with(${serde(c.keySerde ?? 'string')}, ${serde(c.valueSerde ?? 'json')})`;
    if (node.name) out += `.withName(${str(node.name)})`;
  } else if (node.name)
    // StreamJoined.as names the stores (withStoreName), Joined.as the processor.
    out =
      cls === 'Joined'
        ? `${use(cls)}.as(${str(node.name)})`
        : `${use(cls)}.with(null, null).withName(${str(node.name)})`;
  if (cls === 'Joined' && typeof c.gracePeriodMs === 'number')
    // null serdes: the stream's, as Kafka's Joined.with accepts
    out = `${out ?? `${use(cls)}.with(null, null)`}.withGracePeriod(${num(c.gracePeriodMs)})`;
  if (cls === 'StreamJoined') {
    const more = streamJoinedCalls(c, use);
    if (more !== '') out = `${out ?? `${use(cls)}.with(null, null)`}${more}`;
  }
  return out;
}

/** StreamJoined's store options: withOtherValueSerde, withStoreName, suppliers, logging. */
function streamJoinedCalls(c: Record<string, unknown>, use: Use): string {
  let out = '';
  if (c.otherValueSerde !== undefined) out += `.withOtherValueSerde(${serde(c.otherValueSerde)})`;
  if (typeof c.storeName === 'string') out += `.withStoreName(${str(c.storeName)})`;
  const supplier = (spec: unknown): string => {
    const s = (spec ?? {}) as Record<string, unknown>;
    const factory = s.type === 'inMemory' ? 'inMemoryWindowStore' : 'persistentWindowStore';
    return `${use('Stores')}.${factory}(${str(String(s.name))}, ${num(s.retentionMs)}, ${num(s.windowSizeMs)}, ${s.retainDuplicates === true})`;
  };
  if (c.thisStoreSupplier !== undefined)
    out += `.withThisStoreSupplier(${supplier(c.thisStoreSupplier)})`;
  if (c.otherStoreSupplier !== undefined)
    out += `.withOtherStoreSupplier(${supplier(c.otherStoreSupplier)})`;
  if (c.dslStoreSuppliers !== undefined) {
    const kind =
      c.dslStoreSuppliers === 'in_memory'
        ? 'InMemoryDslStoreSuppliers'
        : 'RocksDBDslStoreSuppliers';
    out += `.withDslStoreSuppliers(new ${use('BuiltInDslStoreSuppliers')}.${kind}())`;
  }
  if (c.logging === false) out += '.withLoggingDisabled()';
  else if (c.logConfig !== undefined && c.logConfig !== null)
    out += `.withLoggingEnabled(${JSON.stringify(c.logConfig)})`;
  return out;
}
/** Suppressed.untilWindowCloses / untilTimeLimit with its BufferConfig (and name). */
export function suppressed(node: RawNode, use: Use): string {
  const c = node.config;
  const whenFull = c.whenFull === 'emitEarly' ? 'emitEarly' : 'shutDown';
  let buffer: string;
  if (typeof c.maxRecords === 'number') {
    buffer = `${use('BufferConfig')}.maxRecords(${c.maxRecords})`;
    if (typeof c.maxBytes === 'number') buffer += `.withMaxBytes(${c.maxBytes})`;
  } else if (typeof c.maxBytes === 'number')
    buffer = `${use('BufferConfig')}.maxBytes(${c.maxBytes})`;
  else buffer = `${use('BufferConfig')}.unbounded()`;
  // bounded buffers emit early by default, unbounded ones are strict (Kafka's BufferConfig)
  const bounded = typeof c.maxRecords === 'number' || typeof c.maxBytes === 'number';
  if (bounded && whenFull === 'shutDown') buffer += '.shutDownWhenFull()';
  if (!bounded && whenFull === 'emitEarly') buffer += '.emitEarlyWhenFull()';
  const until =
    c.until === 'timeLimit'
      ? `${use('Suppressed')}.untilTimeLimit(${num(c.timeLimitMs)}, ${buffer})`
      : `${use('Suppressed')}.untilWindowCloses(${buffer})`;
  return node.name ? `${until}.withName(${str(node.name)})` : until;
}

/** `Stores.persistentVersionedKeyValueStore(name, historyRetentionMs[, segmentIntervalMs])`. */
export function versionedSupplier(
  name: string,
  v: { historyRetentionMs?: number | undefined; segmentIntervalMs?: number | undefined },
): string {
  const segment = v.segmentIntervalMs === undefined ? '' : `, ${num(v.segmentIntervalMs)}`;
  return `Stores.persistentVersionedKeyValueStore(${str(name)}, ${num(v.historyRetentionMs)}${segment})`;
}

/**
 * `keyValueStoreBuilder(Stores.persistentKeyValueStore(name)`, or the window / session store
 * builder with its supplier (retention, window size, duplicates), up to the serdes.
 */
export function storeBuilder(s: StoreSpec): string {
  const where = s.storeType === 'inMemory' ? 'inMemory' : 'persistent';
  if (s.type === 'window')
    return `windowStoreBuilder(Stores.${where}WindowStore(${str(s.name)}, ${num(s.retentionMs)}, ${num(s.windowSizeMs)}, ${s.retainDuplicates === true})`;
  if (s.type === 'session')
    return `sessionStoreBuilder(Stores.${where}SessionStore(${str(s.name)}, ${num(s.retentionMs)})`;
  if (s.type === 'versioned')
    return `versionedKeyValueStoreBuilder(${versionedSupplier(s.name, s)}`;
  return `keyValueStoreBuilder(Stores.${where}KeyValueStore(${str(s.name)})`;
}
