// exactly_once_v2's producer for a worker: it lives on the main thread and every call (begin,
// send, sendOffsetsToTransaction, commit, abort) goes through the port, in order. A send is
// encoded here as the producer's transactional batches (batch-producer.ts).
import type { TransactionalProducer, TransactionalProducerOptions } from '../../backend-spi.js';
import type { BatchProducer } from './batch-producer.js';
import type { PortCalls } from './port-calls.js';
import type { BackendCall, BackendResults } from './protocol.js';
import { packProduce } from './wire.js';

export async function remoteTransactionalProducer(
  calls: PortCalls,
  batches: BatchProducer,
  producer: number,
  transactionalId: string,
  options?: TransactionalProducerOptions,
): Promise<TransactionalProducer> {
  const ids = (await calls.call({
    op: 'txnInit',
    producer,
    transactionalId,
    ...(options?.clientConfig ? { clientConfig: options.clientConfig } : {}),
  })) as BackendResults['txnInit'];
  const txn = ids && { producerId: ids.producerId, producerEpoch: ids.epoch };
  let failed: Error | null = null;
  const rethrow = (): void => {
    if (failed === null) return;
    const error = failed;
    failed = null;
    throw error;
  };
  return {
    transactionalId,
    beginTransaction: () => {
      rethrow();
      // Synchronous in Kafka's API: sent without waiting; the port keeps it before the next call,
      // and a refusal surfaces on the next call.
      calls.call({ op: 'txnBegin', producer }).catch((error: Error) => (failed = error));
    },
    send: async (records, options) => {
      rethrow();
      const compression = options?.compression;
      if (txn) return batches.txnSend(producer, txn, records, compression);
      const packed = packProduce(records);
      const call: BackendCall = { op: 'txnSend', producer, packed };
      if (compression !== undefined) call.compression = compression;
      return toAcks((await calls.call(call, [packed.buffer])) as BackendResults['txnSend']);
    },
    sendOffsetsToTransaction: async (offsets, groupId, member) => {
      rethrow();
      const call: BackendCall = { op: 'txnSendOffsets', producer, offsets, groupId };
      if (member !== undefined) call.member = member;
      await calls.call(call);
    },
    commitTransaction: async () => {
      rethrow();
      await calls.call({ op: 'txnCommit', producer });
    },
    abortTransaction: async () => {
      failed = null;
      await calls.call({ op: 'txnAbort', producer });
    },
  };
}

export function toAcks({
  partitions,
  offsets,
}: BackendResults['produce']): { partition: number; offset: number }[] {
  const out: { partition: number; offset: number }[] = new Array(partitions.length);
  for (let i = 0; i < partitions.length; i++)
    out[i] = { partition: partitions[i]!, offset: offsets[i]! };
  return out;
}
