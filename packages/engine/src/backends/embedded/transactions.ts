// The log's transactional producer through the engine's TransactionalProducer interface, with
// PRODUCER_FENCED surfaced as the engine's ProducerFencedError (the thread closes its tasks dirty
// and rejoins) and other log errors translated as elsewhere in this adapter. It takes batches a
// stream thread encoded too (EncodingTransactionalProducer).
import type { Log } from '@streamwright/log';
// From log/reader, not the log's index: this module is in a worker's graph (the whole log costs a
// worker ≈ 40 ms of CPU to load; measured in 3c83d33).
import { isLogError, LogErrorCode } from '@streamwright/log/reader';
import type {
  EncodingTransactionalProducer,
  ProduceCallOptions,
  ProduceRecord,
} from '../../backend-spi.js';
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
