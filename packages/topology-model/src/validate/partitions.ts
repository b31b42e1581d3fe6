// Partition counts and topic names as the application will find them at start (issue 23): a join
// whose topics are not co-partitioned (declared counts, or the counts of topics that already
// exist, which deploy never changes), a repartition node whose fixed count breaks a join, and a
// topic named like one of the application's own internal topics.
import { resolveCopartitioning, copartitionMessage } from '../plan/copartition.js';
import type { Plan } from '../plan-types.js';
import type { Topology } from '../schema.js';
import { formatPath, type ValidationIssue } from './issues.js';

export function checkPartitions(
  topology: Topology,
  plan: Plan,
  owners: readonly (string | undefined)[],
  existing: Readonly<Record<string, number>>,
  issues: ValidationIssue[],
): void {
  const declared = new Map(topology.topics.map((t) => [t.name, t.partitions]));
  const flexible = new Set<string>();
  const fixedRepartition = new Map<string, number>();
  for (const t of plan.internalTopics) {
    if (t.kind !== 'repartition') continue;
    if (t.partitions === null) flexible.add(t.name);
    else fixedRepartition.set(t.name, t.partitions);
  }
  const has = (topic: string): boolean => Object.prototype.hasOwnProperty.call(existing, topic);
  const partitionsOf = (topic: string): number | undefined =>
    (has(topic) ? existing[topic] : undefined) ??
    declared.get(topic) ??
    fixedRepartition.get(topic);
  const { mismatches } = resolveCopartitioning(plan.copartitionGroups ?? [], partitionsOf, (t) =>
    flexible.has(t),
  );
  // the model node whose planned nodes include the repartition topic's sink
  const repartitionNode = (topic: string): string | undefined => {
    const sink = plan.subtopologies
      .flatMap((sub) => sub.nodes)
      .find((n) => n.role === 'sink' && n.topic === topic)?.name;
    return Object.entries(plan.nodeNames).find(([, names]) => sink && names.includes(sink))?.[0];
  };
  for (const mismatch of mismatches) {
    const owner = owners[mismatch.group];
    const index = topology.nodes.findIndex((n) => n.id === owner);
    const described = mismatch.counts.map(({ topic, partitions }) => {
      const d = declared.get(topic);
      if (has(topic) && d !== undefined && d !== partitions)
        return `"${topic}" has ${partitions} (it exists with ${partitions}; the ${d} declared are not applied to an existing topic)`;
      if (has(topic)) return `"${topic}" has ${partitions} (as it exists)`;
      if (fixedRepartition.has(topic))
        return `"${topic}" has ${partitions} (fixed by repartition node "${repartitionNode(topic) ?? '?'}")`;
      return `"${topic}" has ${partitions} (declared)`;
    });
    const largest = Math.max(...mismatch.counts.map((c) => c.partitions));
    const existingOnes = mismatch.counts.filter((c) => has(c.topic)).map((c) => c.topic);
    const declaredOnes = mismatch.counts.filter((c) => !has(c.topic) && declared.has(c.topic));
    const fixes = [
      declaredOnes.length > 0
        ? `declare ${declaredOnes.map((c) => `"${c.topic}"`).join(' and ')} with the same count as the other side`
        : null,
      existingOnes.length > 0
        ? `delete and recreate ${existingOnes.map((t) => `"${t}"`).join(' and ')} with the count you need (an existing topic keeps its count)`
        : null,
      `put a repartition node with partitions ${largest} before the join on the side with fewer`,
    ].filter((f): f is string => f !== null);
    const issue: ValidationIssue = {
      path: index >= 0 ? `nodes[${index}]` : 'topics',
      code: 'topics_not_copartitioned',
      message: `a join needs the topics of both sides to have the same number of partitions: ${described.join(', ')} — the app would fail at start (${copartitionMessage(mismatch)})`,
      fix: fixes.join('; or '),
    };
    if (owner !== undefined) issue.nodeId = owner;
    issues.push(issue);
  }

  // Internal topics are `<application.id>-<name>-repartition|changelog`: a user topic with such a
  // name would be read and written as both.
  const internal = new Map(plan.internalTopics.map((t) => [t.name, t]));
  topology.topics.forEach((t, i) => {
    const clash = internal.get(t.name);
    if (!clash) return;
    const store = plan.stores.find((s) => s.changelogTopic === t.name)?.name;
    issues.push({
      path: formatPath(['topics', i, 'name']),
      code: 'topic_clash',
      message:
        clash.kind === 'changelog'
          ? `topic "${t.name}" is the name of the changelog of store "${store ?? '?'}" (<application.id>-<store>-changelog): the store's backup and this topic would be one topic`
          : `topic "${t.name}" is the name of one of the application's repartition topics (<application.id>-<name>-repartition)`,
      fix:
        clash.kind === 'changelog'
          ? `rename the topic, or name the store differently (its node's store field)`
          : 'rename the topic, or give the repartitioning node another name',
    });
  });
}
