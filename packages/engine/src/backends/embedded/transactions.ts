// The log's transactional producer through the engine's TransactionalProducer interface, with
// PRODUCER_FENCED surfaced as the engine's ProducerFencedError (the thread closes its tasks dirty
// and rejoins) and other log errors translated as elsewhere in this adapter.
import type { Log } from '@streamwright/log';
// From log/reader, not the log's index: this module is in a worker's graph (the whole log costs a
// worker ≈ 40 ms of CPU to load; measured in 3c83d33).
import { isLogError, LogErrorCode } from '@streamwright/log/reader';
import type { ProduceCallOptions, ProduceRecord, TransactionalProducer } from '../../api.js';
import { ProducerFencedError } from '../../errors.js';
import { engineErrorOf } from './log-errors.js';

function translate(error: unknown): unknown {
  if (isLogError(error, LogErrorCode.PRODUCER_FENCED))
    return new ProducerFencedError(error.message, error);
  // A commit whose sends failed is aborted by the log; a fenced send is the usual cause.
  if (
    isLogError(error, LogErrorCode.INVALID_TXN_STATE) &&
    isLogError(error.cause, LogErrorCode.PRODUCER_FENCED)
  ) {
    return new ProducerFencedError(error.message, error);
  }
  return engineErrorOf(error);
}

async function call<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw translate(error);
  }
}

/**
 * The embedded backend's transactional producer also takes record batches a stream thread encoded
 * itself as this producer's transactional batches (its id and epoch): the main thread then only
 * validates and appends them, as for non-transactional produces.
 */
export interface EncodingTransactionalProducer extends TransactionalProducer {
  readonly producerId: number;
  readonly epoch: number;
  /**
   * Each part's base offset. A refusal (stale metadata, a bad batch) wrote nothing. `checks:
   * 'headers'` for batches a stream thread's BatchEncoder wrote (see Log.produceBatches).
   */
  sendBatches(
    parts: { topic: string; partition: number; batches: Uint8Array }[],
    opts?: { checks?: 'full' | 'headers' },
  ): Promise<number[]>;
}

export function takesEncodedBatches(p: TransactionalProducer): p is EncodingTransactionalProducer {
  return typeof (p as Partial<EncodingTransactionalProducer>).sendBatches === 'function';
}

export async function transactionalProducer(
  log: Log,
  transactionalId: string,
): Promise<EncodingTransactionalProducer> {
  const producer = await log.transactionalProducer(transactionalId);
  return {
    transactionalId,
    producerId: producer.producerId,
    epoch: producer.epoch,
    sendBatches: (parts, opts) =>
      call(async () => (await producer.sendBatches(parts, opts)).map((r) => r.baseOffset)),
    beginTransaction() {
      try {
        producer.beginTransaction();
      } catch (error) {
        throw translate(error);
      }
    },
    send: (records: ProduceRecord[], options?: Pick<ProduceCallOptions, 'compression'>) =>
      call(async () =>
        (
          await producer.send(
            records,
            options?.compression ? { compression: options.compression } : {},
          )
        ).map((m) => ({ partition: m.partition, offset: m.offset })),
      ),
    sendOffsetsToTransaction: (offsets, groupId, member) =>
      call(() => producer.sendOffsetsToTransaction(offsets, groupId, member)),
    commitTransaction: () => call(() => producer.commitTransaction()),
    abortTransaction: () => call(() => producer.abortTransaction()),
  };
}
