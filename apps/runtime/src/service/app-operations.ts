// Operating a deployed application from outside it, as Kafka's tools do: consumer lag of its
// group (kafka-consumer-groups --describe) and the application reset (kafka-streams-application-
// reset plus KafkaStreams#cleanUp). Both work from the plan and the backend alone.
import { rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Backend } from '@streamwright/engine';
import type { Plan } from '@streamwright/topology-model';

export interface PartitionLag {
  topic: string;
  partition: number;
  /** A repartition topic of the application (read by its own group, like an input). */
  internal: boolean;
  /** The group's committed offset (the next record it will read), or null if none yet. */
  committed: number | null;
  /** The partition's end offset (the offset the next record appended gets). */
  end: number;
  /** end − committed; null without a committed offset (Kafka's tools show "-"). */
  lag: number | null;
}

/** A store's changelog topic and how many records it holds (what a restore from scratch reads). */
export interface ChangelogDepth {
  store: string;
  topic: string;
  /** Sum over partitions of end − log start (compaction and deletes make it an upper bound). */
  records: number;
}

export interface AppLag {
  applicationId: string;
  at: number;
  partitions: PartitionLag[];
  /** Sum of the known lags. */
  total: number;
  /** The stores' changelog topics that exist, in store order. */
  changelogs: ChangelogDepth[];
}

export interface ResetReport {
  applicationId: string;
  /** Input partitions and the offset committed for them (their earliest offset). */
  inputOffsets: { topic: string; partition: number; offset: number }[];
  /** Internal topics deleted (repartition and changelog topics of the application). */
  deletedTopics: string[];
  /** The local state directory removed, `<state dir>/<application.id>`. */
  stateDir: string;
  /** Nothing was changed: this is what a reset would do. */
  dryRun: boolean;
}

/**
 * Topics the application's consumer group reads: every source topic of every task-generating
 * sub-topology. Global tables are read without a group (Kafka's global consumer), so they have
 * no lag here.
 */
export function groupTopicsOf(plan: Plan): { topic: string; internal: boolean }[] {
  const internal = new Set(plan.internalTopics.map((t) => t.name));
  const seen = new Map<string, boolean>();
  for (const sub of plan.subtopologies) {
    if ('global' in sub && sub.global === true) continue;
    for (const topic of sub.sourceTopics) seen.set(topic, internal.has(topic));
  }
  return [...seen].map(([topic, isInternal]) => ({ topic, internal: isInternal })).sort(byName);
}

/** Every topic the application reads or writes, internal ones included. */
export function topicsUsedBy(plan: Plan): Set<string> {
  const used = new Set<string>();
  for (const sub of plan.subtopologies) {
    for (const t of sub.sourceTopics) used.add(t);
    for (const t of sub.sinkTopics) used.add(t);
  }
  for (const t of plan.internalTopics) used.add(t.name);
  for (const s of plan.stores) if (s.changelogTopic) used.add(s.changelogTopic);
  return used;
}

export async function computeLag(backend: Backend, plan: Plan): Promise<AppLag> {
  const partitions: PartitionLag[] = [];
  for (const { topic, internal } of groupTopicsOf(plan)) {
    const description = await backend.describeTopic(topic);
    if (!description) continue; // not created yet (the app creates internal topics on start)
    const tps = description.offsets.map((o) => ({ topic, partition: o.partition }));
    const committed = await backend.committedOffsets(plan.applicationId, tps);
    for (const range of description.offsets) {
      const offset = committed.get(`${topic}:${range.partition}`) ?? null;
      partitions.push({
        topic,
        partition: range.partition,
        internal,
        committed: offset,
        end: range.latest,
        lag: offset === null ? null : Math.max(0, range.latest - offset),
      });
    }
  }
  const total = partitions.reduce((sum, p) => sum + (p.lag ?? 0), 0);
  const changelogs: ChangelogDepth[] = [];
  for (const store of plan.stores) {
    if (!store.changelogTopic) continue;
    const description = await backend.describeTopic(store.changelogTopic);
    if (!description) continue;
    const records = description.offsets.reduce((sum, o) => sum + (o.latest - o.earliest), 0);
    changelogs.push({ store: store.name, topic: store.changelogTopic, records });
  }
  return { applicationId: plan.applicationId, at: Date.now(), partitions, total, changelogs };
}

/**
 * Kafka's StreamsResetter#matchesInternalTopicFormat: the suffixes Kafka Streams gives the topics
 * it creates. With the `<application.id>-` prefix, such a topic belongs to the application.
 */
export function isInternalTopicOf(applicationId: string, topic: string): boolean {
  if (!topic.startsWith(`${applicationId}-`)) return false;
  return (
    topic.endsWith('-changelog') ||
    topic.endsWith('-repartition') ||
    topic.endsWith('-subscription-registration-topic') ||
    topic.endsWith('-subscription-response-topic') ||
    /.+-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-\d+-topic$/.test(topic) ||
    /.+-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-\d+-topic$/.test(topic)
  );
}

/**
 * The application reset, for an application that is not running: input topics' committed
 * offsets go to their earliest offset, internal topics' to zero before the topics are deleted
 * (as StreamsResetter does), and the local state directory is removed (KafkaStreams#cleanUp).
 * Output topics are left alone.
 */
export async function resetApplication(
  backend: Backend,
  plan: Plan,
  stateDir: string,
  dryRun = false,
): Promise<ResetReport> {
  const applicationId = plan.applicationId;
  const topics = await backend.listTopics();
  const internalTopics = topics.filter((t) => isInternalTopicOf(applicationId, t.name));
  const internalNames = new Set(internalTopics.map((t) => t.name));
  const inputOffsets: ResetReport['inputOffsets'] = [];
  for (const { topic } of groupTopicsOf(plan)) {
    if (internalNames.has(topic)) continue;
    const description = topics.find((t) => t.name === topic);
    if (!description) continue;
    for (const range of description.offsets) {
      inputOffsets.push({ topic, partition: range.partition, offset: range.earliest });
    }
  }
  const internalOffsets = internalTopics.flatMap((t) =>
    t.offsets.map((o) => ({ topic: t.name, partition: o.partition, offset: 0 })),
  );
  const deletedTopics = internalTopics.map((t) => t.name).sort();
  const appStateDir = appStateDirOf(stateDir, applicationId);
  if (!dryRun) {
    const offsets = [...inputOffsets, ...internalOffsets];
    if (offsets.length > 0) await backend.commitOffsets(applicationId, offsets);
    if (deletedTopics.length > 0) await backend.deleteTopics(deletedTopics);
    await rm(appStateDir, { recursive: true, force: true });
  }
  return { applicationId, inputOffsets, deletedTopics, stateDir: appStateDir, dryRun };
}

/** `<state dir>/<application.id>`, Kafka Streams' layout; never the state dir itself or above it. */
export function appStateDirOf(stateDir: string, applicationId: string): string {
  const dir = resolve(stateDir, applicationId);
  if (dirname(dir) !== resolve(stateDir)) {
    throw new Error(`application.id ${JSON.stringify(applicationId)} is not a directory name`);
  }
  return dir;
}

function byName(a: { topic: string }, b: { topic: string }): number {
  return a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0;
}
