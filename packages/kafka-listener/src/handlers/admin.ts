// CreateTopics, DeleteTopics, CreatePartitions, DescribeConfigs, IncrementalAlterConfigs: the
// log's topic admin. Replication factors other than 1 (or -1, "the broker's default") cannot
// be honoured by one copy of each log and are refused as Kafka refuses a factor above its
// broker count (INVALID_REPLICATION_FACTOR).
import type {
  CreatePartitionsRequest,
  CreatePartitionsResponseInput,
  CreateTopicsRequest,
  CreateTopicsResponseInput,
  DeleteTopicsRequest,
  DeleteTopicsResponseInput,
  DescribeConfigsRequest,
  DescribeConfigsResponseInput,
  IncrementalAlterConfigsRequest,
  IncrementalAlterConfigsResponseInput,
} from '@streamwright/kafka-protocol';
import type { ListenerContext } from '../context.js';
import { Errors, errorOf, NONE } from '../errors.js';
import { kafkaTopicId, ZERO_TOPIC_ID } from '../topic-ids.js';
import { isServedTopic, topicName } from './topic-lookup.js';

const TOPIC_RESOURCE = 2;
const BROKER_RESOURCE = 4;
const SOURCE_TOPIC = 1;
const SOURCE_DEFAULT = 5;

export async function handleCreateTopics(
  ctx: ListenerContext,
  req: CreateTopicsRequest,
): Promise<CreateTopicsResponseInput> {
  const topics = [];
  for (const t of req.topics) {
    const fail = (code: number, message: string) => ({
      name: t.name,
      topicId: ZERO_TOPIC_ID,
      errorCode: code,
      errorMessage: message,
    });
    if (t.replicationFactor !== -1 && t.replicationFactor !== 1) {
      topics.push(
        fail(
          Errors.INVALID_REPLICATION_FACTOR,
          `Unable to replicate the partition ${t.replicationFactor} time(s): The target replication factor of ${t.replicationFactor} cannot be reached because only 1 broker(s) are registered.`,
        ),
      );
      continue;
    }
    if (t.assignments.length > 0) {
      topics.push(fail(Errors.INVALID_REQUEST, 'replica assignments are not supported (one node)'));
      continue;
    }
    const partitions = t.numPartitions === -1 ? ctx.defaultPartitions : t.numPartitions;
    const config: Record<string, string> = {};
    for (const c of t.configs) if (c.value !== null) config[c.name] = c.value;
    try {
      if (!isServedTopic(t.name))
        throw Object.assign(new Error(`${t.name} is reserved`), { reserved: true });
      if (req.validateOnly) {
        if (ctx.log.hasTopic(t.name))
          topics.push(fail(Errors.TOPIC_ALREADY_EXISTS, `Topic '${t.name}' already exists.`));
        else
          topics.push({
            name: t.name,
            errorCode: NONE,
            errorMessage: null,
            numPartitions: partitions,
            replicationFactor: 1,
          });
        continue;
      }
      await ctx.log.createTopics([{ name: t.name, partitions, config }]);
      const d = ctx.log.describeTopic(t.name)!;
      topics.push({
        name: t.name,
        topicId: kafkaTopicId(d.id),
        errorCode: NONE,
        errorMessage: null,
        numPartitions: partitions,
        replicationFactor: 1,
        configs: Object.entries(d.config).map(([name, value]) => ({
          name,
          value,
          readOnly: false,
          configSource: name in d.overrides ? SOURCE_TOPIC : SOURCE_DEFAULT,
          isSensitive: false,
        })),
      });
    } catch (err) {
      if ((err as { reserved?: boolean }).reserved)
        topics.push(fail(Errors.INVALID_TOPIC_EXCEPTION, (err as Error).message));
      else {
        const e = errorOf(err);
        topics.push(fail(e.code, e.message));
      }
    }
  }
  return { throttleTimeMs: 0, topics };
}

