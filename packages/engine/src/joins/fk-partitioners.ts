// Where a foreign-key join's internal records go (KTableImpl#doJoinOnForeignKey, Kafka Streams
// 4.1): subscriptions by TableJoined's `otherPartitioner` over the foreign key, else by the
// producer's default partitioner; responses by TableJoined's `partitioner` over the left key,
// else back to the partition the subscription came from (SubscriptionWrapper#primaryPartition).
// A registered partitioner returning a list must return exactly one partition (Kafka's
// getPartition check); null / undefined means the default partitioner.
import type { PlannedNode } from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { EngineRecord } from '../processor/record.js';
import type { PartitionerRegistry, StreamPartitioner } from '../processor/registries.js';
import type { SubscriptionResponse } from './fk-wire.js';

/** The partition for a sink's record, or undefined for the default partitioner. */
export type SinkPartition = (
  ctx: ProcessorContext,
  topic: string,
  record: EngineRecord,
) => number | undefined;

export function fkSinkPartition(
  sink: PlannedNode,
  byName: ReadonlyMap<string, PlannedNode>,
  registry: PartitionerRegistry | undefined,
): SinkPartition | null {
  const parent = byName.get(sink.predecessors[0] ?? '');
  if (parent === undefined) return null;
  const config = (parent.modelNode?.config ?? {}) as Record<string, unknown>;
  const lookup = (field: 'partitioner' | 'otherPartitioner'): StreamPartitioner | null => {
    const name = config[field];
    if (typeof name !== 'string') return null;
    const found = registry?.[name];
    if (found === undefined)
      throw new EngineError(
        'INVALID_PLAN',
        `${parent.modelNode?.id ?? parent.name}: ${field} "${name}" is not registered (register it in the partitioner registry given when the runtime starts)`,
      );
    return found;
  };
  switch (parent.op) {
    case 'fk-subscription-send': {
      const other = lookup('otherPartitioner');
      return other === null ? null : (ctx, topic, record) => call(other, ctx, topic, record);
    }
    case 'fk-subscription-join':
    case 'fk-foreign-join': {
      const own = lookup('partitioner');
      if (own !== null) return (ctx, topic, record) => call(own, ctx, topic, record);
      return (_ctx, _topic, record) =>
        (record.value as SubscriptionResponse).primaryPartition ?? undefined;
    }
    default:
      return null;
  }
}

function call(
  partitioner: StreamPartitioner,
  ctx: ProcessorContext,
  topic: string,
  record: EngineRecord,
): number | undefined {
  const numPartitions = ctx.partitionsFor(topic);
  if (numPartitions === undefined)
    throw new EngineError(
      'PROCESSING_FAILED',
      `Could not get partition information for topic ${topic}`,
    );
  // TableJoined's partitioners are StreamPartitioner<K, Void>: they see the key only.
  const chosen = partitioner(topic, record.key, null, numPartitions);
  if (chosen === null || chosen === undefined) return undefined;
  const list = typeof chosen === 'number' ? [chosen] : chosen;
  if (list.length !== 1)
    throw new EngineError(
      'PROCESSING_FAILED',
      'The partitions returned by StreamPartitioner#partitions method when used for FK join should be a singleton set',
    );
  const partition = list[0]!;
  if (!Number.isInteger(partition) || partition < 0 || partition >= numPartitions)
    throw new EngineError(
      'PROCESSING_FAILED',
      `Invalid partition given with record: ${partition} is not in the range [0...${numPartitions}).`,
    );
  return partition;
}
