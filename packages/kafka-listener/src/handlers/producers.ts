// InitProducerId (idempotent and transactional producers) and the transaction requests.
import type {
  AddOffsetsToTxnRequest,
  AddPartitionsToTxnRequest,
  AddPartitionsToTxnResponseInput,
  EndTxnRequest,
  InitProducerIdRequest,
  InitProducerIdResponseInput,
  TxnOffsetCommitRequest,
  TxnOffsetCommitResponseInput,
} from '@streamwright/kafka-protocol';
import type { ListenerContext } from '../context.js';
import { Errors, errorOf, NONE } from '../errors.js';
import { TxnError } from '../producers/transactions.js';
import { isServedTopic } from './topic-lookup.js';

function codeOf(ctx: ListenerContext, err: unknown, what: string): number {
  if (err instanceof TxnError) return err.code;
  const e = errorOf(err);
  if (e.code === Errors.UNKNOWN_SERVER_ERROR)
    ctx.logger.warn({ err }, `kafka listener: ${what} failed`);
  return e.code;
}

export async function handleInitProducerId(
  ctx: ListenerContext,
  req: InitProducerIdRequest,
): Promise<InitProducerIdResponseInput> {
  if (req.transactionalId === null || req.transactionalId === '') {
    return {
      throttleTimeMs: 0,
      errorCode: NONE,
      producerId: BigInt(ctx.identity.allocateProducerId()),
      producerEpoch: 0,
    };
  }
  if (req.transactionTimeoutMs <= 0 || req.transactionTimeoutMs > 900_000)
    return {
      throttleTimeMs: 0,
      errorCode: Errors.INVALID_TRANSACTION_TIMEOUT,
      producerId: -1n,
      producerEpoch: -1,
    };
  try {
    const p = await ctx.transactions.init(req.transactionalId, req.transactionTimeoutMs);
    return {
      throttleTimeMs: 0,
      errorCode: NONE,
      producerId: BigInt(p.producerId),
      producerEpoch: p.epoch,
    };
  } catch (err) {
    return {
      throttleTimeMs: 0,
      errorCode: codeOf(ctx, err, 'InitProducerId'),
      producerId: -1n,
      producerEpoch: -1,
    };
  }
}

export function handleAddPartitionsToTxn(
  ctx: ListenerContext,
  req: AddPartitionsToTxnRequest,
  version: number,
): AddPartitionsToTxnResponseInput {
  const results = (
    txnId: string,
    producerId: bigint,
    epoch: number,
    topics: { name: string; partitions: number[] }[],
  ) => {
    let code = NONE;
    try {
      ctx.transactions.begin(txnId, Number(producerId), epoch);
    } catch (err) {
      code = codeOf(ctx, err, 'AddPartitionsToTxn');
    }
    return topics.map((t) => {
      const d = isServedTopic(t.name) ? ctx.log.describeTopic(t.name) : null;
      return {
        name: t.name,
        resultsByPartition: t.partitions.map((p) => ({
          partitionIndex: p,
          partitionErrorCode:
            code !== NONE
              ? code
              : !d || p < 0 || p >= d.partitions
                ? Errors.UNKNOWN_TOPIC_OR_PARTITION
                : NONE,
        })),
      };
    });
  };
  if (version < 4)
    return {
      throttleTimeMs: 0,
      resultsByTopicV3AndBelow: results(
        req.v3AndBelowTransactionalId,
        req.v3AndBelowProducerId,
        req.v3AndBelowProducerEpoch,
        req.v3AndBelowTopics,
      ),
    };
  return {
    throttleTimeMs: 0,
    errorCode: NONE,
    resultsByTransaction: req.transactions.map((t) => ({
      transactionalId: t.transactionalId,
      topicResults: results(t.transactionalId, t.producerId, t.producerEpoch, t.topics),
    })),
  };
}

export function handleAddOffsetsToTxn(ctx: ListenerContext, req: AddOffsetsToTxnRequest) {
  try {
    ctx.transactions.begin(req.transactionalId, Number(req.producerId), req.producerEpoch);
    return { throttleTimeMs: 0, errorCode: NONE };
  } catch (err) {
    return { throttleTimeMs: 0, errorCode: codeOf(ctx, err, 'AddOffsetsToTxn') };
  }
}

export async function handleTxnOffsetCommit(
  ctx: ListenerContext,
  req: TxnOffsetCommitRequest,
  version: number,
): Promise<TxnOffsetCommitResponseInput> {
  let code = NONE;
  // KIP-447: with a member and generation, a zombie of an older generation is fenced.
  if (version >= 3 && req.generationId >= 0 && req.memberId !== '')
    code = ctx.groups.checkCommit(req.groupId, req.generationId, req.memberId);
  if (code === NONE) {
    try {
      await ctx.transactions.commitOffsets(
        req.transactionalId,
        Number(req.producerId),
        req.producerEpoch,
        req.groupId,
        req.topics.flatMap((t) =>
          t.partitions.map((p) => ({
            topic: t.name,
            partition: p.partitionIndex,
            offset: Number(p.committedOffset),
            ...(p.committedMetadata ? { metadata: p.committedMetadata } : {}),
          })),
        ),
      );
    } catch (err) {
      code = codeOf(ctx, err, 'TxnOffsetCommit');
    }
  }
  return {
    throttleTimeMs: 0,
    topics: req.topics.map((t) => ({
      name: t.name,
      partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: code })),
    })),
  };
}

export async function handleEndTxn(ctx: ListenerContext, req: EndTxnRequest) {
  try {
    const code = await ctx.transactions.end(
      req.transactionalId,
      Number(req.producerId),
      req.producerEpoch,
      req.committed,
    );
    return { throttleTimeMs: 0, errorCode: code };
  } catch (err) {
    return { throttleTimeMs: 0, errorCode: codeOf(ctx, err, 'EndTxn') };
  }
}
