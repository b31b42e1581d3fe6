// Reads the latest records of a topic for the "sink view": the last `limit` records of each
// partition (by offset), merged and ordered by timestamp, then partition and offset, keeping the
// newest `limit`. Records are fetched without waiting: a read shows what is there now.
import type { Backend, StoredRecord, TopicDescription } from '@streamwright/engine';

/** Fetches at most this many records per backend call. */
const FETCH_BATCH = 500;

export async function readLatest(
  backend: Backend,
  topic: TopicDescription,
  partitions: readonly number[],
  limit: number,
): Promise<StoredRecord[]> {
  const perPartition = await Promise.all(
    partitions.map((partition) => readPartitionTail(backend, topic, partition, limit)),
  );
  const merged = perPartition.flat();
  merged.sort(byTimestampThenPosition);
  return merged.slice(Math.max(0, merged.length - limit));
}

async function readPartitionTail(
  backend: Backend,
  topic: TopicDescription,
  partition: number,
  limit: number,
): Promise<StoredRecord[]> {
  const range = topic.offsets.find((o) => o.partition === partition);
  if (!range || range.latest <= range.earliest) return [];
  const records: StoredRecord[] = [];
  let offset = Math.max(range.earliest, range.latest - limit);
  while (offset < range.latest) {
    const batch = await backend.fetch(
      { topic: topic.name, partition },
      offset,
      Math.min(FETCH_BATCH, range.latest - offset),
      0,
    );
    if (batch.length === 0) break;
    for (const record of batch) {
      if (record.offset < range.latest) records.push(record);
    }
    const last = batch[batch.length - 1];
    if (!last) break;
    offset = last.offset + 1;
  }
  return records;
}

function byTimestampThenPosition(a: StoredRecord, b: StoredRecord): number {
  return a.timestamp - b.timestamp || a.partition - b.partition || a.offset - b.offset;
}
