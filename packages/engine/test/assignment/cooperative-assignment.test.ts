// The leader's side of the cooperative protocol (StreamsPartitionAssignor#addClientAssignments):
// a task whose partitions another member still owns is held back from its new owner, which is
// asked for a follow-up rebalance at once (nextProbingRebalanceMs 0) and keeps a standby of it
// meanwhile when its instance had a copy; once the old owner revoked it, the next assignment
// hands it over. And the consumer protocol carries the owned partitions (subscription v1).
import { describe, expect, it } from 'vitest';
import type { AssignorMember, MemberAssignment } from '../../src/backend-spi.js';
import { LATEST_OFFSET } from '../../src/assignment/client-state.js';
import { StreamsAssignor } from '../../src/assignment/streams-assignor.js';
import {
  decodeAssignmentInfo,
  encodeSubscriptionInfo,
} from '../../src/assignment/streams-user-data.js';
import {
  decodeSubscription,
  encodeSubscription,
} from '../../src/backends/kafka/client/consumer-protocol.js';

const P1 = '10000000-0000-4000-8000-000000000001';
const P2 = '20000000-0000-4000-8000-000000000002';
const tp = (partition: number) => ({ topic: 'in', partition });

function assignor(now: number) {
  return new StreamsAssignor({
    applicationId: 'app',
    subtopologies: [{ id: 0, sourceTopics: ['in'], changelogTopics: ['app-store-changelog'] }],
    processId: P1,
    stateDir: undefined,
    configs: {
      numStandbyReplicas: 0,
      maxWarmupReplicas: 2,
      acceptableRecoveryLag: 10_000,
      probingRebalanceIntervalMs: 600_000,
    },
    // Short changelogs: every instance counts as caught up, so one task moves to the new one.
    endOffsets: () =>
      Promise.resolve(
        new Map([
          [0, 100],
          [1, 100],
        ]),
      ),
    logger: { info: () => {}, warn: () => {}, error: () => {} } as never,
    now: () => now,
  });
}

function member(
  memberId: string,
  processId: string,
  sums: Record<string, number>,
  owned: number[],
  userEndPoint?: string,
): AssignorMember {
  return {
    memberId,
    topics: ['in'],
    userData: encodeSubscriptionInfo({
      processId,
      taskOffsetSums: sums,
      ...(userEndPoint ? { userEndPoint } : {}),
    }),
    ownedPartitions: owned.map(tp),
  };
}

const info = (a: MemberAssignment | undefined) => decodeAssignmentInfo(a?.userData ?? null)!;
const counts = new Map([['in', 2]]);

describe('cooperative assignment (owned partitions)', () => {
  it('holds a moved task back until its owner revoked it, then hands it over', async () => {
    // m1 (instance P1) runs both tasks; m2 (instance P2) joins with a copy of both stores.
    const first = await assignor(1_000).assignWithUserData(
      [
        member('m1', P1, { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET }, [0, 1]),
        member('m2', P2, { '0_0': 100, '0_1': 100 }, []),
      ],
      counts,
    );
    const m1 = first.get('m1')!;
    const m2 = first.get('m2')!;
    // One task stays with m1; the other is m2's, but m1 still owns it: m2 gets no partition yet,
    // a standby of it (P2 had its state) and a follow-up rebalance at once.
    expect(m1.partitions).toHaveLength(1);
    expect(m2.partitions).toEqual([]);
    const kept = m1.partitions[0]!.partition;
    const moving = `0_${1 - kept}`;
    expect(info(m1).activeTasks).toEqual([`0_${kept}`]);
    expect(info(m1).nextProbingRebalanceMs).toBe(-1);
    expect(info(m2)).toEqual({
      activeTasks: [],
      standbyTasks: [moving],
      nextProbingRebalanceMs: 0,
    });

    // m1 revoked it and rejoins owning only the other partition: m2 gets the task now.
    const second = await assignor(2_000).assignWithUserData(
      [
        member('m1', P1, { [`0_${kept}`]: LATEST_OFFSET, [moving]: 100 }, [kept]),
        member('m2', P2, { [moving]: 100, [`0_${kept}`]: 100 }, []),
      ],
      counts,
    );
    expect(second.get('m1')!.partitions).toEqual([tp(kept)]);
    expect(second.get('m2')!.partitions).toEqual([tp(1 - kept)]);
    expect(info(second.get('m2')).nextProbingRebalanceMs).toBe(-1);
  });

  it('gives no temporary standby to an instance without a copy of the store', async () => {
    const first = await assignor(1_000).assignWithUserData(
      [
        member('m1', P1, { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET }, [0, 1]),
        member('m2', P2, {}, []),
      ],
      counts,
    );
    expect(first.get('m2')!.partitions).toEqual([]);
    expect(info(first.get('m2'))).toEqual({
      activeTasks: [],
      standbyTasks: [],
      nextProbingRebalanceMs: 0,
    });
  });

  it('tells every member the tasks of each application.server; a held task is on none', async () => {
    const first = await assignor(1_000).assignWithUserData(
      [
        member('m1', P1, { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET }, [0, 1], 'a:1'),
        member('m2', P2, { '0_0': 100, '0_1': 100 }, [], 'b:2'),
      ],
      counts,
    );
    const kept = first.get('m1')!.partitions[0]!.partition;
    const hosts = {
      'a:1': { active: [`0_${kept}`], standby: [] },
      'b:2': { active: [], standby: [`0_${1 - kept}`] },
    };
    // The moving task has no active host until the follow-up: queries say it is migrating.
    expect(info(first.get('m1')).hosts).toEqual(hosts);
    expect(info(first.get('m2')).hosts).toEqual(hosts);
  });

  it('an eager member (no owned partitions) is assigned at once', async () => {
    const eager = await assignor(1_000).assignWithUserData(
      [
        member('m1', P1, { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET }, []),
        member('m2', P2, {}, []),
      ],
      counts,
    );
    expect(eager.get('m1')!.partitions).toHaveLength(1);
    expect(eager.get('m2')!.partitions).toHaveLength(1);
  });

  it('subscriptions carry the owned partitions (ConsumerProtocolSubscription v1)', () => {
    const bytes = encodeSubscription(['in'], new Uint8Array([1, 2]), [tp(3), tp(1)]);
    expect(bytes[1]).toBe(1);
    const decoded = decodeSubscription(bytes);
    expect(decoded.topics).toEqual(['in']);
    expect([...decoded.userData!]).toEqual([1, 2]);
    expect(decoded.ownedPartitions).toEqual([tp(3), tp(1)]);
  });
});
