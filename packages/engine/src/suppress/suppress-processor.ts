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
import { SuppressionBufferStore } from '../state/suppression-buffer.js';
import { isWindowedKey } from '../windows/windowed-key.js';

export interface SuppressOptions {
  nodeName: string;
  config: SuppressConfig;
  /** untilWindowCloses: the upstream windows' grace period. */
  graceMs: number;
  /** The buffer (KTABLE-SUPPRESS-STATE-STORE-…): changelogged, restored before processing. */
  storeName: string;
}

export function suppressProcessor(ctx: ProcessorContext, options: SuppressOptions): Processor {
  const c = options.config;
  const finalResults = c.until === 'windowCloses';
  const duration = finalResults ? options.graceMs : (c.timeLimitMs ?? 0);
  let buffer: SuppressionBufferStore;
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
    (c.maxRecords !== undefined && buffer.size > c.maxRecords) ||
    (c.maxBytes !== undefined && buffer.bytes > c.maxBytes);
  // As InMemoryTimeOrderedKeyValueChangeBuffer#evictWhile: the entry is forwarded first and
  // removed after, so a join reading this table downstream (the suppression's value getter)
  // still sees the key as buffered (its prior value) while the emitted record is processed.
  const emitFirst = (): void => {
    const first = buffer.first()!;
    const change = first.record.value as Change;
    if (change.newValue !== null || !finalResults) ctx.forward(first.record);
    buffer.shift();
  };
  return {
    init() {
      // Restored from its changelog before init; stream time starts again with new records.
      buffer = ctx.stateStore(options.storeName, SuppressionBufferStore);
    },
    process(record: EngineRecord) {
      observedStreamTime = Math.max(observedStreamTime, record.timestamp);
      const change = record.value instanceof Change ? record.value : new Change(record.value, null);
      // Non-resetting: a key already buffered keeps its buffer time (and its prior value); the
      // change emitted later is the latest one, old value included (Kafka's BufferValue).
      const previous = buffer.get(record.key);
      buffer.put({ ...record, value: change }, previous?.time ?? timeOf(record));
      const expiry = observedStreamTime - duration;
      for (
        let first = buffer.first();
        first !== undefined && first.time <= expiry;
        first = buffer.first()
      )
        emitFirst();
      // As Kafka's evictWhile: the buffer metrics are sampled once per run of evictions.
      buffer.recordMetrics();
      if (!overCapacity()) return;
      if (c.whenFull === 'emitEarly') {
        while (overCapacity() && buffer.size > 0) emitFirst();
        buffer.recordMetrics();
        return;
      }
      throw new EngineError(
        'PROCESSING_FAILED',
        `${options.nodeName} buffer exceeded its max capacity. Currently [${buffer.size}/${c.maxRecords ?? Number.MAX_SAFE_INTEGER}] records and [${buffer.bytes}/${c.maxBytes ?? Number.MAX_SAFE_INTEGER}] bytes.`,
      );
    },
  };
}
