// A stream thread's own Kafka clients inside its worker (num.stream.threads > 1): a producer
// (`<thread>-producer`) and a fetch client (`<thread>-consumer`) with connections of the worker's
// own, so the worker encodes, sends, fetches and decodes for itself instead of the main thread
// doing it for every thread (issue 20). Under exactly_once_v2 the thread's transactional producer
// lives here too, as each Kafka Streams StreamThread owns its eos-v2 producer: InitProducerId
// (fencing), the transactional Produce requests, TxnOffsetCommit at the group coordinator and
// EndTxn all go out from the worker. What a worker is given is a structured-cloneable
// description (Backend#workerClients); group membership, at_least_once commits and admin calls
// stay with the main thread's backend. The worker's clients report unreachable brokers to a tracker of their
// own, whose changes go to the main thread's backend (Backend#reportHealth) to be merged into
// its health().
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import type { BackendHealth, WorkerClients, WorkerClientsInit } from '../../backend-spi.js';
import { UnknownTopicError } from '../../errors.js';
import { KafkaCluster } from './client/cluster.js';
import { HealthTracker } from './client/health.js';
import { EARLIEST, LATEST, listOffsets, listOffsetsRetriable } from './kafka-admin.js';
import { KafkaFetcher } from './kafka-fetch.js';
import { kafkaTransientFailure } from './kafka-transient.js';
import { idempotentProducer } from './kafka-produce.js';
import { transactionSettingsOf } from './client-configs.js';
import { KafkaTransactionalProducer } from './kafka-transactional-producer.js';

/** How long closing waits for the abort of a transaction the thread left open. */
const CLOSE_ABORT_MS = 5_000;

/** A TLS option that crossed a MessagePort (Buffers arrive as Uint8Arrays). */
const asBuffer = <T>(v: T): T | Buffer =>
  v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v;

function tlsOf(init: WorkerClientsInit): TlsConnectionOptions | undefined {
  if (init.tls === undefined) return undefined;
  const out: TlsConnectionOptions = {};
  for (const [k, v] of Object.entries(init.tls))
    (out as Record<string, unknown>)[k] = Array.isArray(v) ? v.map(asBuffer) : asBuffer(v);
  return out;
}

/**
 * Opens the thread's clients (connections are made on first use). `partitionsOf` asks the main
 * thread's backend (a produce needs a topic's partition count once); `onHealth` hears of every
 * change of what the clients cannot reach (an empty report once they are closed).
 */
export function openWorkerClients(
  init: WorkerClientsInit,
  partitionsOf: (topic: string) => Promise<number>,
  onHealth?: (health: BackendHealth) => void,
  logger?: { warn(obj: object, msg?: string): void },
): WorkerClients {
  const tls = tlsOf(init);
  const health = new HealthTracker();
  const stopReporting = onHealth ? health.onChange(onHealth) : () => {};
  const client = (clientId: string) =>
    new KafkaCluster({
      bootstrapServers: init.bootstrapServers,
      clientId,
      ...(tls ? { tls } : {}),
      ...(init.sasl ? { sasl: init.sasl } : {}),
      health,
    });
  const producerCluster = client(`${init.threadName}-producer`);
  const consumerCluster = client(`${init.threadName}-consumer`);
  const counts = new Map<string, number>();
  const partitions = async (topic: string) => {
    let n = counts.get(topic);
    if (n === undefined) counts.set(topic, (n = await partitionsOf(topic)));
    return n;
  };
  const producer = idempotentProducer(producerCluster, partitions);
  /** transactional id → its current producer and that producer's client. */
  const transactional = new Map<
    string,
    { cluster: KafkaCluster; producer: KafkaTransactionalProducer | null }
  >();
  const offsets = (topic: string, at: bigint) =>
    consumerCluster.retrying(
      `listing offsets of ${topic}`,
      () => listOffsets(consumerCluster, topic, at),
      {
        maxAttempts: 30,
        retriable: listOffsetsRetriable,
      },
    );
  const fetcher = new KafkaFetcher(consumerCluster, async (topic, partition) => {
    const low = (await offsets(topic, EARLIEST)).get(partition);
    const high = (await offsets(topic, LATEST)).get(partition);
    if (low === undefined || high === undefined) throw new UnknownTopicError(topic);
    return { earliest: low, latest: high };
  });
  return {
    transientFailure: (error) => kafkaTransientFailure(error, init.bootstrapServers),
    produce: (records, options) => producer.produce(records, options),
    fetchMany: (requests, options) => fetcher.fetchMany(requests, options),
    transactionalProducer: async (transactionalId, options) => {
      transactional.get(transactionalId)?.cluster.close();
      const entry = {
        cluster: client(`${init.threadName}-producer`),
        producer: null as KafkaTransactionalProducer | null,
      };
      transactional.set(transactionalId, entry);
      try {
        entry.producer = await KafkaTransactionalProducer.create(
          entry.cluster,
          transactionalId,
          partitions,
          logger,
          transactionSettingsOf(options?.clientConfig),
        );
        return entry.producer;
      } catch (error) {
        entry.cluster.close();
        if (transactional.get(transactionalId) === entry) transactional.delete(transactionalId);
        throw error;
      }
    },
    close: async () => {
      // A transaction the thread left open (a commit that failed on the way out) would hold back
      // read_committed readers until transaction.timeout.ms: abort it, as the main thread does
      // for the producers it keeps (thread/worker/backend-server.ts).
      const open = [...transactional.values()].flatMap((t) =>
        t.producer !== null && t.producer.state !== 'READY' && t.producer.state !== 'FENCED'
          ? // Closing: a failed abort leaves the transaction to transaction.timeout.ms.
            [t.producer.abortTransaction().catch(() => undefined)]
          : [],
      );
      if (open.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all(open),
          new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_ABORT_MS))),
        ]);
        clearTimeout(timer);
      }
      for (const t of transactional.values()) t.cluster.close();
      transactional.clear();
      producerCluster.close();
      consumerCluster.close();
      stopReporting();
      if (health.health().unreachable.length > 0) onHealth?.({ unreachable: [] });
    },
  };
}