export async function handleDeleteTopics(
  ctx: ListenerContext,
  req: DeleteTopicsRequest,
): Promise<DeleteTopicsResponseInput> {
  const wanted =
    req.topics.length > 0
      ? req.topics.map((t) => ({ name: t.name, topicId: t.topicId }))
      : req.topicNames.map((name) => ({ name, topicId: ZERO_TOPIC_ID }));
  const responses = [];
  for (const w of wanted) {
    const name = topicName(ctx.log, w.name, w.topicId);
    if (name === null) {
      responses.push({
        name: w.name,
        topicId: w.topicId,
        errorCode: w.name ? Errors.UNKNOWN_TOPIC_OR_PARTITION : Errors.UNKNOWN_TOPIC_ID,
        errorMessage: 'This server does not host this topic-partition.',
      });
      continue;
    }
    const topicId = kafkaTopicId(ctx.log.describeTopic(name)!.id);
    try {
      // Kafka forgets the committed offsets of deleted partitions with them.
      const stale = ctx.log
        .listGroups()
        .map((g) => ({
          groupId: g.groupId,
          tps: ctx.log.committedOffsets(g.groupId).filter((c) => c.topic === name),
        }))
        .filter((g) => g.tps.length > 0);
      await ctx.log.deleteTopics([name]);
      for (const g of stale) await ctx.log.deleteOffsets(g.groupId, g.tps);
      ctx.producers.forgetTopic(name);
      responses.push({ name, topicId, errorCode: NONE, errorMessage: null });
    } catch (err) {
      const e = errorOf(err);
      responses.push({ name, topicId, errorCode: e.code, errorMessage: e.message });
    }
  }
  return { throttleTimeMs: 0, responses };
}

export async function handleCreatePartitions(
  ctx: ListenerContext,
  req: CreatePartitionsRequest,
): Promise<CreatePartitionsResponseInput> {
  const results = [];
  for (const t of req.topics) {
    try {
      if (!isServedTopic(t.name) || !ctx.log.hasTopic(t.name)) {
        results.push({
          name: t.name,
          errorCode: Errors.UNKNOWN_TOPIC_OR_PARTITION,
          errorMessage: `unknown topic ${t.name}`,
        });
        continue;
      }
      const current = ctx.log.describeTopic(t.name)!.partitions;
      if (t.count <= current) {
        results.push({
          name: t.name,
          errorCode: Errors.INVALID_PARTITIONS,
          errorMessage: `Topic currently has ${current} partitions, which is higher than the requested ${t.count}.`,
        });
        continue;
      }
      if (!req.validateOnly) await ctx.log.createPartitions(t.name, t.count);
      results.push({ name: t.name, errorCode: NONE, errorMessage: null });
    } catch (err) {
      const e = errorOf(err);
      results.push({ name: t.name, errorCode: e.code, errorMessage: e.message });
    }
  }
  return { throttleTimeMs: 0, results };
}

export function handleDescribeConfigs(
  ctx: ListenerContext,
  req: DescribeConfigsRequest,
): DescribeConfigsResponseInput {
  const results = req.resources.map((r) => {
    const base = { resourceType: r.resourceType, resourceName: r.resourceName };
    if (r.resourceType === BROKER_RESOURCE) {
      // Broker configs clients look at (Kafka Streams and the admin tools read a few).
      const configs: Record<string, string> = {
        'broker.id': String(ctx.identity.identity.nodeId),
        'auto.create.topics.enable': String(ctx.autoCreateTopics),
        'num.partitions': String(ctx.defaultPartitions),
        'default.replication.factor': '1',
        'min.insync.replicas': '1',
        'transaction.state.log.replication.factor': '1',
        'offsets.topic.replication.factor': '1',
      };
      return {
        ...base,
        errorCode: NONE,
        errorMessage: null,
        configs: Object.entries(configs)
          .filter(([k]) => r.configurationKeys === null || r.configurationKeys.includes(k))
          .map(([name, value]) => ({
            name,
            value,
            readOnly: true,
            configSource: SOURCE_DEFAULT,
            isSensitive: false,
            synonyms: [],
          })),
      };
    }
    if (r.resourceType !== TOPIC_RESOURCE)
      return {
        ...base,
        errorCode: Errors.INVALID_REQUEST,
        errorMessage: `resource type ${r.resourceType} is not served (topics and brokers are)`,
        configs: [],
      };
    const d = isServedTopic(r.resourceName) ? ctx.log.describeTopic(r.resourceName) : null;
    if (!d)
      return {
        ...base,
        errorCode: Errors.UNKNOWN_TOPIC_OR_PARTITION,
        errorMessage: `Topic ${r.resourceName} does not exist.`,
        configs: [],
      };
    return {
      ...base,
      errorCode: NONE,
      errorMessage: null,
      configs: Object.entries(d.config)
        .filter(([k]) => r.configurationKeys === null || r.configurationKeys.includes(k))
        .map(([name, value]) => ({
          name,
          value,
          readOnly: false,
          configSource: name in d.overrides ? SOURCE_TOPIC : SOURCE_DEFAULT,
          isSensitive: false,
          synonyms: [],
        })),
    };
  });
  return { throttleTimeMs: 0, results };
}

