// A worker thread's Backend: calls go to the main thread's backend through a MessagePort
// (backend-server.ts), once per poll, flush and commit, never per record. The parts: the port's
// calls and answers (port-calls.ts), fetches that read segment files in this thread when the
// backend hands them out (remote-fetch.ts), produces encoded here when the backend takes encoded
// batches (batch-producer.ts), group membership (remote-groups.ts) and exactly_once_v2's
// producer (remote-transactions.ts; with Backend#workerClients the thread's own clients). Which
// of these apply is what the backend declares (backend-capabilities.ts), never its name.
import type { MessagePort } from 'node:worker_threads';
import type { ProducerTopicMetadata } from '@streamwright/log/encoder';
import type {
  Backend,
  FetchRequest,
  FetchResponse,
  GroupMember,
  IsolationLevel,
  JoinGroupOptions,
  NewTopicSpec,
  CompressionType,
  ProduceCallOptions,
  ProduceRecord,
  StoredRecord,
  TopicDescription,
  TopicPartition,
  TransactionalProducer,
  TransactionalProducerOptions,
  FetchManyOptions,
  TransientFailure,
  WorkerClients,
  WorkerClientsInit,
} from '../../backend-spi.js';
import { openWorkerClients } from '../../backends/worker-clients.js';
import { errorMessage, UnknownTopicError } from '../../errors.js';
import { BatchProducer } from './batch-producer.js';
import { PortCalls } from './port-calls.js';
import type { BackendCapabilities } from './backend-capabilities.js';
import type { BackendResults } from './protocol.js';
import { RemoteFetch } from './remote-fetch.js';
import { RemoteGroups } from './remote-groups.js';
import { remoteTransactionalProducer, toAcks } from './remote-transactions.js';
import { packProduce } from './wire.js';

export interface BackendClientOptions {
  /** The main thread's backend's Backend#kind (reported, never branched on). */
  kind: Backend['kind'];
  capabilities: BackendCapabilities;
  /** The thread's own produce and fetch clients' settings (Backend#workerClients). */
  clients?: WorkerClientsInit;
  logger?: { warn(obj: object, msg?: string): void };
}

export class BackendClient implements Backend {
  readonly kind: Backend['kind'];
  readonly #capabilities: BackendCapabilities;
  readonly #calls: PortCalls;
  readonly #fetches: RemoteFetch;
  readonly #producer: BatchProducer;
  readonly #groups: RemoteGroups;
  /** The thread's own clients (produce, fetch), when the backend gave their settings. */
  readonly #own: WorkerClients | null;
  #nextProducer = 1;
  #closed = false;

  constructor(port: MessagePort, options: BackendClientOptions) {
    const { clients, logger } = options;
    this.kind = options.kind;
    this.#capabilities = options.capabilities;
    this.#calls = new PortCalls(port, (m) => this.#groups.onMessage(m));
    this.#fetches = new RemoteFetch(this.#calls, options.capabilities.readPlans);
    this.#producer = new BatchProducer(this.#calls);
    this.#groups = new RemoteGroups(this.#calls);
    this.#own = clients
      ? openWorkerClients(
          clients,
          async (topic) => {
            const d = await this.describeTopic(topic);
            if (d === null) throw new UnknownTopicError(topic);
            return d.partitions;
          },
          (health) =>
            void this.#calls
              .call({ op: 'health', threadName: clients.threadName, health })
              .catch((error: unknown) =>
                // Only the status' waitingFor misses this report; the next change sends another.
                logger?.warn(
                  { thread: clients.threadName, err: errorMessage(error) },
                  "could not report the stream thread clients' health",
                ),
              ),
          logger,
        )
      : null;
  }

  /**
   * The thread's own clients' transient errors; the main thread's arrive as
   * BackendUnavailableError already (port-calls.ts).
   */
  transientFailure(error: unknown): TransientFailure | null {
    return this.#own === null ? null : this.#own.transientFailure(error);
  }

