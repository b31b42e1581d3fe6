// Deploy-time topic creation. Kafka Streams refuses to start when a source topic is missing; on
// the embedded backend Streamwright creates what is missing instead: the declared topics with
// their partitions and configs, undeclared referenced topics with one partition, and the internal
// topics (changelogs get the task count of their sub-topology, as Kafka Streams sizes them).
import type { Plan, ResolvedStreamsConfig, Topology } from '@streamwright/topology-model';
import type { EngineLogger } from '../api.js';
import type { Backend, NewTopicSpec } from '../backend-spi.js';
import { deadLetterTopicOf } from './config.js';
import { enforceCopartitioning } from '../joins/copartition.js';

type NewTopic = NewTopicSpec;

export async function ensureTopics(
  backend: Backend,
  topology: Topology,
  plan: Plan,
  logger: EngineLogger,
  /** replication.factor and the `topic.` defaults of internal topics (Kafka Streams' own). */
  streams: Pick<ResolvedStreamsConfig, 'replicationFactor' | 'topicDefaults'> = {
    replicationFactor: -1,
    topicDefaults: {},
  },
): Promise<void> {
  const existing = new Map((await backend.listTopics()).map((t) => [t.name, t.partitions]));
  const create = async (topics: NewTopic[]): Promise<void> => {
    const missing = topics.filter((t) => !existing.has(t.name));
    if (missing.length === 0) return;
    await backend.createTopics(missing);
    for (const t of missing) existing.set(t.name, t.partitions);
    logger.info(
      { topics: missing.map((t) => `${t.name}(${t.partitions})`) },
      'created missing topics',
    );
  };

  await create(
    topology.topics.map((t) => ({
      name: t.name,
      partitions: t.partitions,
      config: Object.fromEntries(Object.entries(t.config).map(([k, v]) => [k, String(v)])),
    })),
  );

  const internal = new Set(plan.internalTopics.map((t) => t.name));
  const referenced = new Set<string>();
  for (const sub of plan.subtopologies)
    for (const t of [...sub.sourceTopics, ...sub.sinkTopics])
      if (!internal.has(t)) referenced.add(t);
  // The dead-letter topic (Kafka expects it to exist; here it is created like any undeclared topic).
  const dlq = deadLetterTopicOf(topology.application.config);
  if (dlq !== null) referenced.add(dlq);
  const undeclared = [...referenced].filter((t) => !existing.has(t));
  if (undeclared.length > 0)
    logger.warn({ topics: undeclared }, 'creating undeclared topics with 1 partition');
  await create(undeclared.map((name) => ({ name, partitions: 1 })));

  // Internal topics sized below, before they exist: a sub-topology reading a repartition topic
  // has as many tasks as that topic has partitions (its stores' changelogs too).
  const sized = new Map<string, number>();
  const taskCount = (sub: number): number => {
    const s = plan.subtopologies.find((x) => x.id === sub);
    return Math.max(1, ...(s?.sourceTopics ?? []).map((t) => existing.get(t) ?? sized.get(t) ?? 0));
  };
  // Joins: repartition topics get their co-partition group's count; mismatched user topics fail.
  const repartitionTopics = new Set(
    plan.internalTopics
      .filter((t) => t.kind === 'repartition' && t.partitions === null)
      .map((t) => t.name),
  );
  const copartitioned = enforceCopartitioning(
    plan.copartitionGroups ?? [],
    (t) => existing.get(t),
    (t) => repartitionTopics.has(t),
  );
  const internals: NewTopic[] = [];
  for (const t of plan.internalTopics) {
    let partitions = t.partitions ?? copartitioned.get(t.name) ?? null;
    if (partitions === null) {
      const store = plan.stores.find((s) => s.changelogTopic === t.name);
      const reader = plan.subtopologies.find((s) => s.sourceTopics.includes(t.name));
      const writer = plan.subtopologies.find((s) => s.sinkTopics.includes(t.name));
      // A repartition topic gets the task count of the sub-topology writing it (Kafka Streams'
      // RepartitionTopics: the max partitions of the upstream source topics).
      partitions = taskCount(
        store?.subtopology ??
          (t.kind === 'repartition' ? writer?.id : undefined) ??
          reader?.id ??
          writer?.id ??
          0,
      );
    }
    sized.set(t.name, partitions);
    internals.push({
      name: t.name,
      partitions,
      config: internalTopicConfig(t, plan, streams.topicDefaults, backend),
      internal: true,
      ...(streams.replicationFactor !== -1 ? { replicationFactor: streams.replicationFactor } : {}),
    });
  }
  await create(internals);
}

/**
 * An internal topic's configs as Kafka Streams' InternalTopicConfig#properties builds them:
 * library defaults < the `topic.`-prefixed configs < the topic's own (a store's
 * Materialized#withLoggingEnabled configs); a windowed changelog's retention.ms and a versioned
 * one's min.compaction.lag.ms, computed from the store, win over `topic.` unless the store's own
 * configs set them. `topic.` configs the backend does not apply are left out (reported at start).
 */
export function internalTopicConfig(
  topic: Plan['internalTopics'][number],
  plan: Plan,
  topicDefaults: Readonly<Record<string, string>>,
  backend?: Pick<Backend, 'appliesTopicConfig'>,
): Record<string, string> {
  const store = plan.stores.find((s) => s.changelogTopic === topic.name);
  const own = store?.changelogConfig ?? {};
  const defaults = Object.fromEntries(
    Object.entries(topicDefaults).filter(([key]) => backend?.appliesTopicConfig?.(key) ?? true),
  );
  const merged: Record<string, string> = { ...topic.config, ...defaults, ...own };
  const computed =
    store === undefined
      ? []
      : store.versioned !== undefined
        ? ['min.compaction.lag.ms']
        : store.retentionMs !== undefined
          ? ['retention.ms']
          : [];
  for (const key of computed)
    if (!(key in own) && topic.config[key] !== undefined) merged[key] = topic.config[key];
  return merged;
}
