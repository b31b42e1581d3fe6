// ListOffsets and DeleteRecords.
import type {
  DeleteRecordsRequest,
  DeleteRecordsResponseInput,
  ListOffsetsRequest,
  ListOffsetsResponseInput,
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