  /**
   * The main thread's metadata of a topic not cached here yet, synchronously (null: no such
   * topic; undefined: cannot say). Set by the worker; without it records are not checked.
   */
  set lookupMetadata(lookup: ((topic: string) => ProducerTopicMetadata | null | undefined) | null) {
    this.#producer.lookupMetadata = lookup;
  }

  createTopics(topics: NewTopicSpec[]): Promise<void> {
    return this.#calls.call({ op: 'createTopics', topics }) as Promise<void>;
  }

  deleteTopics(names: string[]): Promise<void> {
    return this.#calls.call({ op: 'deleteTopics', names }) as Promise<void>;
  }

  listTopics(): Promise<TopicDescription[]> {
    return this.#calls.call({ op: 'listTopics' }) as Promise<TopicDescription[]>;
  }

  describeTopic(name: string): Promise<TopicDescription | null> {
    return this.#calls.call({ op: 'describeTopic', name }) as Promise<TopicDescription | null>;
  }

  checkRecord(record: ProduceRecord): Error | null {
    // Only a backend taking encoded batches gives metadata to judge by (Kafka's broker refuses at
    // produce time).
    if (!this.#capabilities.encodedBatches) return null;
    return this.#producer.checkRecord(record);
  }

  produce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]> {
    if (this.#own) return this.#own.produce(records, options);
    if (!this.#capabilities.encodedBatches)
      return this.#producePacked(records, options?.compression);
    return this.#producer.produce(records, options);
  }

  /** For a backend that encodes itself (Kafka's): the records packed into one moved buffer. */
  async #producePacked(
    records: ProduceRecord[],
    compression: CompressionType | undefined,
  ): Promise<{ partition: number; offset: number }[]> {
    if (records.length === 0) return [];
    const packed = packProduce(records);
    return toAcks(
      (await this.#calls.call(
        compression === undefined
          ? { op: 'produce', packed }
          : { op: 'produce', packed, compression },
        [packed.buffer],
      )) as BackendResults['produce'],
    );
  }

  async fetch(
    tp: TopicPartition,
    offset: number,
    maxRecords: number,
    maxWaitMs: number,
    options?: { isolationLevel?: IsolationLevel },
  ): Promise<StoredRecord[]> {
    if (this.#own) {
      const [response] = await this.#own.fetchMany([{ ...tp, offset }], {
        maxRecords,
        maxWaitMs,
        ...options,
      });
      return response?.records ?? [];
    }
    return this.#fetches.fetch(tp, offset, maxRecords, maxWaitMs, options);
  }

  fetchMany(requests: FetchRequest[], options: FetchManyOptions): Promise<FetchResponse[]> {
    if (this.#own) return this.#own.fetchMany(requests, options);
    return this.#fetches.fetchMany(requests, options);
  }

  joinGroup(groupId: string, topics: string[], options?: JoinGroupOptions): Promise<GroupMember> {
    return this.#groups.joinGroup(groupId, topics, options);
  }

  transactionalProducer(
    transactionalId: string,
    options?: TransactionalProducerOptions,
  ): Promise<TransactionalProducer> {
    // On Kafka the thread owns its transactional producer, as each Kafka Streams StreamThread does.
    if (this.#own) return this.#own.transactionalProducer(transactionalId, options);
    return remoteTransactionalProducer(
      this.#calls,
      this.#producer,
      this.#nextProducer++,
      transactionalId,
      options,
    );
  }

  commitOffsets(
    groupId: string,
    offsets: { topic: string; partition: number; offset: number }[],
  ): Promise<void> {
    return this.#calls.call({ op: 'commitOffsets', groupId, offsets }) as Promise<void>;
  }

  async committedOffsets(groupId: string, tps: TopicPartition[]): Promise<Map<string, number>> {
    const entries = (await this.#calls.call({
      op: 'committedOffsets',
      groupId,
      tps: tps.map((tp) => ({ topic: tp.topic, partition: tp.partition })),
    })) as BackendResults['committedOffsets'];
    return new Map(entries);
  }

  /** Detaches this thread; the backend itself belongs to the main thread and stays open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#own?.close();
    this.#fetches.close();
    this.#calls.close();
  }
}
