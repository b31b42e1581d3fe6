// The messages between a worker's stream thread and the main thread. Data-heavy operations are
// batched (one fetch request per poll, one produce per flush, one commit per commit) and carry
// their records packed (wire.ts); everything else is small and structured-cloned.
import type { ProducerTopicMetadata } from '@streamwright/log/encoder';
import type { ClientConfig } from '@streamwright/topology-model';
import type {
  BackendHealth,
  CompressionType,
  FetchRequest,
  IsolationLevel,
  BelowLogStart,
  NewTopicSpec,
  TopicDescription,
  TopicPartition,
} from '../../backend-spi.js';
import type { StateGroupKind, TaskInfo } from '../../metrics/metrics-registry.js';
import type { ReadPlan } from '@streamwright/log/reader';
import type { PackedFetch, PackedProduce } from './wire.js';

export type BackendCall =
  | {
      op: 'createTopics';
      topics: NewTopicSpec[];
    }
  | { op: 'deleteTopics'; names: string[] }
  | { op: 'listTopics' }
  | { op: 'describeTopic'; name: string }
  /** The topics' metadata for the worker's BatchEncoder (embedded backend only). */
  | { op: 'producerMetadata'; topics: string[] }
  /**
   * Records packed in one buffer (wire.ts), for a backend that takes records rather than the
   * embedded log's encoded batches (Kafka: its producer encodes them).
   */
  | { op: 'produce'; packed: PackedProduce; compression?: CompressionType }
  /** Record batches encoded in the worker, per partition: the main thread validates and appends. */
  | { op: 'produceBatches'; parts: { topic: string; partition: number; batches: Uint8Array }[] }
  | {
      op: 'fetchMany';
      requests: FetchRequest[];
      maxRecords: number;
      maxWaitMs: number;
      isolationLevel?: IsolationLevel;
      belowLogStart?: BelowLogStart;
    }
  /**
   * Where the worker reads these partitions' segment files itself (long-polls like a fetch). A
   * backend without files to hand out refuses it (UNSUPPORTED_CONFIG): the worker then fetches.
   */
  | {
      op: 'readPlans';
      requests: FetchRequest[];
      maxWaitMs: number;
      isolationLevel?: IsolationLevel;
      belowLogStart?: BelowLogStart;
    }
  /** `member`: chosen by the worker, so group events that arrive before the reply find their listener. */
  | {
      op: 'joinGroup';
      member: number;
      groupId: string;
      topics: string[];
      assignor: 'range' | 'roundrobin' | 'app';
      clientId?: string;
      /** The main consumer's settings (JoinGroupOptions.clientConfig). */
      clientConfig?: ClientConfig;
      rebalanceProtocol?: 'eager' | 'cooperative';
    }
  | { op: 'leaveGroup'; member: number }
  | {
      op: 'commitOffsets';
      groupId: string;
      offsets: { topic: string; partition: number; offset: number }[];
    }
  | { op: 'committedOffsets'; groupId: string; tps: TopicPartition[] }
  /** What the thread's own clients (Backend#workerClients) cannot reach, on every change. */
  | { op: 'health'; threadName: string; health: BackendHealth }
  // exactly_once_v2: a transactional producer per stream thread, kept on the main thread under the
  // number the worker chose (calls on one producer are answered in order).
  | {
      op: 'txnInit';
      producer: number;
      transactionalId: string;
      /** The application's producer settings (structured-cloneable). */
      clientConfig?: ClientConfig;
    }
  | { op: 'txnBegin'; producer: number }
  | { op: 'txnSend'; producer: number; packed: PackedProduce; compression?: CompressionType }
  // Batches the worker encoded as the producer's transactional batches (id and epoch from txnInit).
  | {
      op: 'txnSendBatches';
      producer: number;
      parts: { topic: string; partition: number; batches: Uint8Array }[];
    }
  | {
      op: 'txnSendOffsets';
      producer: number;
      offsets: { topic: string; partition: number; offset: number }[];
      groupId: string;
      member?: { memberId: string; generation: number };
    }
  | { op: 'txnCommit'; producer: number }
  | { op: 'txnAbort'; producer: number };

/** Results per call, as they travel (maps as entries, produce results as typed arrays). */
export interface BackendResults {
  createTopics: undefined;
  deleteTopics: undefined;
  listTopics: TopicDescription[];
  describeTopic: TopicDescription | null;
  produce: { partitions: Int32Array; offsets: Float64Array };
  producerMetadata: [string, ProducerTopicMetadata][];
  /** Each part's base offset, and the batches' memory moved back for the worker's encoder. */
  produceBatches: { offsets: Float64Array; returned: Uint8Array[] };
  fetchMany: PackedFetch;
  readPlans: ReadPlan[];
  joinGroup: { memberId: string; generation: number; assignment: TopicPartition[] };
  leaveGroup: undefined;
  commitOffsets: undefined;
  committedOffsets: [string, number][];
  /** The producer's id and epoch when its backend takes encoded batches (txnSendBatches). */
  txnInit: { producerId: number; epoch: number } | undefined;
  txnBegin: undefined;
  txnSend: { partitions: Int32Array; offsets: Float64Array };
  txnSendBatches: BackendResults['produceBatches'];
  txnSendOffsets: undefined;
  txnCommit: undefined;
  txnAbort: undefined;
  health: undefined;
}

/** Worker → main. */
export type ClientMessage =
  | ({ kind: 'call'; id: number } & BackendCall)
  /** A poll woken up early (the consumer's wakeup()): answer the fetch `id` now. */
  | { kind: 'abort'; id: number }
  /** The stream thread finished handling revocation `revokeId` (committed and closed its tasks). */
  | { kind: 'revoked'; revokeId: number };

export interface WireError {
  name: string;
  message: string;
  code?: string;
  retriable?: boolean;
  /** BACKEND_UNAVAILABLE: the unreachable brokers and why (a BackendUnavailableError's). */
  brokers?: string[];
  reason?: string;
}

/** Main → worker. */
export type ServerMessage =
  | { kind: 'result'; id: number; ok: true; value: unknown }
  | { kind: 'result'; id: number; ok: false; error: WireError }
  | {
      kind: 'assigned';
      member: number;
      partitions: TopicPartition[];
      generation: number;
      /** The assignor's user data for the member (Kafka Streams' AssignmentInfo), or null. */
      userData: Uint8Array | null;
    }
  | { kind: 'revoke'; member: number; revokeId: number; partitions: TopicPartition[] };

/** Synchronous metric-slot requests (see slot-channel.ts). */
export type SlotRequest =
  | { group: 'thread'; name: string }
  | { group: 'task'; taskId: string; info: TaskInfo | undefined }
  | { group: 'node'; taskId: string; nodeName: string }
  | { group: 'state'; kind: StateGroupKind; taskId: string; name: string; scope: string }
  /** Not a metric group: a topic's producer metadata, for the worker's per-record check. */
  | { group: 'topic'; topic: string };
