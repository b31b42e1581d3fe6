// The log's transactional producer through the engine's TransactionalProducer interface, with
// PRODUCER_FENCED surfaced as the engine's ProducerFencedError (the thread closes its tasks dirty
// and rejoins) and other log errors translated as elsewhere in this adapter.
import { isLogError, LogErrorCode, type Log } from '@streamwright/log';
import type { ProduceRecord, TransactionalProducer } from '../../api.js';
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

export async function transactionalProducer(
  log: Log,
  transactionalId: string,
): Promise<TransactionalProducer> {
  const producer = await log.transactionalProducer(transactionalId);
  return {
    transactionalId,
    beginTransaction() {
      try {
        producer.beginTransaction();
      } catch (error) {
        throw translate(error);
      }
    },
    send: (records: ProduceRecord[]) =>
      call(async () =>
        (await producer.send(records)).map((m) => ({ partition: m.partition, offset: m.offset })),
      ),
    sendOffsetsToTransaction: (offsets, groupId, member) =>
      call(() => producer.sendOffsetsToTransaction(offsets, groupId, member)),
    commitTransaction: () => call(() => producer.commitTransaction()),
    abortTransaction: () => call(() => producer.abortTransaction()),
  };
}
