// Fetch: the stored record batches as they are on disk (no re-encoding), per partition up to its
// partitionMaxBytes and the request's maxBytes (at least one batch, as Kafka), long-polling up
// to maxWaitMs until minBytes are there. read_committed stops at the last stable offset and
// lists the aborted transactions in the returned range, as Kafka's broker does (the client skips
// their batches and every control batch). No fetch sessions: every response is a full
// one (sessionId 0), which clients accept (KIP-227).
import type {
  FetchRequest,
  FetchResponseInput,
  FetchResponsePartitionDataInput,
} from '@streamwright/kafka-protocol';
import type { IsolationLevel } from '@streamwright/log';
import type { ListenerContext, RequestScope } from '../context.js';
import { Errors, errorOf, NONE } from '../errors.js';
import { topicName } from './topic-lookup.js';

const EMPTY = new Uint8Array(0);

interface Wanted {
  topicIndex: number;
  topic: string | null;
  partition: number;
  offset: number;
  maxBytes: number;
}

function partitionError(partition: number, code: number): FetchResponsePartitionDataInput {
  return {
    partitionIndex: partition,
    errorCode: code,
    highWatermark: -1n,
    lastStableOffset: -1n,
    logStartOffset: -1n,
    abortedTransactions: null,
    preferredReadReplica: -1,
    records: EMPTY,
  };
}

async function readOnce(
  ctx: ListenerContext,
  wanted: Wanted[],
  isolation: IsolationLevel,
  maxBytes: number,
): Promise<{ parts: FetchResponsePartitionDataInput[]; bytes: number }> {
  let budget = maxBytes;
  let bytes = 0;
  const parts: FetchResponsePartitionDataInput[] = [];
  for (const w of wanted) {
    if (w.topic === null) {
      parts.push(partitionError(w.partition, Errors.UNKNOWN_TOPIC_ID));
      continue;
    }
    let p;
    try {
      p = ctx.log.partition(w.topic, w.partition);
    } catch (err) {
      parts.push(partitionError(w.partition, errorOf(err).code));
      continue;
    }
    const state = {
      partitionIndex: w.partition,
      highWatermark: BigInt(p.highWatermark),
      lastStableOffset: BigInt(p.lastStableOffset),
      logStartOffset: BigInt(p.logStartOffset),
      abortedTransactions: (isolation === 'read_committed' ? [] : null) as
        { producerId: bigint; firstOffset: bigint }[] | null,
      preferredReadReplica: -1,
    };
    if (w.offset < p.logStartOffset || w.offset > p.logEndOffset) {
      parts.push({ ...state, errorCode: Errors.OFFSET_OUT_OF_RANGE, records: EMPTY });
      continue;
    }
    const limit = Math.min(w.maxBytes, budget);
    // Kafka returns at least one batch of the first partition with data, however big.
    if (limit <= 0 && bytes > 0) {
      parts.push({ ...state, errorCode: NONE, records: EMPTY });
      continue;
    }
    let batches;
    try {
      batches = await p.read(w.offset, Math.max(1, limit), isolation);
    } catch (err) {
      const e = errorOf(err);
      if (e.code === Errors.UNKNOWN_SERVER_ERROR)
        ctx.logger.warn(
          { err, partition: `${w.topic}-${w.partition}` },
          'kafka listener: fetch failed',
        );
      parts.push({ ...state, errorCode: e.code, records: EMPTY });
      continue;
    }
    const records = batches.length === 0 ? EMPTY : Buffer.concat(batches.map((b) => b.batch));
    if (isolation === 'read_committed' && batches.length > 0) {
      // Kafka's way: the aborted transactions overlapping what is returned; the client drops
      // their batches (it sees each ABORT marker too).
      const last = batches[batches.length - 1]!.header;
      const end = last.baseOffset + last.lastOffsetDelta + 1;
      state.abortedTransactions = p.txns
        .abortedBetween(w.offset, end)
        .map((a) => ({ producerId: BigInt(a.producerId), firstOffset: BigInt(a.firstOffset) }));
    }
    bytes += records.length;
    budget -= records.length;
    parts.push({ ...state, errorCode: NONE, records });
  }
  return { parts, bytes };
}

export async function handleFetch(
  ctx: ListenerContext,
  req: FetchRequest,
  scope: RequestScope,
): Promise<FetchResponseInput> {
  const isolation: IsolationLevel =
    req.isolationLevel === 1 ? 'read_committed' : 'read_uncommitted';
  const wanted: Wanted[] = [];
  req.topics.forEach((t, topicIndex) => {
    const topic = topicName(ctx.log, t.topic || null, t.topicId);
    for (const p of t.partitions)
      wanted.push({
        topicIndex,
        topic,
        partition: p.partition,
        offset: Number(p.fetchOffset),
        maxBytes: p.partitionMaxBytes,
      });
  });
  const maxBytes = req.maxBytes > 0 ? req.maxBytes : 0x7fffffff;
  const deadline = Date.now() + Math.max(0, req.maxWaitMs);
  let result = await readOnce(ctx, wanted, isolation, maxBytes);
  const waitable = wanted.filter((w) => w.topic !== null);
  while (
    waitable.length > 0 &&
    result.bytes < Math.max(1, req.minBytes) &&
    !result.parts.some((p) => p.errorCode !== NONE) &&
    !scope.signal.aborted
  ) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    scope.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race(
        waitable.map((w) =>
          ctx.log
            .partition(w.topic!, w.partition)
            .waitForData(w.offset, isolation, remaining, stop.signal),
        ),
      );
    } finally {
      stop.abort();
      scope.signal.removeEventListener('abort', onAbort);
    }
    result = await readOnce(ctx, wanted, isolation, maxBytes);
  }
  const responses = req.topics.map((t) => ({
    topic: t.topic,
    topicId: t.topicId,
    partitions: [] as FetchResponsePartitionDataInput[],
  }));
  result.parts.forEach((p, i) => responses[wanted[i]!.topicIndex]!.partitions.push(p));
  return { throttleTimeMs: 0, errorCode: NONE, sessionId: 0, responses };
}
