// One line of `streamwright produce` input: {"key", "value", "timestamp"?, "headers"?,
// "partition"?}, checked field by field so the error names what is wrong. Headers are the ordered
// array [{"key", "value"}] (or the older object of strings), as service/headers-json.ts reads them.
import type { BatchRecord } from '../service/record-service.js';
import { parseHeadersField } from '../service/headers-json.js';
import { encodeField, FormatError, type RecordFormat } from './record-format.js';

const FIELDS = new Set(['key', 'value', 'timestamp', 'headers', 'partition']);

export interface LineFormats {
  key: RecordFormat;
  value: RecordFormat;
  /** The topic's partition count, to refuse a partition it does not have. */
  partitions: number;
}

/** Parses one line into a record, or throws a FormatError saying why it cannot be one. */
export function parseLine(line: string, formats: LineFormats): BatchRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new FormatError(`not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FormatError('expected a JSON object {"key", "value", …}');
  }
  const fields = parsed as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0) {
    throw new FormatError(
      `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (a line has key, value, timestamp, headers, partition)`,
    );
  }
  if (!('value' in fields)) throw new FormatError('value: missing (use null for a tombstone)');
  const record: BatchRecord = {
    key: encodeField(fields.key ?? null, formats.key, 'key'),
    value: encodeField(fields.value, formats.value, 'value'),
  };
  if (fields.timestamp !== undefined) {
    const ts = fields.timestamp;
    if (typeof ts !== 'number' || !Number.isSafeInteger(ts) || ts < 0) {
      throw new FormatError('timestamp: expected milliseconds since the epoch, an integer ≥ 0');
    }
    record.timestamp = ts;
  }
  if (fields.partition !== undefined) {
    const p = fields.partition;
    if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p >= formats.partitions) {
      throw new FormatError(
        `partition: the topic has partitions 0..${formats.partitions - 1}, got ${JSON.stringify(p)}`,
      );
    }
    record.partition = p;
  }
  if (fields.headers !== undefined) record.headers = parseHeaders(fields.headers);
  return record;
}

function parseHeaders(value: unknown): BatchRecord['headers'] {
  try {
    return parseHeadersField(value);
  } catch (error) {
    throw new FormatError(error instanceof Error ? error.message : String(error));
  }
}
