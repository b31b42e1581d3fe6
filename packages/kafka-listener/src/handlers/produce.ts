// Produce: each partition's record batches (Java's MemoryRecords, v2 batches) go to the log as
// the producer encoded them (`Log.produceBatches`, which validates every batch before writing
// any: CRC-32C, framing, max.message.bytes). acks=-1 waits for the flush policy (durable), acks=1
// for the write, acks=0 sends no response. Idempotent batches are checked against the producer's
// last sequences first (producers/producer-states.ts); transactional batches go through the
// producer's open transaction (producers/transactions.ts).
import type {
  ProduceRequest,
  ProduceResponseInput,
  ProduceResponsePartitionProduceResponseInput,
} from '@streamwright/kafka-protocol';
import { readBatchHeader, type BatchHeader } from '@streamwright/log';
import type { ListenerContext } from '../context.js';
import { Errors, errorOf, NONE } from '../errors.js';
import { TxnError } from '../producers/transactions.js';
import { topicIdOf, topicName } from './topic-lookup.js';

const TRANSACTIONAL = 0x10;

type PartitionResponse = ProduceResponsePartitionProduceResponseInput;

function failed(index: number, code: number, message: string | null): PartitionResponse {
  return {
    index,
    errorCode: code,
    baseOffset: -1n,
    logAppendTimeMs: -1n,
    logStartOffset: -1n,
    errorMessage: message,
  };
}

/** Every batch header in `records`, or null when the bytes are not whole v2 batches. */
function headersOf(records: Uint8Array): BatchHeader[] | null {
  const out: BatchHeader[] = [];
  const buf = Buffer.from(records.buffer, records.byteOffset, records.byteLength);
  for (let pos = 0; pos < buf.length;) {
    if (buf.length - pos < 61 || buf[pos + 16] !== 2) return null;
    const h = readBatchHeader(buf, pos);
    if (h.sizeInBytes < 61 || pos + h.sizeInBytes > buf.length) return null;
    out.push(h);
    pos += h.sizeInBytes;
  }
  return out.length > 0 ? out : null;
}

async function producePartition(
  ctx: ListenerContext,
  req: ProduceRequest,
  topic: string,
  index: number,
  records: Uint8Array | null,
): Promise<PartitionResponse> {
  const log = ctx.log;
  const d = log.describeTopic(topic)!;
  if (index < 0 || index >= d.partitions)
    return failed(index, Errors.UNKNOWN_TOPIC_OR_PARTITION, `${topic} has no partition ${index}`);
  const headers = records === null ? null : headersOf(records);
  if (records === null || headers === null)
    return failed(index, Errors.CORRUPT_MESSAGE, 'the records are not v2 record batches');
  const first = headers[0]!;
  const transactional = (first.attributes & TRANSACTIONAL) !== 0;
  const where = `${topic}-${index}`;
  try {
    if (transactional) {
      if (req.transactionalId === null)
        return failed(
          index,
          Errors.INVALID_RECORD,
          'transactional batches without a transactional id',
        );
      const [r] = await ctx.transactions.produce(
        req.transactionalId,
        first.producerId,
        first.producerEpoch,
        { topic, partition: index, batches: records },
      );
      return ok(log, topic, index, r!.baseOffset, r!.logAppendTime);
    }
    // Idempotence: a retried batch is answered with its first offset, a gap refused.
    if (first.producerId >= 0) await ctx.producers.rebuild(log, topic, index);
    const check = ctx.producers.check(topic, index, first);
    if (check.kind === 'duplicate') return ok(log, topic, index, check.baseOffset, -1);
    if (check.kind === 'error') return failed(index, check.code, check.message);
    const acks = req.acks === -1 ? ('all' as const) : (1 as const);
    let results;
    try {
      results = await log.produceBatches([{ topic, partition: index, batches: records }], { acks });
    } catch (err) {
      if (first.producerId >= 0) ctx.producers.forget(topic, index, first.producerId);
      throw err;
    }
    const r = results[0]!;
    let offset = r.baseOffset;
    for (const h of headers) {
      ctx.producers.appended(topic, index, h, offset);
      offset += h.lastOffsetDelta + 1;
    }
    return ok(log, topic, index, r.baseOffset, r.logAppendTime);
  } catch (err) {
    if (err instanceof TxnError) return failed(index, err.code, err.message);
    const e = errorOf(err);
    if (e.code === Errors.UNKNOWN_SERVER_ERROR)
      ctx.logger.warn({ err, partition: where }, 'kafka listener: produce failed');
    return failed(index, e.code, e.message);
  }
}

function ok(
  log: ListenerContext['log'],
  topic: string,
  index: number,
  baseOffset: number,
  logAppendTime: number,
): PartitionResponse {
  return {
    index,
    errorCode: NONE,
    baseOffset: BigInt(baseOffset),
    logAppendTimeMs: BigInt(logAppendTime),
    logStartOffset: BigInt(log.earliestOffset(topic, index)),
    errorMessage: null,
  };
}

export async function handleProduce(
  ctx: ListenerContext,
  req: ProduceRequest,
): Promise<ProduceResponseInput | null> {
  const responses = await Promise.all(
    req.topicData.map(async (t) => {
      const name = topicName(ctx.log, t.name, t.topicId);
      const partitionResponses =
        name === null
          ? t.partitionData.map((p) =>
              failed(
                p.index,
                t.name ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.UNKNOWN_TOPIC_ID,
                `unknown topic ${t.name || t.topicId}`,
              ),
            )
          : await Promise.all(
              t.partitionData.map((p) => producePartition(ctx, req, name, p.index, p.records)),
            );
      return {
        name: t.name,
        topicId: name === null ? t.topicId : t.name ? t.topicId : topicIdOf(ctx.log, name),
        partitionResponses,
      };
    }),
  );
  if (req.acks === 0) return null;
  return { responses, throttleTimeMs: 0 };
}
