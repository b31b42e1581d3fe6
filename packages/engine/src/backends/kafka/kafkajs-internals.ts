// kafkajs 2.2.4 has no public API for what a Kafka Streams consumer does: fetch explicit offsets of
// assigned partitions, run the group protocol with the revocation callback awaited before
// rejoining (eager), and commit with the member's generation. Its consumer fetches on its own and
// calls back per batch; the building blocks underneath — the Cluster (metadata, leader and
// coordinator lookup) and its Brokers (one method per protocol request, with request encoding,
// version negotiation and error decoding) — are what its own consumer uses. kafkajs is pinned at
// 2.2.4 (unmaintained since 2023, so these internals are frozen); this file is the only place
// that reaches them, and types the few calls made.
import type kafkajs from 'kafkajs';

type Kafka = InstanceType<typeof kafkajs.Kafka>;

/** A decoded record of a RecordBatch (v2), as kafkajs' fetch response gives it. */
export interface RawMessage {
  offset: string;
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | Buffer[] | undefined>;
  isControlRecord?: boolean;
}

export interface RawPartitionData {
  partition: number;
  errorCode: number;
  highWatermark: string;
  lastStableOffset?: string;
  abortedTransactions?: { producerId: string; firstOffset: string }[];
  messages: RawMessage[];
}

export interface FetchTopicRequest {
  topic: string;
  partitions: { partition: number; fetchOffset: string; maxBytes: number }[];
}

export interface Broker {
  fetch(request: {
    replicaId?: number;
    isolationLevel: number;
    maxWaitTime: number;
    minBytes: number;
    maxBytes: number;
    topics: FetchTopicRequest[];
  }): Promise<{ responses: { topicName: string; partitions: RawPartitionData[] }[] }>;
  joinGroup(request: {
    groupId: string;
    sessionTimeout: number;
    rebalanceTimeout: number;
    memberId: string;
    protocolType: string;
    groupProtocols: { name: string; metadata: Buffer }[];
  }): Promise<{
    generationId: number;
    groupProtocol: string;
    leaderId: string;
    memberId: string;
    members: { memberId: string; memberMetadata: Buffer }[];
  }>;
  syncGroup(request: {
    groupId: string;
    generationId: number;
    memberId: string;
    groupAssignment: { memberId: string; memberAssignment: Buffer }[];
  }): Promise<{ memberAssignment: Buffer }>;
  heartbeat(request: {
    groupId: string;
    groupGenerationId: number;
    memberId: string;
  }): Promise<unknown>;
  leaveGroup(request: { groupId: string; memberId: string }): Promise<unknown>;
  offsetCommit(request: {
    groupId: string;
    groupGenerationId: number;
    memberId: string;
    topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
  }): Promise<{
    responses: { topic: string; partitions: { partition: number; errorCode: number }[] }[];
  }>;
  offsetFetch(request: {
    groupId: string;
    topics: { topic: string; partitions: { partition: number }[] }[];
  }): Promise<{
    responses: {
      topic: string;
      partitions: { partition: number; offset: string; errorCode: number }[];
    }[];
  }>;
}

export interface Cluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  refreshMetadata(): Promise<void>;
  addMultipleTargetTopics(topics: string[]): Promise<void>;
  /** nodeId → partitions it leads. */
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(node: { nodeId: string }): Promise<Broker>;
  findGroupCoordinator(group: { groupId: string }): Promise<Broker>;
  findTopicPartitionMetadata(topic: string): { partitionId: number }[];
}

/**
 * A Cluster configured like the client's own (brokers, client id, timeouts, retries, logger),
 * through the factory the Kafka client keeps under a private symbol for its producers and
 * consumers.
 */
export function createCluster(kafka: Kafka): Cluster {
  const symbol = Object.getOwnPropertySymbols(kafka).find(
    (s) => s.description === 'private:Kafka:createCluster',
  );
  if (symbol === undefined) throw new Error('kafkajs: no cluster factory (not kafkajs 2.2.4?)');
  const factory = (kafka as unknown as Record<symbol, (o: object) => Cluster>)[symbol]!;
  return factory({ allowAutoTopicCreation: false, metadataMaxAge: 300_000 });
}

/** kafkajs' protocol errors carry Kafka's error name in `type` (e.g. REBALANCE_IN_PROGRESS). */
export function kafkaErrorType(error: unknown): string | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : undefined;
}
