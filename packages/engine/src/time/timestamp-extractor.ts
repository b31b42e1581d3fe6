// Kafka Streams' TimestampExtractor, chosen by `default.timestamp.extractor` (Kafka's class names,
// simple or fully qualified) and optionally `default.timestamp.extractor.expression` (CEL over the
// deserialized record). What happens to an invalid (negative) timestamp follows the extractor:
// - FailOnInvalidTimestamp (default): the task fails when the record is reached;
// - LogAndSkipOnInvalidTimestamp: the record is skipped and counted in dropped-records;
// - UsePartitionTimeOnInvalidTimestamp: the partition's time (largest valid timestamp so far)
//   is used instead; with no partition time yet the task fails, as in Kafka Streams;
// - WallclockTimestampExtractor: the wall-clock time when the record is queued (never invalid).
import type { AppConfig, TimestampExtractorSpec } from '@streamwright/topology-model';
import { compileExpression } from '@streamwright/topology-model/expressions';
import type { StoredRecord } from '../backend-spi.js';
import { UnsupportedConfigError } from '../errors.js';
import type { Serde } from '../serdes/serde.js';

export type TimestampExtractorName =
  | 'FailOnInvalidTimestamp'
  | 'LogAndSkipOnInvalidTimestamp'
  | 'UsePartitionTimeOnInvalidTimestamp'
  | 'WallclockTimestampExtractor';

export const TIMESTAMP_EXTRACTOR_CONFIG = 'default.timestamp.extractor';
export const TIMESTAMP_EXPRESSION_CONFIG = 'default.timestamp.extractor.expression';

const NAMES: readonly TimestampExtractorName[] = [
  'FailOnInvalidTimestamp',
  'LogAndSkipOnInvalidTimestamp',
  'UsePartitionTimeOnInvalidTimestamp',
  'WallclockTimestampExtractor',
];

export interface TimestampExtractorConfig {
  name: TimestampExtractorName;
  /** CEL returning epoch milliseconds (int) or an RFC 3339 text; null: the record's timestamp. */
  expression: string | null;
}

export function timestampExtractorConfig(config: AppConfig): TimestampExtractorConfig {
  const raw = config[TIMESTAMP_EXTRACTOR_CONFIG];
  let name: TimestampExtractorName = 'FailOnInvalidTimestamp';
  if (raw !== undefined) {
    const simple = String(raw).replace(/^org\.apache\.kafka\.streams\.processor\./, '');
    if (!NAMES.includes(simple as TimestampExtractorName)) {
      throw new UnsupportedConfigError(
        `${TIMESTAMP_EXTRACTOR_CONFIG}=${String(raw)} is not supported: use one of ${NAMES.join(', ')}`,
      );
    }
    name = simple as TimestampExtractorName;
  }
  const expression = config[TIMESTAMP_EXPRESSION_CONFIG];
  if (expression !== undefined && typeof expression !== 'string') {
    throw new UnsupportedConfigError(
      `${TIMESTAMP_EXPRESSION_CONFIG} must be a CEL expression (a string)`,
    );
  }
  if (expression !== undefined && name === 'WallclockTimestampExtractor') {
    throw new UnsupportedConfigError(
      `${TIMESTAMP_EXPRESSION_CONFIG} cannot be combined with WallclockTimestampExtractor`,
    );
  }
  return { name, expression: expression ?? null };
}

/**
 * A source's own extractor (Consumed.withTimestampExtractor, the document's `timestampExtractor`)
 * in place of the application's: `record` / `{expression}` change where the timestamp comes from
 * and keep the application's rule for invalid ones (FailOnInvalidTimestamp when the application
 * uses the wall clock); `wallclock` is WallclockTimestampExtractor.
 */
export function sourceTimestampExtractorConfig(
  app: TimestampExtractorConfig,
  spec: TimestampExtractorSpec | undefined,
): TimestampExtractorConfig {
  if (spec === undefined) return app;
  if (spec === 'wallclock') return { name: 'WallclockTimestampExtractor', expression: null };
  const name = app.name === 'WallclockTimestampExtractor' ? 'FailOnInvalidTimestamp' : app.name;
  return { name, expression: spec === 'record' ? null : spec.expression };
}

/** The outcome for one record: its timestamp, or that it is skipped. */
export type Extracted = { timestamp: number } | { skip: true };

export interface TimestampExtractor {
  /** `partitionTime`: the partition's largest valid timestamp so far, or -1. */
  extract(
    record: StoredRecord,
    serdes: { key: Serde<unknown>; value: Serde<unknown> },
    partitionTime: number,
  ): Extracted;
}

/**
 * Null for the default (the record's own timestamp, fail on negative), which the task checks on
 * its hot path without copying records.
 */
export function createTimestampExtractor(
  config: TimestampExtractorConfig,
  now: () => number,
): TimestampExtractor | null {
  if (config.name === 'FailOnInvalidTimestamp' && config.expression === null) return null;
  if (config.name === 'WallclockTimestampExtractor')
    return { extract: () => ({ timestamp: now() }) };
  const compiled =
    config.expression === null ? null : compileExpression(config.expression, 'mapValues');
  const fromRecord = (
    record: StoredRecord,
    serdes: { key: Serde<unknown>; value: Serde<unknown> },
  ): number => {
    if (compiled === null) return record.timestamp;
    let key: unknown;
    let value: unknown;
    try {
      key = serdes.key.deserialize(record.key);
      value = serdes.value.deserialize(record.value);
    } catch {
      // Undecodable: the deserialization exception handler deals with it at the source node.
      return record.timestamp;
    }
    try {
      return toEpochMs(
        compiled.evaluate({ key, value, timestamp: record.timestamp, headers: record.headers }),
      );
    } catch {
      return -1;
    }
  };
  return {
    extract(record, serdes, partitionTime) {
      const ts = fromRecord(record, serdes);
      if (ts >= 0) return { timestamp: ts };
      switch (config.name) {
        case 'LogAndSkipOnInvalidTimestamp':
          return { skip: true };
        case 'UsePartitionTimeOnInvalidTimestamp':
          // No partition time yet: stays invalid, so the task fails (Kafka throws StreamsException).
          return { timestamp: partitionTime >= 0 ? partitionTime : ts };
        default:
          return { timestamp: ts };
      }
    },
  };
}

function toEpochMs(result: unknown): number {
  if (typeof result === 'number' && Number.isFinite(result)) return Math.trunc(result);
  if (typeof result === 'string') {
    const ms = Date.parse(result);
    return Number.isFinite(ms) ? ms : -1;
  }
  return -1;
}

export function invalidTimestampMessage(raw: StoredRecord): string {
  return (
    `Input record from ${raw.topic}-${raw.partition} offset ${raw.offset} has invalid (negative) timestamp ${raw.timestamp}. ` +
    `Use a different ${TIMESTAMP_EXTRACTOR_CONFIG} (LogAndSkipOnInvalidTimestamp or UsePartitionTimeOnInvalidTimestamp) to process this data.`
  );
}
