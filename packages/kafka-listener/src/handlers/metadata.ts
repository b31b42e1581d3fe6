// Metadata, DescribeCluster: one node (this listener), which leads every partition. Leader
// epochs are -1 (unknown), so clients skip OffsetsForLeaderEpoch validation: a single copy of
// each log never diverges.
import type {
  DescribeClusterResponseInput,
  MetadataRequest,
  MetadataResponseInput,
  MetadataResponseMetadataResponseTopicInput,
} from '@streamwright/kafka-protocol';
import type { ListenerContext } from '../context.js';
import { Errors, errorOf, NONE } from '../errors.js';
import { kafkaTopicId, ZERO_TOPIC_ID } from '../topic-ids.js';
import { describeServed, isServedTopic } from './topic-lookup.js';

function topicMetadata(
  ctx: ListenerContext,
  name: string,
): MetadataResponseMetadataResponseTopicInput {
  const d = describeServed(ctx.log, name);
  if (!d) return { errorCode: Errors.UNKNOWN_TOPIC_OR_PARTITION, name, partitions: [] };
  const node = ctx.identity.identity.nodeId;
  return {
    errorCode: NONE,
    name: d.name,
    topicId: kafkaTopicId(d.id),
    isInternal: false,
    partitions: Array.from({ length: d.partitions }, (_, i) => ({
      errorCode: NONE,
      partitionIndex: i,
      leaderId: node,
      leaderEpoch: -1,
      replicaNodes: [node],
      isrNodes: [node],
      offlineReplicas: [],
    })),
    topicAuthorizedOperations: -2147483648,
  };
}

export async function handleMetadata(
  ctx: ListenerContext,
  req: MetadataRequest,
  version: number,
): Promise<MetadataResponseInput> {
  const node = ctx.identity.identity.nodeId;
  let topics: MetadataResponseMetadataResponseTopicInput[];
  if (req.topics === null) {
    topics = ctx.log
      .listTopics()
      .filter((t) => isServedTopic(t.name))
      .map((t) => topicMetadata(ctx, t.name));
  } else {
    topics = [];
    for (const t of req.topics) {
      if (t.name === null || t.name === '') {
        const d = ctx.log.listTopics().find((x) => kafkaTopicId(x.id) === t.topicId);
        topics.push(
          d
            ? topicMetadata(ctx, d.name)
            : {
                errorCode: Errors.UNKNOWN_TOPIC_ID,
                name: null,
                topicId: t.topicId,
                partitions: [],
              },
        );
        continue;
      }
      // Metadata v0-3 always auto-create; v4+ when the client allows it.
      const allow = version < 4 || req.allowAutoTopicCreation;
      if (!ctx.log.hasTopic(t.name) && ctx.autoCreateTopics && allow && isServedTopic(t.name)) {
        try {
          await ctx.log.createTopics([{ name: t.name, partitions: ctx.defaultPartitions }], {
            ifNotExists: true,
          });
          ctx.logger.info({ topic: t.name }, 'kafka listener: auto-created a topic');
        } catch (err) {
          const e = errorOf(err);
          topics.push({ errorCode: e.code, name: t.name, topicId: ZERO_TOPIC_ID, partitions: [] });
          continue;
        }
      }
      topics.push(topicMetadata(ctx, t.name));
    }
  }
  return {
    throttleTimeMs: 0,
    brokers: [{ nodeId: node, host: ctx.advertised.host, port: ctx.advertised.port, rack: null }],
    clusterId: ctx.identity.identity.clusterId,
    controllerId: node,
    topics,
    clusterAuthorizedOperations: -2147483648,
  };
}

export function handleDescribeCluster(ctx: ListenerContext): DescribeClusterResponseInput {
  const node = ctx.identity.identity.nodeId;
  return {
    throttleTimeMs: 0,
    errorCode: NONE,
    errorMessage: null,
    endpointType: 1,
    clusterId: ctx.identity.identity.clusterId,
    controllerId: node,
    brokers: [{ brokerId: node, host: ctx.advertised.host, port: ctx.advertised.port, rack: null }],
    clusterAuthorizedOperations: -2147483648,
  };
}
