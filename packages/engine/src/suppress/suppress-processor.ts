// Kafka Streams' KTableSuppressProcessor: each update is buffered per key (non-resetting: a key
// keeps the buffer time of its first buffered update, its value is replaced); entries whose
// buffer time is at or before observed stream time − the suppression duration are emitted with
// the record context they were buffered with. untilWindowCloses buffers by window end with the
// window's grace as duration and drops tombstones of keys it never emitted; untilTimeLimit
// buffers by record time. A full buffer fails the task (shutDown) or emits its oldest entries.
import type { SuppressConfig } from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { Change, type EngineRecord } from '../processor/record.js';
import { keyId } from '../state/window-store.js';
import { isWindowedKey } from '../windows/windowed-key.js';

interface Buffered {
  id: string;
  /** The key's sort position among entries of the same time: base key, then window start. */
  order: [string, number];
  time: number;
  record: EngineRecord;
  bytes: number;
}

export interface SuppressOptions {
  nodeName: string;
  config: SuppressConfig;
  /** untilWindowCloses: the upstream windows' grace period. */
  graceMs: number;
}

function sizeOf(record: EngineRecord): number {
  const change = record.value as Change;
  // An estimate of the serialized entry (Kafka counts key, value, prior value and context bytes).
  return JSON.stringify([record.key, change.newValue ?? null, change.oldValue ?? null]).length + 24;
}

function orderOf(key: unknown): [string, number] {
  return isWindowedKey(key) ? [keyId(key.key), key.start] : [keyId(key), 0];
}

function before(a: Buffered, b: Buffered): boolean {
  if (a.time !== b.time) return a.time < b.time;
  if (a.order[0] !== b.order[0]) return a.order[0] < b.order[0];
  return a.order[1] < b.order[1];
}

export function suppressProcessor(ctx: ProcessorContext, options: SuppressOptions): Processor {
  const c = options.config;
  const finalResults = c.until === 'windowCloses';
  const duration = finalResults ? options.graceMs : (c.timeLimitMs ?? 0);
  const byKey = new Map<string, Buffered>();
  /**
   * Ordered by (time, key): Kafka orders by time then serialized key, and a windowed key
   * serializes as the key's bytes then the window start, so a key's windows sort by start.
   */
  let queue: Buffered[] = [];
  let bytes = 0;
  let observedStreamTime = -1;

  const timeOf = (record: EngineRecord): number => {
    if (finalResults) {
      if (!isWindowedKey(record.key))
        throw new EngineError(
          'INVALID_PLAN',
          `${options.nodeName}: untilWindowCloses suppresses a windowed table only`,
        );
      return record.key.end;
    }
    return record.timestamp;
  };
  const overCapacity = (): boolean =>
    (c.maxRecords !== undefined && byKey.size > c.maxRecords) ||
    (c.maxBytes !== undefined && bytes > c.maxBytes);
  const emitFirst = (): void => {
    const first = queue.shift() as Buffered;
    byKey.delete(first.id);
    bytes -= first.bytes;
    const change = first.record.value as Change;
    if (change.newValue === null && finalResults) return;
    ctx.forward(first.record);
  };

  return {
    process(record: EngineRecord) {
      observedStreamTime = Math.max(observedStreamTime, record.timestamp);
      const change = record.value instanceof Change ? record.value : new Change(record.value, null);
      const id = keyId(record.key);
      const previous = byKey.get(id);
      if (previous) {
        const prior = (previous.record.value as Change).oldValue;
        bytes -= previous.bytes;
        previous.record = { ...record, value: new Change(change.newValue, prior) };
        previous.bytes = sizeOf(previous.record);
        bytes += previous.bytes;
      } else {
        const entry: Buffered = {
          id,
          order: orderOf(record.key),
          time: timeOf(record),
          record: { ...record, value: change },
          bytes: 0,
        };
        entry.bytes = sizeOf(entry.record);
        bytes += entry.bytes;
        byKey.set(id, entry);
        let i = queue.length;
        while (i > 0 && before(entry, queue[i - 1] as Buffered)) i--;
        queue.splice(i, 0, entry);
      }
      const expiry = observedStreamTime - duration;
      while (queue.length > 0 && (queue[0] as Buffered).time <= expiry) emitFirst();
      if (!overCapacity()) return;
      if (c.whenFull === 'emitEarly') {
        while (overCapacity() && queue.length > 0) emitFirst();
        return;
      }
      throw new EngineError(
        'PROCESSING_FAILED',
        `${options.nodeName} buffer exceeded its max capacity. Currently [${byKey.size}/${c.maxRecords ?? Number.MAX_SAFE_INTEGER}] records and [${bytes}/${c.maxBytes ?? Number.MAX_SAFE_INTEGER}] bytes.`,
      );
    },
    close() {
      queue = [];
      byKey.clear();
    },
  };
}
