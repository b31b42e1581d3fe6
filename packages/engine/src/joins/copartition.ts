// Kafka Streams' CopartitionedTopicsEnforcer at start. The rule itself lives in topology-model
// (resolveCopartitioning), which validation applies before deploy with the same counts.
import { copartitionMessage, resolveCopartitioning } from '@streamwright/topology-model';
import { EngineError } from '../errors.js';

/**
 * Partition counts for the repartition topics of each co-partition group.
 * @throws EngineError `Invalid topology: Topics not co-partitioned: [{a=2, b=3}]`
 */
export function enforceCopartitioning(
  groups: readonly (readonly string[])[],
  partitionsOf: (topic: string) => number | undefined,
  isRepartitionTopic: (topic: string) => boolean,
): Map<string, number> {
  const { forced, mismatches } = resolveCopartitioning(groups, partitionsOf, isRepartitionTopic);
  const first = mismatches[0];
  if (first) throw new EngineError('INVALID_PLAN', copartitionMessage(first));
  return forced;
}
