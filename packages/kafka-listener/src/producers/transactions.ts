// Kafka's transaction protocol on the log's transactions: InitProducerId with a transactional
// id is the log's `transactionalProducer(id)` (a new epoch, older producers fenced, an open
// transaction of theirs aborted); AddPartitionsToTxn / AddOffsetsToTxn open the transaction;
// transactional Produce batches go through `sendBatches` (so the partition is recorded in
// __transaction_state before the first append, and the batches must carry this producer id and
// epoch); TxnOffsetCommit is `sendOffsetsToTransaction`; EndTxn commits or aborts, writing the
// markers. The log does the durable work; this keeps the handle per transactional id.
import type { BatchesAppended, Log, TransactionalProducer } from '@streamwright/log';
import { Errors, errorOf, NONE } from '../errors.js';

interface Entry {
  producer: TransactionalProducer;
  open: boolean;
}

export class TxnError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export class Transactions {
  private readonly byId = new Map<string, Entry>();

  constructor(private readonly log: Log) {}

  async init(
    transactionalId: string,
    transactionTimeoutMs: number,
  ): Promise<{ producerId: number; epoch: number }> {
    const producer = await this.log.transactionalProducer(transactionalId, {
      transactionTimeoutMs,
    });
    this.byId.set(transactionalId, { producer, open: false });
    return { producerId: producer.producerId, epoch: producer.epoch };
  }

  /** The producer's handle, checked against the id and epoch the client sent. */
  private entry(transactionalId: string, producerId: number, epoch: number): Entry {
    const e = this.byId.get(transactionalId);
    if (!e)
      throw new TxnError(
        Errors.INVALID_PRODUCER_ID_MAPPING,
        `no producer initialised for transactional id ${transactionalId} (the runtime restarted?)`,
      );
    if (e.producer.producerId !== producerId)
      throw new TxnError(
        Errors.INVALID_PRODUCER_ID_MAPPING,
        `transactional id ${transactionalId} has producer id ${e.producer.producerId}, not ${producerId}`,
      );
    if (epoch < e.producer.epoch)
      throw new TxnError(
        Errors.PRODUCER_FENCED,
        `producer epoch ${epoch} of ${transactionalId} was fenced by epoch ${e.producer.epoch}`,
      );
    if (epoch > e.producer.epoch)
      throw new TxnError(
        Errors.INVALID_PRODUCER_EPOCH,
        `producer epoch ${epoch} of ${transactionalId} is newer than ${e.producer.epoch}`,
      );
    return e;
  }

  /** AddPartitionsToTxn / AddOffsetsToTxn: the transaction is open from here on. */
  begin(transactionalId: string, producerId: number, epoch: number): void {
    const e = this.entry(transactionalId, producerId, epoch);
    if (!e.open) {
      e.producer.beginTransaction();
      e.open = true;
    }
  }

  produce(
    transactionalId: string,
    producerId: number,
    epoch: number,
    part: { topic: string; partition: number; batches: Uint8Array },
  ): Promise<BatchesAppended[]> {
    const e = this.entry(transactionalId, producerId, epoch);
    if (!e.open)
      throw new TxnError(
        Errors.INVALID_TXN_STATE,
        `transactional produce to ${part.topic}-${part.partition} before AddPartitionsToTxn`,
      );
    return e.producer.sendBatches([part]);
  }

  async commitOffsets(
    transactionalId: string,
    producerId: number,
    epoch: number,
    groupId: string,
    offsets: { topic: string; partition: number; offset: number; metadata?: string }[],
  ): Promise<void> {
    const e = this.entry(transactionalId, producerId, epoch);
    if (!e.open)
      throw new TxnError(Errors.INVALID_TXN_STATE, 'TxnOffsetCommit before AddOffsetsToTxn');
    await e.producer.sendOffsetsToTransaction(offsets, groupId);
  }

  async end(
    transactionalId: string,
    producerId: number,
    epoch: number,
    commit: boolean,
  ): Promise<number> {
    const e = this.entry(transactionalId, producerId, epoch);
    if (!e.open) return NONE; // nothing was added: nothing to end
    try {
      if (commit) await e.producer.commitTransaction();
      else await e.producer.abortTransaction();
      return NONE;
    } catch (err) {
      return errorOf(err).code;
    } finally {
      e.open = false;
    }
  }
}
