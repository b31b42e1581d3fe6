// `streamwright consume <topic>`: JSON lines on stdout, one per record. Without --follow it stops
// at the end of the log as it was when the command started; with --group it resumes from the
// group's committed offsets and commits what it has written.
import { headersJson } from '../service/headers-json.js';
import type { TopicDescription } from '@streamwright/engine';
import type { FetchedPartition, FetchedRecord } from '../service/record-service.js';
import { CliError } from './cli-error.js';
import type { Connection, TargetOptions } from './connection.js';
import { LineWriter } from './line-writer.js';
import { Progress } from './progress.js';
import type { KeyWindow } from '../service/record-codec.js';
import { decodeField, decodeWindowedField, type RecordFormat } from './record-format.js';
import { connect } from './target.js';

export interface ConsumeOptions extends TargetOptions {
  group?: string;
  fromBeginning: boolean;
  partition?: number;
  max?: number;
  follow: boolean;
  keyFormat: RecordFormat;
  keyWindow?: KeyWindow;
  valueFormat: RecordFormat;
}

/** How long one fetch waits for new records with --follow (a SIGINT cuts it short). */
const FOLLOW_WAIT_MS = 5000;
const FETCH_RECORDS = 1000;

interface Cursor {
  partition: number;
  position: number;
  /** Without --follow: stop here (the end offset when the command started). */
  end: number;
  /** The last position committed for the group. */
  committed: number | null;
}

export async function runConsume(topic: string, options: ConsumeOptions): Promise<void> {
  const connection = await connect(options, `consume ${topic}`);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const out = new LineWriter();
  const progress = new Progress(process.stderr, 'consumed');
  const showProgress = process.stdout.isTTY !== true; // never draw over records on a terminal
  let count = 0;
  try {
    const description = await connection.describeTopic(topic);
    const cursors = await startCursors(connection, description, options);
    const limit = options.max ?? Infinity;
    let idleRounds = 0;
    while (!stop.signal.aborted && !out.readerGone && count < limit) {
      const active = cursors.filter((c) => options.follow || c.position < c.end);
      if (active.length === 0) break;
      let fetched: FetchedPartition[];
      try {
        fetched = await connection.fetch(
          {
            topic,
            positions: active.map((c) => ({ partition: c.partition, offset: c.position })),
            maxRecords: Math.min(FETCH_RECORDS, limit - count),
            maxWaitMs: options.follow ? FOLLOW_WAIT_MS : 0,
          },
          stop.signal,
        );
      } catch (error) {
        if (stop.signal.aborted) break;
        throw error;
      }
      const lines: string[] = [];
      for (const response of fetched) {
        const cursor = cursors.find((c) => c.partition === response.partition);
        if (!cursor) continue;
        if (response.outOfRange) {
          // The log is shorter than the position (the topic was recreated): start over as Kafka's
          // auto.offset.reset would.
          cursor.position = options.fromBeginning
            ? response.logStartOffset
            : response.highWatermark;
          continue;
        }
        for (const record of response.records) {
          if (!options.follow && record.offset >= cursor.end) break;
          if (count + lines.length >= limit) break;
          lines.push(formatRecord(response.partition, record, options));
          cursor.position = record.offset + 1;
        }
        // Records before the log start are gone (retention): skip to it.
        if (response.records.length === 0 && cursor.position < response.logStartOffset) {
          cursor.position = response.logStartOffset;
        }
      }
      if (lines.length === 0 && !options.follow) {
        // Nothing below the end offsets although positions are below them (e.g. the tail was
        // compacted away): stop rather than spin.
        if (++idleRounds >= 2) break;
      } else {
        idleRounds = 0;
      }
      await out.write(lines);
      count += lines.length;
      if (showProgress) progress.update(count);
      if (options.group) await commit(connection, options.group, topic, cursors);
    }
    progress.done();
    if (options.group) await commit(connection, options.group, topic, cursors);
    process.stderr.write(`consumed ${count} record${count === 1 ? '' : 's'} from ${topic}\n`);
  } catch (error) {
    progress.done();
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await connection.close();
  }
}

async function startCursors(
  connection: Connection,
  topic: TopicDescription,
  options: ConsumeOptions,
): Promise<Cursor[]> {
  let ranges = topic.offsets;
  if (options.partition !== undefined) {
    ranges = ranges.filter((o) => o.partition === options.partition);
    if (ranges.length === 0) {
      throw new CliError(
        `--partition: topic "${topic.name}" has partitions 0..${topic.partitions - 1}, not ${options.partition}`,
      );
    }
  }
  const committed = new Map<number, number>();
  if (options.group) {
    for (const c of await connection.committedOffsets(options.group, topic.name)) {
      committed.set(c.partition, c.offset);
    }
  }
  return ranges.map((range) => {
    const resumeAt = committed.get(range.partition);
    // Kafka's console consumer: a group's committed offset wins; --from-beginning only decides
    // where a partition without one starts (auto.offset.reset=earliest, else latest).
    const position = resumeAt ?? (options.fromBeginning ? range.earliest : range.latest);
    return {
      partition: range.partition,
      position,
      end: range.latest,
      committed: resumeAt ?? null,
    };
  });
}

async function commit(
  connection: Connection,
  group: string,
  topic: string,
  cursors: Cursor[],
): Promise<void> {
  const changed = cursors.filter((c) => c.committed !== c.position);
  if (changed.length === 0) return;
  await connection.commitOffsets(
    group,
    topic,
    changed.map((c) => ({ partition: c.partition, offset: c.position })),
  );
  for (const c of changed) c.committed = c.position;
}

function formatRecord(partition: number, record: FetchedRecord, options: ConsumeOptions): string {
  const key = options.keyWindow
    ? decodeWindowedField(record.key, options.keyFormat, options.keyWindow)
    : decodeField(record.key, options.keyFormat);
  const value = decodeField(record.value, options.valueFormat);
  const line: Record<string, unknown> = {
    partition,
    offset: record.offset,
    timestamp: record.timestamp,
    key: key.value,
    value: value.value,
    headers: headersJson(record.headers),
  };
  if (key.undecodable || value.undecodable) {
    line.undecodable = { key: key.undecodable, value: value.undecodable };
  }
  return JSON.stringify(line);
}
