// Group membership of a worker's consumers: the join goes through the port (the main thread
// applies the app's task assignor), and the main thread's assignments and revocations come back
// as messages, forwarded to the member's rebalance listener; a revocation is answered once the
// listeners are done (the thread has committed and closed the revoked tasks). The member's
// rebalanceInProgress does not cross the port: a worker's commit refused because the group is
// rebalancing is kept for the next commit (StreamThread#commit).
import type {
  GroupMember,
  JoinGroupOptions,
  RebalanceListener,
  TopicPartition,
} from '../../backend-spi.js';
import type { GroupMessage, PortCalls } from './port-calls.js';
import type { BackendCall, BackendResults } from './protocol.js';

interface RemoteMember {
  listener: RebalanceListener | undefined;
  assignmentListeners: ((assigned: TopicPartition[], userData?: Uint8Array | null) => void)[];
  revocationListeners: ((revoked: TopicPartition[]) => Promise<void> | void)[];
  assignment: TopicPartition[];
  generation: number;
}

export class RemoteGroups {
  readonly #calls: PortCalls;
  readonly #members = new Map<number, RemoteMember>();
  #nextMember = 1;

  constructor(calls: PortCalls) {
    this.#calls = calls;
  }

  async joinGroup(
    groupId: string,
    topics: string[],
    options?: JoinGroupOptions,
  ): Promise<GroupMember> {
    const assignor = options?.assignor;
    const no = this.#nextMember++;
    const state: RemoteMember = {
      listener: options?.listener,
      assignmentListeners: [],
      revocationListeners: [],
      assignment: [],
      generation: 0,
    };
    this.#members.set(no, state);
    const call: BackendCall = {
      op: 'joinGroup',
      member: no,
      groupId,
      topics,
      // A custom assignor object cannot cross threads: 'app' stands for the application's own.
      assignor: assignor === undefined ? 'range' : typeof assignor === 'string' ? assignor : 'app',
    };
    if (options?.clientId !== undefined) call.clientId = options.clientId;
    if (options?.clientConfig !== undefined) call.clientConfig = options.clientConfig;
    if (options?.rebalanceProtocol !== undefined)
      call.rebalanceProtocol = options.rebalanceProtocol;
    let joined: BackendResults['joinGroup'];
    try {
      joined = (await this.#calls.call(call)) as BackendResults['joinGroup'];
    } catch (error) {
      this.#members.delete(no);
      throw error;
    }
    if (state.generation === 0) {
      state.assignment = joined.assignment;
      state.generation = joined.generation;
    }
    return {
      memberId: joined.memberId,
      generation: () => state.generation,
      assignment: () => state.assignment.map((tp) => ({ ...tp })),
      onAssignment: (l) => void state.assignmentListeners.push(l),
      onRevocation: (l) => void state.revocationListeners.push(l),
      leave: async () => {
        this.#members.delete(no);
        await this.#calls.call({ op: 'leaveGroup', member: no });
      },
    };
  }

  /** An assignment or revocation from the main thread. */
  onMessage(m: GroupMessage): void {
    switch (m.kind) {
      case 'assigned': {
        const member = this.#members.get(m.member);
        if (!member) return;
        member.assignment = m.partitions;
        member.generation = m.generation;
        member.listener?.onPartitionsAssigned?.(m.partitions, m.userData);
        for (const l of member.assignmentListeners) l(m.partitions, m.userData);
        return;
      }
      case 'revoke': {
        const member = this.#members.get(m.member);
        const done = (): void => this.#calls.post({ kind: 'revoked', revokeId: m.revokeId });
        if (!member) return done();
        const work: (Promise<void> | void)[] = [];
        try {
          work.push(member.listener?.onPartitionsRevoked?.(m.partitions));
          for (const l of member.revocationListeners) work.push(l(m.partitions));
        } finally {
          void Promise.allSettled(work).then(done);
        }
        return;
      }
    }
  }
}
