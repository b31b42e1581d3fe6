// Records as bytes, for clients that bring their own formats (the `produce` and `consume`
// commands): produce a batch, fetch from offsets (long-polling like Kafka's fetch), and keep a
// consumer group's committed offsets. Keys and values are bytes here; the router carries them
// as base64.
import type { Backend, CompressionType, Headers } from '@streamwright/engine';
import { recordTooLarge, RuntimeError } from '../errors.js';
import { checkPartition, requireTopic } from './topic-service.js';

export interface BatchRecord {
  key: Uint8Array | null;
  value: Uint8Array | null;
  partition?: number | undefined;
  timestamp?: number | undefined;
  headers?: Headers | undefined;
}

export interface FetchPosition {
  partition: number;
  offset: number;
}

export interface FetchRequest {
  topic: string;
  positions: FetchPosition[];
  /** At most this many records in the whole answer. */
  maxRecords: number;
  /** Wait up to this long when no partition has data at its position (0: answer at once). */
  maxWaitMs: number;
}

export interface FetchedRecord {
  offset: number;
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: Headers;
}

export interface FetchedPartition {
  partition: number;
  /** The partition's log end offset when the fetch was answered (Kafka's high watermark). */
  highWatermark: number;
  /** The partition's first offset (earlier records were deleted by retention). */
  logStartOffset: number;
  records: FetchedRecord[];
  /** The position is past the end of the log (the topic was recreated, say): reset it. */
  outOfRange: boolean;
}

export interface CommittedOffset {
  partition: number;
  offset: number;
}

export interface GroupGuard {
  assertOpen(): void;
  /** The consumer group of the running application, whose offsets only it may commit. */
  activeGroup(): string | null;
}

export class RecordService {
  constructor(
    private readonly backend: Backend,
    private readonly guard: GroupGuard,
  ) {}

  /** Appends the records in order; resolves once the backend acknowledged all of them. */
  async produceBatch(
    topicName: string,
    records: readonly BatchRecord[],
    compression: CompressionType = 'none',
  ): Promise<{ partition: number; offset: number }[]> {
    this.guard.assertOpen();
    const topic = await requireTopic(this.backend, topicName);
    for (const record of records) {
      if (record.partition !== undefined) checkPartition(topic, record.partition);
    }
    try {
      return await this.backend.produce(
        records.map((r) => ({
          topic: topic.name,
          key: r.key,
          value: r.value,
          ...(r.partition === undefined ? {} : { partition: r.partition }),
          ...(r.timestamp === undefined ? {} : { timestamp: r.timestamp }),
          headers: r.headers ?? {},
        })),
        compression === 'none' ? undefined : { compression },
      );
    } catch (error) {
      throw recordTooLarge(error, topic.name);
    }
  }

  async fetch(request: FetchRequest, signal?: AbortSignal): Promise<FetchedPartition[]> {
    const topic = await requireTopic(this.backend, request.topic);
    for (const position of request.positions) checkPartition(topic, position.partition);
    const responses = await this.backend.fetchMany(
      request.positions.map((p) => ({ topic: topic.name, ...p })),
      {
        maxRecords: request.maxRecords,
        maxWaitMs: request.maxWaitMs,
        ...(signal ? { signal } : {}),
      },
    );
    // The backend's limit is per partition; the answer as a whole stays within maxRecords.
    let budget = request.maxRecords;
    const starts = await requireTopic(this.backend, topic.name);
    return responses.map((response) => {
      const records = response.records.slice(0, Math.max(0, budget));
      budget -= records.length;
      const range = starts.offsets.find((o) => o.partition === response.partition);
      return {
        partition: response.partition,
        highWatermark: response.highWatermark,
        logStartOffset: range?.earliest ?? 0,
        outOfRange: response.error === 'OFFSET_OUT_OF_RANGE',
        records: records.map((r) => ({
          offset: r.offset,
          timestamp: r.timestamp,
          key: r.key,
          value: r.value,
          headers: r.headers,
        })),
      };
    });
  }

  /** Stores a group's offsets for a topic (the next offset to read, as Kafka commits them). */
  async commitOffsets(group: string, topicName: string, offsets: CommittedOffset[]): Promise<void> {
    this.guard.assertOpen();
    if (group === this.guard.activeGroup()) {
      throw new RuntimeError(
        'GROUP_IN_USE',
        `group "${group}" belongs to the running application: its offsets are its own (stop it, or use another group)`,
      );
    }
    const topic = await requireTopic(this.backend, topicName);
    for (const o of offsets) checkPartition(topic, o.partition);
    await this.backend.commitOffsets(
      group,
      offsets.map((o) => ({ topic: topic.name, partition: o.partition, offset: o.offset })),
    );
  }

  /** The group's committed offsets for each partition of the topic that has one. */
  async committedOffsets(group: string, topicName: string): Promise<CommittedOffset[]> {
    const topic = await requireTopic(this.backend, topicName);
    const tps = topic.offsets.map((o) => ({ topic: topic.name, partition: o.partition }));
    const committed = await this.backend.committedOffsets(group, tps);
    const out: CommittedOffset[] = [];
    for (const tp of tps) {
      const offset = committed.get(`${tp.topic}:${tp.partition}`);
      if (offset !== undefined) out.push({ partition: tp.partition, offset });
    }
    return out;
  }
}
