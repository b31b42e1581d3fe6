// topics.browse: one page of one partition, from an offset or from the first record at or after a
// timestamp (Kafka's offsetsForTimes), with the offsets of the older and newer pages — the topic
// browser's navigation. Records are read without waiting: a page shows what is there now.
import type { Backend, StoredRecord, TopicDescription } from '@streamwright/engine';
import { RuntimeError } from '../errors.js';

const FETCH_BATCH = 500;

export type BrowseStart =
  | { offset: number }
  | { timestamp: number }
  /** The last `limit` records. */
  | { latest: true };

export interface BrowsePage {
  partition: number;
  /** The partition's log start and end (next offset to be written). */
  logStartOffset: number;
  logEndOffset: number;
  /** Where this page starts (its first record's offset, or the end when it is empty). */
  from: number;
  /** Where the next (newer) page starts; null at the end of the partition. */
  newer: number | null;
  /** Where the previous (older) page starts; null when this page starts at the log start. */
  older: number | null;
  /** A timestamp start found no record at or after it: the page is empty, at the end. */
  timestampPastEnd: boolean;
  records: StoredRecord[];
}

export async function browsePartition(
  backend: Backend,
  topic: TopicDescription,
  partition: number,
  start: BrowseStart,
  limit: number,
): Promise<BrowsePage> {
  const range = topic.offsets.find((o) => o.partition === partition);
  if (!range) {
    throw new RuntimeError(
      'PARTITION_OUT_OF_RANGE',
      `partition: ${topic.name} has partitions 0..${topic.partitions - 1}, not ${partition}`,
    );
  }
  const { earliest, latest } = range;
  let from: number;
  let timestampPastEnd = false;
  if ('offset' in start) {
    // An offset outside the log is clamped to it, as a consumer's reset would.
    from = Math.min(Math.max(start.offset, earliest), latest);
  } else if ('timestamp' in start) {
    if (!backend.offsetForTimestamp) {
      throw new RuntimeError(
        'BAD_RECORD',
        `timestamp: the ${backend.kind} backend cannot look offsets up by time`,
      );
    }
    const found = await backend.offsetForTimestamp(
      { topic: topic.name, partition },
      start.timestamp,
    );
    timestampPastEnd = found === null;
    from = found === null ? latest : Math.max(found, earliest);
  } else {
    from = Math.max(earliest, latest - limit);
  }
  const records: StoredRecord[] = [];
  let offset = from;
  while (offset < latest && records.length < limit) {
    const batch = await backend.fetch(
      { topic: topic.name, partition },
      offset,
      Math.min(FETCH_BATCH, limit - records.length),
      0,
    );
    if (batch.length === 0) break;
    for (const record of batch)
      if (record.offset >= from && record.offset < latest && records.length < limit)
        records.push(record);
    offset = batch[batch.length - 1]!.offset + 1;
  }
  // Offsets are not dense (compaction, transaction markers): pages are bounded by offsets read.
  const first = records[0]?.offset ?? from;
  const next = records.length > 0 ? records[records.length - 1]!.offset + 1 : from;
  return {
    partition,
    logStartOffset: earliest,
    logEndOffset: latest,
    from: first,
    newer: next < latest ? next : null,
    older: first > earliest ? Math.max(earliest, first - limit) : null,
    timestampPastEnd,
    records,
  };
}
