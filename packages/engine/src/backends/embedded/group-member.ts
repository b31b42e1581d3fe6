// A consumer-group member of the log seen through the engine's GroupMember interface. The log's
// groups already follow Kafka's eager protocol (revocations awaited before reassignment), so this
// is a change of shape only.
import type { Log } from '@streamwright/log';
import type { GroupMember, JoinGroupOptions, TopicPartition } from '../../backend-spi.js';

export async function joinGroup(
  log: Log,
  groupId: string,
  topics: string[],
  options?: JoinGroupOptions,
): Promise<GroupMember> {
  const listener = options?.listener;
  const member = await log.joinGroup(groupId, {
    topics,
    ...(options?.clientId !== undefined ? { clientId: options.clientId } : {}),
    // The engine's PartitionAssignor has the log's Assignor shape (name + assign), so it plugs in as is.
    ...(options?.assignor !== undefined ? { assignor: options.assignor } : {}),
    ...(listener?.onPartitionsRevoked
      ? { onRevoked: (revoked: TopicPartition[]) => listener.onPartitionsRevoked!(revoked) }
      : {}),
    ...(listener?.onPartitionsAssigned
      ? { onAssigned: (assigned: TopicPartition[]) => listener.onPartitionsAssigned!(assigned) }
      : {}),
  });
  return {
    memberId: member.memberId,
    generation: () => member.generation,
    assignment: () => member.assignment(),
    onAssignment: (l) => void member.onAssignment(l),
    onRevocation: (l) => void member.onRevocation(l),
    leave: () => member.leave(),
  };
}