// IncrementalAlterConfigs' operations (Kafka's AlterConfigOp.OpType).
const OP_SET = 0;
const OP_DELETE = 1;
const OP_APPEND = 2;
const OP_SUBTRACT = 3;
/** The list-typed topic configs (APPEND / SUBTRACT apply to these only, as in Kafka). */
const LIST_CONFIGS = new Set([
  'cleanup.policy',
  'leader.replication.throttled.replicas',
  'follower.replication.throttled.replicas',
]);

class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * IncrementalAlterConfigs for topics: SET / DELETE overrides, APPEND / SUBTRACT on list configs,
 * applied (or with validateOnly only checked) by the log, all of a resource's changes or none.
 * Broker configs are the runtime's options here and cannot be altered over the protocol.
 */
export async function handleIncrementalAlterConfigs(
  ctx: ListenerContext,
  req: IncrementalAlterConfigsRequest,
): Promise<IncrementalAlterConfigsResponseInput> {
  const responses = [];
  for (const r of req.resources) {
    const base = { resourceType: r.resourceType, resourceName: r.resourceName };
    try {
      if (r.resourceType === BROKER_RESOURCE)
        throw new RequestError(
          Errors.INVALID_REQUEST,
          'broker configs are fixed on this listener (they are the runtime options of streamwright serve)',
        );
      if (r.resourceType !== TOPIC_RESOURCE)
        throw new RequestError(
          Errors.INVALID_REQUEST,
          `resource type ${r.resourceType} is not served (topics are)`,
        );
      const d = isServedTopic(r.resourceName) ? ctx.log.describeTopic(r.resourceName) : null;
      if (!d)
        throw new RequestError(
          Errors.UNKNOWN_TOPIC_OR_PARTITION,
          `Topic ${r.resourceName} does not exist.`,
        );
      const { set, remove } = topicChanges(r.configs, d.config);
      await ctx.log.alterTopicConfig(r.resourceName, set, remove, {
        validateOnly: req.validateOnly,
      });
      if (!req.validateOnly)
        ctx.logger.info(
          { topic: r.resourceName, set, remove },
          'kafka listener: topic config altered',
        );
      responses.push({ ...base, errorCode: NONE, errorMessage: null });
    } catch (err) {
      const e = err instanceof RequestError ? err : errorOf(err);
      responses.push({ ...base, errorCode: e.code, errorMessage: e.message });
    }
  }
  return { throttleTimeMs: 0, responses };
}

/** A resource's operations as the overrides to set and the keys to remove. */
function topicChanges(
  configs: IncrementalAlterConfigsRequest['resources'][number]['configs'],
  current: Record<string, string>,
): { set: Record<string, string>; remove: string[] } {
  const seen = new Set<string>();
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const c of configs) {
    if (seen.has(c.name))
      throw new RequestError(
        Errors.INVALID_REQUEST,
        `Error due to duplicate config keys: ${c.name}`,
      );
    seen.add(c.name);
    const isList = LIST_CONFIGS.has(c.name);
    const listOf = (v: string | undefined) =>
      (v ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '');
    switch (c.configOperation) {
      case OP_SET:
        if (c.value === null)
          throw new RequestError(
            Errors.INVALID_REQUEST,
            `Null value not supported for : ${c.name}`,
          );
        set[c.name] = c.value;
        break;
      case OP_DELETE:
        remove.push(c.name);
        break;
      case OP_APPEND:
      case OP_SUBTRACT: {
        const what = c.configOperation === OP_APPEND ? 'append' : 'subtract';
        if (!isList)
          throw new RequestError(
            Errors.INVALID_CONFIG,
            `Config value ${what} is not allowed for config key: ${c.name}`,
          );
        const now = listOf(current[c.name]);
        const values = listOf(c.value ?? '');
        const next =
          c.configOperation === OP_APPEND
            ? [...now, ...values.filter((v) => !now.includes(v))]
            : now.filter((v) => !values.includes(v));
        set[c.name] = next.join(',');
        break;
      }
      default:
        throw new RequestError(
          Errors.INVALID_REQUEST,
          `Unknown config operation ${c.configOperation} for ${c.name}`,
        );
    }
  }
  return { set, remove };
}
