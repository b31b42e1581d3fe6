// ListOffsets, DeleteRecords and OffsetForLeaderEpoch.
import type {
  DeleteRecordsRequest,
  DeleteRecordsResponseInput,
  ListOffsetsRequest,
  ListOffsetsResponseInput,
  OffsetForLeaderEpochRequest,
  OffsetForLeaderEpochResponseInput,
} from '@streamwright/kafka-protocol';
import type { ListenerContext } from '../context.js';
import { Errors, errorOf, NONE } from '../errors.js';
import { isServedTopic } from './topic-lookup.js';

const LATEST = -1n;
const EARLIEST = -2n;
const MAX_TIMESTAMP = -3n;
const EARLIEST_LOCAL = -4n;
const LATEST_TIERED = -5n;

export async function handleListOffsets(
  ctx: ListenerContext,
  req: ListOffsetsRequest,
): Promise<ListOffsetsResponseInput> {
  const isolation = req.isolationLevel === 1 ? 'read_committed' : 'read_uncommitted';
  const topics = await Promise.all(
    req.topics.map(async (t) => ({
      name: t.name,
      partitions: await Promise.all(
        t.partitions.map(async (p) => {
          const base = { partitionIndex: p.partitionIndex, leaderEpoch: -1 };
          try {
            if (!isServedTopic(t.name))
              return { ...base, errorCode: Errors.UNKNOWN_TOPIC_OR_PARTITION };
            const log = ctx.log;
            if (p.timestamp === LATEST || p.timestamp === MAX_TIMESTAMP) {
              // max-timestamp (KIP-734) is answered with the end of the log, documented.
              const offset = log.latestOffset(t.name, p.partitionIndex, isolation);
              return { ...base, errorCode: NONE, timestamp: -1n, offset: BigInt(offset) };
            }
            if (p.timestamp === EARLIEST || p.timestamp === EARLIEST_LOCAL) {
              const offset = log.earliestOffset(t.name, p.partitionIndex);
              return { ...base, errorCode: NONE, timestamp: -1n, offset: BigInt(offset) };
            }
            if (p.timestamp === LATEST_TIERED)
              return { ...base, errorCode: NONE, timestamp: -1n, offset: -1n };
            const found = await log.offsetForTimestamp(
              t.name,
              p.partitionIndex,
              Number(p.timestamp),
            );
            return {
              ...base,
              errorCode: NONE,
              timestamp: BigInt(found?.timestamp ?? -1),
              offset: BigInt(found?.offset ?? -1),
            };
          } catch (err) {
            return { ...base, errorCode: errorOf(err).code };
          }
        }),
      ),
    })),
  );
  return { throttleTimeMs: 0, topics };
}

export async function handleDeleteRecords(
  ctx: ListenerContext,
  req: DeleteRecordsRequest,
): Promise<DeleteRecordsResponseInput> {
  const topics = [];
  for (const t of req.topics) {
    const partitions = [];
    for (const p of t.partitions) {
      try {
        if (!isServedTopic(t.name)) throw Object.assign(new Error('system topic'), {});
        const end = ctx.log.latestOffset(t.name, p.partitionIndex);
        // -1: up to the high watermark (Kafka's DeleteRecordsRequest.HIGH_WATERMARK).
        const before = p.offset === -1n ? end : Number(p.offset);
        if (before > end || before < 0) {
          partitions.push({
            partitionIndex: p.partitionIndex,
            lowWatermark: -1n,
            errorCode: Errors.OFFSET_OUT_OF_RANGE,
          });
          continue;
        }
        const low = await ctx.log.deleteRecords(t.name, p.partitionIndex, before);
        partitions.push({
          partitionIndex: p.partitionIndex,
          lowWatermark: BigInt(low),
          errorCode: NONE,
        });
      } catch (err) {
        const e = isServedTopic(t.name) ? errorOf(err).code : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        partitions.push({ partitionIndex: p.partitionIndex, lowWatermark: -1n, errorCode: e });
      }
    }
    topics.push({ name: t.name, partitions });
  }
  return { throttleTimeMs: 0, topics };
}

/**
 * OffsetForLeaderEpoch. One copy of each partition never changes leader, so the log is one
 * leader epoch, 0, that ends at the log end offset. Metadata answers leader epoch -1, so clients
 * do not validate their positions with this request; a tool that sends it anyway gets: for a
 * requested epoch >= 0, epoch 0 ending at the log end offset (Kafka's answer for the current
 * epoch); for an epoch < 0, no epoch (-1, -1) as Kafka answers a log without epochs. A current
 * leader epoch above 0 is UNKNOWN_LEADER_EPOCH (the client knows of a newer leader than there is).
 */
export function handleOffsetForLeaderEpoch(
  ctx: ListenerContext,
  req: OffsetForLeaderEpochRequest,
): OffsetForLeaderEpochResponseInput {
  return {
    throttleTimeMs: 0,
    topics: req.topics.map((t) => ({
      topic: t.topic,
      partitions: t.partitions.map((p) => {
        const none = { partition: p.partition, leaderEpoch: -1, endOffset: -1n };
        const d = isServedTopic(t.topic) ? ctx.log.describeTopic(t.topic) : null;
        if (!d || p.partition < 0 || p.partition >= d.partitions)
          return { ...none, errorCode: Errors.UNKNOWN_TOPIC_OR_PARTITION };
        if (p.currentLeaderEpoch > 0) return { ...none, errorCode: Errors.UNKNOWN_LEADER_EPOCH };
        if (p.leaderEpoch < 0) return { ...none, errorCode: NONE };
        const end = ctx.log.latestOffset(t.topic, p.partition);
        return { partition: p.partition, errorCode: NONE, leaderEpoch: 0, endOffset: BigInt(end) };
      }),
    })),
  };
}
