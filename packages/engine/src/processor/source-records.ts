// Turning a fetched record into an EngineRecord at a source node: deserialize with the source's
// serdes, and on failure apply `default.deserialization.exception.handler`.
import { Buffer } from 'node:buffer';
import type { StoredRecord } from '../backend-spi.js';
import { topicSerdeContext } from '../serdes/index.js';
import type { CompiledSource } from './compile.js';
import type { ExceptionHandling, ProcessorContext } from './processor-context.js';
import type { ProcessorNode } from './processor-node.js';

export function processSourceRecord(
  ctx: ProcessorContext,
  node: ProcessorNode,
  source: CompiledSource,
  raw: StoredRecord,
  deserializationHandler: ExceptionHandling,
): void {
  let key: unknown;
  let value: unknown;
  try {
    const keySerde = source.keySerde;
    key = keySerde.deserialize(raw.key, topicSerdeContext(raw.topic, true));
    if (keySerde.exactBytes === true) {
      // For a sink that writes this key unchanged with the same serde (see sinkLogicProcessor).
      ctx.sourceKeySerde = keySerde;
      ctx.sourceKey = key;
      ctx.sourceKeyBytes = raw.key;
    }
    value = source.valueSerde.deserialize(raw.value, topicSerdeContext(raw.topic, false));
  } catch (error) {
    const shown = rawRecordShown(raw);
    ctx.handleError(node, shown, error, deserializationHandler, 'deserialization', raw);
    return;
  }
  node.metrics.recordsConsumedTotal++;
  ctx.process(node, { key, value, timestamp: raw.timestamp, headers: raw.headers });
}

/**
 * A record that could not be turned into an EngineRecord (undeserializable, invalid timestamp) as
 * the error report shows it: its raw bytes as text, so the user sees what arrived.
 */
export function rawRecordShown(raw: StoredRecord): {
  key: string | null;
  value: string | null;
  timestamp: number;
  headers: StoredRecord['headers'];
} {
  return {
    key: preview(raw.key),
    value: preview(raw.value),
    timestamp: raw.timestamp,
    headers: raw.headers,
  };
}

function preview(bytes: Uint8Array | null): string | null {
  return bytes === null
    ? null
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
