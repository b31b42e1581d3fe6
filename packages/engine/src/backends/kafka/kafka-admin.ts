// The backend's admin requests, as Kafka's Admin client sends them: Metadata (topic names,
// partition counts), CreateTopics (with configs), DeleteTopics, DescribeConfigs (a topic's own
// settings), ListOffsets (earliest, latest, by timestamp) to each partition's leader. Every call
// is retried through what a retry can fix (client/cluster.ts `retrying`): a lost connection, a
// leader still being elected.
import type { KafkaCluster } from './client/cluster.js';
import { errorType, KafkaConnectionError, type KafkaApiError } from './client/errors.js';
import { protocolError } from './client/protocol.js';

/** ListOffsets' special timestamps. */
export const EARLIEST = -2n;
export const LATEST = -1n;
/** DescribeConfigs' resource type of a topic, and the source of a topic's own setting. */
const TOPIC_RESOURCE = 2;
const TOPIC_CONFIG_SOURCE = 1;
const TOPIC_ALREADY_EXISTS = 36;
const ADMIN_TIMEOUT_MS = 30_000;

export interface NewTopic {
  name: string;
  partitions: number;
  config?: Record<string, string | number>;
  /** Kafka Streams' replication.factor of an internal topic; -1 or absent: `replicationFactor`. */
  replicationFactor?: number;
}

/** The names of the cluster's topics. */
export async function listTopicNames(cluster: KafkaCluster): Promise<string[]> {
  const answer = await cluster.metadata(null);
  return answer.topics
    .filter((t) => t.errorCode === 0 && t.name !== null && t.name !== undefined)
    .map((t) => t.name as string);
}

/**
 * CreateTopics; a topic that exists already (another instance made it a moment ago) is not an
 * error. Returns the other failures by topic.
 */
export async function createTopics(
  cluster: KafkaCluster,
  topics: readonly NewTopic[],
  replicationFactor: number | undefined,
): Promise<{ name: string; error: KafkaApiError }[]> {
  const connection = await cluster.any();
  const answer = await connection.send('CreateTopics', {
    topics: topics.map((t) => ({
      name: t.name,
      numPartitions: t.partitions,
      // The topic's own (replication.factor of internal topics), else the backend's option,
      // else -1: the broker's default.replication.factor.
      replicationFactor:
        t.replicationFactor !== undefined && t.replicationFactor !== -1
          ? t.replicationFactor
          : (replicationFactor ?? -1),
      assignments: [],
      configs: Object.entries(t.config ?? {}).map(([name, value]) => ({
        name,
        value: String(value),
      })),
    })),
    timeoutMs: ADMIN_TIMEOUT_MS,
    validateOnly: false,
  });
  return answer.topics
    .filter((t) => t.errorCode !== 0 && t.errorCode !== TOPIC_ALREADY_EXISTS)
    .map((t) => ({
      name: t.name,
      error: protocolError(
        t.errorCode,
        { topic: t.name, api: 'CreateTopics', principal: cluster.principal },
        t.errorMessage ?? undefined,
      ),
    }));
}

export async function deleteTopics(cluster: KafkaCluster, names: readonly string[]): Promise<void> {
  const connection = await cluster.any();
  const answer = await connection.send('DeleteTopics', {
    topics: [],
    topicNames: [...names],
    timeoutMs: ADMIN_TIMEOUT_MS,
  });
  for (const r of answer.responses)
    if (r.errorCode !== 0 && r.errorCode !== 3 /* UNKNOWN_TOPIC_OR_PARTITION: gone already */)
      throw protocolError(
        r.errorCode,
        { topic: r.name ?? '', api: 'DeleteTopics', principal: cluster.principal },
        r.errorMessage ?? undefined,
      );
}

/** A topic's own settings (not the broker's defaults), as Kafka's describe lists them. */
export async function topicConfig(
  cluster: KafkaCluster,
  topic: string,
): Promise<Record<string, string>> {
  const connection = await cluster.any();
  const answer = await connection.send('DescribeConfigs', {
    resources: [{ resourceType: TOPIC_RESOURCE, resourceName: topic, configurationKeys: null }],
    includeSynonyms: false,
    includeDocumentation: false,
  });
  const config: Record<string, string> = {};
  for (const r of answer.results) {
    if (r.errorCode !== 0)
      throw protocolError(
        r.errorCode,
        { topic, api: 'DescribeConfigs', principal: cluster.principal },
        r.errorMessage ?? undefined,
      );
    for (const c of r.configs)
      if (c.configSource === TOPIC_CONFIG_SOURCE && c.value !== null) config[c.name] = c.value;
  }
  return config;
}

/**
 * ListOffsets for every partition of `topic` at `timestamp` (EARLIEST, LATEST or epoch ms), one
 * request per leader; partition → offset (-1 when no record is at or after the timestamp).
 * Throws UNKNOWN_TOPIC_OR_PARTITION / LEADER_NOT_AVAILABLE (retriable) while leaders are missing.
 */
/**
 * ListOffsets errors that pass once leaders are elected or metadata travels (KRaft), as Java's
 * consumer retries them. OFFSET_NOT_AVAILABLE: a new leader's high watermark has not caught up
 * after an election (seen when a partition leader is killed on a 3-broker cluster).
 */
const LIST_OFFSETS_TRANSIENT = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'UNKNOWN_LEADER_EPOCH',
  'FENCED_LEADER_EPOCH',
  'OFFSET_NOT_AVAILABLE',
]);

/** Whether a failed `listOffsets` is worth another attempt (a lost connection or a moving leader). */
export function listOffsetsRetriable(e: unknown): boolean {
  return e instanceof KafkaConnectionError || LIST_OFFSETS_TRANSIENT.has(errorType(e) ?? '');
}

export async function listOffsets(
  cluster: KafkaCluster,
  topic: string,
  timestamp: bigint,
): Promise<Map<number, number>> {
  const metadata = await cluster.topic(topic);
  if (metadata === undefined) throw protocolError(3, { topic });
  const byLeader = new Map<number, number[]>();
  for (const p of metadata.partitions) {
    if (p === undefined) continue;
    if (p.leader < 0) {
      cluster.invalidate();
      throw protocolError(5, { topic, partition: p.partition });
    }
    let list = byLeader.get(p.leader);
    if (!list) byLeader.set(p.leader, (list = []));
    list.push(p.partition);
  }
  const out = new Map<number, number>();
  await Promise.all(
    [...byLeader].map(async ([leader, partitions]) => {
      const connection = await cluster.node(leader);
      const answer = await connection.send('ListOffsets', {
        replicaId: -1,
        isolationLevel: 0,
        topics: [
          {
            name: topic,
            partitions: partitions.map((partitionIndex) => ({
              partitionIndex,
              currentLeaderEpoch: -1,
              timestamp,
            })),
          },
        ],
      });
      for (const t of answer.topics)
        for (const p of t.partitions) {
          if (p.errorCode !== 0) {
            cluster.invalidate();
            throw protocolError(p.errorCode, {
              topic,
              partition: p.partitionIndex,
              api: 'ListOffsets',
              principal: cluster.principal,
            });
          }
          out.set(p.partitionIndex, Number(p.offset));
        }
    }),
  );
  return out;
}
